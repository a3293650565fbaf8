// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exposition of a series store: every metric family with its HELP and
 * TYPE lines, in the text format 0.0.4 or OpenMetrics 1.0.0, and the live
 * trailer a scrape appends.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rows/metrics.h"
#include "util/format.h"
#include "exporter/labels.h"
#include "exporter/render.h"


/* INFO: an OpenMetrics info metric, a gauge of 1 in the text format. */
enum metric_type { COUNTER, GAUGE, INFO };

struct family {
	const char *name;	/* as samples are named: counters end in _total, infos in _info */
	enum metric_type type;
	const char *unit;	/* OpenMetrics UNIT, a suffix of the family name; NULL */
	const char *help;
};

/* The suffix OpenMetrics leaves out of a family's name. */
static const char *om_suffix(enum metric_type type)
{
	return type == COUNTER ? "_total" : type == INFO ? "_info" : "";
}

/*
 * OpenMetrics names a counter or info family without its suffix and may
 * give a unit; the text format names it as its samples, and has no info.
 */
static void family_header(FILE *f, bool om, const struct family *fam)
{
	static const char *const om_types[] = { "counter", "gauge", "info" };
	int len = (int)strlen(fam->name);

	if (!om) {
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name,
			fam->type == COUNTER ? "counter" : "gauge");
		return;
	}
	len -= (int)strlen(om_suffix(fam->type));
	fprintf(f, "# TYPE %.*s %s\n", len, fam->name, om_types[fam->type]);
	if (fam->unit)
		fprintf(f, "# UNIT %.*s %s\n", len, fam->name, fam->unit);
	fprintf(f, "# HELP %.*s %s\n", len, fam->name, fam->help);
}

static void sample(FILE *f, const char *name, const char *labels, const char *extra, double v)
{
	char num[FMT_DOUBLE_LEN];
	bool any = (labels && *labels) || (extra && *extra);

	fmt_double(num, sizeof(num), v);
	fprintf(f, "%s%s%s%s%s%s %s\n", name, any ? "{" : "", labels ? labels : "",
		labels && *labels && extra && *extra ? "," : "", extra ? extra : "", any ? "}" : "",
		num);
}

static void scalar(FILE *f, bool om, const struct family *fam, double v)
{
	if (!isfinite(v))
		return;
	family_header(f, om, fam);
	sample(f, fam->name, NULL, NULL, v);
}

static const struct family fam_build = {
	"tdtop_build_info", INFO, NULL,
	"tdtop's version and TopDown method (none without TopDown); always 1." };
static const struct family fam_cpu = {
	"tdtop_cpu_seconds_total", COUNTER, "seconds",
	"On-CPU time of the series' tasks (a cgroup's includes its descendants)." };
static const struct family fam_slots = {
	"tdtop_slots_total", COUNTER, NULL,
	"Pipeline issue slots of the series' tasks, in intervals with a TopDown breakdown." };
static const struct family fam_td = {
	"tdtop_topdown_slots_total", COUNTER, NULL,
	"Issue slots by TopDown category (fraction times slots); divide its rate by "
	"tdtop_slots_total's." };
static const struct family fam_cycles = {
	"tdtop_cycles_total", COUNTER, NULL, "Core cycles of the series' tasks." };
static const struct family fam_instr = {
	"tdtop_instructions_total", COUNTER, NULL,
	"Instructions retired by the series' tasks." };
static const struct family fam_events = {
	"tdtop_events_total", COUNTER, NULL,
	"Counts of the other events counted, scaled for multiplexing." };
static const struct family fam_event_s = {
	"tdtop_event_seconds_total", COUNTER, "seconds",
	"Time counted by the clock events (cpu-clock, task-clock), scaled for multiplexing." };

/* Indices of the series to write: the top ones by recent CPU, in key order. */
struct visible {
	const struct prom_store *s;
	size_t *idx;
	size_t n;
};

