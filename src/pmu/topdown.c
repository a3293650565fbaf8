// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown fractions from one row's counts, and the stable names of the
 * methods and roles. Each method follows the perf metric it names in
 * docs/topdown-formulas.md; deviations are noted there.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "util/macros.h"
#include "pmu/topdown.h"

/* perf's legacy stat-shadow.c sanitize_val(): rounding noise, not a result */
#define TD_NOISE 0.02

static const char *const method_names[TD_NR_METHODS] = {
	[TD_METHOD_NONE] = "none",
	[TD_PERF_METRICS] = "perf_metrics",
	[TD_INTEL_GENERIC] = "intel_generic",
	[TD_INTEL_ATOM] = "intel_atom",
	[TD_AMD_ZEN] = "amd_zen",
	[TD_ARM] = "arm",
};

static const char *const role_names[TD_NR_ROLES] = {
	[TD_SLOTS] = "slots",
	[TD_RETIRING] = "retiring",
	[TD_BAD_SPEC] = "bad-spec",
	[TD_FE_BOUND] = "fe-bound",
	[TD_BE_BOUND] = "be-bound",
	[TD_HEAVY_OPS] = "heavy-ops",
	[TD_BR_MISPREDICT] = "br-mispredict",
	[TD_FETCH_LAT] = "fetch-lat",
	[TD_MEM_BOUND] = "mem-bound",
	[TD_UOP_DROPPING] = "uop-dropping",
	[TD_CYCLES] = "cycles",
	[TD_INSTRUCTIONS] = "instructions",
	[TD_TOTAL_SLOTS] = "total-slots",
	[TD_SLOTS_ISSUED] = "slots-issued",
	[TD_SLOTS_RETIRED] = "slots-retired",
	[TD_FETCH_BUBBLES] = "fetch-bubbles",
	[TD_RECOVERY_BUBBLES] = "recovery-bubbles",
	[TD_AMD_DISPATCHED] = "dispatched",
	[TD_AMD_RETIRED_OPS] = "retired-ops",
	[TD_AMD_NO_OPS_FE] = "no-ops-frontend",
	[TD_AMD_BE_STALLS] = "backend-stalls",
	[TD_AMD_SMT_CONTENTION] = "smt-contention",
	[TD_AMD_NO_OPS_FE_CYCLES] = "no-ops-fe-cycles",
	[TD_AMD_BRN_MISP] = "brn-misp",
	[TD_AMD_RESYNCS] = "resyncs",
	[TD_AMD_NOT_COMPLETE] = "not-complete",
	[TD_AMD_LOAD_NOT_COMPLETE] = "load-not-complete",
	[TD_AMD_UCODE_OPS] = "ucode-ops",
	[TD_ARM_OP_RETIRED] = "op-retired",
	[TD_ARM_OP_SPEC] = "op-spec",
	[TD_ARM_STALL_SLOT] = "stall-slot",
	[TD_ARM_STALL_SLOT_FE] = "stall-slot-fe",
	[TD_ARM_STALL_SLOT_BE] = "stall-slot-be",
};

void td_counts__init(struct td_counts *c)
{
	memset(c, 0, sizeof(*c));
}

void td_counts__set(struct td_counts *c, enum td_role role, double value)
{
	if ((unsigned int)role >= TD_NR_ROLES || isnan(value))
		return;
	c->v[role] = value;
	c->have[role] = true;
}

/*
 * A count usable in a formula: measured, finite and not negative. A negative
 * delta can only come from a broken reading, so it counts as missing.
 */
static bool get(const struct td_counts *c, enum td_role role, double *v)
{
	double x = c->v[role];

	if (!c->have[role] || !isfinite(x) || x < 0)
		return false;
	*v = x;
	return true;
}

/* perf's max(0, x) in the metric expressions */
static double max0(double x)
{
	return x > 0 ? x : 0;
}

/* perf's d_ratio(): 0 rather than a division by zero */
static double d_ratio(double num, double den)
{
	return den > 0 ? num / den : 0;
}

/* perf's sanitize_val(): small negatives are rounding noise */
static double sanitize(double x)
{
	return (x < 0 && x >= -TD_NOISE) ? 0 : x;
}

