/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Turns successive snapshots of cumulative charges into per-interval
 * deltas, remembering each task's previous values until it exits.
 */
#ifndef __TDTOP_TRACKER_H
#define __TDTOP_TRACKER_H

#include <stdbool.h>
#include "rows/sample.h"
#include "measure/snapshot.h"

/* A remembered task: its key and where its values are kept. */
struct tracked {
	struct task_key key;
	size_t slot;		/* index into tracker.vals */
};

struct tracker {
	bool primed;
	double prev_mono_s;
	struct acc prev_buckets[2][NR_BUCKETS];	/* per half, as last frozen */
	struct stats prev_stats;
	/*
	 * Per task, each half as it was when last frozen and read. The list
	 * is sorted by key; the values stay in place while tasks come and
	 * go, so an update costs what the snapshot holds, not every task
	 * remembered. exited/exit_ns also mark tasks ended here rather than
	 * by the kernel (finalised at a later update, read again or not).
	 */
	size_t nr;
	struct tracked *tasks;
	struct task_val *vals;
	struct task_key *gone;	/* exited tasks reported by the last update */
	size_t nr_gone;
	/* private to tracker.c */
	size_t cap;		/* of tasks and spare */
	struct tracked *spare;	/* the next list, built by a merge */
	size_t nr_dead;		/* dropped from the list since the last merge */
	size_t vals_cap;
	size_t vals_used;	/* slots handed out; freed ones are reused */
	size_t *free_slots;
	size_t nr_free;
	__u64 *gone_exit;	/* when each of gone ended */
	size_t gone_cap;
	struct task_key *ended;	/* ended here or after a flip, not final yet */
	size_t nr_ended;
	size_t ended_cap;
	size_t *order;		/* the snapshot sorted by key */
	struct tracked *added;	/* tasks new in this update, sorted */
	size_t scratch_cap;	/* of order and added */
};

/*
 * Fill *out* with what happened since the previous snapshot: the deltas
 * of the half cur->half froze. A task the snapshot does not hold had
 * nothing new in that half. A task freed before the flip is final: both
 * halves are settled, its last report says exited. The first call only
 * records the baseline and returns 1; later calls return 0. Afterwards
 * t->gone lists the tasks whose final values were reported: free their
 * map entries. -ENOMEM on allocation failure.
 */
int tracker__update(struct tracker *t, const struct snapshot *cur, int ncpus, struct sample *out);

static inline struct task_val *tracker__val(const struct tracker *t, size_t i)
{
	return &t->vals[t->tasks[i].slot];
}

/* Remembered task i is gone as of now_ns, though the kernel never said
 * so: reported a last time at the first update after now_ns. -ENOMEM. */
int tracker__end(struct tracker *t, size_t i, __u64 now_ns);

void tracker__free(struct tracker *t);

#endif /* __TDTOP_TRACKER_H */
