/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * TopDown discovery: from sysfs (and cpuinfo), which TopDown method this
 * CPU supports and the exact counter groups to open for it, or exactly
 * why there is none. docs/topdown.md describes every method and caveat.
 */
#ifndef __TDTOP_DISCOVER_H
#define __TDTOP_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "pmu/events.h"
#include "pmu/pmu.h"
#include "pmu/tdconfig.h"

#define TD_REASON_LEN 256
#define TD_NOTE_LEN 200
#define TD_MAX_NOTES 8
#define TD_MAX_PMUS 8		/* core PMUs remembered for --list */
#define TD_SRC_LEN 128

/* What /proc/cpuinfo (or a fixture's cpuinfo file) says about CPU 0. */
struct td_cpuinfo {
	char vendor[16];	/* "GenuineIntel", "AuthenticAMD", "" on Arm */
	char model_name[128];	/* "model name"; Arm: built from implementer/part */
	int family;		/* x86 "cpu family", -1 when unknown */
	int model;		/* x86 "model", -1 when unknown */
	int stepping;		/* x86 "stepping", -1 when unknown */
	unsigned int arm_implementer;	/* Arm "CPU implementer" (0x41 = Arm) */
	unsigned int arm_variant;
	unsigned int arm_part;		/* Arm "CPU part" (0xd49 = Neoverse N2) */
	unsigned int arm_revision;
	bool arm;		/* the Arm fields were present */
	bool hypervisor;	/* x86 "hypervisor" flag: running in a VM */
};

/* A core PMU as --list shows it. */
struct td_pmu_info {
	char name[PMU_NAME_LEN];
	__u32 type;
	bool all_cpus;
	char cpus[64];		/* the cpus file as written, when there is one */
};

struct td_discovery {
	/* Groups to open, leaders first; members name their leader's index;
	 * TopDown group leaders are pinned; cycles/instructions stand alone. */
	struct event_list events;
	struct td_config cfg;		/* roles, parts, max_level, per_core_only */
	char cpu_model[128];		/* model name, "unknown CPU" without cpuinfo */
	struct td_cpuinfo cpu;
	char reason[TD_REASON_LEN];	/* no method: exactly why; else "" */
	char per_core_reason[TD_REASON_LEN];	/* why cfg.per_core_only is set */
	int levels_available;		/* 2 when every part has level-2 events */
	char notes[TD_MAX_NOTES][TD_NOTE_LEN];	/* caveats, dropped events, level 2 */
	int nr_notes;
	char src[MAX_EVENTS][TD_SRC_LEN];	/* sysfs string or terms of each event */
	char label[MAX_EVENTS][EVENT_NAME_LEN];	/* perf's name of a raw event, else "" */
	char uarch[MAX_TD_PARTS][32];	/* "Gracemont", "Zen 4", "Neoverse N2", or "" */
	struct td_pmu_info pmus[TD_MAX_PMUS];	/* core PMUs found */
	int nr_pmus;
	int want_level;			/* what was asked for: 1 or 2 */
	bool smt_on;			/* SMT active (or the HT event variants) */
	bool smt_known;			/* devices/system/cpu/smt/active was read */
	int nmi_watchdog;		/* 1 on, 0 off, -1 unknown */
	char sysfs_root[256];
};

/*
 * Decide the TopDown method of the machine whose sysfs is under
 * *sysfs_root* ("/sys", or a fixture tree) and build its events.
 * want_level is 1 or 2; level-2 events are only added when asked for and
 * present on every part (d->cfg.max_level says what was built).
 *
 * With sysfs_root "/sys", cpuinfo and the NMI watchdog come from
 * /proc/cpuinfo and /proc/sys/kernel/nmi_watchdog; for any other root
 * from <root>/cpuinfo and <root>/nmi_watchdog (fixture convention).
 *
 * Returns 0 whenever the arguments are valid: d->cfg.nr_parts == 0 then
 * means "no TopDown here" and d->reason says why. Returns -1 with a
 * message in *err* for bad arguments.
 */
int td_discover(const char *sysfs_root, int want_level, struct td_discovery *d, char *err,
		size_t errlen);

/* --list: CPU, PMUs, method, every event with its attr, levels, SMT, notes. */
void td_discovery__print(const struct td_discovery *d, FILE *f);

struct read_plan;

/*
 * The same as one JSON object (--list -o json), each event with how
 * *plan* reads it (read_plan__build() of d's events; unused without
 * TopDown). -1 on ENOMEM or a write error.
 */
int td_discovery__print_json(const struct td_discovery *d, const struct read_plan *plan, FILE *f);

/*
 * Why opening the TopDown events failed with *errnum* (a positive errno)
 * on the machine *d* describes, as one sentence for the user, e.g. that a
 * VM lists PERF_METRICS events but does not virtualise them. Returns buf.
 */
const char *td_discovery__open_failure_reason(const struct td_discovery *d, int errnum,
					      char *buf, size_t len);

/* Fill the scale array metrics_compute() takes from the discovered events. */
void td_discovery__scales(const struct td_discovery *d, double scale[MAX_EVENTS]);

#endif /* __TDTOP_DISCOVER_H */
