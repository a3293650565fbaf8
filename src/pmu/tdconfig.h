/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What TopDown discovery decided: which events of the event list play
 * which role, and, per core type (hybrid CPUs have two), the method and
 * slot width that turn their counts into a breakdown.
 */
#ifndef __TDTOP_TDCONFIG_H
#define __TDTOP_TDCONFIG_H

#include <stdbool.h>
#include "pmu/pmu.h"
#include "tdtop_abi.h"
#include "pmu/topdown.h"

#define MAX_TD_PARTS 3

struct td_part {
	enum td_method method;
	char pmu[64];		/* "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0", ... */
	int ev_lo;		/* its events: [ev_lo, ev_hi) of the event list */
	int ev_hi;
	unsigned int slot_width;
	bool arm_n2_erratum;
	bool all_cpus;		/* the PMU covers every CPU; else only cpus */
	struct pmu_cpus cpus;
};

struct td_config {
	int nr_parts;		/* 0: no TopDown */
	struct td_part parts[MAX_TD_PARTS];
	int role[MAX_EVENTS];	/* enum td_role of each event, or TD_NO_ROLE */
	int max_level;		/* 1, or 2 when every part has level-2 counts */
	bool per_core_only;	/* SMT shares the counters: per-task values invalid */
};

#endif /* __TDTOP_TDCONFIG_H */
