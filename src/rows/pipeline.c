// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Sample to shown interval: aggregation, metrics and sorting in one call. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "rows/metrics.h"
#include "rows/pipeline.h"
#include "util/errmsg.h"

void pipeline__init(struct pipeline *p, const struct event_list *el)
{
	memset(p, 0, sizeof(*p));
	p->nr_events = el->nr;
	for (int i = 0; i < el->nr && i < MAX_EVENTS; i++) {
		p->names[i] = el->ev[i].name;
		p->scale[i] = el->ev[i].scale > 0 ? el->ev[i].scale : 1.0;
		p->cfg.role[i] = TD_NO_ROLE;
	}
	for (int i = el->nr; i < MAX_EVENTS; i++)
		p->cfg.role[i] = TD_NO_ROLE;
	p->method = "none";
}

static bool has_role(const struct pipeline *p, int role)
{
	for (int i = 0; i < p->nr_events && i < MAX_EVENTS; i++)
		if (p->cfg.role[i] == role)
			return true;
	return false;
}

static bool has_method(const struct pipeline *p, enum td_method m)
{
	for (int i = 0; i < p->cfg.nr_parts; i++)
		if (p->cfg.parts[i].method == m)
			return true;
	return false;
}

const char *pipeline__sort_missing(const struct pipeline *p, const struct sort_key *k,
				   enum group_by by)
{
	if (k->kind == SORT_PID)
		return by == BY_CGROUP ? "cgroup rows have no PID" : NULL;
	if (k->kind != SORT_TD)
		return NULL;
	if (k->field == TD_SORT_IPC)
		return has_role(p, TD_CYCLES) && has_role(p, TD_INSTRUCTIONS)
			       ? NULL
			       : "IPC needs cycles and instructions, which are not counted";
	if (!p->topdown)
		return "TopDown is not measured";
	if (k->field >= 0 && td_fields[k->field].level == 2 && p->cfg.max_level < 2)
		return "TopDown level 2 is not measured (-l 2 measures it where the CPU has it)";
	if (k->field >= 0 && !td_fields[k->field].level && !has_method(p, TD_AMD_ZEN))
		return "only AMD Zen measures SMT contention";
	return NULL;
}

/* Append *s* to the message in *err*, after *sep* unless it is the first. */
static void append(char *err, size_t errlen, size_t *len, const char *sep, const char *s)
{
	if (*len < errlen)
		*len += (size_t)snprintf(err + *len, errlen - *len, "%s%s", sep, s);
}

int pipeline__check_sort(const struct pipeline *p, const char *typed, const struct sort_key *k,
			 enum group_by by, char *err, size_t errlen)
{
	const char *why = pipeline__sort_missing(p, k, by);
	struct sort_key keys[3 + 2 + MAX_EVENTS + 32];
	const char *sep = "";
	size_t len, n = 0;

	if (!why)
		return 0;
	keys[n++] = (struct sort_key){ .kind = SORT_CPU };
	keys[n++] = (struct sort_key){ .kind = SORT_PID };
	keys[n++] = (struct sort_key){ .kind = SORT_COMM };
	for (int i = 0; i < nr_td_fields && i < 32; i++)
		keys[n++] = (struct sort_key){ .kind = SORT_TD, .field = i };
	keys[n++] = (struct sort_key){ .kind = SORT_TD, .field = TD_SORT_SLOTS };
	keys[n++] = (struct sort_key){ .kind = SORT_TD, .field = TD_SORT_IPC };
	for (int i = 0; i < p->nr_events && i < MAX_EVENTS; i++)
		keys[n++] = (struct sort_key){ .kind = SORT_EVENT, .event = i };
	len = (size_t)snprintf(err, errlen, "sort key '%s' has no values here: %s (available: ",
			       typed, why);
	for (size_t i = 0; i < n; i++) {
		const char *name = sort_key__name(&keys[i], p->names, p->nr_events);
		struct sort_key parsed;

		/* an event called "slots" takes the name: listed once, as the event */
		if (pipeline__sort_missing(p, &keys[i], by) ||
		    sort_key__parse(name, p->names, p->nr_events, &parsed) ||
		    parsed.kind != keys[i].kind)
			continue;
		append(err, errlen, &len, sep, name);
		sep = ", ";
	}
	append(err, errlen, &len, "", ")");
	return -EINVAL;
}

/*
 * A group that was enabled but never on the PMU, or whose reads failed
 * (a pinned group returns EBUSY when it cannot be scheduled): its
 * counters are held by someone else.
 */
static bool topdown_stalled(const struct pipeline *p, const struct interval *iv)
{
	for (int i = 0; i < p->cfg.nr_parts; i++) {
		const struct delta *lead = &iv->totals[p->cfg.parts[i].ev_lo];

		if (p->cfg.parts[i].ev_lo >= p->cfg.parts[i].ev_hi)
			continue;
		if ((lead->enabled && !lead->running) || (iv->read_errors && !lead->count))
			return true;
	}
	return false;
}

int pipeline__build(const struct pipeline *p, const struct sample *s, const struct view *v,
		    int level, struct interval *iv)
{
	int ret = interval__aggregate(s, v, p->nr_events, p->names, iv);

	if (ret)
		return ret;
	iv->method = p->method;
	iv->notice = p->notice;
	if (p->topdown && topdown_stalled(p, iv))
		iv->notice = "the TopDown counters did not count in this interval: another user "
			     "(the NMI watchdog, perf, a second tdtop) may hold them";
	iv->topdown = p->topdown;
	iv->cgroups = v->cg != NULL;
	iv->level = level;
	for (int i = 0; i < p->cfg.nr_parts; i++)
		iv->smt_contention |= p->topdown && p->cfg.parts[i].method == TD_AMD_ZEN;
	iv->bpf_ns_per_switch = NAN;
	iv->self_cpu_pct = NAN;
	interval__fill_metrics(iv, &p->cfg, p->scale);
	interval__sort(iv, v);
	return 0;
}
