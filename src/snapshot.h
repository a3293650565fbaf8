/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A copy of the kernel-side accumulators at one instant: cumulative
 * charges per task and, summed over CPUs, the idle/lost/total buckets.
 */
#ifndef __TDTOP_SNAPSHOT_H
#define __TDTOP_SNAPSHOT_H

#include <stddef.h>
#include <linux/types.h>
#include "tdtop.h"

struct snapshot {
	double mono_s;		/* CLOCK_MONOTONIC when taken */
	double real_s;		/* CLOCK_REALTIME when taken */
	size_t nr;
	size_t cap;
	struct task_key *keys;	/* keys[i] and vals[i] describe one task */
	struct task_val *vals;
	struct bucket_val buckets[NR_BUCKETS];
	struct stats stats;
};

/* Room for at least *n* tasks; -ENOMEM on failure. */
int snapshot__reserve(struct snapshot *s, size_t n);

void snapshot__free(struct snapshot *s);

#endif /* __TDTOP_SNAPSHOT_H */
