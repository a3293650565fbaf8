// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The recording header: what the host, the events and the options were,
 * so a replay can label and interpret the counts without the machine.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#define RECORD_INTERNAL
#include "util/errmsg.h"
#include "record/record.h"
#include "record/codec.h"
#include "pmu/topdown.h"

#ifndef TDTOP_VERSION
#define TDTOP_VERSION "unknown"
#endif

/* Copy *src* into *dst* if it fits; -1 (and *dst* untouched) if not. */
static int copy_str(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size)
		return -1;
	memcpy(dst, src, len + 1);
	return 0;
}

/* "model name	: Intel(R) ..." -> "Intel(R) ..." */
static void read_cpu_model(const char *cpuinfo, char *buf, size_t size)
{
	char line[512];
	FILE *f = fopen(cpuinfo, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t len;

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon++;
		colon += strspn(colon, " \t");
		len = strcspn(colon, "\n");
		if (len >= size)
			len = size - 1;
		memcpy(buf, colon, len);
		break;
	}
	fclose(f);
}

void rec_header__init_host(struct rec_header *h, const char *cpuinfo)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	h->version = REC_FORMAT_VERSION;
	copy_str(h->tdtop_version, sizeof(h->tdtop_version), TDTOP_VERSION);
	if (!uname(&u))
		copy_str(h->kernel_release, sizeof(h->kernel_release), u.release);
	read_cpu_model(cpuinfo, h->cpu_model, sizeof(h->cpu_model));
	copy_str(h->topdown_method, sizeof(h->topdown_method), "none");
	copy_str(h->group_by, sizeof(h->group_by), "process");
}

int rec_header__set_events(struct rec_header *h, const struct event_list *el)
{
	if (el->nr < 0 || el->nr > MAX_EVENTS)
		return -1;
	for (int i = 0; i < el->nr; i++) {
		const struct event_spec *s = &el->ev[i];
		struct rec_event *e = &h->events[i];

		memset(e, 0, sizeof(*e));
		if (copy_str(e->name, sizeof(e->name), s->name) ||
		    copy_str(e->unit, sizeof(e->unit), s->unit))
			return -1;
		e->type = s->type;
		e->config = s->config;
		e->config1 = s->config1;
		e->config2 = s->config2;
		e->scale = s->scale;
		e->leader = s->leader;
		e->pinned = s->pinned;
	}
	h->nr_events = el->nr;
	return 0;
}

static int check_str(const struct rec_ctx *c, const char *name, const char *s, size_t size,
		     bool nonempty)
{
	if (!memchr(s, '\0', size))
		return rec_field_err(c, name, "must be at most %zu bytes", size - 1);
	if (nonempty && !s[0])
		return rec_field_err(c, name, "must not be empty");
	return 0;
}

static int check_event(const struct rec_ctx *c, const struct rec_header *h, int i)
{
	const struct rec_event *e = &h->events[i];

	if (check_str(c, "name", e->name, sizeof(e->name), true) ||
	    check_str(c, "pmu", e->pmu, sizeof(e->pmu), false) ||
	    check_str(c, "unit", e->unit, sizeof(e->unit), false) ||
	    check_str(c, "role", e->role, sizeof(e->role), false))
		return -1;
	if (!isfinite(e->scale) || e->scale <= 0)
		return rec_field_err(c, "scale", "must be a finite number > 0");
	/* perf groups list the leader first and it leads itself */
	if (e->leader < 0 || e->leader > i || h->events[e->leader].leader != e->leader)
		return rec_field_err(c, "leader", "must be the index of a group leader in 0..%d",
				     i);
	return 0;
}

/* A TopDown part: a real method and its events among the header's. */
static int check_part(const struct rec_ctx *c, const struct rec_header *h,
		      const struct rec_pmu *p)
{
	enum td_method m;

	if (check_str(c, "name", p->name, sizeof(p->name), true) ||
	    check_str(c, "method", p->method, sizeof(p->method), true))
		return -1;
	if (td_method_from_name(p->method, &m) || m == TD_METHOD_NONE)
		return rec_field_err(c, "method", "must be a TopDown method name, not \"none\"");
	if (p->ev_lo < 0 || p->ev_lo > h->nr_events)
		return rec_field_err(c, "ev_lo", "must be an integer in 0..%d", h->nr_events);
	if (p->ev_hi < p->ev_lo || p->ev_hi > h->nr_events)
		return rec_field_err(c, "ev_hi", "must be an integer in %d..%d", p->ev_lo,
				     h->nr_events);
	if (p->slot_width > REC_MAX_SLOT_WIDTH)
		return rec_field_err(c, "slot_width", "must be an integer in 0..%d",
				     REC_MAX_SLOT_WIDTH);
	return 0;
}

