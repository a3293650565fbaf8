// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --list and --list-events with -o json: what describe.c and
 * events_print_list() tell a person, as one JSON object for scripts.
 * Every value is a field of its own (no sentence to parse); what is
 * unknown is null.
 */
#include <stdlib.h>
#include "util/json.h"
#include "pmu/discover.h"
#include "pmu/events.h"
#include "pmu/pfm.h"
#include "pmu/pmu.h"
#include "pmu/readplan.h"

/* A known-or-not flag: 1 true, 0 false, anything else null. */
static void member_tristate(struct json_writer *w, const char *key, int v)
{
	json__key(w, key);
	if (v == 0 || v == 1)
		json__bool(w, v);
	else
		json__null(w);
}

static void member_string_or_null(struct json_writer *w, const char *key, const char *s)
{
	json__key(w, key);
	if (s && s[0])
		json__string(w, s);
	else
		json__null(w);
}

static void member_int_or_null(struct json_writer *w, const char *key, int v)
{
	json__key(w, key);
	if (v >= 0)
		json__int(w, v);
	else
		json__null(w);
}

static void put_cpu(struct json_writer *w, const struct td_discovery *d)
{
	const struct td_cpuinfo *c = &d->cpu;

	json__key(w, "cpu");
	json__begin_object(w);
	json__member_string(w, "model_name", d->cpu_model);
	member_string_or_null(w, "vendor", c->vendor);
	member_int_or_null(w, "family", c->vendor[0] ? c->family : -1);
	member_int_or_null(w, "model", c->vendor[0] ? c->model : -1);
	member_int_or_null(w, "stepping", c->vendor[0] ? c->stepping : -1);
	if (c->arm) {
		json__key(w, "arm");
		json__begin_object(w);
		json__member_uint(w, "implementer", c->arm_implementer);
		json__member_uint(w, "part", c->arm_part);
		json__member_uint(w, "variant", c->arm_variant);
		json__member_uint(w, "revision", c->arm_revision);
		json__end_object(w);
	}
	json__member_bool(w, "hypervisor", c->hypervisor);
	json__end_object(w);
}

static void put_core_pmus(struct json_writer *w, const struct td_discovery *d)
{
	json__key(w, "core_pmus");
	json__begin_array(w);
	for (int i = 0; i < d->nr_pmus; i++) {
		const struct td_pmu_info *p = &d->pmus[i];

		json__begin_object(w);
		json__member_string(w, "name", p->name);
		json__member_uint(w, "type", p->type);
		json__member_string(w, "cpus", p->all_cpus ? "all" : p->cpus);
		json__end_object(w);
	}
	json__end_array(w);
}

/* How the switch program reads the event: "helper", "clock" or "memory" (with "read_via"). */
static void put_read(struct json_writer *w, const struct read_plan *plan, int i)
{
	static const char *const how[] = { [READ_HELPER] = "helper", [READ_MEMORY] = "memory",
					   [READ_CLOCK] = "clock" };
	const struct event_read *r = &plan->ev[i];

	json__member_string(w, "read", how[r->how]);
	if (r->how == READ_MEMORY)
		json__member_int(w, "read_via", r->via);
}

static void put_event(struct json_writer *w, const struct td_discovery *d,
		      const struct read_plan *plan, int i)
{
	const struct event_spec *e = &d->events.ev[i];

	json__begin_object(w);
	json__member_int(w, "index", i);
	json__member_string(w, "role", td_role_name(d->cfg.role[i]));
	json__member_string(w, "name", d->label[i][0] ? d->label[i] : e->name);
	json__member_uint(w, "type", e->type);
	json__member_uint(w, "config", e->config);
	json__member_uint(w, "config1", e->config1);
	json__member_int(w, "leader", e->leader);
	json__member_bool(w, "pinned", e->pinned);
	member_string_or_null(w, "source", d->src[i]);
	json__member_double(w, "scale", e->scale);
	if (i < plan->nr)
		put_read(w, plan, i);
	json__end_object(w);
}

static void put_part(struct json_writer *w, const struct td_discovery *d,
		     const struct read_plan *plan, int pi)
{
	const struct td_part *p = &d->cfg.parts[pi];
	char cpus[64];

	if (p->all_cpus)
		snprintf(cpus, sizeof(cpus), "all");
	else
		pmu_cpus__format(&p->cpus, cpus, sizeof(cpus));
	json__begin_object(w);
	json__member_string(w, "method", td_method_name(p->method));
	json__member_string(w, "pmu", p->pmu);
	json__member_string(w, "cpus", cpus);
	member_string_or_null(w, "uarch", d->uarch[pi]);
	json__member_uint(w, "slot_width", p->slot_width);
	json__member_bool(w, "arm_n2_erratum", p->arm_n2_erratum);
	if (pi < plan->nr_parts)
		json__member_int(w, "helper_calls", plan->parts[pi].helper_calls);
	json__key(w, "events");
	json__begin_array(w);
	for (int i = p->ev_lo; i < p->ev_hi && i < d->events.nr; i++)
		put_event(w, d, plan, i);
	json__end_array(w);
	json__end_object(w);
}

