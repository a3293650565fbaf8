/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Turning perf-style event names (-e) into perf_event_attr settings:
 * software and generic hardware names, raw rNNNN, PMU events from sysfs
 * (pmu/name/ or pmu/term=value,.../), whose events/ and format/ files are
 * parsed rather than copied into tables, and vendor names from libpfm4's
 * tables; each with perf's modifiers (cycles:u, cpu/cycles/k).
 */
#ifndef __TDTOP_EVENTS_H
#define __TDTOP_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include "tdtop_abi.h"

#define EVENT_NAME_LEN 64

/* What perf's modifiers leave out: attr.exclude_* bits. */
enum event_exclude {
	EXCL_USER = 1 << 0,
	EXCL_KERNEL = 1 << 1,
	EXCL_HV = 1 << 2,
	EXCL_HOST = 1 << 3,	/* :G alone counts the guest only */
	EXCL_GUEST = 1 << 4,	/* :H alone counts the host only */
};

struct event_spec {
	char name[EVENT_NAME_LEN];	/* canonical spelling, used as output key */
	__u32 type;			/* perf_event_attr.type */
	__u64 config;
	__u64 config1;
	__u64 config2;
	double scale;			/* sysfs <event>.scale, else 1.0 */
	char unit[16];			/* sysfs <event>.unit, else "" */
	unsigned int exclude;		/* EXCL_* from the modifiers */
	int leader;			/* index of its group leader; own index if none */
	bool pinned;
};

struct event_list {
	int nr;
	struct event_spec ev[MAX_EVENTS];
};

/*
 * Parse a comma-separated list (commas inside pmu/.../ belong to the
 * event). *sysfs_root* is "/sys" or a fixture tree. Returns 0, or -1 with
 * a one-line message in *err* (e.g. "unknown event 'foo' (see --list-events)").
 */
int event_list__parse(const char *sysfs_root, const char *list, struct event_list *out,
		 char *err, size_t errlen);

/*
 * perf's modifiers, the letters after "name:" or after "pmu/.../", into
 * EXCL_* bits: naming some of u (user), k (kernel), h (hypervisor)
 * leaves out the others, and likewise G (guest) and H (host); none of
 * them counts everything. *event* only names the event in the message.
 * 0, or -EINVAL for a letter tdtop does not take, or an empty string.
 */
int event_mods__parse(const char *mods, const char *event, unsigned int *exclude, char *err,
		      size_t errlen);

/*
 * Where the modifiers of *name* start ("u" of "cycles:u", of "cpu/x/u"
 * and of "cpu/x/:u"), or NULL when it has none. *base_len* gets the length
 * of the event without them (and without the ':' before them). A ':'
 * followed by anything but letters, or of "pmu::event", is part of a
 * vendor name ("icl::inst_retired.any", "INST_RETIRED:ANY_P").
 */
const char *event_mods__find(const char *name, size_t *base_len);

/* The counting attr for one event: no sampling, inherit 0, enabled. */
void event_spec__to_attr(const struct event_spec *e, struct perf_event_attr *attr);

/*
 * Whether the kernel adds to the event's count where it happens (faults,
 * switches, migrations), so that the count in memory is always current;
 * the clocks and hardware counters are only brought up to date by a read.
 */
bool event_spec__counts_in_place(const struct event_spec *e);

/* cpu-clock: on a CPU, its count is that CPU's time in ns, so it can time
 * the slices itself instead of a second clock read. */
bool event_spec__is_cpu_clock(const struct event_spec *e);

/* A name event_list__parse() knows without sysfs. */
struct named_event {
	const char *name;	/* canonical spelling */
	const char *alias;	/* or NULL */
	__u64 config;		/* PERF_COUNT_SW_* or PERF_COUNT_HW_* */
};

/* The software, and the generic hardware, names, sorted by name. */
const struct named_event *events_software(size_t *n);
const struct named_event *events_hardware(size_t *n);

/* --list-events: every name event_list__parse() accepts on this machine. */
void events_print_list(const char *sysfs_root, FILE *out);

/* The same as one JSON object; -1 on ENOMEM or a write error. */
int events_print_list_json(const char *sysfs_root, FILE *out);

#endif /* __TDTOP_EVENTS_H */
