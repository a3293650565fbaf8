/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The read plan: how the switch program gets each event's count at a
 * switch, and how many perf-read helper calls that costs a CPU of each
 * core type. A helper read runs the PMU driver's read (MSR and RDPMC
 * accesses on hardware); a load from struct perf_event costs a few ns.
 */
#ifndef __TDTOP_READPLAN_H
#define __TDTOP_READPLAN_H

#include <stdbool.h>
#include <stdio.h>
#include "pmu/events.h"
#include "pmu/tdconfig.h"

enum read_how {
	READ_HELPER,	/* its own helper call */
	READ_MEMORY,	/* its count loaded from struct perf_event, see via */
	READ_CLOCK,	/* the helper call that also times the slice (cpu-clock) */
};

struct event_read {
	enum read_how how;
	/*
	 * READ_MEMORY: the event whose helper read, earlier in the same
	 * switch, brings this count up to date and gives its enabled and
	 * running times; the event itself when the kernel bumps the count in
	 * place (the times are then the slice's).
	 */
	int via;
	bool always_on;		/* never multiplexed: enabled and running are the slice clock */
};

/* The events one core type reads: [ev_lo, ev_hi) of the list. */
struct read_plan_part {
	int ev_lo;
	int ev_hi;
	int helper_calls;	/* per switch on a CPU of this type */
};

struct read_plan {
	int nr;
	struct event_read ev[MAX_EVENTS];
	int clock;		/* the cpu-clock event that times the slices, or -1 */
	bool memory;		/* loads from memory allowed (on_switch_mem) */
	int nr_parts;		/* at least 1 */
	struct read_plan_part parts[MAX_TD_PARTS];
};

/*
 * Decide how each event of *events* is read at a switch. *cfg* (NULL when
 * the events are not TopDown's) says which events are the PERF_METRICS
 * group and how the core types split the list. Without *memory* (the
 * helper-only program) every event but the clock takes a helper call.
 */
void read_plan__build(struct read_plan *plan, const struct event_list *events,
		      const struct td_config *cfg, bool memory);

/* Whether any event is loaded from memory: else on_switch_mem gains nothing. */
bool read_plan__uses_memory(const struct read_plan *plan);

/* --list: each event's read and the helper calls per switch of each part. */
void read_plan__print(const struct read_plan *plan, const struct event_list *events,
		      const struct td_config *cfg, FILE *f);

#endif /* __TDTOP_READPLAN_H */
