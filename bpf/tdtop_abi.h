/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ABI shared by bpf/tdtop.bpf.c and the loader: map keys, values and
 * limits. Only fixed-width types, so both sides agree on the layout.
 */
#ifndef __TDTOP_H
#define __TDTOP_H

/* Counters read at every switch on one CPU; the TopDown level-2 group
 * (slots + 8 metrics) plus hybrid E-core events and cycles/instructions
 * fit. */
#define MAX_EVENTS 16
#define TASK_COMM_LEN 16
/* Upper bound for the per-CPU arrays sized at load time. */
#define MAX_CPUS 4096

/* One counter's running sums: raw count and the ns the event was enabled
 * and actually on the PMU (their ratio is the multiplexing share). */
struct counter {
	__u64 count;
	__u64 enabled;
	__u64 running;
};

/* A task is identified by tid and its start time, so a recycled tid is a
 * new key and two processes are never merged. In cgroup mode the cgroup
 * is part of the key: a task that moves is charged to each cgroup exactly. */
struct task_key {
	__u32 tid;
	__u32 pad;
	__u64 start_ns;
	__u64 cgroup_id;	/* cgroup v2 id; 0 unless cgroup mode */
};

/*
 * Charges accumulate in one of two halves, chosen by the loader's epoch:
 * the loader flips it and then reads the half no CPU writes any more, so
 * every map is read as of the same instant (see collector.c).
 */
struct acc {
	__u64 cpu_ns;		/* on-CPU time charged */
	__u64 slices;		/* switch-outs (and flushes) charged */
	struct counter ev[MAX_EVENTS];
};

/* Cumulative charges to one task since it was first seen. */
struct task_val {
	__u32 pid;		/* thread group id, the user's PID */
	__u32 exited;		/* set once the kernel freed the task */
	__u64 leader_start_ns;	/* identifies the process across tid reuse */
	__u64 exit_ns;		/* CLOCK_MONOTONIC when it was freed */
	char comm[TASK_COMM_LEN];	/* the thread's, updated at exec */
	char pcomm[TASK_COMM_LEN];	/* the process's (its leader's) at first sight */
	__u32 listed_epoch;	/* 1 + the last epoch it was put on a change list */
	__u32 pad2;
	struct acc half[2];
};

/* Keys one change list holds before it overflows. */
#define CHANGE_LIST_LEN 510

/*
 * Per CPU and half, the entries charged or ended in an epoch, each listed
 * once per epoch (by its first charge): the loader reads only those
 * entries instead of the whole table. nr counts every listing, so more
 * than CHANGE_LIST_LEN says some did not fit: the loader reads all.
 */
struct change_list {
	__u32 nr;
	__u32 pad;
	struct task_key keys[CHANGE_LIST_LEN];
};

/* Per-CPU sums that do not belong to a task: idle, charges lost because
 * the task map was full, and the total of everything charged. Indexed
 * bucket * 2 + half. */
enum bucket_id {
	BUCKET_IDLE,
	BUCKET_LOST,
	BUCKET_TOTAL,
	NR_BUCKETS,
};

/* Per-CPU health counters. */
struct stats {
	__u64 switches;		/* sched_switch events handled */
	__u64 dropped;		/* slices not stored: task map full */
	__u64 read_errors;	/* counter reads that failed (e.g. -EBUSY) */
};

/*
 * Everything of one CPU the switch program uses besides the task's entry
 * and the loader's settings, in one per-CPU value: one lookup per switch,
 * one read per interval. The loader fills ev_lo/ev_hi before attaching.
 */
struct cpu_state {
	__u64 last_ns;
	__u32 ev_lo;		/* first event index read on this CPU */
	__u32 ev_hi;		/* one past the last (hybrid CPUs read their core
				 * type's slice of the event index space) */
	__u32 primed;		/* bit i: last[i] holds a reading */
	__u32 seen_epoch;	/* the epoch of this CPU's last charge */
	/* per half: where the slices of its last epoch ended on this CPU
	 * (last_ns then) and which epoch that was; the loader measures an
	 * interval from these, not from when it flipped, which lags the
	 * cuts whenever it is preempted between its flush and the flip */
	__u64 cut_ns[2];
	__u32 cut_epoch[2];
	struct stats stats;
	struct counter last[MAX_EVENTS];
	struct acc buckets[NR_BUCKETS * 2];
};

#endif /* __TDTOP_H */
