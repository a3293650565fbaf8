// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>
#include <string.h>
#include "metrics.h"

static const size_t fraction_fields[] = {
	offsetof(struct td_result, retiring),
	offsetof(struct td_result, bad_speculation),
	offsetof(struct td_result, frontend_bound),
	offsetof(struct td_result, backend_bound),
	offsetof(struct td_result, heavy_ops),
	offsetof(struct td_result, light_ops),
	offsetof(struct td_result, branch_mispredicts),
	offsetof(struct td_result, machine_clears),
	offsetof(struct td_result, fetch_latency),
	offsetof(struct td_result, fetch_bandwidth),
	offsetof(struct td_result, memory_bound),
	offsetof(struct td_result, core_bound),
	offsetof(struct td_result, smt_contention),
};

#define NR_FRACTIONS (sizeof(fraction_fields) / sizeof(fraction_fields[0]))

static double *field(struct td_result *r, size_t i)
{
	return (double *)((char *)r + fraction_fields[i]);
}

static void part_compute(const struct delta *ev, const struct td_config *cfg,
			 const struct td_part *p, const double *scale, struct td_result *r)
{
	struct td_counts c;

	td_counts_init(&c);
	c.slot_width = p->slot_width;
	c.arm_n2_erratum = p->arm_n2_erratum;
	for (int i = p->ev_lo; i < p->ev_hi && i < MAX_EVENTS; i++) {
		if (cfg->role[i] == TD_NO_ROLE)
			continue;
		td_counts_set(&c, cfg->role[i], delta_scaled(&ev[i]) * scale[i]);
	}
	td_compute(p->method, &c, r);
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
		for (size_t i = 0; i < NR_FRACTIONS; i++)
			*field(out, i) = NAN;
		return;
	}
	out->valid = true;
	out->slots = total;
	for (size_t i = 0; i < NR_FRACTIONS; i++) {
		double sum = 0;

		for (int p = 0; p < n; p++) {
			if (!parts[p].valid || !isfinite(parts[p].slots))
				continue;
			sum += *field((struct td_result *)&parts[p], i) * parts[p].slots;
		}
		*field(out, i) = sum / total;
	}
}

static double ipc_of(const struct delta *ev, const struct td_config *cfg)
{
	double cycles = NAN, instructions = NAN;

	for (int i = 0; i < MAX_EVENTS; i++) {
		if (cfg->role[i] == TD_CYCLES)
			cycles = isnan(cycles) ? delta_scaled(&ev[i]) : cycles + delta_scaled(&ev[i]);
		else if (cfg->role[i] == TD_INSTRUCTIONS)
			instructions = isnan(instructions) ? delta_scaled(&ev[i])
							   : instructions + delta_scaled(&ev[i]);
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

void metrics_fill(struct interval *iv, const struct td_config *cfg, const double *scale)
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