static void put_topdown(struct json_writer *w, const struct td_discovery *d,
			const struct read_plan *plan)
{
	json__key(w, "topdown");
	json__begin_object(w);
	json__member_bool(w, "available", d->cfg.nr_parts > 0);
	if (!d->cfg.nr_parts) {
		json__member_string(w, "reason", d->reason);
		json__end_object(w);
		return;
	}
	json__key(w, "methods");
	json__begin_array(w);
	for (int p = 0; p < d->cfg.nr_parts; p++)
		json__string(w, td_method_name(d->cfg.parts[p].method));
	json__end_array(w);
	json__member_int(w, "level", d->cfg.max_level);
	json__key(w, "levels_available");
	json__begin_array(w);
	for (int l = 1; l <= (d->levels_available >= 2 ? 2 : 1); l++)
		json__int(w, l);
	json__end_array(w);
	member_string_or_null(w, "per_core_only", d->cfg.per_core_only ? d->per_core_reason : NULL);
	json__member_bool(w, "reads_from_memory", plan->memory);
	json__key(w, "parts");
	json__begin_array(w);
	for (int p = 0; p < d->cfg.nr_parts; p++)
		put_part(w, d, plan, p);
	json__end_array(w);
	json__end_object(w);
}

/* The end of both printers: one line, and whether all of it was written. */
static int finish(struct json_writer *w)
{
	int ret;

	json__newline(w);
	ret = json__ok(w) ? 0 : -1;
	json__free(w);
	return ret;
}

int td_discovery__print_json(const struct td_discovery *d, const struct read_plan *plan, FILE *f)
{
	struct json_writer *w = json__new(f);

	if (!w)
		return -1;
	json__begin_object(w);
	put_cpu(w, d);
	json__member_string(w, "sysfs", d->sysfs_root);
	put_core_pmus(w, d);
	/* the any=1 event variants tell SMT is on, never that it is off */
	member_tristate(w, "smt", d->smt_known || d->smt_on ? d->smt_on : -1);
	member_tristate(w, "nmi_watchdog", d->nmi_watchdog);
	put_topdown(w, d, plan);
	json__key(w, "notes");
	json__begin_array(w);
	for (int i = 0; i < d->nr_notes; i++)
		json__string(w, d->notes[i]);
	json__end_array(w);
	json__end_object(w);
	return finish(w);
}

static void put_named(struct json_writer *w, const char *key, const struct named_event *tab,
		      size_t n)
{
	json__key(w, key);
	json__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		json__begin_object(w);
		json__member_string(w, "name", tab[i].name);
		member_string_or_null(w, "alias", tab[i].alias);
		json__end_object(w);
	}
	json__end_array(w);
}

/* A NULL list (an unreadable directory) is an empty array. */
static void put_names(struct json_writer *w, const char *key, char **names)
{
	json__key(w, key);
	json__begin_array(w);
	for (char **n = names; n && *n; n++)
		json__string(w, *n);
	json__end_array(w);
}

static void put_pmu_events(struct json_writer *w, const char *root, const char *pmu)
{
	char **events = pmu_list_events(root, pmu);

	json__key(w, "events");
	json__begin_array(w);
	for (char **ev = events; ev && *ev; ev++) {
		char spec[2 * PMU_NAME_LEN + 4];
		struct pmu_event_desc d;

		snprintf(spec, sizeof(spec), "%s/%s/", pmu, *ev);
		pmu_describe_event(root, pmu, *ev, &d);
		json__begin_object(w);
		json__member_string(w, "name", *ev);
		json__member_string(w, "event", spec);
		member_string_or_null(w, "encoding", d.readable ? d.encoding : NULL);
		json__member_double(w, "scale", d.scale);
		member_string_or_null(w, "unit", d.unit);
		json__end_object(w);
	}
	json__end_array(w);
	pmu_names_free(events);
}

static void put_pmu(struct json_writer *w, const char *root, const char *pmu)
{
	char **terms = pmu_list_formats(root, pmu);

	json__begin_object(w);
	json__member_string(w, "name", pmu);
	put_pmu_events(w, root, pmu);
	put_names(w, "terms", terms);
	json__end_object(w);
	pmu_names_free(terms);
}

/* libpfm4's core PMUs of this CPU with their events; no events when the
 * kernel has no core PMU to count them on; null when libpfm4 fails. */
static void put_vendor(struct json_writer *w, bool core)
{
	char **pmus = pfm_pmus__list();

	json__key(w, "vendor");
	if (!pmus) {
		json__null(w);
		return;
	}
	json__begin_array(w);
	for (char **p = pmus; *p; p++) {
		char **events = core ? pfm_pmu__events(*p) : NULL;

		json__begin_object(w);
		json__member_string(w, "libpfm4_pmu", *p);
		json__key(w, "events");
		json__begin_array(w);
		for (char **ev = events; ev && *ev; ev++)
			json__string(w, *ev);
		json__end_array(w);
		json__end_object(w);
		pmu_names_free(events);
	}
	json__end_array(w);
	pmu_names_free(pmus);
}

int events_print_list_json(const char *sysfs_root, FILE *out)
{
	struct json_writer *w = json__new(out);
	bool core = pmu_have_core(sysfs_root);
	const struct named_event *tab;
	char **pmus;
	size_t n;

	if (!w)
		return -1;
	pmus = pmu_list(sysfs_root);
	json__begin_object(w);
	json__member_string(w, "sysfs", sysfs_root);
	tab = events_software(&n);
	put_named(w, "software", tab, n);
	/* generic hardware names and rNNNN need a core PMU */
	json__member_bool(w, "core_pmu", core);
	tab = events_hardware(&n);
	put_named(w, "hardware", tab, core ? n : 0);
	put_vendor(w, core);
	json__key(w, "modifiers");
	json__begin_array(w);
	for (const char *m = "ukhGH"; *m; m++)
		json__string_n(w, m, 1);
	json__end_array(w);
	json__key(w, "pmus");
	if (pmus) {
		json__begin_array(w);
		for (char **p = pmus; *p; p++)
			put_pmu(w, sysfs_root, *p);
		json__end_array(w);
	} else {
		json__null(w);
	}
	json__end_object(w);
	pmu_names_free(pmus);
	return finish(w);
}
