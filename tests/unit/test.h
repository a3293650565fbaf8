/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal unit-test harness: TEST() registers a case at load time, so a
 * new test file needs no list to edit. CHECK* record a failure and go on.
 */
#ifndef __TDTOP_TEST_H
#define __TDTOP_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

void test_register(const char *name, void (*fn)(void));
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define TEST(fn)                                                               \
	static void fn(void);                                                  \
	__attribute__((constructor)) static void register_##fn(void)           \
	{                                                                      \
		test_register(#fn, fn);                                        \
	}                                                                      \
	static void fn(void)

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			test_fail(__FILE__, __LINE__, "%s", #cond);            \
	} while (0)

#define CHECK_INT(a, b)                                                        \
	do {                                                                   \
		long long _a = (long long)(a), _b = (long long)(b);            \
		if (_a != _b)                                                  \
			test_fail(__FILE__, __LINE__, "%s == %lld, want %lld", \
				  #a, _a, _b);                                 \
	} while (0)

#define CHECK_U64(a, b)                                                        \
	do {                                                                   \
		unsigned long long _a = (a), _b = (b);                         \
		if (_a != _b)                                                  \
			test_fail(__FILE__, __LINE__,                          \
				  "%s == %#llx, want %#llx", #a, _a, _b);      \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                  \
	do {                                                                   \
		double _a = (a), _b = (b);                                     \
		if (!(fabs(_a - _b) <= (eps)))                                 \
			test_fail(__FILE__, __LINE__, "%s == %.9g, want %.9g", \
				  #a, _a, _b);                                 \
	} while (0)

#define CHECK_STR(a, b)                                                        \
	do {                                                                   \
		const char *_a = (a), *_b = (b);                               \
		if (!_a || strcmp(_a, _b))                                     \
			test_fail(__FILE__, __LINE__, "%s == \"%s\", want \"%s\"", \
				  #a, _a ? _a : "(null)", _b);                 \
	} while (0)

#endif /* __TDTOP_TEST_H */
