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
#include "output/output.h"

/* Scaled and rounded; exact for unscaled counts, null when never counted. */
static void put_count(struct json_writer *w, const struct delta *d)
{
	if (d->running == d->enabled)
		json__uint(w, d->count);
	else
		json__double(w, round(delta__scaled(d)));
}

static void put_share(struct json_writer *w, const struct delta *d)
{
	json__double(w, fmt_round(delta__running_share(d), OUTPUT_DEC_FRACTION));
}

static void put_rounded(struct json_writer *w, const char *key, double v, int decimals)
{
	json__member_double(w, key, fmt_round(v, decimals));
}

static void put_unscaled(struct json_writer *w, const struct delta *d)
{
	json__begin_object(w);
	json__member_uint(w, "count", d->count);
	json__member_uint(w, "enabled", d->enabled);
	json__member_uint(w, "running", d->running);
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

/* The interval's TopDown fields; fractions 0..1, null when unknown. */
static void put_topdown(struct json_writer *w, const struct interval *iv,
			const struct td_result *td, double ipc)
{
	json__key(w, "topdown");
	json__begin_object(w);
	for (int i = 0; i < nr_td_fields; i++)
		if (td_field_shown(iv, i))
			put_rounded(w, td_fields[i].key, td->valid ? td_field_value(td, i) : NAN,
				    OUTPUT_DEC_FRACTION);
	json__end_object(w);
	json__member_double(w, "slots", round(td->slots));
	put_rounded(w, "ipc", ipc, OUTPUT_DEC_RATIO);
}

/* The counters of the whole interval, with what was scaled and lost. */
static void put_counters(struct json_writer *w, const struct interval *iv)
{
	put_per_event(w, iv, "totals", iv->totals, put_count);
	put_per_event(w, iv, "idle", iv->idle, put_count);
	put_per_event(w, iv, "lost", iv->lost, put_count);
	json__key(w, "cpu_ns");
	json__begin_object(w);
	json__member_uint(w, "total", iv->total_cpu_ns);
	json__member_uint(w, "idle", iv->idle_cpu_ns);
	json__member_uint(w, "lost", iv->lost_cpu_ns);
	json__end_object(w);
	put_per_event(w, iv, "running", iv->totals, put_share);
	/* the unscaled totals, so a consumer can judge how much was scaled */
	if (interval__min_running_share(iv) < 1.0)
		put_per_event(w, iv, "raw", iv->totals, put_unscaled);
	json__member_uint(w, "dropped", iv->dropped);
	json__member_uint(w, "read_errors", iv->read_errors);
	json__member_uint(w, "switches", iv->switches);
}

static void put_interval(struct json_writer *w, const struct interval *iv)
{
	json__begin_object(w);
	json__member_string(w, "type", "interval");
	json__member_int(w, "schema", OUTPUT_SCHEMA);
	put_rounded(w, "ts", iv->ts, OUTPUT_DEC_SECONDS);
	put_rounded(w, "interval_s", iv->interval_s, OUTPUT_DEC_SECONDS);
	json__member_int(w, "ncpus", iv->ncpus);
	put_counters(w, iv);
	/* live only: a replay does not know the recorder's cost */
	if (!isnan(iv->bpf_ns_per_switch) || !isnan(iv->self_cpu_pct)) {
		json__key(w, "self");
		json__begin_object(w);
		put_rounded(w, "bpf_ns_per_switch", iv->bpf_ns_per_switch, OUTPUT_DEC_NS);
		put_rounded(w, "cpu_pct", iv->self_cpu_pct, OUTPUT_DEC_PCT);
		json__end_object(w);
	}
	json__member_string(w, "method", iv->method ? iv->method : "none");
	if (iv->topdown) {
		json__member_int(w, "level", iv->level);
		put_topdown(w, iv, &iv->td, iv->ipc);
	}
	if (iv->notice)
		json__member_string(w, "notice", iv->notice);
	json__end_object(w);
	json__newline(w);
}

static void put_label(struct json_writer *w, const char *key, const char *val)
{
	if (*val)
		json__member_string(w, key, val);
}

/* "cgroup", "cgroup_id" and what the path is recognised as. */
static void put_cgroup(struct json_writer *w, const struct row *r)
{
	struct cgroup_label l;

	json__member_string(w, "cgroup", r->cgroup);
	json__member_uint(w, "cgroup_id", r->cgroup_id);
	cgroup_name_recognise(r->cgroup, &l);
	put_label(w, "container", l.container);
	put_label(w, "runtime", l.runtime);
	put_label(w, "pod", l.pod_uid);
	put_label(w, "qos", l.qos);
	put_label(w, "unit", l.unit);
}

static void put_row(struct json_writer *w, const struct interval *iv, const struct row *r)
{
	json__begin_object(w);
	json__member_string(w, "type", row__type(r));
	if (r->kind != ROW_CGROUP) {
		json__member_int(w, "pid", r->pid);
		if (r->kind == ROW_THREAD)
			json__member_int(w, "tid", r->tid);
		json__key(w, "comm");
		json__string_n(w, r->comm, strnlen(r->comm, sizeof(r->comm)));
	}
	if (r->cgroup)
		put_cgroup(w, r);
	json__member_uint(w, "cpu_ns", r->cpu_ns);
	put_rounded(w, "cpu_pct", interval__cpu_pct(iv, r->cpu_ns), OUTPUT_DEC_PCT);
	if (r->kind == ROW_PROCESS) {
		json__member_int(w, "threads", r->nr_threads);
	} else if (r->kind == ROW_CGROUP) {
		json__member_int(w, "depth", r->depth);
		json__member_int(w, "tasks", r->nr_threads);
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

int output_write_jsonl(struct json_writer *w, const struct interval *iv)
{
	put_interval(w, iv);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_row(w, iv, &iv->rows[i]);
	return json__ok(w) ? 0 : -1;
}
