// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown discovery for Arm PMUv3: the STALL_SLOT events and the slot
 * width in caps/slots (SBSA TopDown), the Neoverse N2 erratum, and the
 * group that leaves a counter for IPC when one is free.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "util/fileio.h"
#include "pmu/discover_internal.h"

/* General-purpose counters per logical CPU besides the cycle counter on
 * Neoverse N1/N2/V1/V2, which sysfs does not expose. The NMI watchdog,
 * when on, holds the cycle counter and so pushes cpu_cycles onto one. */
#define ARM_GP_COUNTERS 6

static const char *const arm_required[] = {
	"cpu_cycles", "stall_slot", "stall_slot_frontend", "stall_slot_backend",
	"op_spec", "op_retired",
};

/* The Arm PMUv3 drivers name their PMUs armv8_<core> (and armv9_). */
bool arm_is_core_pmu(const char *name)
{
	return !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6);
}

/* caps/slots, written as "0x%08x" by arm_pmuv3.c; 0 when absent. */
static unsigned int arm_slots(const struct td_discovery *d, const char *pmu)
{
	char path[PATH_MAX], buf[32];
	__u64 v;

	if (!pmu_name_valid(pmu))
		return 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/caps/slots", d->sysfs_root,
		 pmu);
	if (read_small_file(path, buf, sizeof(buf)) < 0 || pmu_parse_u64(buf, &v) || v > 255)
		return 0;
	return (unsigned int)v;
}

/*
 * perf's neoverse-n2-v2 metrics subtract cpu_cycles from the stall slot
 * counts unless strcmp_cpuid_str(0x410fd493) (N2 r0p3 or later) or the
 * core is not an N2: the erratum is N2 r0p0-r0p2.
 */
static bool arm_n2_erratum(const struct td_cpuinfo *c)
{
	return c->arm && c->arm_implementer == 0x41 && c->arm_part == 0xd49 &&
	       (c->arm_variant << 4 | c->arm_revision) < 0x03;
}

void arm_classify(const struct td_discovery *d, struct td_plan *p)
{
	char missing[TD_WHY_LEN];

	if (!pmu_has_aliases(d->sysfs_root, p->pmu, arm_required, ARRAY_SIZE(arm_required), missing,
			     sizeof(missing))) {
		td_plan__why(p, "PMU '%s' has no %s (Armv8.4 STALL_SLOT events; KVM guests "
			     "do not get them)", p->pmu, missing);
		return;
	}
	p->width = arm_slots(d, p->pmu);
	if (!p->width) {
		td_plan__why(p, "PMU '%s' has no caps/slots (PMMIR_EL1.SLOTS), so the slot "
			     "width is unknown", p->pmu);
		return;
	}
	p->method = TD_ARM;
	p->arm_n2_erratum = arm_n2_erratum(&d->cpu);
	p->uarch = td_cpuinfo__arm_part(&d->cpu);
	td_plan__why(p, "the Arm STALL_SLOT metrics have no level 2");
}

/* Arm SBSA TopDown: cpu_cycles on the cycle counter leads five stall/op events. */
int arm_build(struct td_build *b)
{
	static const struct td_ev_def defs[] = {
		{ "cpu_cycles", TD_CYCLES, NULL },
		{ "stall_slot", TD_ARM_STALL_SLOT, NULL },
		{ "stall_slot_frontend", TD_ARM_STALL_SLOT_FE, NULL },
		{ "stall_slot_backend", TD_ARM_STALL_SLOT_BE, NULL },
		{ "op_spec", TD_ARM_OP_SPEC, NULL },
		{ "op_retired", TD_ARM_OP_RETIRED, NULL },
	};
	struct td_discovery *d = b->d;
	/* the watchdog takes the cycle counter: cpu_cycles moves to a general one */
	int used = 5 + (d->nmi_watchdog == 1);

	if (td_build__group(b, defs, ARRAY_SIZE(defs)))
		return -1;
	if (!b->with_ipc)
		return 0;
	if (used + 1 > ARM_GP_COUNTERS ||
	    !pmu_has_alias(d->sysfs_root, b->p->pmu, "inst_retired")) {
		td_discovery__note(d, "IPC not counted on %s: no general counter left for "
				   "inst_retired", b->p->pmu);
		return 0;
	}
	return td_build__solo(b, "inst_retired", TD_INSTRUCTIONS);
}