static double clamp01(double x)
{
	if (isnan(x))
		return x;
	if (x < 0)
		return 0;
	return x > 1 ? 1 : x;
}

static void result_reset(struct td_result *r)
{
	r->valid = false;
	r->slots = NAN;
	r->retiring = NAN;
	r->bad_speculation = NAN;
	r->frontend_bound = NAN;
	r->backend_bound = NAN;
	r->heavy_ops = NAN;
	r->light_ops = NAN;
	r->branch_mispredicts = NAN;
	r->machine_clears = NAN;
	r->fetch_latency = NAN;
	r->fetch_bandwidth = NAN;
	r->memory_bound = NAN;
	r->core_bound = NAN;
	r->smt_contention = NAN;
}

/* A non-measurable row keeps its slot count (for display) and nothing else. */
static void result_invalidate(struct td_result *r)
{
	double slots = r->slots;

	result_reset(r);
	r->slots = slots;
}

/*
 * Counters read at slightly different instants and truncated fractions can
 * push a node a little outside [0, 1]; a fraction of slots never is.
 */
static void result_clamp(struct td_result *r)
{
	double *f[] = {
		&r->retiring, &r->bad_speculation, &r->frontend_bound, &r->backend_bound,
		&r->heavy_ops, &r->light_ops, &r->branch_mispredicts, &r->machine_clears,
		&r->fetch_latency, &r->fetch_bandwidth, &r->memory_bound, &r->core_bound,
		&r->smt_contention,
	};

	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		*f[i] = clamp01(*f[i]);
}

/* A level-2 node counted directly, its sibling as the rest of the parent. */
static void split(double parent, double counted, double *node, double *rest)
{
	*node = counted;
	*rest = max0(parent - counted);
}

/*
 * Ice Lake+ (spr-metrics.json tma_*): each metric count is slots * byte / 255
 * truncated, so the four counts add up to a little less than slots; dividing
 * by their sum undoes that. Bad speculation is the remainder.
 */
static bool td_perf_metrics(const struct td_counts *c, struct td_result *r)
{
	double ret, bad, fe, be, sum, v, drop = 0;

	if (!get(c, TD_RETIRING, &ret) || !get(c, TD_BAD_SPEC, &bad) ||
	    !get(c, TD_FE_BOUND, &fe) || !get(c, TD_BE_BOUND, &be))
		return false;
	sum = ret + bad + fe + be;
	r->slots = get(c, TD_SLOTS, &v) ? v : sum;
	if (sum <= 0 || r->slots < TD_MIN_SLOTS)
		return false;

	/* INT_MISC.UOP_DROPPING / tma_info_thread_slots, only when counted */
	if (get(c, TD_UOP_DROPPING, &v))
		drop = v / r->slots;

	r->retiring = ret / sum;
	r->frontend_bound = fe / sum - drop;
	r->backend_bound = be / sum;
	r->bad_speculation = max0(1 - (r->frontend_bound + r->backend_bound + r->retiring));

	if (get(c, TD_HEAVY_OPS, &v))
		split(r->retiring, v / sum, &r->heavy_ops, &r->light_ops);
	if (get(c, TD_BR_MISPREDICT, &v))
		split(r->bad_speculation, v / sum, &r->branch_mispredicts, &r->machine_clears);
	if (get(c, TD_FETCH_LAT, &v))
		split(r->frontend_bound, v / sum - drop, &r->fetch_latency, &r->fetch_bandwidth);
	if (get(c, TD_MEM_BOUND, &v))
		split(r->backend_bound, v / sum, &r->memory_bound, &r->core_bound);
	return true;
}

/*
 * Before Ice Lake (perf's stat-shadow.c td_* helpers): everything over
 * TotalSlots, backend bound is the remainder. Without recovery bubbles
 * (Silvermont) bad speculation cannot be separated and stays in backend.
 */
