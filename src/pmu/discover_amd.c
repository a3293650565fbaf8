// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown discovery for AMD Zen 4/5: which Zen the family and model say,
 * and the PipelineL1 group that fits the six counters the NMI watchdog and
 * SMT leave free.
 */
#include <stdio.h>
#include <string.h>
#include "pmu/discover_internal.h"

/* General-purpose counters per logical CPU (PERF_CTL0-5), which sysfs does
 * not expose; the NMI watchdog, when on, holds one of them. */
#define AMD_GP_COUNTERS 6

/* AMD's core PMU: its event field reaches the extended select bits 32-35. */
bool amd_is_core_pmu(const struct td_discovery *d, const char *pmu)
{
	struct pmu_format f;

	if (!strcmp(d->cpu.vendor, "AuthenticAMD") || !strcmp(d->cpu.vendor, "HygonGenuine"))
		return true;
	if (d->cpu.vendor[0])
		return false;
	return !pmu_read_format(d->sysfs_root, pmu, "event", &f, NULL, 0) &&
	       f.field == PMU_CONFIG && (f.mask >> 32) == 0xf;
}

/*
 * perf's x86 mapfile.csv: family 0x19 models 0x00-0x0f, 0x20-0x2f and
 * 0x40-0x5f are Zen 3 (amdzen3, no pipeline metrics), the other family
 * 0x19 models Zen 4 (amdzen4), family 0x1a Zen 5 (amdzen5).
 */
void amd_classify(const struct td_discovery *d, struct td_plan *p)
{
	int fam = d->cpu.family, model = d->cpu.model;
	struct pmu_format f;

	if (fam < 0 || model < 0) {
		td_plan__why(p, "AMD CPU of unknown family/model (no cpuinfo): cannot tell "
			     "Zen 4/5 apart");
		return;
	}
	if (fam == 0x19 && !(model <= 0x0f || (model >= 0x20 && model <= 0x2f) ||
			     (model >= 0x40 && model <= 0x5f))) {
		p->width = 6;
		p->uarch = "Zen 4";
	} else if (fam == 0x1a) {
		p->width = 8;
		p->uarch = "Zen 5";
	} else {
		td_plan__why(p, "AMD family 0x%x model 0x%x: perf defines the PipelineL1 "
			     "TopDown metrics only for Zen 4 and Zen 5", (unsigned int)fam,
			     (unsigned int)model);
		return;
	}
	if (pmu_read_format(d->sysfs_root, p->pmu, "event", &f, NULL, 0) ||
	    pmu_read_format(d->sysfs_root, p->pmu, "umask", &f, NULL, 0)) {
		td_plan__why(p, "PMU '%s' has no event/umask format", p->pmu);
		return;
	}
	p->method = TD_AMD_ZEN;
	td_plan__why(p, "AMD level 2 needs 6 more events than the %d counters hold",
		     AMD_GP_COUNTERS);
}

/*
 * AMD Zen 4/5 PipelineL1 (perf's amdzen4/amdzen5 pipeline.json) as raw
 * encodings through the PMU's format/ (event 0x1a0 needs config:32-35).
 * All six fit the six counters only when nothing else holds one.
 */
int amd_build(struct td_build *b)
{
	struct td_discovery *d = b->d;
	struct td_ev_def defs[6] = {
		{ "event=0x76", TD_CYCLES, "ls_not_halted_cyc" },
		{ "event=0xaa,umask=0x7", TD_AMD_DISPATCHED, "de_src_op_disp.all" },
		{ "event=0xc1", TD_AMD_RETIRED_OPS, "ex_ret_ops" },
		{ "event=0x1a0,umask=0x1", TD_AMD_NO_OPS_FE,
		  "de_no_dispatch_per_slot.no_ops_from_frontend" },
		{ "event=0x1a0,umask=0x1e", TD_AMD_BE_STALLS,
		  "de_no_dispatch_per_slot.backend_stalls" },
	};
	int free_ctrs = AMD_GP_COUNTERS - (d->nmi_watchdog == 1);
	int n = 5;

	if (free_ctrs < n) {
		snprintf(b->why, sizeof(b->why), "only %d of the %d counters are free", free_ctrs,
			 AMD_GP_COUNTERS);
		return -1;
	}
	if (d->smt_on && free_ctrs > n)
		defs[n++] = (struct td_ev_def){ "event=0x1a0,umask=0x60", TD_AMD_SMT_CONTENTION,
						"de_no_dispatch_per_slot.smt_contention" };
	if (td_build__group(b, defs, n))
		return -1;
	if (d->smt_on && n == 5)
		td_discovery__note(d, "de_no_dispatch_per_slot.smt_contention dropped: the NMI "
				   "watchdog holds one of the %d counters (sysctl "
				   "kernel.nmi_watchdog=0 frees it)", AMD_GP_COUNTERS);
	else if (!d->smt_on)
		td_discovery__note(d, "SMT is off: smt_contention is not counted (no sibling "
				   "thread)");
	if (!b->with_ipc)
		return 0;
	if (n + 1 > free_ctrs) {
		td_discovery__note(d, "IPC not counted: the TopDown group takes all %d free "
				   "counters", free_ctrs);
		return 0;
	}
	return td_build__solo(b, "instructions", TD_INSTRUCTIONS);
}
