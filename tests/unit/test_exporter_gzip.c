// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A body compressed once and tails compressed apart: one valid gzip member each time. */
#include <stdlib.h>
#include <zlib.h>
#include "exporter/gzip.h"
#include "test.h"

/* *a* then *b* inflated as one gzip stream, compared with *want*. */
static void check_gunzip(const char *a, size_t alen, const char *b, size_t blen,
			 const char *want, size_t want_len)
{
	size_t len = alen + blen, cap = want_len + 64;
	char *in = malloc(len ? len : 1), *out = malloc(cap);
	z_stream z = {};
	int ret = Z_DATA_ERROR;

	if (!in || !out || inflateInit2(&z, 16 + 15) != Z_OK) {
		CHECK(!"inflate set up");
		goto out;
	}
	memcpy(in, a, alen);
	memcpy(in + alen, b, blen);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	ret = inflate(&z, Z_FINISH);
	CHECK_INT(ret, Z_STREAM_END);
	/* one member, nothing after it */
	CHECK_INT(z.avail_in, 0);
	CHECK_INT(cap - z.avail_out, want_len);
	CHECK(!memcmp(out, want, want_len));
	inflateEnd(&z);
out:
	free(in);
	free(out);
}

TEST(gzip_body_then_tails)
{
	enum { N = 300000 };
	char *body = malloc(N), *want = malloc(N + 64);
	static const char *const tails[] = { "# TYPE tdtop_up gauge\ntdtop_up 1\n# EOF\n", "" };
	struct gz_body gz;

	if (!body || !want) {
		free(body);
		free(want);
		return;
	}
	/* compressible and not: text with noise in it */
	for (int i = 0; i < N; i++)
		body[i] = i % 97 ? "tdtop_cpu_seconds_total{cgroup=\"/\"} "[i % 37] : (char)rand();
	CHECK_INT(gz_body__deflate(&gz, body, N), 0);
	CHECK(gz.len > 10 && gz.len < N);
	for (size_t t = 0; t < 2; t++) {
		size_t tlen = strlen(tails[t]), n;
		char *tail;

		CHECK_INT(gz_tail(&gz, tails[t], tlen, &tail, &n), 0);
		memcpy(want, body, N);
		memcpy(want + N, tails[t], tlen);
		check_gunzip(gz.data, gz.len, tail, n, want, N + tlen);
		free(tail);
	}
	gz_body__free(&gz);

	/* an empty body too */
	{
		char *tail;
		size_t n;

		CHECK_INT(gz_body__deflate(&gz, "", 0), 0);
		CHECK_INT(gz_tail(&gz, "x\n", 2, &tail, &n), 0);
		check_gunzip(gz.data, gz.len, tail, n, "x\n", 2);
		free(tail);
		gz_body__free(&gz);
	}
	free(body);
	free(want);
}
