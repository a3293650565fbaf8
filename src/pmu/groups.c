// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Building the counter groups of the discovered parts: each event through
 * event_list__parse() with its role and sysfs string, a part's events all or
 * none, and the whole list again without IPC when it does not fit.
 */
#include <stdio.h>
#include <string.h>
#include "pmu/discover_internal.h"

#define LEADS (-1)	/* add_event(): the event leads its own group */

/*
 * Append pmu/body/ through event_list__parse(). *leader* is an event index or
 * LEADS. Returns the new index, or -1 with *why* set (-E2BIG style full
 * lists are reported through *full*).
 */
static int add_event(struct td_discovery *d, const char *pmu, const char *body, int role,
		     int leader, bool pin, const char *label, bool *full, char *why, size_t wlen)
{
	char spec[EVENT_NAME_LEN + 8];
	struct event_list *el = &d->events;
	struct event_list tmp;
	int idx = el->nr;

	if (idx >= MAX_EVENTS) {
		*full = true;
		snprintf(why, wlen, "more than %d events", MAX_EVENTS);
		return -1;
	}
	snprintf(spec, sizeof(spec), "%s/%s/", pmu, body);
	if (event_list__parse(d->sysfs_root, spec, &tmp, why, wlen))
		return -1;
	el->ev[idx] = tmp.ev[0];
	el->ev[idx].leader = leader == LEADS ? idx : leader;
	el->ev[idx].pinned = pin;
	d->cfg.role[idx] = role;
	if (pmu_read_alias(d->sysfs_root, pmu, body, d->src[idx], TD_SRC_LEN, NULL, 0))
		snprintf(d->src[idx], TD_SRC_LEN, "%s", body);
	snprintf(d->label[idx], EVENT_NAME_LEN, "%s", label ? label : "");
	el->nr++;
	return idx;
}

/* Forget events [from, nr): a part that could not be built completely. */
static void rollback(struct td_discovery *d, int from)
{
	for (int i = from; i < d->events.nr; i++) {
		memset(&d->events.ev[i], 0, sizeof(d->events.ev[i]));
		d->cfg.role[i] = TD_NO_ROLE;
		d->src[i][0] = d->label[i][0] = '\0';
	}
	d->events.nr = from;
}

int td_build__group(struct td_build *b, const struct td_ev_def *defs, int n)
{
	int leader = -1;

	for (int i = 0; i < n; i++) {
		int idx = add_event(b->d, b->p->pmu, defs[i].body, defs[i].role,
				    i ? leader : LEADS, i == 0, defs[i].label, &b->full, b->why,
				    sizeof(b->why));

		if (idx < 0)
			return -1;
		if (!i)
			leader = idx;
	}
	return 0;
}

int td_build__solo(struct td_build *b, const char *body, int role)
{
	return add_event(b->d, b->p->pmu, body, role, LEADS, false, NULL, &b->full, b->why,
			 sizeof(b->why)) < 0 ? -1 : 0;
}

/* The events of each method, in discover_<vendor>.c */
static int (*const builders[TD_NR_METHODS])(struct td_build *b) = {
	[TD_PERF_METRICS] = intel_build_perf_metrics,
	[TD_INTEL_GENERIC] = intel_build_generic,
	[TD_INTEL_ATOM] = intel_build_atom,
	[TD_AMD_ZEN] = amd_build,
	[TD_ARM] = arm_build,
};

static int build_part(struct td_build *b)
{
	struct td_discovery *d = b->d;
	struct td_part *part = &d->cfg.parts[d->cfg.nr_parts];
	enum td_method m = b->p->method;
	int start = d->events.nr, ret;

	memset(part, 0, sizeof(*part));
	if (pmu_read_cpus(d->sysfs_root, b->p->pmu, &part->cpus, NULL, 0)) {
		memset(&part->cpus, 0, sizeof(part->cpus));
		part->all_cpus = true;
	}
	ret = (unsigned int)m < TD_NR_METHODS && builders[m] ? builders[m](b) : -1;
	if (ret) {
		rollback(d, start);
		return -1;
	}
	part->method = m;
	snprintf(part->pmu, sizeof(part->pmu), "%s", b->p->pmu);
	part->ev_lo = start;
	part->ev_hi = d->events.nr;
	part->slot_width = b->p->width;
	part->arm_n2_erratum = b->p->arm_n2_erratum;
	snprintf(d->uarch[d->cfg.nr_parts], sizeof(d->uarch[0]), "%s",
		 b->p->uarch ? b->p->uarch : "");
	d->cfg.nr_parts++;
	return 0;
}

void td_discovery__reset_events(struct td_discovery *d, int nr_notes)
{
	memset(&d->events, 0, sizeof(d->events));
	memset(d->cfg.parts, 0, sizeof(d->cfg.parts));
	d->cfg.nr_parts = 0;
	memset(d->uarch, 0, sizeof(d->uarch));
	for (int i = 0; i < MAX_EVENTS; i++) {
		d->cfg.role[i] = TD_NO_ROLE;
		d->src[i][0] = d->label[i][0] = '\0';
	}
	d->nr_notes = nr_notes;
}

/* One pass over the plans; true when a part did not fit MAX_EVENTS. */
static bool build_parts(struct td_discovery *d, const struct td_plan *plans, int n, int level,
			bool with_ipc)
{
	bool full = false;

	for (int i = 0; i < n; i++) {
		struct td_build b = {
			.d = d, .p = &plans[i], .level = level, .with_ipc = with_ipc,
		};

		if (plans[i].method == TD_METHOD_NONE)
			continue;
		if (d->cfg.nr_parts == MAX_TD_PARTS) {
			td_discovery__note(d, "%s: no TopDown: at most %d core types are measured",
					   plans[i].pmu, MAX_TD_PARTS);
			continue;
		}
		if (!build_part(&b))
			continue;
		full |= b.full;
		if (b.full)
			td_discovery__note(d, "%s: no TopDown: the events of all core types "
					   "exceed the %d counters read per CPU", plans[i].pmu,
					   MAX_EVENTS);
		else
			td_discovery__note(d, "%s: %s not usable: %s", plans[i].pmu,
					   td_method_name(plans[i].method), b.why);
	}
	return full;
}

/*
 * Build every usable plan's part. When they do not all fit MAX_EVENTS
 * (three core types), build again without the IPC events. A part that
 * cannot be built is reported and the others are kept.
 */
void td_discovery__build(struct td_discovery *d, const struct td_plan *plans, int n, int level)
{
	int nr_notes = d->nr_notes;

	td_discovery__reset_events(d, nr_notes);
	if (!build_parts(d, plans, n, level, true))
		return;
	td_discovery__reset_events(d, nr_notes);
	td_discovery__note(d, "IPC not counted: the TopDown events of all core types need the %d "
			   "event slots", MAX_EVENTS);
	build_parts(d, plans, n, level, false);
}
