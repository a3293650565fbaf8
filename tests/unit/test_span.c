// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An interval's length from the CPUs' cuts. */
#include <math.h>
#include "measure/span.h"
#include "test.h"

#define MS 1000000ULL

/* Flips at 1000 and 1300 ms; the loader was preempted for 22 ms between
 * the second flush pass and its flip. */
static const struct span_marks prev = { .pass_ns = 999 * MS, .flip_ns = 1000 * MS };
static const struct span_marks cur = { .pass_ns = 1277 * MS, .flip_ns = 1300 * MS };

TEST(span_from_the_cuts)
{
	/* CPU 1 did not switch after the pass: its cut lags the flip */
	__u64 a[2] = { 5000 * MS, 7000 * MS }, b[2] = { 5300 * MS, 7278 * MS };

	CHECK(fabs(span__mean_s(a, b, 2, &prev, &cur) - 0.289) < 1e-9);
}

TEST(span_without_a_cut_counts_flip_to_flip)
{
	__u64 a[2] = { 0, 7000 * MS }, b[2] = { 5300 * MS, 0 };

	CHECK(fabs(span__mean_s(a, b, 2, &prev, &cur) - 0.3) < 1e-9);
}

TEST(span_impossible_cuts_count_flip_to_flip)
{
	/* a clock that restarted (reopened cpu-clock), one that went back, and
	 * spans longer or shorter than the passes and flips allow */
	__u64 a[4] = { 9000 * MS, 7000 * MS, 1000 * MS, 1000 * MS };
	__u64 b[4] = { 10 * MS, 6999 * MS, 1400 * MS, 1100 * MS };

	CHECK(fabs(span__mean_s(a, b, 4, &prev, &cur) - 0.3) < 1e-9);
}

TEST(span_no_time_no_length)
{
	__u64 a[1] = { 1 }, b[1] = { 2 };

	CHECK(span__mean_s(a, b, 0, &prev, &cur) == 0);
	CHECK(span__mean_s(a, b, 1, &cur, &prev) == 0);
}
