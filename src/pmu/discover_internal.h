/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What TopDown discovery's files share: discover.c, sysinfo.c, groups.c
 * and the per-vendor classifiers and builders (discover_intel.c,
 * discover_amd.c, discover_arm.c). Everyone else uses pmu/discover.h.
 */
/* Internal to pmu/. */
#ifndef __TDTOP_DISCOVER_INTERNAL_H
#define __TDTOP_DISCOVER_INTERNAL_H

#include <stdbool.h>
#include "util/macros.h"
#include "pmu/discover.h"

#define TD_WHY_LEN 200

/* What classification found out about one core PMU. */
struct td_plan {
	char pmu[PMU_NAME_LEN];
	enum td_method method;
	bool l2;			/* its level-2 events exist */
	unsigned int width;		/* slot width where the method needs one */
	const char *uarch;		/* "Gracemont", "Zen 4", ... for --list */
	bool arm_n2_erratum;
	bool ht_variant;		/* pre-Ice Lake events in their any=1 form */
	char why[TD_WHY_LEN];		/* METHOD_NONE: why not; else level-2 caveat */
};

/* One event of a group. */
struct td_ev_def {
	const char *body;	/* alias or terms */
	int role;
	const char *label;	/* perf's name for raw terms */
};

/* Building the events of one part from its plan. */
struct td_build {
	struct td_discovery *d;
	const struct td_plan *p;
	int level;
	bool with_ipc;
	bool full;		/* MAX_EVENTS reached */
	char why[TD_WHY_LEN];	/* why the part could not be built */
};

/* discover.c: a caveat for --list; dropped when TD_MAX_NOTES are taken. */
void td_discovery__note(struct td_discovery *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* discover.c: why the plan has no method, or its level-2 caveat (cut to fit). */
void td_plan__why(struct td_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* sysinfo.c: cpuinfo, SMT and the NMI watchdog into *d*. */
void td_discovery__read_system(struct td_discovery *d);

/* sysinfo.c: "Neoverse N2" for the Arm parts perf has metrics for, else NULL. */
const char *td_cpuinfo__arm_part(const struct td_cpuinfo *c);

/* groups.c: every usable plan's part, into d->events and d->cfg. */
void td_discovery__build(struct td_discovery *d, const struct td_plan *plans, int n, int level);

/* groups.c: forget every event and part, keep the first nr_notes notes. */
void td_discovery__reset_events(struct td_discovery *d, int nr_notes);

/* groups.c: one group, its first event the pinned leader; -1 and b->why when an
 * event fails, and the part's events are then dropped as a whole. */
int td_build__group(struct td_build *b, const struct td_ev_def *defs, int n);

/* groups.c: a free-running event that is not part of any group. */
int td_build__solo(struct td_build *b, const char *body, int role);

/* discover_intel.c */
void intel_classify(const struct td_discovery *d, struct td_plan *p);
int intel_build_perf_metrics(struct td_build *b);
int intel_build_generic(struct td_build *b);
int intel_build_atom(struct td_build *b);
/* Whether the pre-Ice Lake events count whole cores, into d->cfg.per_core_only. */
void intel_check_per_core(struct td_discovery *d, const struct td_plan *plans, int n);

/* discover_amd.c */
bool amd_is_core_pmu(const struct td_discovery *d, const char *pmu);
void amd_classify(const struct td_discovery *d, struct td_plan *p);
int amd_build(struct td_build *b);

/* discover_arm.c */
bool arm_is_core_pmu(const char *name);
void arm_classify(const struct td_discovery *d, struct td_plan *p);
int arm_build(struct td_build *b);

#endif /* __TDTOP_DISCOVER_INTERNAL_H */
