/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A copy of the kernel-side accumulators at one instant: the cumulative
 * charges of tasks and, summed over CPUs, the idle/lost/total buckets.
 */
#ifndef __TDTOP_SNAPSHOT_H
#define __TDTOP_SNAPSHOT_H

#include <stddef.h>
#include <linux/types.h>
#include "tdtop_abi.h"

struct snapshot {
	double mono_s;		/* CLOCK_MONOTONIC at the flip */
	double real_s;		/* CLOCK_REALTIME at the flip */
	__u64 flip_ns;		/* mono_s in ns, the clock of task_val.exit_ns */
	double interval_s;	/* since the last snapshot, as the CPUs' cuts
				 * measured it (span.h); 0: from the flips */
	int half;		/* the accumulator half frozen by the flip */
	size_t nr;
	size_t cap;
	/* keys[i] and vals[i] describe one task; all tasks, or only those
	 * charged or ended since the last copy (the others have nothing new) */
	struct task_key *keys;
	struct task_val *vals;
	struct acc buckets[NR_BUCKETS];	/* the frozen half, summed over CPUs */
	struct stats stats;
};

/* Room for at least *n* tasks; -ENOMEM on failure. */
int snapshot__reserve(struct snapshot *s, size_t n);

void snapshot__free(struct snapshot *s);

#endif /* __TDTOP_SNAPSHOT_H */