static int check_header(const struct rec_header *h, unsigned long line, char *err,
			size_t errlen)
{
	struct rec_ctx c = { .line = line, .prefix = "", .err = err, .errlen = errlen };
	char prefix[32];

	if (check_str(&c, "tdtop_version", h->tdtop_version, sizeof(h->tdtop_version), false) ||
	    check_str(&c, "kernel_release", h->kernel_release, sizeof(h->kernel_release), false) ||
	    check_str(&c, "cpu_model", h->cpu_model, sizeof(h->cpu_model), false) ||
	    check_str(&c, "topdown_method", h->topdown_method, sizeof(h->topdown_method), true))
		return -1;
	if (h->ncpus < 1 || h->ncpus > MAX_CPUS)
		return rec_field_err(&c, "ncpus", "must be an integer in 1..%d", MAX_CPUS);
	if (h->nr_events < 0 || h->nr_events > MAX_EVENTS)
		return rec_field_err(&c, "events", "must have at most %d elements", MAX_EVENTS);
	c.prefix = prefix;
	for (int i = 0; i < h->nr_events; i++) {
		snprintf(prefix, sizeof(prefix), "events[%d].", i);
		if (check_event(&c, h, i))
			return -1;
	}
	c.prefix = "";
	if (h->nr_pmus < 0 || h->nr_pmus > REC_MAX_PMUS)
		return rec_field_err(&c, "pmus", "must have at most %d elements", REC_MAX_PMUS);
	c.prefix = prefix;
	for (int i = 0; i < h->nr_pmus; i++) {
		snprintf(prefix, sizeof(prefix), "pmus[%d].", i);
		if (check_part(&c, h, &h->pmus[i]))
			return -1;
	}
	c.prefix = "options.";
	if (!isfinite(h->delay_s) || h->delay_s < 0)
		return rec_field_err(&c, "delay_s", "must be a finite number >= 0");
	if (check_str(&c, "group_by", h->group_by, sizeof(h->group_by), true) ||
	    check_str(&c, "cgroup", h->cgroup, sizeof(h->cgroup), false))
		return -1;
	if (h->cgroup_depth < 0 || h->cgroup_depth > REC_MAX_CGROUP_DEPTH)
		return rec_field_err(&c, "cgroup_depth", "must be an integer in 0..%d",
				     REC_MAX_CGROUP_DEPTH);
	if (h->nr_pids < 0 || h->nr_pids > REC_MAX_PIDS)
		return rec_field_err(&c, "pids", "must have at most %d elements", REC_MAX_PIDS);
	for (int i = 0; i < h->nr_pids; i++) {
		if (h->pids[i] < 1 || h->pids[i] > REC_PID_MAX) {
			snprintf(prefix, sizeof(prefix), "pids[%d]", i);
			return rec_field_err(&c, prefix, "must be an integer in 1..%d",
					     REC_PID_MAX);
		}
	}
	return 0;
}

int rec_header__check(const struct rec_header *h, char *err, size_t errlen)
{
	return check_header(h, 0, err, errlen);
}

/* ---- to JSON ---- */

