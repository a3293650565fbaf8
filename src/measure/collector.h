/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The live data source: loads the BPF program, opens one counting perf
 * event per CPU per event, attaches to sched_switch and hands out
 * snapshots of the cumulative per-task charges.
 */
#ifndef __TDTOP_COLLECTOR_H
#define __TDTOP_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include "pmu/events.h"
#include "measure/snapshot.h"
#include "pmu/tdconfig.h"

struct collector;

struct collector_opts {
	const struct event_list *events;
	const char *sysfs;	/* the sysfs root ("/sys", or TDTOP_SYSFS); NULL: "/sys" */
	/* NULL: every CPU reads every event; else each CPU reads the event
	 * range of the part whose PMU covers it (hybrid core types) */
	const struct td_config *parts;
	size_t max_tasks;	/* capacity of the task map */
	bool helper_reads;	/* never read counts from memory (on_switch_mem) */
	bool by_cgroup;		/* charge per (task, cgroup) */
	bool verbose;		/* pass libbpf's messages through */
	/* optional: why counts are read through the helper although memory
	 * reads were tried, else "" (a diagnostic for -v) */
	char *note;
	size_t notelen;
};

/*
 * Set everything up and take the first snapshot's baseline. On failure
 * returns -errno with a one-line message (and hint) in *err*.
 */
int collector__open(struct collector **out, const struct collector_opts *opts,
		    char *err, size_t errlen);

/* Charge the running slices on every CPU, then copy all maps into *snap*. */
int collector__snapshot(struct collector *c, struct snapshot *snap);

/* Free the map entries of tasks that were reported as exited. */
void collector__forget(struct collector *c, const struct task_key *keys, size_t n);

int collector__ncpus(const struct collector *c);

/*
 * Switch the kernel's BPF run-time statistics on or off. While on, every
 * BPF program on the machine pays two clock reads per run, so tdtop only
 * samples them. -errno when the kernel refuses (needs CAP_SYS_ADMIN).
 */
int collector__bpf_stats(struct collector *c, bool on);

/* Cumulative run time and run count of the sched_switch program, counted
 * while the statistics were on. */
int collector__bpf_cost(const struct collector *c, __u64 *run_ns, __u64 *runs);

void collector__free(struct collector *c);

#endif /* __TDTOP_COLLECTOR_H */
