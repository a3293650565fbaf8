// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown discovery for Intel core PMUs: which of PERF_METRICS (Ice Lake
 * and later), the generic topdown-* events (Sandy Bridge to Cascade Lake)
 * and the E-core events a PMU has, their event groups, and when SMT makes
 * the pre-Ice Lake counts whole-core only.
 */
#include <stdio.h>
#include <string.h>
#include "pmu/discover_internal.h"

static const char *const l1_metrics[] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
};
static const char *const l2_metrics[] = {
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};
static const char *const generic_required[] = {
	"topdown-total-slots", "topdown-slots-retired", "topdown-fetch-bubbles",
};
static const char *const atom_required[] = {
	"topdown-retiring", "topdown-fe-bound", "topdown-be-bound",
};

/* The config an alias resolves to, through the same parser as -e. */
static int alias_config(const char *root, const char *pmu, const char *name, __u64 *config)
{
	char spec[2 * PMU_NAME_LEN + 4];
	struct event_list tmp;

	snprintf(spec, sizeof(spec), "%s/%s/", pmu, name);
	if (event_list__parse(root, spec, &tmp, NULL, 0))
		return -1;
	*config = tmp.ev[0].config;
	return 0;
}

/* Does the alias set term *term* to *val* (e.g. any=1)? */
static bool alias_has_term(const char *root, const char *pmu, const char *name,
			   const char *term, __u64 val)
{
	struct pmu_term terms[PMU_MAX_TERMS];
	char str[PMU_ALIAS_LEN];
	int nr;

	if (pmu_read_alias(root, pmu, name, str, sizeof(str), NULL, 0))
		return false;
	nr = pmu_terms_parse(str, terms, PMU_MAX_TERMS, NULL, 0);
	for (int i = 0; i < nr; i++)
		if (!strcmp(terms[i].name, term) && terms[i].val == val)
			return true;
	return false;
}

static bool is_intel(const struct td_discovery *d)
{
	return !strcmp(d->cpu.vendor, "GenuineIntel");
}

/*
 * Slot width of an Intel E-core, as perf's per-model metric files give
 * tma_info_core_slots: Skymont's fe-bound event (TOPDOWN_FE_BOUND.ALL,
 * 0x9c) marks an 8-wide core; otherwise the model decides.
 */
static unsigned int atom_width(const struct td_discovery *d, const char *pmu, __u64 fe_config,
			       const char **uarch)
{
	if ((fe_config & 0xff) == 0x9c) {
		*uarch = "Skymont";
		return 8;
	}
	if (!strcmp(pmu, "cpu_lowpower")) {
		*uarch = "Crestmont";	/* Arrow Lake-H low-power island */
		return 6;
	}
	if (!is_intel(d) || d->cpu.family != 6)
		return 0;
	switch (d->cpu.model) {
	case 0x97: case 0x9a:	/* Alder Lake */
	case 0xb7: case 0xba: case 0xbf:	/* Raptor Lake */
	case 0xbe:		/* Alder Lake-N */
		*uarch = "Gracemont";
		return 5;
	case 0xaa: case 0xac:	/* Meteor Lake */
	case 0xaf:		/* Sierra Forest */
	case 0xb6:		/* Grand Ridge */
		*uarch = "Crestmont";
		return 6;
	case 0xbd:		/* Lunar Lake */
	case 0xc5: case 0xc6:	/* Arrow Lake */
		*uarch = "Skymont";
		return 8;
	}
	return 0;
}

/* Ice Lake and later: slots and the level-1 metrics, maybe level 2. */
static void classify_perf_metrics(const char *root, struct td_plan *p)
{
	char missing[TD_WHY_LEN];

	if (!pmu_has_aliases(root, p->pmu, l1_metrics, ARRAY_SIZE(l1_metrics), missing,
			     sizeof(missing))) {
		td_plan__why(p, "PMU '%s' lists slots but not %s", p->pmu, missing);
		return;
	}
	p->method = TD_PERF_METRICS;
	p->l2 = pmu_has_aliases(root, p->pmu, l2_metrics, ARRAY_SIZE(l2_metrics), missing,
				sizeof(missing));
	if (!p->l2)
		td_plan__why(p, "PMU '%s' has no %s: PERF_METRICS holds only the 4 level-1 "
			     "metrics here (Ice Lake, Tiger Lake)", p->pmu, missing);
}

