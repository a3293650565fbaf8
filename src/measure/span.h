/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The length of an interval as the CPUs measured it: each CPU's slices end
 * at its cut (its last charge before the flip), which lags the flip when
 * the loader is preempted between its flush pass and the flip.
 */
#ifndef __TDTOP_SPAN_H
#define __TDTOP_SPAN_H

#include <linux/types.h>

/* When the loader cut and flipped, in CLOCK_MONOTONIC ns. */
struct span_marks {
	__u64 pass_ns;		/* start of the last flush pass before the flip */
	__u64 flip_ns;
};

/*
 * The mean over n CPUs of each one's span from prev_cut[cpu] to cut[cpu]
 * (in the slice clock; 0: no cut of that epoch), in seconds. A span is
 * taken only if it fits between the two cuts' earliest and latest possible
 * moments (from *prev to *cur); otherwise, and for a CPU without both
 * cuts, that CPU counts flip to flip.
 */
double span__mean_s(const __u64 *prev_cut, const __u64 *cut, int n,
		    const struct span_marks *prev, const struct span_marks *cur);

#endif /* __TDTOP_SPAN_H */