static int cmp_key(const void *a, const void *b, void *ctx)
{
	const struct prom_store *s = ctx;
	const struct prom_series *x = &s->series[*(const size_t *)a];
	const struct prom_series *y = &s->series[*(const size_t *)b];

	if (s->o.by == BY_PROCESS && !s->o.by_comm && x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int cmp_score(const void *a, const void *b, void *ctx)
{
	const struct prom_store *s = ctx;
	const struct prom_series *x = &s->series[*(const size_t *)a];
	const struct prom_series *y = &s->series[*(const size_t *)b];

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return cmp_key(a, b, ctx);
}

static int visible_get(const struct prom_store *s, struct visible *v)
{
	v->s = s;
	v->n = s->nr;
	v->idx = malloc((s->nr ? s->nr : 1) * sizeof(*v->idx));
	if (!v->idx)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++)
		v->idx[i] = i;
	if (s->o.top && s->nr > s->o.top) {
		qsort_r(v->idx, v->n, sizeof(*v->idx), cmp_score, (void *)s);
		v->n = s->o.top;
	}
	qsort_r(v->idx, v->n, sizeof(*v->idx), cmp_key, (void *)s);
	return 0;
}

static void render_cpu(FILE *f, bool om, const struct visible *v)
{
	if (!v->n)
		return;
	family_header(f, om, &fam_cpu);
	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &v->s->series[v->idx[i]];

		sample(f, fam_cpu.name, se->labels, NULL, se->cpu_s);
	}
}

static void render_slots(FILE *f, bool om, const struct visible *v)
{
	bool any = false;

	for (size_t i = 0; i < v->n && !any; i++)
		any = v->s->series[v->idx[i]].slots_seen;
	if (!any)
		return;
	family_header(f, om, &fam_slots);
	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &v->s->series[v->idx[i]];

		if (se->slots_seen)
			sample(f, fam_slots.name, se->labels, NULL, se->slots);
	}
	family_header(f, om, &fam_td);
	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &v->s->series[v->idx[i]];

		for (int c = 0; c < v->s->nr_td; c++) {
			char cat[64];

			if (!(se->td_seen & (1u << c)))
				continue;
			snprintf(cat, sizeof(cat), "category=\"%s\"", td_fields[c].key);
			sample(f, fam_td.name, se->labels, cat, se->td[c]);
		}
	}
}

/* cycles or instructions: every event of that kind summed (hybrid parts) */
static void render_kind(FILE *f, bool om, const struct visible *v, enum prom_event_kind kind,
			const struct family *fam)
{
	bool header = false;

	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &v->s->series[v->idx[i]];
		bool seen = false;
		double sum = 0;

		for (int e = 0; e < v->s->nr_events; e++) {
			if (v->s->o.event_kind[e] != kind || !(se->ev_seen & (1u << e)))
				continue;
			sum += se->ev[e];
			seen = true;
		}
		if (!seen)
			continue;
		if (!header)
			family_header(f, om, fam);
		header = true;
		sample(f, fam->name, se->labels, NULL, sum);
	}
}

/* The events of one kind, each in its own series: counts, or times in seconds. */
static void render_events(FILE *f, bool om, const struct visible *v, enum prom_event_kind kind,
			  const struct family *fam, double scale)
{
	const struct prom_store *s = v->s;
	bool header = false;

	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &s->series[v->idx[i]];

		for (int e = 0; e < s->nr_events; e++) {
			if (s->o.event_kind[e] != kind || !(se->ev_seen & (1u << e)))
				continue;
			if (!header)
				family_header(f, om, fam);
			header = true;
			sample(f, fam->name, se->labels, s->ev_labels[e], se->ev[e] * scale);
		}
	}
}

static void render_build(FILE *f, bool om, const struct prom_store *s)
{
	char version[256], method[256], labels[600];

	prom_escape_label(version, sizeof(version), s->version);
	prom_escape_label(method, sizeof(method), s->method);
	snprintf(labels, sizeof(labels), "version=\"%s\",method=\"%s\"", version, method);
	family_header(f, om, &fam_build);
	sample(f, fam_build.name, labels, NULL, 1);
}

