// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Basic authentication: the header's forms, bcrypt, credentials remembered, checks paced. */
#include <crypt.h>
#include <stdlib.h>
#include <time.h>
#include "exporter/auth.h"
#include "test.h"

/* "Basic " and the base64 of *cred*. */
static const char *basic(const char *cred)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static char out[256];
	size_t len = strlen(cred), n = (size_t)snprintf(out, sizeof(out), "Basic ");

	for (size_t i = 0; i < len; i += 3) {
		unsigned int v = (unsigned char)cred[i] << 16;

		v |= i + 1 < len ? (unsigned char)cred[i + 1] << 8 : 0;
		v |= i + 2 < len ? (unsigned char)cred[i + 2] : 0;
		out[n++] = b64[v >> 18 & 63];
		out[n++] = b64[v >> 12 & 63];
		out[n++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[n++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[n] = '\0';
	return out;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

TEST(basic_auth_checks)
{
	struct crypt_data cd = {};
	char salt[CRYPT_GENSALT_OUTPUT_SIZE], hash[128];
	struct web_user users[1] = { { (char *)"alice", hash } };
	struct web_config w = { NULL, users, 1 };
	struct basic_auth *a;

	/* cost 8: a few milliseconds a check, long enough to see the pacing */
	if (!crypt_gensalt_rn("$2b$", 8, NULL, 0, salt, sizeof(salt)) ||
	    !crypt_rn("open sesame:1", salt, &cd, sizeof(cd))) {
		CHECK(!"bcrypt");
		return;
	}
	snprintf(hash, sizeof(hash), "%.100s", cd.output);
	a = basic_auth__new(&w);
	if (!a) {
		CHECK(a);
		return;
	}
	/* refused before any bcrypt: absent, another scheme, bad base64, no colon */
	CHECK_INT(basic_auth__check(a, NULL), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, "Bearer abc"), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, "Basic"), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, "Basic YWxpY2U6b3Blbi*="), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, "Basic YWxpY2U6eA"), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, basic("alice")), AUTH_DENIED);
	CHECK_INT(basic_auth__check(a, "Basic YWxp Y2U6eA=="), AUTH_DENIED);

	/* the password may hold a colon; the scheme is case-insensitive */
	CHECK_INT(basic_auth__check(a, basic("alice:open sesame:1")), AUTH_OK);
	/* a wrong password right after a check waits its turn */
	CHECK_INT(basic_auth__check(a, basic("alice:wrong")), AUTH_BUSY);
	/* what passed before is remembered: no bcrypt, no wait */
	{
		char field[256];

		snprintf(field, sizeof(field), "bAsIc  %s", basic("alice:open sesame:1") + 6);
		CHECK_INT(basic_auth__check(a, field), AUTH_OK);
	}
	sleep_s(0.5);
	CHECK_INT(basic_auth__check(a, basic("alice:wrong")), AUTH_DENIED);
	sleep_s(0.5);
	/* an unknown user costs a check too, and is refused */
	CHECK_INT(basic_auth__check(a, basic("mallory:open sesame:1")), AUTH_DENIED);
	basic_auth__free(a);
	basic_auth__free(NULL);
}
