// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The TopDown breakdown and IPC of each row, hybrid parts merged by slots. */
#include <math.h>
#include <string.h>
#include "util/macros.h"
#include "rows/metrics.h"

#define F(k, s, l, lv, f) { k, s, l, lv, offsetof(struct td_result, f) }

const struct td_field td_fields[] = {
	F("retiring", "retiring", "RETIRE", 1, retiring),
	F("bad_speculation", "bad-spec", "BADSPEC", 1, bad_speculation),
	F("frontend_bound", "frontend", "FRONTEND", 1, frontend_bound),
	F("backend_bound", "backend", "BACKEND", 1, backend_bound),
	F("heavy_operations", "heavy-ops", "HEAVY", 2, heavy_ops),
	F("light_operations", "light-ops", "LIGHT", 2, light_ops),
	F("branch_mispredicts", "branch-mispredicts", "BRMISP", 2, branch_mispredicts),
	F("machine_clears", "machine-clears", "MCLEAR", 2, machine_clears),
	F("fetch_latency", "fetch-latency", "FETCHLAT", 2, fetch_latency),
	F("fetch_bandwidth", "fetch-bandwidth", "FETCHBW", 2, fetch_bandwidth),
	F("memory_bound", "memory-bound", "MEMORY", 2, memory_bound),
	F("core_bound", "core-bound", "CORE", 2, core_bound),
	F("smt_contention", "smt-contention", "SMT", 0, smt_contention),
};

const int nr_td_fields = ARRAY_SIZE(td_fields);

bool td_field_shown(const struct interval *iv, int i)
{
	if (td_fields[i].level)
		return td_fields[i].level <= iv->level;
	return iv->smt_contention;
}

static double *field(struct td_result *r, int i)
{
	return (double *)((char *)r + td_fields[i].offset);
}

static void part_compute(const struct delta *ev, const struct td_config *cfg,
			 const struct td_part *p, const double *scale, struct td_result *r)
{
	struct td_counts c;

	td_counts__init(&c);
	c.slot_width = p->slot_width;
	c.arm_n2_erratum = p->arm_n2_erratum;
	for (int i = p->ev_lo; i < p->ev_hi && i < MAX_EVENTS; i++) {
		if (cfg->role[i] == TD_NO_ROLE)
			continue;
		td_counts__set(&c, cfg->role[i], delta__scaled(&ev[i]) * scale[i]);
	}
	td_counts__compute(p->method, &c, r);
}

/*
 * Weight each core type's fractions by the slots they cover. A node that
 * one valid part lacks (NAN) is NAN in the merge: a partial level 2 would
 * misstate the share.
 */
static void merge(struct td_result *out, const struct td_result *parts, int n)
{
	double total = 0;
	int valid = 0;

	memset(out, 0, sizeof(*out));
	for (int p = 0; p < n; p++) {
		if (!parts[p].valid || !isfinite(parts[p].slots))
			continue;
		total += parts[p].slots;
		valid++;
	}
	if (!valid || total <= 0) {
		out->valid = false;
		out->slots = NAN;
		for (int i = 0; i < nr_td_fields; i++)
			*field(out, i) = NAN;
		return;
	}
	out->valid = true;
	out->slots = total;
	for (int i = 0; i < nr_td_fields; i++) {
		double sum = 0;

		for (int p = 0; p < n; p++) {
			if (!parts[p].valid || !isfinite(parts[p].slots))
				continue;
			sum += *field((struct td_result *)&parts[p], i) * parts[p].slots;
		}
		*field(out, i) = sum / total;
	}
}

/* A role no event has stays NaN. */
static double sum_counts(double sum, const struct delta *d)
{
	return isnan(sum) ? delta__scaled(d) : sum + delta__scaled(d);
}

static double ipc_of(const struct delta *ev, const struct td_config *cfg)
{
	double cycles = NAN, instructions = NAN;

	for (int i = 0; i < MAX_EVENTS; i++) {
		if (cfg->role[i] == TD_CYCLES)
			cycles = sum_counts(cycles, &ev[i]);
		else if (cfg->role[i] == TD_INSTRUCTIONS)
			instructions = sum_counts(instructions, &ev[i]);
	}
	return td_ipc(instructions, cycles);
}

void metrics_compute(const struct delta *ev, const struct td_config *cfg, const double *scale,
		     struct td_result *td, double *ipc)
{
	struct td_result parts[MAX_TD_PARTS];
	int n = cfg->nr_parts < MAX_TD_PARTS ? cfg->nr_parts : MAX_TD_PARTS;

	for (int p = 0; p < n; p++)
		part_compute(ev, cfg, &cfg->parts[p], scale, &parts[p]);
	if (n == 1)
		*td = parts[0];
	else
		merge(td, parts, n);
	*ipc = ipc_of(ev, cfg);
}

void interval__fill_metrics(struct interval *iv, const struct td_config *cfg, const double *scale)
{
	struct delta sum[MAX_EVENTS];

	/* the system row: everything charged except idle */
	for (int i = 0; i < MAX_EVENTS; i++) {
		sum[i].count = iv->totals[i].count - iv->idle[i].count;
		sum[i].enabled = iv->totals[i].enabled - iv->idle[i].enabled;
		sum[i].running = iv->totals[i].running - iv->idle[i].running;
	}
	metrics_compute(sum, cfg, scale, &iv->td, &iv->ipc);
	for (size_t r = 0; r < iv->nr_rows; r++)
		metrics_compute(iv->rows[r].ev, cfg, scale, &iv->rows[r].td, &iv->rows[r].ipc);
}
