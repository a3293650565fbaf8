// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --web-config files: what is taken, and every mistake refused with a
 * message naming the file and line. The certificate is a self-signed test
 * certificate made for these tests.
 */
#include <crypt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include "exporter/webconfig.h"
#include "test.h"

static const char cert_pem[] =
	"-----BEGIN CERTIFICATE-----\n"
	"MIIBizCCATGgAwIBAgIUIQ6dru+fQzS38n27y258Xe9WAOcwCgYIKoZIzj0EAwIw\n"
	"GjEYMBYGA1UEAwwPdGR0b3AtdW5pdC10ZXN0MCAXDTI2MTIwMzEyMDA0NFoYDzIx\n"
	"MjYxMTA5MTIwMDQ0WjAaMRgwFgYDVQQDDA90ZHRvcC11bml0LXRlc3QwWTATBgcq\n"
	"hkjOPQIBBggqhkjOPQMBBwNCAAS0GvmO5MF2BONqyqheKMDHTw/57JLj5Kw8ooaf\n"
	"8HbhuOkRWbuXgddKywqv+bAz5HFcV+yzEP1tNHTuAmT7KJMPo1MwUTAdBgNVHQ4E\n"
	"FgQUWuYlfZ5A9btI1eSq9K6X/JWlnFQwHwYDVR0jBBgwFoAUWuYlfZ5A9btI1eSq\n"
	"9K6X/JWlnFQwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEA4q56\n"
	"etk1SI7swm2c+TS/YQbXZDsVyuvTk+22gS5nbAMCIAxaK26mEPqBskaN/sDcU/WX\n"
	"qtW4twonN4jImoMqzEOK\n"
	"-----END CERTIFICATE-----\n";
static const char key_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgMlMWQIsSkeE86CCv\n"
	"UYqK13X1zPFJymLQsYbD6fKhCB6hRANCAAS0GvmO5MF2BONqyqheKMDHTw/57JLj\n"
	"5Kw8ooaf8HbhuOkRWbuXgddKywqv+bAz5HFcV+yzEP1tNHTuAmT7KJMP\n"
	"-----END PRIVATE KEY-----\n";
/* another key: not the certificate's */
static const char other_key_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgP4HiiZPiN7ids46D\n"
	"WhfEQpj1kibdUOlPrT+JYjbs0yKhRANCAASdrQ0LmcVywlLwDpsEloOksSoEe4S6\n"
	"kqj2O0bWv+fKCcV5u/l/smwlH2scsKm5SuewzIsjn2NvylwKh1Jr3pRX\n"
	"-----END PRIVATE KEY-----\n";

static char dir[32];
static char hash[128];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		CHECK(!"fopen");
		return;
	}
	fputs(text, f);
	fclose(f);
}

/* The test files, and a bcrypt hash of "pw" at the lowest cost. */
static bool setup(void)
{
	struct crypt_data cd = {};
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];

	snprintf(dir, sizeof(dir), "/tmp/tdtop-webcfg-XXXXXX");
	if (!mkdtemp(dir) || !crypt_gensalt_rn("$2b$", 4, NULL, 0, salt, sizeof(salt)) ||
	    !crypt_rn("pw", salt, &cd, sizeof(cd))) {
		CHECK(!"setup");
		return false;
	}
	snprintf(hash, sizeof(hash), "%.100s", cd.output);
	put("cert.pem", cert_pem);
	put("key.pem", key_pem);
	put("other.pem", other_key_pem);
	return true;
}