/* E-cores: the three level-1 events and a known slot width. */
static void classify_atom(const struct td_discovery *d, struct td_plan *p)
{
	char missing[TD_WHY_LEN];
	__u64 cfg = 0;

	if (!pmu_has_aliases(d->sysfs_root, p->pmu, atom_required, ARRAY_SIZE(atom_required),
			     missing, sizeof(missing))) {
		td_plan__why(p, "PMU '%s' lists topdown-retiring but not %s", p->pmu, missing);
		return;
	}
	if (alias_config(d->sysfs_root, p->pmu, "topdown-fe-bound", &cfg)) {
		td_plan__why(p, "PMU '%s': topdown-fe-bound does not parse", p->pmu);
		return;
	}
	p->width = atom_width(d, p->pmu, cfg, &p->uarch);
	if (!p->width) {
		td_plan__why(p, "PMU '%s' has E-core TopDown events but the slot width of %s "
			     "(family %d model 0x%x) is not known", p->pmu, d->cpu_model,
			     d->cpu.family, (unsigned int)d->cpu.model);
		return;
	}
	p->method = TD_INTEL_ATOM;
	td_plan__why(p, "E-core (%s) level-2 events are not in sysfs", p->pmu);
}

void intel_classify(const struct td_discovery *d, struct td_plan *p)
{
	const char *root = d->sysfs_root;
	char missing[TD_WHY_LEN];

	if (pmu_has_alias(root, p->pmu, "slots")) {
		classify_perf_metrics(root, p);
	} else if (pmu_has_aliases(root, p->pmu, generic_required, ARRAY_SIZE(generic_required),
				   missing, sizeof(missing))) {
		p->method = TD_INTEL_GENERIC;
		p->ht_variant = alias_has_term(root, p->pmu, "topdown-total-slots", "any", 1);
		td_plan__why(p, "pre-Ice Lake TopDown events have no level 2 in sysfs");
	} else if (pmu_has_alias(root, p->pmu, "topdown-retiring")) {
		classify_atom(d, p);
	} else {
		td_plan__why(p, "PMU '%s' lists no TopDown events (no slots or topdown-* in "
			     "its events/)", p->pmu);
	}
}

/*
 * Ice Lake and later: slots leads (the kernel requires it, and pinning
 * turns "not on the PMU" into -EBUSY instead of a stale value), then only
 * the metrics the formulas use, since each read of any of them makes the
 * kernel update and reset the whole group.
 */
int intel_build_perf_metrics(struct td_build *b)
{
	static const struct td_ev_def l1[] = {
		{ "slots", TD_SLOTS, NULL },
		{ "topdown-retiring", TD_RETIRING, NULL },
		{ "topdown-bad-spec", TD_BAD_SPEC, NULL },
		{ "topdown-fe-bound", TD_FE_BOUND, NULL },
		{ "topdown-be-bound", TD_BE_BOUND, NULL },
		{ "topdown-heavy-ops", TD_HEAVY_OPS, NULL },
		{ "topdown-br-mispredict", TD_BR_MISPREDICT, NULL },
		{ "topdown-fetch-lat", TD_FETCH_LAT, NULL },
		{ "topdown-mem-bound", TD_MEM_BOUND, NULL },
	};

	if (td_build__group(b, l1, b->level >= 2 ? 9 : 5))
		return -1;
	/* IPC from the free fixed counters 0 and 1, outside the group */
	if (b->with_ipc && (td_build__solo(b, "cpu-cycles", TD_CYCLES) ||
			    td_build__solo(b, "instructions", TD_INSTRUCTIONS)))
		return -1;
	return 0;
}

