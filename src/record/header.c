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
#include "util/errmsg.h"
#include "record/format.h"
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

static void event_json(struct json_writer *w, const struct rec_event *e)
{
	json__begin_object(w);
	rec_member_str(w, "name", e->name);
	rec_member_str(w, "pmu", e->pmu);
	json__member_uint(w, "type", e->type);
	rec_member_u64(w, "config", e->config);
	rec_member_u64(w, "config1", e->config1);
	rec_member_u64(w, "config2", e->config2);
	json__member_real(w, "scale", e->scale);
	rec_member_str(w, "unit", e->unit);
	json__member_int(w, "leader", e->leader);
	json__member_bool(w, "pinned", e->pinned);
	if (e->role[0])
		rec_member_str(w, "role", e->role);
	json__end_object(w);
}

static void pmu_json(struct json_writer *w, const struct rec_pmu *p)
{
	json__begin_object(w);
	rec_member_str(w, "name", p->name);
	rec_member_str(w, "method", p->method);
	json__member_int(w, "ev_lo", p->ev_lo);
	json__member_int(w, "ev_hi", p->ev_hi);
	json__member_uint(w, "slot_width", p->slot_width);
	json__member_bool(w, "arm_n2_erratum", p->arm_n2_erratum);
	json__end_object(w);
}

static void options_json(struct json_writer *w, const struct rec_header *h)
{
	json__begin_object(w);
	json__member_real(w, "delay_s", h->delay_s);
	rec_member_str(w, "group_by", h->group_by);
	rec_member_str(w, "cgroup", h->cgroup);
	json__member_int(w, "cgroup_depth", h->cgroup_depth);
	rec_member_u64(w, "max_tasks", h->max_tasks);
	json__key(w, "pids");
	json__begin_array(w);
	for (int i = 0; i < h->nr_pids; i++)
		json__int(w, h->pids[i]);
	json__end_array(w);
	json__end_object(w);
}

void rec_header__json(const struct rec_header *h, struct json_writer *w)
{
	json__begin_object(w);
	json__member_string(w, "type", "header");
	json__member_string(w, "format", REC_FORMAT_NAME);
	json__member_int(w, "version", REC_FORMAT_VERSION);
	rec_member_str(w, "tdtop_version", h->tdtop_version);
	rec_member_str(w, "kernel_release", h->kernel_release);
	rec_member_str(w, "cpu_model", h->cpu_model);
	json__member_int(w, "ncpus", h->ncpus);
	rec_member_str(w, "topdown_method", h->topdown_method);
	json__key(w, "events");
	json__begin_array(w);
	for (int i = 0; i < h->nr_events; i++)
		event_json(w, &h->events[i]);
	json__end_array(w);
	json__key(w, "pmus");
	json__begin_array(w);
	for (int i = 0; i < h->nr_pmus; i++)
		pmu_json(w, &h->pmus[i]);
	json__end_array(w);
	json__key(w, "options");
	options_json(w, h);
	json__end_object(w);
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
