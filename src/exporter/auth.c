// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Basic authentication for the exporter. bcrypt is meant to be slow (tens
 * of milliseconds at cost 10), and runs on a server thread: credentials
 * that passed are remembered by their SHA-256, so that a scraper pays once,
 * and the checks that do run are one at a time and at most half the time.
 * An unknown user is checked against a configured hash all the same, so
 * that the time taken does not tell which users exist.
 */
#include <crypt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gnutls/crypto.h>
#include "util/clock.h"
#include "exporter/auth.h"

#define DIGEST_LEN 32
/* "user:password" longer than this is refused unchecked */
#define MAX_CREDENTIALS 1024

struct basic_auth {
	const struct web_config *w;
	pthread_mutex_t lock;		/* the remembered credentials and the pacing */
	unsigned char seen[AUTH_REMEMBERED][DIGEST_LEN];
	size_t nr_seen, next_seen;
	bool checking;
	double next_check;		/* no bcrypt check before this */
};

struct basic_auth *basic_auth__new(const struct web_config *w)
{
	struct basic_auth *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->w = w;
	pthread_mutex_init(&a->lock, NULL);
	return a;
}

void basic_auth__free(struct basic_auth *a)
{
	if (!a)
		return;
	pthread_mutex_destroy(&a->lock);
	explicit_bzero(a->seen, sizeof(a->seen));
	free(a);
}

static int b64_value(char c)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(alphabet, c) : NULL;

	return p ? (int)(p - alphabet) : -1;
}

/* Strict base64 (RFC 4648, padded) of *len* characters; the bytes' count or -1. */
static long b64_decode(const char *s, size_t len, unsigned char *out, size_t size)
{
	size_t n = 0;

	if (len % 4 || len / 4 * 3 > size)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;

		for (int j = 0; j < 4; j++) {
			/* '=' only at the end: "xx==" or "xxx=" */
			if (s[i + j] == '=' && i + 4 == len && j >= 2 && (j == 3 || s[i + 3] == '=')) {
				v[j] = 0;
				pad++;
			} else if ((v[j] = b64_value(s[i + j])) < 0) {
				return -1;
			}
		}
		out[n++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			out[n++] = (unsigned char)(v[1] << 4 | v[2] >> 2);
		if (pad < 1)
			out[n++] = (unsigned char)(v[2] << 6 | v[3]);
	}
	return (long)n;
}

/* "Basic" and the token: the decoded "user:password" in *buf*, its length or -1. */
static long basic_credentials(const char *field, char *buf, size_t size)
{
	const char *tok;
	size_t len;
	long n;

	if (!field || strncasecmp(field, "Basic", 5) || (field[5] != ' ' && field[5] != '\t'))
		return -1;
	tok = field + 5 + strspn(field + 5, " \t");
	len = strcspn(tok, " \t");
	if (tok[len])
		return -1;
	n = b64_decode(tok, len, (unsigned char *)buf, size - 1);
	/* user names have no ':', and neither part a NUL */
	if (n < 0 || memchr(buf, '\0', (size_t)n) || !memchr(buf, ':', (size_t)n))
		return -1;
	buf[n] = '\0';
	return n;
}

/* Compared in time that does not depend on where they differ. */
static bool same_bytes(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	unsigned char d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return !d;
}

static bool remembered(struct basic_auth *a, const unsigned char *d)
{
	bool found = false;

	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; i < a->nr_seen; i++)
		found |= same_bytes(a->seen[i], d, DIGEST_LEN);
	pthread_mutex_unlock(&a->lock);
	return found;
}

/* Called with the lock held. */
static void remember(struct basic_auth *a, const unsigned char *d)
{
	memcpy(a->seen[a->next_seen], d, DIGEST_LEN);
	a->next_seen = (a->next_seen + 1) % AUTH_REMEMBERED;
	if (a->nr_seen < AUTH_REMEMBERED)
		a->nr_seen++;
}

static const struct web_user *find_user(const struct web_config *w, const char *name,
					size_t len)
{
	for (size_t i = 0; i < w->nr_users; i++)
		if (strlen(w->users[i].name) == len && !memcmp(w->users[i].name, name, len))
			return &w->users[i];
	return NULL;
}

static bool bcrypt_matches(const char *password, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	size_t len = strlen(hash);
	bool ok;

	if (!cd)
		return false;
	ok = crypt_rn(password, hash, cd, sizeof(*cd)) && strlen(cd->output) == len &&
	     same_bytes(cd->output, hash, len);
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	return ok;
}

/* Take the right to one bcrypt check now; false when it is not yet time. */
static bool check_begin(struct basic_auth *a)
{
	bool ok;

	pthread_mutex_lock(&a->lock);
	ok = !a->checking && mono_s() >= a->next_check;
	a->checking |= ok;
	pthread_mutex_unlock(&a->lock);
	return ok;
}

static void check_end(struct basic_auth *a, double t0, bool ok, const unsigned char *d)
{
	double t1 = mono_s();

	pthread_mutex_lock(&a->lock);
	a->checking = false;
	a->next_check = t1 + (t1 - t0);
	if (ok)
		remember(a, d);
	pthread_mutex_unlock(&a->lock);
}

enum auth_result basic_auth__check(struct basic_auth *a, const char *authorization)
{
	char cred[MAX_CREDENTIALS + 1];
	unsigned char d[DIGEST_LEN];
	const struct web_user *u;
	enum auth_result ret;
	const char *colon;
	double t0;
	long len;

	len = basic_credentials(authorization, cred, sizeof(cred));
	if (len < 0 || !a->w->nr_users)
		return AUTH_DENIED;
	ret = AUTH_DENIED;
	if (gnutls_hash_fast(GNUTLS_DIG_SHA256, cred, (size_t)len, d))
		goto out;
	ret = AUTH_OK;
	if (remembered(a, d))
		goto out;
	ret = AUTH_BUSY;
	if (!check_begin(a))
		goto out;
	colon = strchr(cred, ':');
	u = find_user(a->w, cred, (size_t)(colon - cred));
	t0 = mono_s();
	ret = bcrypt_matches(colon + 1, u ? u->hash : a->w->users[0].hash) && u ? AUTH_OK
										: AUTH_DENIED;
	check_end(a, t0, ret == AUTH_OK, d);
out:
	explicit_bzero(cred, sizeof(cred));
	return ret;
}