static bool td_intel_generic(const struct td_counts *c, struct td_result *r)
{
	double total, retired, fetch, issued, recovery;
	bool have_bad;

	if (!get(c, TD_TOTAL_SLOTS, &total) || !get(c, TD_SLOTS_RETIRED, &retired) ||
	    !get(c, TD_FETCH_BUBBLES, &fetch))
		return false;
	have_bad = get(c, TD_SLOTS_ISSUED, &issued) && get(c, TD_RECOVERY_BUBBLES, &recovery);
	r->slots = total;
	if (total < TD_MIN_SLOTS)
		return false;

	r->retiring = retired / total;
	r->frontend_bound = fetch / total;
	if (have_bad) {
		r->bad_speculation = sanitize((issued - retired + recovery) / total);
		/* td_be_bound(): nothing counted is not "all backend bound" */
		if (r->retiring + r->frontend_bound + r->bad_speculation == 0)
			return false;
		r->backend_bound = sanitize(1.0 - r->bad_speculation - r->retiring -
					    r->frontend_bound);
	} else {
		if (r->retiring + r->frontend_bound == 0)
			return false;
		r->backend_bound = sanitize(1.0 - r->retiring - r->frontend_bound);
	}
	return true;
}

/*
 * Intel E-cores (adl-metrics.json, Unit cpu_atom): slot counts over
 * slot_width * cycles, bad speculation as the remainder of the slots.
 */
static bool td_intel_atom(const struct td_counts *c, struct td_result *r)
{
	double cycles, ret, fe, be, v;

	if (!c->slot_width || !get(c, TD_CYCLES, &cycles) || !get(c, TD_RETIRING, &ret) ||
	    !get(c, TD_FE_BOUND, &fe) || !get(c, TD_BE_BOUND, &be))
		return false;
	r->slots = c->slot_width * cycles;
	if (r->slots < TD_MIN_SLOTS || ret + fe + be <= 0)
		return false;

	r->retiring = ret / r->slots;
	r->frontend_bound = fe / r->slots;
	r->backend_bound = be / r->slots;
	r->bad_speculation = max0((r->slots - (fe + be + ret)) / r->slots);

	if (get(c, TD_HEAVY_OPS, &v))
		split(r->retiring, v / r->slots, &r->heavy_ops, &r->light_ops);
	if (get(c, TD_BR_MISPREDICT, &v))
		split(r->bad_speculation, v / r->slots, &r->branch_mispredicts, &r->machine_clears);
	if (get(c, TD_FETCH_LAT, &v))
		split(r->frontend_bound, v / r->slots, &r->fetch_latency, &r->fetch_bandwidth);
	return true;
}

/* AMD level 2: each level-1 parent split by the ratio of two events. */
static void amd_level2(const struct td_counts *c, double no_fe, double ret_ops,
		       struct td_result *r)
{
	double w = c->slot_width, v, a, b;

	if (get(c, TD_AMD_NO_OPS_FE_CYCLES, &v)) {
		r->fetch_latency = w * v / r->slots;
		r->fetch_bandwidth = (no_fe - w * v) / r->slots;
	}
	if (get(c, TD_AMD_BRN_MISP, &a) && get(c, TD_AMD_RESYNCS, &b)) {
		r->branch_mispredicts = d_ratio(r->bad_speculation * a, a + b);
		r->machine_clears = d_ratio(r->bad_speculation * b, a + b);
	}
	if (get(c, TD_AMD_LOAD_NOT_COMPLETE, &a) && get(c, TD_AMD_NOT_COMPLETE, &b)) {
		r->memory_bound = r->backend_bound * d_ratio(a, b);
		r->core_bound = r->backend_bound * (1 - d_ratio(a, b));
	}
	if (get(c, TD_AMD_UCODE_OPS, &v)) {
		r->heavy_ops = r->retiring * d_ratio(v, ret_ops);
		r->light_ops = r->retiring * (1 - d_ratio(v, ret_ops));
	}
}

/*
 * AMD Zen 4/5 (amdzen4/amdzen5 pipeline.json): five level-1 parts over
 * slot_width * cycles, not forced to add up to 1.
 */
