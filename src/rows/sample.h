/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One interval as measured: what every task and bucket was charged, before
 * any grouping. Live mode derives it from two snapshots; a recording
 * stores exactly this, so replay goes through the same aggregation.
 */
#ifndef __TDTOP_SAMPLE_H
#define __TDTOP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/model.h"
#include "util/usernames.h"

struct task_delta {
	__u32 tid;
	__u32 pid;
	__u64 start_ns;
	__u64 leader_start_ns;
	__u64 cgroup_id;	/* 0 unless cgroup mode */
	char comm[TASK_COMM_LEN];
	char pcomm[TASK_COMM_LEN];	/* the process's name */
	bool exited;		/* the kernel freed it; this is its last report */
	__u32 uid;		/* its owner's (effective) uid, when user[0] */
	char user[USER_NAME_LEN]; /* the owner's name (or uid) where measured; "" when
				   * unknown (live tasks are looked up only to record) */
	__u64 cpu_ns;
	struct delta ev[MAX_EVENTS];
};

struct bucket_delta {
	__u64 cpu_ns;
	struct delta ev[MAX_EVENTS];
};

struct sample {
	double ts;		/* unix seconds at the end */
	double interval_s;
	int ncpus;
	struct bucket_delta idle, lost, total;
	__u64 switches;
	__u64 dropped;
	__u64 read_errors;
	size_t nr;
	size_t cap;
	struct task_delta *tasks;
};

/* Append a zeroed task; NULL when out of memory. */
struct task_delta *sample__add(struct sample *s);

void sample__free(struct sample *s);

#endif /* __TDTOP_SAMPLE_H */
