// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Clock reads in seconds and nanoseconds. */
#include "util/clock.h"

double clock_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__u64 clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
