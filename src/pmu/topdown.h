/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * TopDown (TMA) level 1 and level 2 fractions from counter deltas, one
 * method per PMU family, as perf's metric definitions compute them.
 * Pure arithmetic: docs/topdown-formulas.md gives every formula and source.
 */
#ifndef __TDTOP_TOPDOWN_H
#define __TDTOP_TOPDOWN_H

#include <stdbool.h>

/*
 * A row with fewer issue slots than this has too few samples of the 8-bit
 * PERF_METRICS fractions (and too much skid on the others) to mean anything:
 * it is reported as not measurable instead of as a breakdown.
 */
#define TD_MIN_SLOTS 1000.0

enum td_method {
	TD_METHOD_NONE,
	TD_PERF_METRICS,	/* Intel Ice Lake+ core: SLOTS + PERF_METRICS */
	TD_INTEL_GENERIC,	/* Intel before Ice Lake: topdown-* generic events */
	TD_INTEL_ATOM,		/* Intel E-core (cpu_atom): slot_width * cycles */
	TD_AMD_ZEN,		/* AMD Zen 4/5 PipelineL1/L2 */
	TD_ARM,			/* Arm PMUv3 STALL_SLOT* (SBSA) */
	TD_NR_METHODS,
};

/*
 * What each count is. A method reads only its own roles; a role missing from
 * td_counts makes the level-2 nodes it feeds NAN, or the row not measurable
 * when level 1 needs it. Shared roles are reused where the meaning matches.
 */
enum td_role {
	/* Intel PERF_METRICS; all but TD_UOP_DROPPING are slot counts */
	TD_SLOTS,		/* slots (TOPDOWN.SLOTS); optional */
	TD_RETIRING,		/* topdown-retiring; atom: TOPDOWN_RETIRING.ALL */
	TD_BAD_SPEC,		/* topdown-bad-spec (only a denominator term) */
	TD_FE_BOUND,		/* topdown-fe-bound; atom: TOPDOWN_FE_BOUND.ALL */
	TD_BE_BOUND,		/* topdown-be-bound; atom: TOPDOWN_BE_BOUND.ALL */
	TD_HEAVY_OPS,		/* topdown-heavy-ops; atom: UOPS_RETIRED.MS */
	/* topdown-br-mispredict; atom: TOPDOWN_BAD_SPECULATION.MISPREDICT */
	TD_BR_MISPREDICT,
	TD_FETCH_LAT,		/* topdown-fetch-lat; atom: TOPDOWN_FE_BOUND.FRONTEND_LATENCY */
	TD_MEM_BOUND,		/* topdown-mem-bound */
	TD_UOP_DROPPING,	/* INT_MISC.UOP_DROPPING; optional FE correction */
	/* shared */
	TD_CYCLES,		/* core cycles: atom CPU_CLK_UNHALTED.CORE, AMD ls_not_halted_cyc,
				 * Arm cpu_cycles */
	TD_INSTRUCTIONS,	/* retired instructions, for td_ipc() only */
	/* Intel before Ice Lake (sysfs topdown-*; .scale already applied) */
	TD_TOTAL_SLOTS,
	TD_SLOTS_ISSUED,
	TD_SLOTS_RETIRED,
	TD_FETCH_BUBBLES,
	TD_RECOVERY_BUBBLES,
	/* AMD Zen 4/5 */
	TD_AMD_DISPATCHED,	/* de_src_op_disp.all */
	TD_AMD_RETIRED_OPS,	/* ex_ret_ops */
	TD_AMD_NO_OPS_FE,	/* de_no_dispatch_per_slot.no_ops_from_frontend */
	TD_AMD_BE_STALLS,	/* de_no_dispatch_per_slot.backend_stalls */
	TD_AMD_SMT_CONTENTION,	/* de_no_dispatch_per_slot.smt_contention */
	TD_AMD_NO_OPS_FE_CYCLES, /* no_ops_from_frontend with cmask=slot_width (cycles) */
	TD_AMD_BRN_MISP,	/* ex_ret_brn_misp */
	TD_AMD_RESYNCS,		/* Zen 4 resyncs_or_nc_redirects, Zen 5 bp_redirects.resync */
	TD_AMD_NOT_COMPLETE,	/* ex_no_retire.not_complete */
	TD_AMD_LOAD_NOT_COMPLETE, /* ex_no_retire.load_not_complete */
	TD_AMD_UCODE_OPS,	/* ex_ret_ucode_ops */
	/* Arm PMUv3 */
	TD_ARM_OP_RETIRED,
	TD_ARM_OP_SPEC,
	TD_ARM_STALL_SLOT,
	TD_ARM_STALL_SLOT_FE,
	TD_ARM_STALL_SLOT_BE,
	TD_NR_ROLES,
};

#define TD_NO_ROLE (-1)		/* an event that plays no role */

/*
 * One row's counts over one interval, already scaled for multiplexing
 * (count * enabled / running) and, for the pre-Ice Lake events, multiplied
 * by their sysfs .scale. have[] says which roles were measured.
 */
struct td_counts {
	double v[TD_NR_ROLES];
	bool have[TD_NR_ROLES];
	unsigned int slot_width;	/* issue width per cycle: atom 5/6/8, AMD 6/8,
					 * Arm caps/slots; unused by the Intel core methods */
	bool arm_n2_erratum;		/* subtract cpu_cycles from the stall slot counts
					 * (Neoverse N2, as perf's neoverse-n2-v2 metrics) */
};

/*
 * Fractions of issue slots in [0, 1]. Level 2 nodes are NAN when the method
 * has no formula for them or their counts are missing; everything is NAN
 * when valid is false. AMD level 1 has five parts (smt_contention) that are
 * not forced to add up to 1.
 */
struct td_result {
	bool valid;
	double slots;		/* slots the fractions refer to; NAN if unknown */
	double retiring;
	double bad_speculation;
	double frontend_bound;
	double backend_bound;
	double heavy_ops;
	double light_ops;
	double branch_mispredicts;
	double machine_clears;
	double fetch_latency;
	double fetch_bandwidth;
	double memory_bound;
	double core_bound;
	double smt_contention;
};

/* Zero every count and mark every role missing. */
void td_counts__init(struct td_counts *c);

/* Record one count; a NAN value or an unknown role leaves the role missing. */
void td_counts__set(struct td_counts *c, enum td_role role, double value);

/* The breakdown of one row; r is always fully written. */
void td_counts__compute(enum td_method m, const struct td_counts *c, struct td_result *r);

/* Stable name used as the JSON "method" value; "unknown" out of range. */
const char *td_method_name(enum td_method m);

/* Inverse of td_method_name(): 0 on success, -EINVAL for an unknown name. */
int td_method_from_name(const char *name, enum td_method *m);

/* Stable names of the roles: "slots", "retiring", ..., "?" out of range. */
const char *td_role_name(int role);

/* The inverse: an enum td_role, or TD_NO_ROLE for an unknown name. */
int td_role_from_name(const char *name);

/* Instructions per cycle; NAN when cycles is not a positive number. */
double td_ipc(double instructions, double cycles);

#endif /* __TDTOP_TOPDOWN_H */
