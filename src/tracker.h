/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Turns successive snapshots of cumulative charges into per-interval
 * deltas, remembering each task's previous values until it exits.
 */
#ifndef __TDTOP_TRACKER_H
#define __TDTOP_TRACKER_H

#include <stdbool.h>
#include "sample.h"
#include "snapshot.h"

struct tracker {
	bool primed;
	double prev_mono_s;
	struct acc prev_buckets[2][NR_BUCKETS];	/* per half, as last frozen */
	struct stats prev_stats;
	/*
	 * Per task, each half as it was when last frozen and read, sorted by
	 * key; exited/exit_ns also mark entries whose task died in another
	 * cgroup (finalised at the next update).
	 */
	size_t nr;
	size_t cap;
	struct task_key *keys;
	struct task_val *vals;
	struct task_key *gone;	/* exited tasks reported by the last update */
	size_t nr_gone;
	size_t gone_cap;
};

/*
 * Fill *out* with what happened since the previous snapshot: the deltas
 * of the half cur->half froze. A task freed before the flip is final: both
 * halves are settled, its last report says exited. The first call only
 * records the baseline and returns 1; later calls return 0. Afterwards
 * t->gone lists the tasks whose final values were reported: free their
 * map entries. -ENOMEM on allocation failure.
 */
int tracker__update(struct tracker *t, const struct snapshot *cur, int ncpus, struct sample *out);

void tracker__free(struct tracker *t);

#endif /* __TDTOP_TRACKER_H */