static void render_health(FILE *f, bool om, const struct prom_store *s)
{
	static const struct family intervals = {
		"tdtop_intervals_total", COUNTER, NULL, "Intervals measured." };
	static const struct family interval = {
		"tdtop_interval_seconds", GAUGE, "seconds", "Length of the last interval." };
	static const struct family idle = {
		"tdtop_idle_cpu_seconds_total", COUNTER, "seconds", "Time the CPUs were idle." };
	static const struct family dropped = {
		"tdtop_dropped_slices_total", COUNTER, NULL,
		"Time slices charged to no task because the kernel task table was full." };
	static const struct family read_errors = {
		"tdtop_read_errors_total", COUNTER, NULL, "Counter reads that failed." };
	static const struct family switches = {
		"tdtop_context_switches_total", COUNTER, NULL,
		"Context switches handled by tdtop's BPF program." };
	static const struct family bpf = {
		"tdtop_bpf_seconds_per_switch", GAUGE, NULL,
		"Run time of tdtop's BPF program per context switch, last interval." };
	static const struct family self_s = {
		"tdtop_self_cpu_seconds_total", COUNTER, "seconds", "tdtop's own CPU time." };
	static const struct family series = {
		"tdtop_series", GAUGE, NULL, "Cgroup or process series tracked." };
	static const struct family overflow = {
		"tdtop_series_overflow_total", COUNTER, NULL,
		"Rows not tracked because the series limit was reached." };

	scalar(f, om, &intervals, s->intervals);
	scalar(f, om, &interval, s->interval_s);
	scalar(f, om, &idle, s->idle_cpu_s);
	scalar(f, om, &dropped, s->dropped);
	scalar(f, om, &read_errors, s->read_errors);
	scalar(f, om, &switches, s->switches);
	scalar(f, om, &bpf, s->bpf_s_per_switch);
	scalar(f, om, &self_s, s->self_cpu_s);
	scalar(f, om, &series, (double)s->nr);
	scalar(f, om, &overflow, s->overflow);
}

static void render_unavailable(FILE *f, bool om, const struct prom_store *s)
{
	static const struct family fam = {
		"tdtop_metric_unavailable", GAUGE, NULL,
		"1 for each metric tdtop cannot export here, with the reason "
		"(see docs/exporter.md)." };
	unsigned int na = prom_store__unavailable(s);

	if (!na)
		return;
	family_header(f, om, &fam);
	for (int i = 0; i < PROM_NR_NA; i++) {
		char labels[128];

		if (!(na & (1u << i)))
			continue;
		/* names and reasons are identifiers: nothing to escape */
		snprintf(labels, sizeof(labels), "metric=\"%s\",reason=\"%s\"",
			 prom_na_info[i].metric, prom_na_info[i].reason);
		sample(f, fam.name, labels, NULL, 1);
	}
}

int prom_store__render(const struct prom_store *s, bool openmetrics, FILE *f)
{
	struct visible v;

	if (visible_get(s, &v))
		return -1;
	render_build(f, openmetrics, s);
	render_cpu(f, openmetrics, &v);
	render_slots(f, openmetrics, &v);
	render_kind(f, openmetrics, &v, PROM_EV_CYCLES, &fam_cycles);
	render_kind(f, openmetrics, &v, PROM_EV_INSTRUCTIONS, &fam_instr);
	render_events(f, openmetrics, &v, PROM_EV_GENERIC, &fam_events, 1);
	render_events(f, openmetrics, &v, PROM_EV_TIME, &fam_event_s, 1e-9);
	render_health(f, openmetrics, s);
	render_unavailable(f, openmetrics, s);
	free(v.idx);
	return ferror(f) ? -1 : 0;
}

int prom_render_trailer(FILE *f, bool openmetrics, bool up, double render_s)
{
	static const struct family fam_up = {
		"tdtop_up", GAUGE, NULL,
		"1 while intervals are measured on time, 0 when the served values are stale." };
	static const struct family fam_render_s = {
		"tdtop_render_duration_seconds", GAUGE, "seconds",
		"Time taken to render the last interval in both formats." };

	scalar(f, openmetrics, &fam_up, up ? 1 : 0);
	scalar(f, openmetrics, &fam_render_s, render_s);
	if (openmetrics)
		fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}
