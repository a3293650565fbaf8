/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Clock reads: every timing and deadline in tdtop goes through these. */
#ifndef __TDTOP_CLOCK_H
#define __TDTOP_CLOCK_H

#include <time.h>
#include <linux/types.h>

double clock_s(clockid_t clk);
__u64 clock_ns(clockid_t clk);

/* CLOCK_MONOTONIC: intervals, deadlines and cost figures. */
static inline double mono_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static inline __u64 mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif /* __TDTOP_CLOCK_H */