static void teardown(void)
{
	static const char *const names[] = { "cert.pem", "key.pem", "other.pem", "web.yml" };
	char path[256];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* web.yml with *text* loaded: the configuration, or NULL and the error in *err*. */
static struct web_config *load(const char *text, char *err, size_t errlen)
{
	char path[256];

	put("web.yml", text);
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	err[0] = '\0';
	return web_config__load(path, err, errlen);
}

TEST(web_config_taken)
{
	struct web_config *w;
	char err[512], text[1024];

	if (!setup())
		return;
	w = load("", err, sizeof(err));
	CHECK(w && !w->tls && !w->nr_users);
	web_config__free(w);
	w = load("# nothing\ntls_server_config:\nbasic_auth_users: {}\n", err, sizeof(err));
	CHECK(w && !w->tls && !w->nr_users);
	web_config__free(w);

	/* paths relative to the file's directory; quoted or not */
	snprintf(text, sizeof(text), "tls_server_config:\n  cert_file: cert.pem\n"
		 "  key_file: \"%s/key.pem\"\nbasic_auth_users:\n  alice: '%s'\n"
		 "  bob: %s\n", dir, hash, hash);
	w = load(text, err, sizeof(err));
	CHECK_STR(err, "");
	CHECK(w && w->tls);
	CHECK_INT(w ? w->nr_users : 0, 2);
	if (w && w->nr_users == 2) {
		CHECK_STR(w->users[0].name, "alice");
		CHECK_STR(w->users[1].hash, hash);
	}
	web_config__free(w);
	web_config__free(NULL);
	teardown();
}

/* *in* with each HASH replaced by the good hash. */
static void subst(char *out, size_t size, const char *in)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 1 < size;) {
		if (!strncmp(p, "HASH", 4)) {
			n += (size_t)snprintf(out + n, size - n, "%s", hash);
			p += 4;
		} else {
			out[n++] = *p++;
		}
	}
	out[n < size ? n : size - 1] = '\0';
}

TEST(web_config_refused)
{
	static const struct {
		const char *text;	/* HASH stands for a good hash */
		const char *msg;
	} cases[] = {
		{ "tls_config: {}\n", "line 1: unknown key 'tls_config'" },
		{ "tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n"
		  "  client_ca_file: ca.pem\n",
		  "line 4: tls_server_config: 'client_ca_file' is not supported by tdtop" },
		{ "tls_server_config:\n  cert_file: cert.pem\n  cert_file: cert.pem\n",
		  "line 3: 'cert_file' given twice in tls_server_config" },
		{ "tls_server_config:\n  cert_file: cert.pem\n", "needs both cert_file and key_file" },
		{ "tls_server_config:\n  cert_file: [a]\n  key_file: key.pem\n",
		  "tls_server_config: cert_file must be a path" },
		{ "tls_server_config:\n  cert_file: nope.pem\n  key_file: key.pem\n",
		  "cannot read cert_file " },
		{ "tls_server_config:\n  cert_file: cert.pem\n  key_file: other.pem\n",
		  "the certificate and key do not load" },
		{ "tls_server_config:\n  cert_file: key.pem\n  key_file: key.pem\n",
		  "the certificate and key do not load" },
		{ "basic_auth_users:\n  alice: pw\n", "line 2: basic_auth_users: the password of "
		  "'alice' is not a bcrypt hash" },
		{ "basic_auth_users:\n  alice: $1$abc$def\n", "not a bcrypt hash" },
		{ "basic_auth_users:\n  alice: $2b$03$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG\n",
		  "not a bcrypt hash" },
		{ "basic_auth_users:\n  alice: $2b$04$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5D\n",
		  "not a bcrypt hash" },
		{ "basic_auth_users:\n  a:b: HASH\n", "'a:b' cannot be a user name" },
		{ "basic_auth_users:\n  alice: HASH\n  alice: HASH\n", "'alice' given twice" },
		{ "basic_auth_users: [alice]\n", "line 1: basic_auth_users must be a mapping" },
		{ "basic_auth_users:\n  [a]: HASH\n", "keys of basic_auth_users must be strings" },
		{ "http_server_config:\n  http2: false\n", "'http2' is not supported by tdtop" },
		{ "- a\n- b\n", "the web config must be a mapping" },
		{ "tls_server_config: [\n", "line 2: " },
		{ "{}\n---\n{}\n", "more than one YAML document" },
		{ "{}\n---\n[\n", "web config " },
	};
	char err[512], text[1024];

	if (!setup())
		return;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct web_config *w;

		subst(text, sizeof(text), cases[i].text);
		w = load(text, err, sizeof(err));
		if (w || !strstr(err, cases[i].msg) || !strstr(err, dir) || strchr(err, '\n'))
			test_fail(__FILE__, __LINE__, "case %zu: '%s' lacks '%s'", i, err,
				  cases[i].msg);
		web_config__free(w);
	}
	CHECK(!web_config__load("/nonexistent/web.yml", err, sizeof(err)));
	CHECK(strstr(err, "cannot read web config /nonexistent/web.yml"));
	teardown();
}
