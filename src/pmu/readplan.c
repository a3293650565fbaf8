// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The read plan, decided from the event list and the TopDown roles alone:
 * which counts the switch program loads from memory and which need a
 * helper call, so that the loader's settings and --list say the same.
 */
#include <string.h>
#include "pmu/readplan.h"

/* The counts PERF_METRICS holds; the others of a slots group (none today)
 * would sit on generic counters, which only their own read updates. */
static bool is_metric_role(int role)
{
	switch (role) {
	case TD_RETIRING:
	case TD_BAD_SPEC:
	case TD_FE_BOUND:
	case TD_BE_BOUND:
	case TD_HEAVY_OPS:
	case TD_BR_MISPREDICT:
	case TD_FETCH_LAT:
	case TD_MEM_BOUND:
		return true;
	default:
		return false;
	}
}

static const struct td_part *part_of(const struct td_config *cfg, int i)
{
	for (int p = 0; cfg && p < cfg->nr_parts && p < MAX_TD_PARTS; p++)
		if (i >= cfg->parts[p].ev_lo && i < cfg->parts[p].ev_hi)
			return &cfg->parts[p];
	return NULL;
}

/*
 * A metric of a PERF_METRICS group: the driver's read of any TopDown
 * event of a CPU folds SLOTS and PERF_METRICS into the count of every
 * active one (intel_update_topdown_event()), so after the helper read of
 * the slots leader, read first, the metric's count is current in memory.
 */
static bool is_metric_member(const struct event_list *events, const struct td_config *cfg, int i)
{
	const struct td_part *part = part_of(cfg, i);
	int leader = events->ev[i].leader;

	return part && part->method == TD_PERF_METRICS && leader >= part->ev_lo && leader < i &&
	       cfg->role[leader] == TD_SLOTS && is_metric_role(cfg->role[i]);
}

static struct event_read plan_event(const struct read_plan *plan, const struct event_list *events,
				    const struct td_config *cfg, int i)
{
	const struct event_spec *e = &events->ev[i];
	struct event_read r = { .how = READ_HELPER, .via = i };

	r.always_on = e->type == PERF_TYPE_SOFTWARE;
	if (i == plan->clock)
		r.how = READ_CLOCK;
	else if (plan->memory && event_spec__counts_in_place(e))
		r.how = READ_MEMORY;
	else if (plan->memory && is_metric_member(events, cfg, i) &&
		 plan->ev[e->leader].how == READ_HELPER) {
		r.how = READ_MEMORY;
		r.via = e->leader;
	}
	return r;
}

static void count_helper_calls(struct read_plan *plan, const struct td_config *cfg)
{
	plan->nr_parts = 1;
	plan->parts[0] = (struct read_plan_part){ .ev_lo = 0, .ev_hi = plan->nr };
	if (cfg && cfg->nr_parts > 0) {
		plan->nr_parts = cfg->nr_parts < MAX_TD_PARTS ? cfg->nr_parts : MAX_TD_PARTS;
		for (int p = 0; p < plan->nr_parts; p++)
			plan->parts[p] = (struct read_plan_part){ .ev_lo = cfg->parts[p].ev_lo,
								  .ev_hi = cfg->parts[p].ev_hi };
	}
	for (int p = 0; p < plan->nr_parts; p++) {
		struct read_plan_part *part = &plan->parts[p];

		for (int i = part->ev_lo; i < part->ev_hi && i < plan->nr; i++)
			part->helper_calls += plan->ev[i].how != READ_MEMORY;
	}
}

void read_plan__build(struct read_plan *plan, const struct event_list *events,
		      const struct td_config *cfg, bool memory)
{
	memset(plan, 0, sizeof(*plan));
	plan->nr = events->nr < MAX_EVENTS ? events->nr : MAX_EVENTS;
	plan->memory = memory;
	plan->clock = -1;
	for (int i = 0; i < plan->nr; i++) {
		if (event_spec__is_cpu_clock(&events->ev[i])) {
			plan->clock = i;
			break;
		}
	}
	/* in index order: a member's leader is planned before it */
	for (int i = 0; i < plan->nr; i++)
		plan->ev[i] = plan_event(plan, events, cfg, i);
	count_helper_calls(plan, cfg);
}

bool read_plan__uses_memory(const struct read_plan *plan)
{
	for (int i = 0; i < plan->nr; i++)
		if (plan->ev[i].how == READ_MEMORY)
			return true;
	return false;
}

static void print_read(const struct read_plan *plan, int i, FILE *f)
{
	const struct event_read *r = &plan->ev[i];

	switch (r->how) {
	case READ_CLOCK:
		fprintf(f, "helper (its count times the slices)\n");
		break;
	case READ_MEMORY:
		if (r->via == i)
			fprintf(f, "memory (the kernel counts it in place)\n");
		else
			fprintf(f, "memory (current after the read of %d, whose times it takes)\n",
				r->via);
		break;
	default:
		fprintf(f, "helper\n");
		break;
	}
}

void read_plan__print(const struct read_plan *plan, const struct event_list *events,
		      const struct td_config *cfg, FILE *f)
{
	fprintf(f, "\nReads at each switch (%s):\n",
		plan->memory ? "kernels with bpf_rdonly_cast(), 6.2 and later; older ones read "
			       "every event through the helper"
			     : "--helper-reads: every event through the helper");
	for (int p = 0; p < plan->nr_parts; p++) {
		const struct read_plan_part *part = &plan->parts[p];

		if (cfg && p < cfg->nr_parts)
			fprintf(f, "  %s:\n", cfg->parts[p].pmu);
		for (int i = part->ev_lo; i < part->ev_hi && i < plan->nr; i++) {
			fprintf(f, "  %4d  %-30s ", i, events->ev[i].name);
			print_read(plan, i, f);
		}
		fprintf(f, "  helper calls per switch: %d\n", part->helper_calls);
	}
}