static json_t *event_json(const struct rec_event *e)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (json_object_set_new(o, "name", rec_json_str(e->name)) ||
	    json_object_set_new(o, "pmu", rec_json_str(e->pmu)) ||
	    json_object_set_new(o, "type", json_integer(e->type)) ||
	    json_object_set_new(o, "config", rec_json_u64(e->config)) ||
	    json_object_set_new(o, "config1", rec_json_u64(e->config1)) ||
	    json_object_set_new(o, "config2", rec_json_u64(e->config2)) ||
	    json_object_set_new(o, "scale", json_real(e->scale)) ||
	    json_object_set_new(o, "unit", rec_json_str(e->unit)) ||
	    json_object_set_new(o, "leader", json_integer(e->leader)) ||
	    json_object_set_new(o, "pinned", json_boolean(e->pinned)) ||
	    (e->role[0] && json_object_set_new(o, "role", rec_json_str(e->role)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *pmu_json(const struct rec_pmu *p)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (json_object_set_new(o, "name", rec_json_str(p->name)) ||
	    json_object_set_new(o, "method", rec_json_str(p->method)) ||
	    json_object_set_new(o, "ev_lo", json_integer(p->ev_lo)) ||
	    json_object_set_new(o, "ev_hi", json_integer(p->ev_hi)) ||
	    json_object_set_new(o, "slot_width", json_integer(p->slot_width)) ||
	    json_object_set_new(o, "arm_n2_erratum", json_boolean(p->arm_n2_erratum))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *options_json(const struct rec_header *h)
{
	json_t *o = json_object(), *pids = json_array();

	if (!o || !pids || json_object_set_new(o, "delay_s", json_real(h->delay_s)) ||
	    json_object_set_new(o, "group_by", rec_json_str(h->group_by)) ||
	    json_object_set_new(o, "cgroup", rec_json_str(h->cgroup)) ||
	    json_object_set_new(o, "cgroup_depth", json_integer(h->cgroup_depth)) ||
	    json_object_set_new(o, "max_tasks", rec_json_u64(h->max_tasks)) ||
	    json_object_set(o, "pids", pids))
		goto fail;
	for (int i = 0; i < h->nr_pids; i++)
		if (json_array_append_new(pids, json_integer(h->pids[i])))
			goto fail;
	json_decref(pids);
	return o;
fail:
	json_decref(pids);
	json_decref(o);
	return NULL;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

json_t *rec_header__json(const struct rec_header *h, int *digits)
{
	json_t *o = json_object(), *events = json_array(), *pmus = json_array();

	*digits = rec_real_digits(h->delay_s);
	if (!o || !events || !pmus || json_object_set_new(o, "type", json_string("header")) ||
	    json_object_set_new(o, "format", json_string(REC_FORMAT_NAME)) ||
	    json_object_set_new(o, "version", json_integer(REC_FORMAT_VERSION)) ||
	    json_object_set_new(o, "tdtop_version", rec_json_str(h->tdtop_version)) ||
	    json_object_set_new(o, "kernel_release", rec_json_str(h->kernel_release)) ||
	    json_object_set_new(o, "cpu_model", rec_json_str(h->cpu_model)) ||
	    json_object_set_new(o, "ncpus", json_integer(h->ncpus)) ||
	    json_object_set_new(o, "topdown_method", rec_json_str(h->topdown_method)) ||
	    json_object_set(o, "events", events) || json_object_set(o, "pmus", pmus) ||
	    json_object_set_new(o, "options", options_json(h)))
		goto fail;
	for (int i = 0; i < h->nr_events; i++) {
		*digits = max_int(*digits, rec_real_digits(h->events[i].scale));
		if (json_array_append_new(events, event_json(&h->events[i])))
			goto fail;
	}
	for (int i = 0; i < h->nr_pmus; i++)
		if (json_array_append_new(pmus, pmu_json(&h->pmus[i])))
			goto fail;
	json_decref(events);
	json_decref(pmus);
	return o;
fail:
	json_decref(events);
	json_decref(pmus);
	json_decref(o);
	return NULL;
}

/* ---- from JSON ---- */

/*
 * Array *key* of at most *max* objects into *nr* elements, each through
 * one(), which names its fields' errors "<key>[i].<field>".
 */
static int parse_objects(struct rec_ctx *c, const json_t *j, const char *key, size_t max,
			 int *nr, struct rec_header *h,
			 int (*one)(const struct rec_ctx *c, const json_t *o, struct rec_header *h,
				    int i))
{
	const json_t *arr;
	char prefix[32];

	if (rec_get_array(c, j, key, max, &arr))
		return -1;
	*nr = (int)json_array_size(arr);
	for (int i = 0; i < *nr; i++) {
		const json_t *o = json_array_get(arr, (size_t)i);

		c->prefix = "";
		snprintf(prefix, sizeof(prefix), "%s[%d]", key, i);
		if (!json_is_object(o))
			return rec_field_err(c, prefix, "must be an object");
		strcat(prefix, ".");
		c->prefix = prefix;
		if (one(c, o, h, i))
			return -1;
	}
	c->prefix = "";
	return 0;
}

static int parse_event(const struct rec_ctx *c, const json_t *o, struct rec_header *h, int i)
{
	struct rec_event *e = &h->events[i];
	__u64 v;

	if (rec_get_str(c, o, "name", e->name, sizeof(e->name)) ||
	    rec_get_str(c, o, "pmu", e->pmu, sizeof(e->pmu)) ||
	    rec_get_range(c, o, "type", 0, UINT_MAX, &v))
		return -1;
	e->type = (__u32)v;
	if (rec_get_u64(c, o, "config", &e->config) ||
	    rec_get_u64(c, o, "config1", &e->config1) ||
	    rec_get_u64(c, o, "config2", &e->config2) ||
	    rec_get_double(c, o, "scale", 0, &e->scale) ||
	    rec_get_str(c, o, "unit", e->unit, sizeof(e->unit)) ||
	    rec_get_range(c, o, "leader", 0, (__u64)i, &v))
		return -1;
	e->leader = (int)v;
	if (rec_get_bool(c, o, "pinned", &e->pinned))
		return -1;
	if (json_object_get(o, "role") && rec_get_str(c, o, "role", e->role, sizeof(e->role)))
		return -1;
	return 0;
}

/* The ranges against the events are check_header()'s. */
static int parse_part(const struct rec_ctx *c, const json_t *o, struct rec_header *h, int i)
{
	struct rec_pmu *p = &h->pmus[i];
	__u64 lo, hi, v;

	if (rec_get_str(c, o, "name", p->name, sizeof(p->name)) ||
	    rec_get_str(c, o, "method", p->method, sizeof(p->method)) ||
	    rec_get_range(c, o, "ev_lo", 0, MAX_EVENTS, &lo) ||
	    rec_get_range(c, o, "ev_hi", 0, MAX_EVENTS, &hi) ||
	    rec_get_range(c, o, "slot_width", 0, REC_MAX_SLOT_WIDTH, &v) ||
	    rec_get_bool(c, o, "arm_n2_erratum", &p->arm_n2_erratum))
		return -1;
	p->ev_lo = (int)lo;
	p->ev_hi = (int)hi;
	p->slot_width = (unsigned int)v;
	return 0;
}

static int parse_options(struct rec_ctx *c, const json_t *j, struct rec_header *h)
{
	const json_t *o, *pids;
	char name[32];
	__u64 v;

	if (rec_get_object(c, j, "options", &o))
		return -1;
	c->prefix = "options.";
	if (rec_get_double(c, o, "delay_s", 0, &h->delay_s) ||
	    rec_get_str(c, o, "group_by", h->group_by, sizeof(h->group_by)) ||
	    rec_get_str(c, o, "cgroup", h->cgroup, sizeof(h->cgroup)) ||
	    rec_get_range(c, o, "cgroup_depth", 0, REC_MAX_CGROUP_DEPTH, &v))
		return -1;
	h->cgroup_depth = (int)v;
	if (rec_get_u64(c, o, "max_tasks", &h->max_tasks) ||
	    rec_get_array(c, o, "pids", REC_MAX_PIDS, &pids))
		return -1;
	h->nr_pids = (int)json_array_size(pids);
	for (int i = 0; i < h->nr_pids; i++) {
		snprintf(name, sizeof(name), "pids[%d]", i);
		if (rec_val_range(c, name, json_array_get(pids, (size_t)i), 1, REC_PID_MAX, &v))
			return -1;
		h->pids[i] = (int)v;
	}
	c->prefix = "";
	return 0;
}

int rec_header__parse(struct rec_header *h, const json_t *j, unsigned long line, char *err,
		      size_t errlen)
{
	struct rec_ctx c = { .line = line, .prefix = "", .err = err, .errlen = errlen };
	char format[32];
	__u64 v;

	memset(h, 0, sizeof(*h));
	if (rec_get_str(&c, j, "format", format, sizeof(format)) || strcmp(format, REC_FORMAT_NAME))
		return errmsg(err, errlen, -1,
				"line %lu: not a tdtop recording: field 'format' must be \"%s\"",
				line, REC_FORMAT_NAME);
	/* before anything else: a newer version may have changed any field */
	if (rec_get_range(&c, j, "version", 1, INT_MAX, &v))
		return -1;
	if (v > REC_FORMAT_VERSION)
		return errmsg(err, errlen, -1,
				"line %lu: recording format version %llu is newer than this tdtop "
				"supports (%d)", line, (unsigned long long)v, REC_FORMAT_VERSION);
	h->version = (int)v;
	if (rec_get_str(&c, j, "tdtop_version", h->tdtop_version, sizeof(h->tdtop_version)) ||
	    rec_get_str(&c, j, "kernel_release", h->kernel_release, sizeof(h->kernel_release)) ||
	    rec_get_str(&c, j, "cpu_model", h->cpu_model, sizeof(h->cpu_model)) ||
	    rec_get_range(&c, j, "ncpus", 1, MAX_CPUS, &v))
		return -1;
	h->ncpus = (int)v;
	if (rec_get_str(&c, j, "topdown_method", h->topdown_method, sizeof(h->topdown_method)) ||
	    parse_objects(&c, j, "events", MAX_EVENTS, &h->nr_events, h, parse_event) ||
	    parse_objects(&c, j, "pmus", REC_MAX_PMUS, &h->nr_pmus, h, parse_part) ||
	    parse_options(&c, j, h))
		return -1;
	return check_header(h, line, err, errlen);
}
