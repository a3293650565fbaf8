/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The exporter's series store: running totals per series (cgroup or
 * process) from each interval's deltas. The renderer (render.h) reads the
 * fields; only store.c changes them.
 */
#ifndef __TDTOP_STORE_H
#define __TDTOP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/aggregate.h"
#include "rows/model.h"
#include "util/keyindex.h"

/* Series tracked at most; rows beyond are counted, not stored. */
#define PROM_MAX_SERIES 65536
/* Half-life of the recent CPU time that ranks process series for --top. */
#define PROM_RANK_HALF_LIFE_S 60.0
/* TopDown categories a series can hold; td_fields[] has fewer. */
#define PROM_MAX_TD 16

/* How an event's counts are exported. */
enum prom_event_kind {
	PROM_EV_GENERIC,	/* tdtop_events_total{event="<name>"}: a count */
	PROM_EV_TIME,		/* tdtop_event_seconds_total{event="<name>"}: ns counted */
	PROM_EV_CYCLES,		/* tdtop_cycles_total */
	PROM_EV_INSTRUCTIONS,	/* tdtop_instructions_total */
	PROM_EV_SKIP,		/* not exported (TopDown inputs: see the slots metrics) */
};

struct prom_opts {
	enum group_by by;		/* BY_CGROUP or BY_PROCESS */
	bool by_comm;			/* BY_PROCESS: one series per command name */
	size_t top;			/* row series written at most, by recent CPU; 0: all */
	double series_ttl_s;		/* forget a series without rows this long; 0: never */
	const char *version;		/* tdtop_build_info labels */
	const char *method;		/* NULL or "none": each interval's own is shown */
	enum prom_event_kind event_kind[MAX_EVENTS];
};

struct prom_series {
	char *key;		/* cgroup path, the PID in decimal, or the comm */
	size_t hash;		/* key_hash() of the key */
	char *labels;		/* escaped label pairs, without braces */
	int pid;
	char comm[TASK_COMM_LEN];
	bool exited;		/* reported exited: dropped at the next interval */
	double last_seen;	/* store's elapsed_s when it last had a row */
	double score;		/* recent CPU seconds, decayed: ranks for --top */
	double cpu_s;
	double slots;
	bool slots_seen;
	double td[PROM_MAX_TD];
	unsigned int td_seen;	/* bit per td_fields[] index */
	double ev[MAX_EVENTS];
	unsigned int ev_seen;	/* bit per event */
};

struct prom_store {
	struct prom_opts o;
	char version[64];
	char method[64];
	bool method_fixed;	/* given by the caller: not replaced by the intervals' */
	int nr_td;
	bool have_events;
	int nr_events;
	char *names[MAX_EVENTS];
	char *ev_labels[MAX_EVENTS];	/* event="<name>", escaped */

	struct prom_series *series;
	size_t nr, cap;
	struct key_index index;	/* series by key */

	double elapsed_s;	/* sum of the interval lengths seen */
	double intervals;
	double interval_s;	/* the last one's */
	double idle_cpu_s;
	double dropped;
	double read_errors;
	double switches;
	double self_cpu_s;
	double overflow;	/* rows not tracked: PROM_MAX_SERIES reached */
	double bpf_s_per_switch;	/* NAN: unknown */
};

/* Metrics a store cannot fill, for tdtop_metric_unavailable. */
enum prom_unavailable {
	PROM_NA_BPF_STATS,	/* tdtop_bpf_seconds_per_switch */
	PROM_NA_SLOTS,		/* tdtop_slots_total */
	PROM_NA_TOPDOWN,	/* tdtop_topdown_slots_total */
	PROM_NR_NA,
};

struct prom_na_info {
	const char *metric;
	const char *reason;	/* the label value */
	const char *why;	/* a line to log once; NULL: said elsewhere (the notice) */
};

extern const struct prom_na_info prom_na_info[PROM_NR_NA];

/* NULL on ENOMEM or when o->by is neither BY_CGROUP nor BY_PROCESS. */
struct prom_store *prom_store__new(const struct prom_opts *o);

/* Accepts NULL. */
void prom_store__free(struct prom_store *s);

/*
 * Add one interval. Process series reported exited in the previous
 * interval are dropped first (their last values were served once), then
 * series idle for longer than the TTL. Rows of the other kind are
 * ignored. Returns 0, -ENOMEM (the store is unchanged but for the drops),
 * or -EINVAL when the event list differs from the first interval's.
 */
int prom_store__add(struct prom_store *s, const struct interval *iv);

/* Row series currently tracked (written or not). */
size_t prom_store__nr_series(const struct prom_store *s);

/*
 * The metrics unavailable as of the intervals added: a bit per enum
 * prom_unavailable. BPF statistics are known refused once the second
 * interval still has none (the first turns them on); TopDown once an
 * interval came without a method.
 */
unsigned int prom_store__unavailable(const struct prom_store *s);

/*
 * Export kinds from TopDown roles (enum td_role, or TD_NO_ROLE) and event
 * names: cycles and instructions get their own metrics, events that only
 * feed TopDown are skipped, the clocks (counting nanoseconds) are times,
 * the others are counts.
 */
void prom_event_kinds(const int *role, const char *const *names, int n,
		      enum prom_event_kind *out);

#endif /* __TDTOP_STORE_H */
