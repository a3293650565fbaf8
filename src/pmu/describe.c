// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --list: what discovery found, for a person: the CPU, its core PMUs, SMT
 * and the NMI watchdog, the method and level, each part's events with
 * their attr fields and sysfs strings, and the notes.
 */
#include <stdio.h>
#include "pmu/discover.h"

static void print_cpu(const struct td_discovery *d, FILE *f)
{
	const struct td_cpuinfo *c = &d->cpu;

	fprintf(f, "CPU:          %s", d->cpu_model);
	if (c->vendor[0])
		fprintf(f, " (%s family 0x%x model 0x%x stepping %d)", c->vendor,
			(unsigned int)c->family, (unsigned int)c->model, c->stepping);
	else if (c->arm)
		fprintf(f, " (implementer 0x%02x part 0x%03x r%up%u)", c->arm_implementer,
			c->arm_part, c->arm_variant, c->arm_revision);
	fprintf(f, "%s\n", c->hypervisor ? ", in a virtual machine" : "");
}

static void print_pmus(const struct td_discovery *d, FILE *f)
{
	fprintf(f, "Core PMUs:   ");
	if (!d->nr_pmus)
		fprintf(f, " none");
	for (int i = 0; i < d->nr_pmus; i++) {
		const struct td_pmu_info *p = &d->pmus[i];

		fprintf(f, "%s %s (type %u, CPUs %s)", i ? "," : "", p->name, p->type,
			p->all_cpus ? "all" : p->cpus);
	}
	fputc('\n', f);
	fprintf(f, "SMT:          %s\n",
		!d->smt_known ? (d->smt_on ? "on (from the any=1 event variants)"
					   : "unknown (no devices/system/cpu/smt/active)")
			      : d->smt_on ? "on" : "off");
	fprintf(f, "NMI watchdog: %s\n",
		d->nmi_watchdog == 1 ? "on (it holds a counter)"
				     : d->nmi_watchdog == 0 ? "off" : "unknown");
}

static void slots_text(const struct td_discovery *d, int pi, char *buf, size_t len)
{
	const struct td_part *p = &d->cfg.parts[pi];
	const char *uarch = d->uarch[pi][0] ? d->uarch[pi] : "?";

	switch (p->method) {
	case TD_PERF_METRICS:
		snprintf(buf, len, "slots from fixed counter 3, fractions from PERF_METRICS");
		break;
	case TD_INTEL_GENERIC:
		snprintf(buf, len, "slots = topdown-total-slots x %g (its sysfs .scale)",
			 p->ev_lo < d->events.nr ? d->events.ev[p->ev_lo].scale : 1.0);
		break;
	case TD_INTEL_ATOM:
		snprintf(buf, len, "slot width %u (%s): slots = %u x cycles", p->slot_width, uarch,
			 p->slot_width);
		break;
	case TD_AMD_ZEN:
		snprintf(buf, len, "slot width %u (%s): %u dispatch slots per cycle",
			 p->slot_width, uarch, p->slot_width);
		break;
	case TD_ARM:
		snprintf(buf, len, "slot width %u (caps/slots)%s", p->slot_width,
			 p->arm_n2_erratum ? ", Neoverse N2 r0p0-r0p2 erratum: cpu_cycles "
					     "subtracted from the stall slots" : "");
		break;
	default:
		snprintf(buf, len, "-");
		break;
	}
}

static void print_event(const struct td_discovery *d, int i, FILE *f)
{
	const struct event_spec *e = &d->events.ev[i];
	char group[40];

	if (e->leader == i)
		snprintf(group, sizeof(group), "%s", e->pinned ? "leader, pinned" : "alone");
	else
		snprintf(group, sizeof(group), "member of %d", e->leader);
	/* a raw encoding is shown by perf's name; its terms follow in the last column */
	fprintf(f, "  %2d  %-16s %-30s %-4u 0x%-11llx 0x%-5llx %-15s %s", i,
		td_role_name(d->cfg.role[i]), d->label[i][0] ? d->label[i] : e->name, e->type,
		(unsigned long long)e->config, (unsigned long long)e->config1, group, d->src[i]);
	if (e->scale != 1.0)
		fprintf(f, " (scale %g)", e->scale);
	fputc('\n', f);
}

static void print_part(const struct td_discovery *d, int pi, FILE *f)
{
	const struct td_part *p = &d->cfg.parts[pi];
	char cpus[64], slots[160];

	if (p->all_cpus)
		snprintf(cpus, sizeof(cpus), "all");
	else
		pmu_cpus__format(&p->cpus, cpus, sizeof(cpus));
	slots_text(d, pi, slots, sizeof(slots));
	fprintf(f, "\nPart %d: %s on %s, CPUs %s, events %d-%d\n", pi, td_method_name(p->method),
		p->pmu, cpus, p->ev_lo, p->ev_hi - 1);
	fprintf(f, "  %s\n", slots);
	fprintf(f, "  %2s  %-16s %-30s %-4s %-13s %-7s %-15s %s\n", "#", "role", "event", "type",
		"config", "config1", "group", "sysfs string / terms");
	for (int i = p->ev_lo; i < p->ev_hi && i < d->events.nr; i++)
		print_event(d, i, f);
}

void td_discovery__print(const struct td_discovery *d, FILE *f)
{
	print_cpu(d, f);
	fprintf(f, "sysfs:        %s\n", d->sysfs_root);
	print_pmus(d, f);
	if (!d->cfg.nr_parts) {
		fprintf(f, "TopDown:      unavailable: %s\n", d->reason);
	} else {
		fprintf(f, "TopDown:      ");
		for (int p = 0; p < d->cfg.nr_parts; p++)
			fprintf(f, "%s%s", p ? " + " : "", td_method_name(d->cfg.parts[p].method));
		fprintf(f, ", level %d (levels available: %s)\n", d->cfg.max_level,
			d->levels_available >= 2 ? "1, 2" : "1");
		if (d->cfg.per_core_only)
			fprintf(f, "Per core only: %s\n", d->per_core_reason);
		for (int p = 0; p < d->cfg.nr_parts; p++)
			print_part(d, p, f);
	}
	if (d->nr_notes)
		fprintf(f, "\nNotes:\n");
	for (int i = 0; i < d->nr_notes; i++)
		fprintf(f, "  - %s\n", d->notes[i]);
}
