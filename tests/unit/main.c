// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Runs every registered unit test, or those whose name contains argv[1]. */
#include <stdarg.h>
#include <stdlib.h>
#include "test.h"

#define MAX_TESTS 1024

static struct {
	const char *name;
	void (*fn)(void);
} tests[MAX_TESTS];
static int nr_tests;
static int cur_failed;

void test_register(const char *name, void (*fn)(void))
{
	if (nr_tests == MAX_TESTS) {
		fprintf(stderr, "too many unit tests, raise MAX_TESTS\n");
		exit(2);
	}
	tests[nr_tests].name = name;
	tests[nr_tests].fn = fn;
	nr_tests++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cur_failed = 1;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	/*
	 * libpfm4 reads this when it starts: it then sees an Ice Lake, whatever
	 * this machine is, so vendor names encode the same everywhere.
	 */
	setenv("LIBPFM_FORCE_PMU", "icl", 1);

	for (int i = 0; i < nr_tests; i++) {
		if (argc > 1 && !strstr(tests[i].name, argv[1]))
			continue;
		cur_failed = 0;
		tests[i].fn();
		printf("%s unit/%s\n", cur_failed ? "FAIL" : "ok  ", tests[i].name);
		fflush(stdout);
		if (cur_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
