// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JSON Lines output: per interval one "interval" object with the totals,
 * then one "process" or "thread" object per row.
 */
#include <math.h>
#include <string.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "util/json.h"
#include "rows/metrics.h"
#include "output/formats.h"

/* Scaled and rounded; exact for unscaled counts, null when never counted. */
static void put_count(struct json_writer *w, const struct delta *d)
{
	double v;

	if (d->running == d->enabled) {
		json__uint(w, d->count);
		return;
	}
	v = delta__scaled(d);
	json__double(w, isnan(v) ? v : round(v));
}

static void put_share(struct json_writer *w, const struct delta *d)
{
	json__double(w, delta__running_share(d));
}

static void put_unscaled(struct json_writer *w, const struct delta *d)
{
	json__begin_object(w);
	json__key(w, "count");
	json__uint(w, d->count);
	json__key(w, "enabled");
	json__uint(w, d->enabled);
	json__key(w, "running");
	json__uint(w, d->running);
	json__end_object(w);
}

/* {<event>: value, ...}, the value written by *put* from each delta. */
static void put_per_event(struct json_writer *w, const struct interval *iv, const char *key,
			  const struct delta *ev,
			  void (*put)(struct json_writer *, const struct delta *))
{
	int nr = interval__nr_events(iv);
	char name[EVENT_NAME_LEN];

	json__key(w, key);
	json__begin_object(w);
	for (int i = 0; i < nr; i++) {
		json__key(w, interval__event_name(iv, i, name, sizeof(name)));
		put(w, &ev[i]);
	}
	json__end_object(w);
}

/* Level 1 always, level 2 when shown; fractions 0..1, null when unknown. */
static void put_topdown(struct json_writer *w, const struct interval *iv,
			const struct td_result *td, double ipc)
{
	json__key(w, "topdown");
	json__begin_object(w);
	for (int i = 0; i < nr_td_fields; i++) {
		double v = td_field_value(td, i);

		if (td_fields[i].level > iv->level || (!td_fields[i].level && isnan(v)))
			continue;
		json__key(w, td_fields[i].key);
		json__double(w, td->valid ? v : NAN);
	}
	json__end_object(w);
	json__key(w, "slots");
	json__double(w, isnan(td->slots) ? td->slots : round(td->slots));
	json__key(w, "ipc");
	json__double(w, ipc);
}

static void put_interval(struct json_writer *w, const struct interval *iv)
{
	json__begin_object(w);
	json__key(w, "type");
	json__string(w, "interval");
	json__key(w, "ts");
	json__double(w, iv->ts);
	json__key(w, "interval_s");
	json__double(w, iv->interval_s);
	json__key(w, "ncpus");
	json__int(w, iv->ncpus);
	put_per_event(w, iv, "totals", iv->totals, put_count);
	put_per_event(w, iv, "idle", iv->idle, put_count);
	put_per_event(w, iv, "lost", iv->lost, put_count);
	json__key(w, "cpu_ns");
	json__begin_object(w);
	json__key(w, "total");
	json__uint(w, iv->total_cpu_ns);
	json__key(w, "idle");
	json__uint(w, iv->idle_cpu_ns);
	json__key(w, "lost");
	json__uint(w, iv->lost_cpu_ns);
	json__end_object(w);
	put_per_event(w, iv, "running", iv->totals, put_share);
	/* the unscaled totals, so a consumer can judge how much was scaled */
	if (interval__min_running_share(iv) < 1.0)
		put_per_event(w, iv, "raw", iv->totals, put_unscaled);
	json__key(w, "dropped");
	json__uint(w, iv->dropped);
	json__key(w, "read_errors");
	json__uint(w, iv->read_errors);
	json__key(w, "switches");
	json__uint(w, iv->switches);
	/* live only: a replay does not know the recorder's cost */
	if (!isnan(iv->bpf_ns_per_switch) || !isnan(iv->self_cpu_pct)) {
		json__key(w, "self");
		json__begin_object(w);
		json__key(w, "bpf_ns_per_switch");
		json__double(w, iv->bpf_ns_per_switch);
		json__key(w, "cpu_pct");
		json__double(w, iv->self_cpu_pct);
		json__end_object(w);
	}
	json__key(w, "method");
	json__string(w, iv->method ? iv->method : "none");
	if (iv->topdown) {
		json__key(w, "level");
		json__int(w, iv->level);
		put_topdown(w, iv, &iv->td, iv->ipc);
	}
	if (iv->notice) {
		json__key(w, "notice");
		json__string(w, iv->notice);
	}
	json__end_object(w);
	json__newline(w);
}

static void put_label(struct json_writer *w, const char *key, const char *val)
{
	if (!*val)
		return;
	json__key(w, key);
	json__string(w, val);
}

/* "cgroup", "cgroup_id" and what the path is recognised as. */
static void put_cgroup(struct json_writer *w, const struct row *r)
{
	struct cgroup_label l;

	json__key(w, "cgroup");
	json__string(w, r->cgroup);
	json__key(w, "cgroup_id");
	json__uint(w, r->cgroup_id);
	cgroup_name_recognise(r->cgroup, &l);
	put_label(w, "container", l.container);
	put_label(w, "runtime", l.runtime);
	put_label(w, "pod", l.pod_uid);
	put_label(w, "qos", l.qos);
	put_label(w, "unit", l.unit);
}

static const char *row_type(const struct row *r)
{
	switch (r->kind) {
	case ROW_THREAD:
		return "thread";
	case ROW_CGROUP:
		return "cgroup";
	default:
		return "process";
	}
}

static void put_row(struct json_writer *w, const struct interval *iv, const struct row *r)
{
	bool thread = r->kind == ROW_THREAD;

	json__begin_object(w);
	json__key(w, "type");
	json__string(w, row_type(r));
	if (r->kind != ROW_CGROUP) {
		json__key(w, "pid");
		json__int(w, r->pid);
		if (thread) {
			json__key(w, "tid");
			json__int(w, r->tid);
		}
		json__key(w, "comm");
		json__string_n(w, r->comm, strnlen(r->comm, sizeof(r->comm)));
	}
	if (r->cgroup)
		put_cgroup(w, r);
	json__key(w, "cpu_ns");
	json__uint(w, r->cpu_ns);
	json__key(w, "cpu_pct");
	json__double(w, interval__cpu_pct(iv, r->cpu_ns));
	if (r->kind == ROW_PROCESS) {
		json__key(w, "threads");
		json__int(w, r->nr_threads);
	} else if (r->kind == ROW_CGROUP) {
		json__key(w, "depth");
		json__int(w, r->depth);
		json__key(w, "tasks");
		json__int(w, r->nr_threads);
	}
	if (r->exited) {
		json__key(w, "exited");
		json__bool(w, true);
	}
	put_per_event(w, iv, "counts", r->ev, put_count);
	if (iv->topdown)
		put_topdown(w, iv, &r->td, r->ipc);
	json__end_object(w);
	json__newline(w);
}

int output_jsonl__write(struct json_writer *w, const struct interval *iv)
{
	put_interval(w, iv);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_row(w, iv, &iv->rows[i]);
	return json__ok(w) ? 0 : -1;
}
