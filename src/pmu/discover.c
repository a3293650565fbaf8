// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown discovery: find the core PMUs in sysfs, let the per-vendor
 * classifiers (discover_intel.c, discover_amd.c, discover_arm.c) say which
 * method each one supports, decide the level, have groups.c build the
 * event groups, and say why when there is no TopDown.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "util/errmsg.h"
#include "pmu/discover_internal.h"

void td_discovery__note(struct td_discovery *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nr_notes >= TD_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(d->notes[d->nr_notes++], TD_NOTE_LEN, fmt, ap);
	va_end(ap);
}

void td_plan__why(struct td_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* Order of the parts: the big core first, as the hybrid event ranges are. */
static int pmu_rank(const char *name)
{
	if (!strcmp(name, "cpu"))
		return 0;
	if (!strcmp(name, "cpu_core"))
		return 1;
	if (!strcmp(name, "cpu_atom"))
		return 2;
	if (!strcmp(name, "cpu_lowpower"))
		return 3;
	if (arm_is_core_pmu(name))
		return 4;
	return -1;
}

/* Core PMUs in part order, remembered in d->pmus. */
static int find_core_pmus(struct td_discovery *d, char **names)
{
	for (int rank = 0; rank <= 4; rank++) {
		for (char **p = names; *p; p++) {
			struct td_pmu_info *pi;
			struct pmu_cpus cpus;
			int ret;

			if (pmu_rank(*p) != rank || d->nr_pmus == TD_MAX_PMUS)
				continue;
			pi = &d->pmus[d->nr_pmus];
			memset(pi, 0, sizeof(*pi));
			snprintf(pi->name, sizeof(pi->name), "%s", *p);
			if (pmu_read_type(d->sysfs_root, *p, &pi->type, NULL, 0))
				continue;	/* not a usable PMU directory */
			ret = pmu_read_cpus(d->sysfs_root, *p, &cpus, NULL, 0);
			pi->all_cpus = ret != 0;
			if (!ret)
				pmu_cpus__format(&cpus, pi->cpus, sizeof(pi->cpus));
			d->nr_pmus++;
		}
	}
	return d->nr_pmus;
}

static void classify(const struct td_discovery *d, struct td_plan *p)
{
	p->method = TD_METHOD_NONE;
	if (arm_is_core_pmu(p->pmu))
		arm_classify(d, p);
	else if (!strcmp(p->pmu, "cpu") && amd_is_core_pmu(d, p->pmu))
		amd_classify(d, p);
	else
		intel_classify(d, p);
}

/* "a; b" of the reasons no core PMU has a usable method. */
static void join_whys(struct td_discovery *d, const struct td_plan *plans, int n)
{
	size_t used = 0;

	d->reason[0] = '\0';
	for (int i = 0; i < n && used < sizeof(d->reason); i++)
		used += snprintf(d->reason + used, sizeof(d->reason) - used, "%s%s",
				 used ? "; " : "", plans[i].why);
}

/* On hybrid CPUs, say which core type is left without TopDown. */
static void note_uncovered(struct td_discovery *d, const struct td_plan *plans, int n)
{
	for (int i = 0; i < n; i++) {
		bool built = false;

		for (int p = 0; p < d->cfg.nr_parts; p++)
			built |= !strcmp(d->cfg.parts[p].pmu, plans[i].pmu);
		if (built || plans[i].method != TD_METHOD_NONE)
			continue;
		td_discovery__note(d, "CPUs of %s have no TopDown: %s", plans[i].pmu,
				   plans[i].why);
	}
}

/* A plan for each core PMU; how many have a method, and the level they share. */
static int classify_all(struct td_discovery *d, struct td_plan *plans, int n)
{
	int usable = 0;

	d->levels_available = 2;
	for (int i = 0; i < n; i++) {
		memset(&plans[i], 0, sizeof(plans[i]));
		snprintf(plans[i].pmu, sizeof(plans[i].pmu), "%s", d->pmus[i].name);
		classify(d, &plans[i]);
		if (plans[i].method == TD_METHOD_NONE)
			continue;
		usable++;
		if (!plans[i].l2 && d->levels_available == 2) {
			d->levels_available = 1;
			if (d->want_level == 2)
				td_discovery__note(d, "level 2 not available: %s", plans[i].why);
		}
	}
	if (!usable)
		d->levels_available = 0;
	return usable;
}

int td_discover(const char *sysfs_root, int want_level, struct td_discovery *d, char *err,
		size_t errlen)
{
	struct td_plan plans[TD_MAX_PMUS];
	char **names;
	int n, level;

	if (!d || !sysfs_root || !sysfs_root[0])
		return errmsg(err, errlen, -1, "failed to discover TopDown: no sysfs root given");
	if (want_level != 1 && want_level != 2)
		return errmsg(err, errlen, -1,
			      "failed to discover TopDown: bad level %d (want 1 or 2)", want_level);
	if (strlen(sysfs_root) >= sizeof(d->sysfs_root))
		return errmsg(err, errlen, -1,
			      "failed to discover TopDown: sysfs root '%.40s...' is too long",
			      sysfs_root);
	memset(d, 0, sizeof(*d));
	snprintf(d->sysfs_root, sizeof(d->sysfs_root), "%s", sysfs_root);
	d->want_level = want_level;
	td_discovery__reset_events(d, 0);
	td_discovery__read_system(d);

	names = pmu_list(sysfs_root);
	if (!names) {
		snprintf(d->reason, sizeof(d->reason),
			 "cannot read %s/bus/event_source/devices: no perf events in this kernel?",
			 sysfs_root);
		return 0;
	}
	n = find_core_pmus(d, names);
	pmu_names_free(names);
	if (!n) {
		snprintf(d->reason, sizeof(d->reason),
			 "no hardware PMU: no cpu, cpu_core or armv8_* PMU in "
			 "bus/event_source/devices (a VM without vPMU?)");
		return 0;
	}
	if (!classify_all(d, plans, n)) {
		join_whys(d, plans, n);
		return 0;
	}
	level = want_level < d->levels_available ? want_level : d->levels_available;

	td_discovery__build(d, plans, n, level);
	if (!d->cfg.nr_parts) {
		snprintf(d->reason, sizeof(d->reason), "%s",
			 d->nr_notes ? d->notes[d->nr_notes - 1]
				     : "no TopDown event group could be built");
		return 0;
	}
	d->cfg.max_level = level;
	note_uncovered(d, plans, n);
	intel_check_per_core(d, plans, n);
	if (d->cpu.hypervisor && d->cfg.parts[0].method == TD_PERF_METRICS)
		td_discovery__note(d, "running under a hypervisor: the slots/topdown-* events are "
				   "listed, but most vPMUs do not virtualise PERF_METRICS; "
				   "opening them may fail");
	return 0;
}

void td_discovery__scales(const struct td_discovery *d, double scale[MAX_EVENTS])
{
	for (int i = 0; i < MAX_EVENTS; i++)
		scale[i] = i < d->events.nr && d->events.ev[i].scale > 0 ? d->events.ev[i].scale
									 : 1.0;
}