static bool td_amd_zen(const struct td_counts *c, struct td_result *r)
{
	double cycles, disp, ret_ops, no_fe, be, v;

	if (!c->slot_width || !get(c, TD_CYCLES, &cycles) || !get(c, TD_AMD_DISPATCHED, &disp) ||
	    !get(c, TD_AMD_RETIRED_OPS, &ret_ops) || !get(c, TD_AMD_NO_OPS_FE, &no_fe) ||
	    !get(c, TD_AMD_BE_STALLS, &be))
		return false;
	r->slots = c->slot_width * cycles;
	if (r->slots < TD_MIN_SLOTS || disp + ret_ops + no_fe + be <= 0)
		return false;

	r->frontend_bound = no_fe / r->slots;
	r->bad_speculation = (disp - ret_ops) / r->slots;
	r->backend_bound = be / r->slots;
	r->retiring = ret_ops / r->slots;
	if (get(c, TD_AMD_SMT_CONTENTION, &v))
		r->smt_contention = v / r->slots;
	amd_level2(c, no_fe, ret_ops, r);
	return true;
}

/*
 * Arm (arm64/sbsa.json): front and back end over #slots * cpu_cycles; the
 * slots not stalled are split by the retired share of speculated ops.
 */
static bool td_arm(const struct td_counts *c, struct td_result *r)
{
	double cycles, stall, stall_fe, stall_be, op_ret, op_spec, used;

	if (!c->slot_width || !get(c, TD_CYCLES, &cycles) || !get(c, TD_ARM_STALL_SLOT, &stall) ||
	    !get(c, TD_ARM_STALL_SLOT_FE, &stall_fe) || !get(c, TD_ARM_STALL_SLOT_BE, &stall_be) ||
	    !get(c, TD_ARM_OP_RETIRED, &op_ret) || !get(c, TD_ARM_OP_SPEC, &op_spec))
		return false;
	r->slots = c->slot_width * cycles;
	if (r->slots < TD_MIN_SLOTS || stall + stall_fe + stall_be + op_spec <= 0)
		return false;

	/* Neoverse N2 counts one extra stall slot per cycle (neoverse-n2-v2) */
	if (c->arm_n2_erratum) {
		stall_fe -= cycles;
		stall -= cycles;
	}
	r->frontend_bound = stall_fe / r->slots;
	r->backend_bound = stall_be / r->slots;
	used = 1 - stall / r->slots;
	/* no op speculated: nothing retired nor wasted, not a division by zero */
	r->retiring = d_ratio(op_ret, op_spec) * used;
	r->bad_speculation = op_spec > 0 ? (1 - op_ret / op_spec) * used : 0;
	return true;
}

void td_counts__compute(enum td_method m, const struct td_counts *c, struct td_result *r)
{
	bool ok = false;

	if (!r)
		return;
	result_reset(r);
	if (!c)
		return;

	switch (m) {
	case TD_PERF_METRICS:
		ok = td_perf_metrics(c, r);
		break;
	case TD_INTEL_GENERIC:
		ok = td_intel_generic(c, r);
		break;
	case TD_INTEL_ATOM:
		ok = td_intel_atom(c, r);
		break;
	case TD_AMD_ZEN:
		ok = td_amd_zen(c, r);
		break;
	case TD_ARM:
		ok = td_arm(c, r);
		break;
	default:
		break;
	}
	if (!ok) {
		result_invalidate(r);
		return;
	}
	result_clamp(r);
	r->valid = true;
}

const char *td_method_name(enum td_method m)
{
	if ((unsigned int)m >= TD_NR_METHODS)
		return "unknown";
	return method_names[m];
}

int td_method_from_name(const char *name, enum td_method *m)
{
	if (!name || !m)
		return -EINVAL;
	for (int i = 0; i < TD_NR_METHODS; i++) {
		if (!strcmp(name, method_names[i])) {
			*m = (enum td_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *td_role_name(int role)
{
	if (role < 0 || role >= TD_NR_ROLES || !role_names[role])
		return "?";
	return role_names[role];
}

int td_role_from_name(const char *name)
{
	for (int r = 0; r < TD_NR_ROLES; r++)
		if (role_names[r] && !strcmp(role_names[r], name))
			return r;
	return TD_NO_ROLE;
}

double td_ipc(double instructions, double cycles)
{
	if (!(cycles > 0) || !isfinite(cycles) || isnan(instructions))
		return NAN;
	return instructions / cycles;
}
