// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The shared helpers of src/util: growth, file reads, suffixes, key index. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fixture.h"
#include "test.h"
#include "util/clock.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/keyindex.h"
#include "util/strutil.h"

TEST(grow_doubles_from_the_minimum_and_keeps_contents)
{
	int *a = NULL;
	size_t cap = 0;

	CHECK_INT(GROW(a, cap, 1, 16), 0);
	CHECK_INT(cap, 16);
	for (int i = 0; i < 16; i++)
		a[i] = i;
	CHECK_INT(GROW(a, cap, 17, 16), 0);
	CHECK_INT(cap, 32);
	CHECK_INT(GROW(a, cap, 20, 16), 0);
	CHECK_INT(cap, 32);
	CHECK_INT(GROW(a, cap, 100, 16), 0);
	CHECK_INT(cap, 128);
	CHECK_INT(a[15], 15);
	free(a);
}

TEST(grow_refuses_a_size_that_overflows)
{
	long *a = NULL;
	size_t cap = 0;

	CHECK_INT(GROW(a, cap, SIZE_MAX / 4, 16), -ENOMEM);
	CHECK(a == NULL);
	CHECK_INT(cap, 0);
	CHECK_INT(GROW(a, cap, SIZE_MAX, 16), -ENOMEM);
}

TEST(read_small_file_strips_and_checks_size_and_nul)
{
	char path[256], buf[8];

	fixture_tmpfile(path, sizeof(path), "unit", "0-3\n", 4);
	CHECK_INT(read_small_file(path, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "0-3");
	unlink(path);
	fixture_tmpfile(path, sizeof(path), "unit", "1234567", 7);
	CHECK_INT(read_small_file(path, buf, sizeof(buf)), 7);
	unlink(path);
	fixture_tmpfile(path, sizeof(path), "unit", "12345678", 8);
	CHECK_INT(read_small_file(path, buf, sizeof(buf)), -E2BIG);
	unlink(path);
	fixture_tmpfile(path, sizeof(path), "unit", "a\0b", 3);
	CHECK_INT(read_small_file(path, buf, sizeof(buf)), -EILSEQ);
	unlink(path);
	CHECK_INT(read_small_file("/nonexistent/tdtop", buf, sizeof(buf)), -ENOENT);
}

TEST(read_whole_file_grows_and_bounds)
{
	static char big[200000];
	char path[256], *b;
	size_t len;

	memset(big, 'x', sizeof(big));
	fixture_tmpfile(path, sizeof(path), "unit", big, sizeof(big));
	CHECK_INT(read_whole_file(path, sizeof(big), &b, &len), 0);
	CHECK_INT(len, sizeof(big));
	CHECK_INT(b[len], 0);
	free(b);
	CHECK_INT(read_whole_file(path, sizeof(big) - 1, &b, &len), -EFBIG);
	unlink(path);
	/* exactly max bytes where max + 1 is the first capacity */
	fixture_tmpfile(path, sizeof(path), "unit", big, 64 * 1024 - 1);
	CHECK_INT(read_whole_file(path, 64 * 1024 - 1, &b, &len), 0);
	CHECK_INT(len, 64 * 1024 - 1);
	free(b);
	CHECK_INT(read_whole_file(path, 64 * 1024 - 2, &b, &len), -EFBIG);
	unlink(path);
	fixture_tmpfile(path, sizeof(path), "unit", "", 0);
	CHECK_INT(read_whole_file(path, 10, &b, &len), 0);
	CHECK_INT(len, 0);
	free(b);
	unlink(path);
}

TEST(ends_with_counts_bytes)
{
	CHECK(ends_with("a.gz", 4, ".gz"));
	CHECK(!ends_with("a.gz", 3, ".gz"));
	CHECK(ends_with(".gz", 3, ".gz"));
	CHECK(!ends_with("gz", 2, ".gz"));
	CHECK(ends_with("x", 1, ""));
}

struct names {
	const char *key[3000];
};

struct lookup {
	const struct names *n;
	const char *key;
};

static bool name_eq(const void *ctx, size_t pos)
{
	const struct lookup *l = ctx;

	return !strcmp(l->n->key[pos], l->key);
}

TEST(key_index_finds_every_key_across_growth_and_replaces)
{
	static char buf[3000][16];
	static struct names n;
	struct key_index ix = { 0 };
	struct lookup l = { .n = &n };

	for (int i = 0; i < 3000; i++) {
		snprintf(buf[i], sizeof(buf[i]), "k%d", i % 2000);
		n.key[i] = buf[i];
		l.key = buf[i];
		CHECK_INT(key_index__set(&ix, key_hash(buf[i], strlen(buf[i])), i, name_eq, &l), 0);
	}
	CHECK_INT(ix.nr, 2000);
	for (int i = 0; i < 2000; i++) {
		l.key = buf[i];
		/* the later of two entries with one key won */
		CHECK_INT(key_index__find(&ix, key_hash(buf[i], strlen(buf[i])), name_eq, &l),
			  i < 1000 ? i + 2000 : i);
	}
	l.key = "absent";
	CHECK_INT(key_index__find(&ix, key_hash("absent", 6), name_eq, &l), -1);
	key_index__clear(&ix);
	CHECK_INT(ix.nr, 0);
	l.key = buf[5];
	CHECK_INT(key_index__find(&ix, key_hash(buf[5], strlen(buf[5])), name_eq, &l), -1);
	key_index__free(&ix);
	CHECK_INT(key_index__find(&ix, 1, name_eq, &l), -1);
}

TEST(clocks_advance)
{
	__u64 a = mono_ns();
	double s = mono_s();

	CHECK(mono_ns() >= a);
	CHECK(s > 0);
	CHECK(clock_s(CLOCK_REALTIME) > 1e9);
}