/*
 * Sandy Bridge to Cascade Lake: one group of the sysfs topdown-* events.
 * Slots-issued only feeds bad speculation together with recovery bubbles
 * (Silvermont has neither, and its issued and retired events are the same).
 */
int intel_build_generic(struct td_build *b)
{
	struct td_discovery *d = b->d;
	struct td_ev_def defs[5] = {
		{ "topdown-total-slots", TD_TOTAL_SLOTS, NULL },
		{ "topdown-slots-retired", TD_SLOTS_RETIRED, NULL },
		{ "topdown-fetch-bubbles", TD_FETCH_BUBBLES, NULL },
	};
	int n = 3;

	if (pmu_has_alias(d->sysfs_root, b->p->pmu, "topdown-slots-issued") &&
	    pmu_has_alias(d->sysfs_root, b->p->pmu, "topdown-recovery-bubbles")) {
		defs[n++] = (struct td_ev_def){ "topdown-slots-issued", TD_SLOTS_ISSUED, NULL };
		defs[n++] = (struct td_ev_def){ "topdown-recovery-bubbles", TD_RECOVERY_BUBBLES,
						NULL };
	}
	if (td_build__group(b, defs, n))
		return -1;
	if (!b->with_ipc)
		return 0;
	/*
	 * With HT the core's 8 general counters are split 4 per thread and the
	 * group takes all 4 (total slots sits on fixed counter 1), so cycles
	 * would never be scheduled; instructions has fixed counter 0.
	 */
	if (!b->p->ht_variant && td_build__solo(b, "cpu-cycles", TD_CYCLES))
		return -1;
	return td_build__solo(b, "instructions", TD_INSTRUCTIONS);
}

/* Intel E-cores: slots are slot_width * cycles, so cycles lead the group. */
int intel_build_atom(struct td_build *b)
{
	static const struct td_ev_def defs[] = {
		{ "cpu-cycles", TD_CYCLES, NULL },
		{ "topdown-retiring", TD_RETIRING, NULL },
		{ "topdown-fe-bound", TD_FE_BOUND, NULL },
		{ "topdown-be-bound", TD_BE_BOUND, NULL },
	};

	if (td_build__group(b, defs, ARRAY_SIZE(defs)))
		return -1;
	return b->with_ipc ? td_build__solo(b, "instructions", TD_INSTRUCTIONS) : 0;
}

/*
 * Before Ice Lake the total-slots and recovery-bubbles events count the
 * whole core when the kernel chose their HT form (any=1, .scale 2), and
 * it does so whenever SMT was possible at boot.
 */
void intel_check_per_core(struct td_discovery *d, const struct td_plan *plans, int n)
{
	for (int i = 0; i < n; i++) {
		if (plans[i].method != TD_INTEL_GENERIC)
			continue;
		if (plans[i].ht_variant && !d->smt_known)
			d->smt_on = true;
		if (d->smt_on) {
			d->cfg.per_core_only = true;
			snprintf(d->per_core_reason, sizeof(d->per_core_reason),
				 "SMT is on: pre-Ice Lake TopDown counts whole cores, per-task "
				 "values are not valid");
		} else if (plans[i].ht_variant) {
			d->cfg.per_core_only = true;
			snprintf(d->per_core_reason, sizeof(d->per_core_reason),
				 "SMT is off now but was possible at boot: the kernel gave "
				 "topdown-total-slots its whole-core form (any=1, scale 2), so "
				 "per-task values are not valid");
		}
		if (plans[i].ht_variant && d->nmi_watchdog == 1)
			td_discovery__note(d, "the NMI watchdog holds fixed counter 1: with HT the "
					   "5 topdown events need 5 of 4 general counters and "
					   "cannot be scheduled (sysctl kernel.nmi_watchdog=0)");
	}
}
