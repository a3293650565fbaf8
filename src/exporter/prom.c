// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pure half of the exporter: running totals per cgroup or process
 * from intervals, their exposition as text 0.0.4 or OpenMetrics 1.0.0,
 * content negotiation, and the exporter's command-line options.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "rows/metrics.h"
#include "exporter/prom.h"
#include "pmu/tdconfig.h"

/* TopDown categories a series can hold; td_fields[] has fewer. */
#define PROM_MAX_TD 16

struct prom_series {
	char *key;		/* cgroup path, or the PID in decimal */
	char *labels;		/* escaped label pairs, without braces */
	int pid;
	char comm[TASK_COMM_LEN];
	bool exited;		/* reported exited: dropped at the next interval */
	double last_seen;	/* state's elapsed_s when it last had a row */
	double score;		/* recent CPU seconds, decayed: ranks for --top */
	double cpu_s;
	double slots;
	bool slots_seen;
	double td[PROM_MAX_TD];
	unsigned int td_seen;	/* bit per td_fields[] index */
	double ev[MAX_EVENTS];
	unsigned int ev_seen;	/* bit per event */
};

struct prom_state {
	struct prom_opts o;
	char version[64];
	char method[64];
	bool method_fixed;	/* given by the caller: not replaced by the intervals' */
	int nr_td;
	bool have_events;
	int nr_events;
	char *names[MAX_EVENTS];
	char *ev_labels[MAX_EVENTS];	/* event="<name>", escaped */

	struct prom_series *series;
	size_t nr, cap;
	size_t *index;		/* open addressing: series index + 1, 0 when free */
	size_t index_cap;	/* a power of two, at least twice nr */

	double elapsed_s;	/* sum of the interval lengths seen */
	double intervals;
	double interval_s;	/* the last one's */
	double idle_cpu_s;
	double dropped;
	double read_errors;
	double switches;
	double self_cpu_s;
	double overflow;	/* rows not tracked: PROM_MAX_SERIES reached */
	double bpf_s_per_switch;	/* NAN: unknown */
	double self_cpu_pct;		/* NAN: unknown */
};

/* ---- label values ---- */

size_t prom_escape_label(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), len = 0, written = 0;
	bool full = false;

	while (left) {
		int n = utf8_seq_len(p, left);
		const char *piece = (const char *)p;
		size_t plen = n > 0 ? (size_t)n : 0;

		if (n < 0) {
			piece = "\xef\xbf\xbd";
			plen = 3;
			n = -n;
		} else if (*p == '\\') {
			piece = "\\\\";
			plen = 2;
		} else if (*p == '"') {
			piece = "\\\"";
			plen = 2;
		} else if (*p == '\n') {
			piece = "\\n";
			plen = 2;
		}
		/* a piece is written whole or not at all, and nothing after it */
		if (!full && len + plen < size) {
			memcpy(buf + len, piece, plen);
			written = len + plen;
		} else {
			full = true;
		}
		len += plen;
		p += n;
		left -= (size_t)n;
	}
	if (size)
		buf[written] = '\0';
	return len;
}

/* A malloc'ed escaped copy; NULL on ENOMEM. */
static char *escape_dup(const char *s)
{
	size_t need = prom_escape_label(NULL, 0, s) + 1;
	char *out = malloc(need);

	if (out)
		prom_escape_label(out, need, s);
	return out;
}

/* ---- series ---- */

static char *cgroup_labels(const char *path)
{
	struct cgroup_label cl;
	char *p = escape_dup(path), *u = NULL, *out = NULL;
	size_t len;

	if (!p)
		return NULL;
	cgroup_name_recognise(path, &cl);
	if (cl.unit[0] && !(u = escape_dup(cl.unit)))
		goto out;
	/* ids only: hex digits and dashes need no escaping */
	len = strlen(p) + (u ? strlen(u) : 0) + sizeof(cl.container) + sizeof(cl.pod_uid) + 64;
	out = malloc(len);
	if (!out)
		goto out;
	snprintf(out, len, "cgroup=\"%s\"%s%s%s%s%s%s%s%s%s", p, u ? ",unit=\"" : "", u ? u : "",
		 u ? "\"" : "", cl.container[0] ? ",container_id=\"" : "", cl.container,
		 cl.container[0] ? "\"" : "", cl.pod_uid[0] ? ",pod_uid=\"" : "", cl.pod_uid,
		 cl.pod_uid[0] ? "\"" : "");
out:
	free(p);
	free(u);
	return out;
}

static char *process_labels(int pid, const char *comm)
{
	char name[TASK_COMM_LEN + 1], esc[4 * TASK_COMM_LEN + 1];
	char *out;
	size_t len;

	memcpy(name, comm, TASK_COMM_LEN);
	name[TASK_COMM_LEN] = '\0';
	prom_escape_label(esc, sizeof(esc), name);
	len = strlen(esc) + 32;
	out = malloc(len);
	if (out)
		snprintf(out, len, "pid=\"%d\",comm=\"%s\"", pid, esc);
	return out;
}

/* FNV-1a: enough for paths and PIDs, in a table bounded by PROM_MAX_SERIES. */
static size_t hash_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (size_t)h;
}

static size_t *index_slot(const struct prom_state *s, const char *key)
{
	size_t mask = s->index_cap - 1;

	for (size_t i = hash_key(key) & mask;; i = (i + 1) & mask) {
		size_t v = s->index[i];

		if (!v || !strcmp(s->series[v - 1].key, key))
			return &s->index[i];
	}
}

static void index_refill(struct prom_state *s)
{
	memset(s->index, 0, s->index_cap * sizeof(*s->index));
	for (size_t i = 0; i < s->nr; i++)
		*index_slot(s, s->series[i].key) = i + 1;
}

/* A larger index for *want* series; the old one stays on ENOMEM. */
static int index_rebuild(struct prom_state *s, size_t want)
{
	size_t cap = 64;
	size_t *idx;

	while (cap < 2 * want)
		cap *= 2;
	idx = calloc(cap, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	free(s->index);
	s->index = idx;
	s->index_cap = cap;
	index_refill(s);
	return 0;
}

static void series_free(struct prom_series *se)
{
	free(se->key);
	free(se->labels);
}

/* Keep the series for which keep() holds; the index follows. */
static void series_filter(struct prom_state *s, bool (*keep)(const struct prom_state *,
							     const struct prom_series *))
{
	size_t kept = 0;

	for (size_t i = 0; i < s->nr; i++) {
		if (keep(s, &s->series[i]))
			s->series[kept++] = s->series[i];
		else
			series_free(&s->series[i]);
	}
	if (kept == s->nr)
		return;
	s->nr = kept;
	index_refill(s);
}

static bool not_exited(const struct prom_state *s, const struct prom_series *se)
{
	return !se->exited;
}

static bool not_expired(const struct prom_state *s, const struct prom_series *se)
{
	return s->o.series_ttl_s <= 0 || s->elapsed_s - se->last_seen <= s->o.series_ttl_s;
}

static bool row_wanted(const struct prom_state *s, const struct row *r)
{
	return s->o.by == BY_CGROUP ? r->kind == ROW_CGROUP : r->kind == ROW_PROCESS;
}

static void row_key(const struct row *r, char *buf, size_t size, const char **key)
{
	if (r->kind != ROW_CGROUP) {
		snprintf(buf, size, "%d", r->pid);
		*key = buf;
	} else if (r->cgroup) {
		*key = r->cgroup;
	} else {
		snprintf(buf, size, "cgroup %llu", (unsigned long long)r->cgroup_id);
		*key = buf;
	}
}

/* Append a series for *r*; -ENOMEM. */
static int series_new(struct prom_state *s, const struct row *r, const char *key)
{
	struct prom_series *se;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct prom_series *v = realloc(s->series, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->series = v;
		s->cap = cap;
	}
	if (2 * (s->nr + 1) > s->index_cap && index_rebuild(s, s->nr + 1))
		return -ENOMEM;
	se = &s->series[s->nr];
	memset(se, 0, sizeof(*se));
	se->key = strdup(key);
	se->pid = r->pid;
	memcpy(se->comm, r->comm, TASK_COMM_LEN);
	se->labels = r->kind == ROW_CGROUP ? cgroup_labels(key) : process_labels(r->pid, r->comm);
	if (!se->key || !se->labels) {
		series_free(se);
		return -ENOMEM;
	}
	*index_slot(s, key) = ++s->nr;
	return 0;
}

/*
 * Find or create the series of every wanted row first, so that running
 * out of memory leaves no interval half added. ids[i] is SIZE_MAX for a
 * row not tracked.
 */
static int map_rows(struct prom_state *s, const struct interval *iv, size_t *ids)
{
	size_t old_nr = s->nr;

	for (size_t i = 0; i < iv->nr_rows; i++) {
		const struct row *r = &iv->rows[i];
		char buf[48];
		const char *key;
		size_t *slot;

		ids[i] = SIZE_MAX;
		if (!row_wanted(s, r))
			continue;
		row_key(r, buf, sizeof(buf), &key);
		slot = index_slot(s, key);
		if (*slot) {
			ids[i] = *slot - 1;
			continue;
		}
		if (s->nr >= PROM_MAX_SERIES)
			continue;
		if (series_new(s, r, key)) {
			while (s->nr > old_nr)
				series_free(&s->series[--s->nr]);
			index_refill(s);
			return -ENOMEM;
		}
		ids[i] = s->nr - 1;
	}
	return 0;
}

static int relabel(struct prom_series *se, const struct row *r)
{
	char *labels;

	if (!memcmp(se->comm, r->comm, TASK_COMM_LEN))
		return 0;
	labels = process_labels(r->pid, r->comm);
	if (!labels)
		return -ENOMEM;
	free(se->labels);
	se->labels = labels;
	memcpy(se->comm, r->comm, TASK_COMM_LEN);
	return 0;
}

static void add_row(struct prom_state *s, struct prom_series *se, const struct interval *iv,
		    const struct row *r)
{
	double cpu = r->cpu_ns / 1e9;

	se->cpu_s += cpu;
	se->score += cpu;
	se->last_seen = s->elapsed_s;
	if (r->kind == ROW_PROCESS) {
		se->exited = r->exited;
		/* exec renames: same counts, new label (the old one stays on ENOMEM) */
		relabel(se, r);
	}
	if (iv->topdown && r->td.valid && isfinite(r->td.slots) && r->td.slots > 0) {
		se->slots += r->td.slots;
		se->slots_seen = true;
		for (int i = 0; i < s->nr_td; i++) {
			double v = td_field_value(&r->td, i);

			if (td_fields[i].level > iv->level || !isfinite(v) || v < 0)
				continue;
			se->td[i] += v * r->td.slots;
			se->td_seen |= 1u << i;
		}
	}
	for (int e = 0; e < s->nr_events; e++) {
		double v = delta__scaled(&r->ev[e]);

		if (s->o.event_kind[e] == PROM_EV_SKIP || !isfinite(v) || v < 0)
			continue;
		se->ev[e] += v;
		se->ev_seen |= 1u << e;
	}
}

/* The same events, in the same order, for the whole run. */
static int check_events(struct prom_state *s, const struct interval *iv)
{
	int n = iv->nr_events < 0 ? 0 : iv->nr_events > MAX_EVENTS ? MAX_EVENTS : iv->nr_events;

	if (s->have_events) {
		if (n != s->nr_events)
			return -EINVAL;
		for (int i = 0; i < n; i++) {
			const char *name = iv->event_names ? iv->event_names[i] : NULL;

			if (strcmp(s->names[i], name ? name : ""))
				return -EINVAL;
		}
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const char *name = iv->event_names && iv->event_names[i] ? iv->event_names[i] : "";
		size_t len = prom_escape_label(NULL, 0, name) + sizeof("event=\"\"");

		s->names[i] = strdup(name);
		s->ev_labels[i] = malloc(len);
		if (!s->names[i] || !s->ev_labels[i]) {
			for (int j = 0; j <= i; j++) {
				free(s->names[j]);
				free(s->ev_labels[j]);
				s->names[j] = s->ev_labels[j] = NULL;
			}
			return -ENOMEM;
		}
		memcpy(s->ev_labels[i], "event=\"", 7);
		prom_escape_label(s->ev_labels[i] + 7, len - 7, name);
		strcat(s->ev_labels[i], "\"");
	}
	s->nr_events = n;
	s->have_events = true;
	return 0;
}

static void add_machine(struct prom_state *s, const struct interval *iv)
{
	s->intervals++;
	s->interval_s = iv->interval_s;
	s->idle_cpu_s += iv->idle_cpu_ns / 1e9;
	s->dropped += iv->dropped;
	s->read_errors += iv->read_errors;
	s->switches += iv->switches;
	s->bpf_s_per_switch = iv->bpf_ns_per_switch / 1e9;
	s->self_cpu_pct = iv->self_cpu_pct;
	if (isfinite(iv->self_cpu_pct) && iv->self_cpu_pct > 0 && iv->interval_s > 0)
		s->self_cpu_s += iv->self_cpu_pct / 100.0 * iv->interval_s;
	if (!s->method_fixed && iv->method && *iv->method)
		snprintf(s->method, sizeof(s->method), "%s", iv->method);
}

int prom_state__add(struct prom_state *s, const struct interval *iv)
{
	double len = isfinite(iv->interval_s) && iv->interval_s > 0 ? iv->interval_s : 0;
	double decay = exp2(-len / PROM_RANK_HALF_LIFE_S);
	size_t *ids;
	int ret;

	ret = check_events(s, iv);
	if (ret)
		return ret;
	/* an exit was reported with the previous interval's values */
	series_filter(s, not_exited);
	s->elapsed_s += len;
	series_filter(s, not_expired);
	ids = malloc((iv->nr_rows ? iv->nr_rows : 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	ret = map_rows(s, iv, ids);
	if (ret) {
		free(ids);
		return ret;
	}
	for (size_t i = 0; i < s->nr; i++)
		s->series[i].score *= decay;
	for (size_t i = 0; i < iv->nr_rows; i++) {
		if (ids[i] != SIZE_MAX)
			add_row(s, &s->series[ids[i]], iv, &iv->rows[i]);
		else if (row_wanted(s, &iv->rows[i]))
			s->overflow++;
	}
	free(ids);
	add_machine(s, iv);
	return 0;
}

struct prom_state *prom_state__new(const struct prom_opts *o)
{
	struct prom_state *s;

	if (o->by != BY_CGROUP && o->by != BY_PROCESS)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *o;
	snprintf(s->version, sizeof(s->version), "%s", o->version ? o->version : "");
	snprintf(s->method, sizeof(s->method), "%s", o->method ? o->method : "none");
	s->method_fixed = o->method && strcmp(o->method, "none");
	s->nr_td = nr_td_fields < PROM_MAX_TD ? nr_td_fields : PROM_MAX_TD;
	s->bpf_s_per_switch = NAN;
	s->self_cpu_pct = NAN;
	if (index_rebuild(s, 0)) {
		free(s);
		return NULL;
	}
	return s;
}

void prom_state__free(struct prom_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		series_free(&s->series[i]);
	for (int i = 0; i < s->nr_events; i++) {
		free(s->names[i]);
		free(s->ev_labels[i]);
	}
	free(s->series);
	free(s->index);
	free(s);
}

size_t prom_state__nr_series(const struct prom_state *s)
{
	return s->nr;
}

/* ---- exposition ---- */

enum metric_type { COUNTER, GAUGE };

struct family {
	const char *name;	/* as samples are named: counters end in _total */
	enum metric_type type;
	const char *unit;	/* OpenMetrics UNIT, a suffix of the family name; NULL */
	const char *help;
};

/*
 * OpenMetrics names a counter family without its _total suffix and may
 * give a unit; the text format names it as its samples.
 */
static void family_header(FILE *f, bool om, const struct family *fam)
{
	const char *type = fam->type == COUNTER ? "counter" : "gauge";
	int len = (int)strlen(fam->name);

	if (!om) {
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name, type);
		return;
	}
	if (fam->type == COUNTER)
		len -= (int)strlen("_total");
	fprintf(f, "# TYPE %.*s %s\n", len, fam->name, type);
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
	"tdtop_build_info", GAUGE, NULL,
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

/* Indices of the series to write: the top ones by recent CPU, in key order. */
struct visible {
	const struct prom_state *s;
	size_t *idx;
	size_t n;
};

static int cmp_key(const void *a, const void *b, void *ctx)
{
	const struct prom_state *s = ctx;
	const struct prom_series *x = &s->series[*(const size_t *)a];
	const struct prom_series *y = &s->series[*(const size_t *)b];

	if (s->o.by == BY_PROCESS && x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int cmp_score(const void *a, const void *b, void *ctx)
{
	const struct prom_state *s = ctx;
	const struct prom_series *x = &s->series[*(const size_t *)a];
	const struct prom_series *y = &s->series[*(const size_t *)b];

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return cmp_key(a, b, ctx);
}

static int visible_get(const struct prom_state *s, struct visible *v)
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

static void render_events(FILE *f, bool om, const struct visible *v)
{
	const struct prom_state *s = v->s;
	bool header = false;

	for (size_t i = 0; i < v->n; i++) {
		const struct prom_series *se = &s->series[v->idx[i]];

		for (int e = 0; e < s->nr_events; e++) {
			if (s->o.event_kind[e] != PROM_EV_GENERIC || !(se->ev_seen & (1u << e)))
				continue;
			if (!header)
				family_header(f, om, &fam_events);
			header = true;
			sample(f, fam_events.name, se->labels, s->ev_labels[e], se->ev[e]);
		}
	}
}

static void render_build(FILE *f, bool om, const struct prom_state *s)
{
	char version[256], method[256], labels[600];

	prom_escape_label(version, sizeof(version), s->version);
	prom_escape_label(method, sizeof(method), s->method);
	snprintf(labels, sizeof(labels), "version=\"%s\",method=\"%s\"", version, method);
	family_header(f, om, &fam_build);
	sample(f, fam_build.name, labels, NULL, 1);
}

static void render_health(FILE *f, bool om, const struct prom_state *s)
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
	static const struct family self_pct = {
		"tdtop_self_cpu_percent", GAUGE, NULL,
		"tdtop's own CPU use in percent of one CPU, last interval." };
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
	scalar(f, om, &self_pct, s->self_cpu_pct);
	scalar(f, om, &self_s, s->self_cpu_s);
	scalar(f, om, &series, (double)s->nr);
	scalar(f, om, &overflow, s->overflow);
}

int prom_render(const struct prom_state *s, bool openmetrics, FILE *f)
{
	struct visible v;

	if (visible_get(s, &v))
		return -1;
	render_build(f, openmetrics, s);
	render_cpu(f, openmetrics, &v);
	render_slots(f, openmetrics, &v);
	render_kind(f, openmetrics, &v, PROM_EV_CYCLES, &fam_cycles);
	render_kind(f, openmetrics, &v, PROM_EV_INSTRUCTIONS, &fam_instr);
	render_events(f, openmetrics, &v);
	render_health(f, openmetrics, s);
	free(v.idx);
	return ferror(f) ? -1 : 0;
}

int prom_render_trailer(FILE *f, bool openmetrics, bool up, double build_s)
{
	static const struct family fam_up = {
		"tdtop_up", GAUGE, NULL,
		"1 while intervals are measured on time, 0 when the served values are stale." };
	static const struct family fam_build_s = {
		"tdtop_scrape_duration_seconds", GAUGE, "seconds",
		"Time taken to turn the last interval into the values served." };

	scalar(f, openmetrics, &fam_up, up ? 1 : 0);
	scalar(f, openmetrics, &fam_build_s, build_s);
	if (openmetrics)
		fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}

/* ---- content negotiation ---- */

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *trim_end(const char *start, const char *end)
{
	while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

static bool token_is(const char *s, const char *end, const char *want)
{
	size_t n = strlen(want);

	return (size_t)(end - s) == n && !strncasecmp(s, want, n);
}

/* RFC 9110 qvalue: 0, 1 or a fraction of at most three digits. */
static bool parse_q(const char *s, const char *end, double *q)
{
	double v = 0, scale = 0.1;

	if (s == end || (*s != '0' && *s != '1'))
		return false;
	v = *s++ - '0';
	if (s < end && *s == '.') {
		s++;
		for (int i = 0; s < end && i < 3 && *s >= '0' && *s <= '9'; i++, s++) {
			v += (*s - '0') * scale;
			scale /= 10;
		}
	}
	if (s != end || v > 1)
		return false;
	*q = v;
	return true;
}

/*
 * One media range: its type and the q and version parameters. False when
 * it does not parse (then it is ignored).
 */
static bool media_range(const char *s, const char *end, const char **type_end, double *q,
			const char **ver, const char **ver_end)
{
	const char *p = memchr(s, ';', (size_t)(end - s));

	*type_end = trim_end(s, p ? p : end);
	*q = 1;
	*ver = *ver_end = NULL;
	while (p) {
		const char *name = skip_ws(p + 1, end), *eq, *val, *next;

		next = memchr(name, ';', (size_t)(end - name));
		eq = memchr(name, '=', (size_t)((next ? next : end) - name));
		if (!eq)
			return false;
		val = skip_ws(eq + 1, next ? next : end);
		if (token_is(name, trim_end(name, eq), "q")) {
			if (!parse_q(val, trim_end(val, next ? next : end), q))
				return false;
		} else if (token_is(name, trim_end(name, eq), "version")) {
			*ver = val;
			*ver_end = trim_end(val, next ? next : end);
		}
		p = next;
	}
	return true;
}

bool prom_wants_openmetrics(const char *accept)
{
	double q_om = 0, q_text = 0;
	const char *p = accept;

	if (!accept)
		return false;
	while (*p) {
		const char *end = strchr(p, ','), *start, *type_end, *ver, *ver_end;
		double q;

		if (!end)
			end = p + strlen(p);
		start = skip_ws(p, end);
		if (start < end && media_range(start, end, &type_end, &q, &ver, &ver_end)) {
			if (token_is(start, type_end, "application/openmetrics-text")) {
				if (!ver || token_is(ver, ver_end, "1.0.0") ||
				    token_is(ver, ver_end, "0.0.1"))
					q_om = q > q_om ? q : q_om;
			} else if (token_is(start, type_end, "text/plain")) {
				if (!ver || token_is(ver, ver_end, "0.0.4"))
					q_text = q > q_text ? q : q_text;
			} else if (token_is(start, type_end, "*/*") ||
				   token_is(start, type_end, "text/*")) {
				q_text = q > q_text ? q : q_text;
			}
		}
		p = *end ? end + 1 : end;
	}
	return q_om > 0 && q_om >= q_text;
}

/* ---- the exporter's options ---- */

static int parse_port(const char *s, int *port)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -1;
	*port = (int)v;
	return 0;
}

/*
 * Split "HOST:PORT", "[HOST]:PORT", "HOST" or "[HOST]" into *host* and the
 * port text (NULL when absent); *v6* for the bracketed form.
 */
static int split_listen(const char *s, char *host, size_t size, const char **port_s, bool *v6,
			char *err, size_t errlen)
{
	const char *h = s, *colon;
	size_t hlen;

	*port_s = NULL;
	*v6 = *s == '[';
	if (*v6) {
		const char *close = strchr(s, ']');

		if (!close) {
			snprintf(err, errlen, "invalid listen address '%.80s': no closing ']'", s);
			return -1;
		}
		h = s + 1;
		hlen = (size_t)(close - h);
		if (close[1] == ':') {
			*port_s = close + 2;
		} else if (close[1]) {
			snprintf(err, errlen, "invalid listen address '%.80s': want [ADDR]:PORT",
				 s);
			return -1;
		}
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':')) {
			snprintf(err, errlen,
				 "invalid listen address '%.80s': IPv6 addresses go in brackets, "
				 "e.g. [::1]:%d", s, EXPORTER_DEFAULT_PORT);
			return -1;
		}
		hlen = colon ? (size_t)(colon - s) : strlen(s);
		*port_s = colon ? colon + 1 : NULL;
	}
	if (!hlen) {
		/* no "all addresses" by omission: exposing the host is a decision */
		snprintf(err, errlen,
			 "missing address in listen address '%.80s': give one, e.g. 127.0.0.1, "
			 "0.0.0.0 or [::]", s);
		return -1;
	}
	if (hlen >= size) {
		snprintf(err, errlen, "invalid listen address: '%.80s' is too long", s);
		return -1;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	return 0;
}

/* The socket address and its canonical text from a numeric *host*. */
static int fill_addr(const char *host, bool v6, int port, struct listen_addr *out, char *err,
		     size_t errlen)
{
	char canon[INET6_ADDRSTRLEN];
	int fam = v6 ? AF_INET6 : AF_INET;
	void *addr;

	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&out->ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((unsigned short)port);
		addr = &a->sin6_addr;
		out->len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&out->ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((unsigned short)port);
		addr = &a->sin_addr;
		out->len = sizeof(*a);
	}
	if (inet_pton(fam, host, addr) != 1) {
		if (v6)
			snprintf(err, errlen, "invalid IPv6 address '%s' in listen address%s", host,
				 strchr(host, '%') ? " (zone ids are not supported)" : "");
		else
			snprintf(err, errlen, "invalid IPv4 address '%s' in listen address "
				 "(numeric only; IPv6 in brackets)", host);
		return -1;
	}
	inet_ntop(fam, addr, canon, sizeof(canon));
	snprintf(out->text, sizeof(out->text), v6 ? "[%s]:%d" : "%s:%d", canon, port);
	return 0;
}

int listen_addr_parse(const char *s, struct listen_addr *out, char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + 1];
	int port = EXPORTER_DEFAULT_PORT;
	const char *port_s;
	bool v6;

	memset(out, 0, sizeof(*out));
	if (!*s) {
		snprintf(err, errlen, "empty listen address (want ADDR:PORT, e.g. 127.0.0.1:%d)",
			 EXPORTER_DEFAULT_PORT);
		return -1;
	}
	if (split_listen(s, host, sizeof(host), &port_s, &v6, err, errlen))
		return -1;
	if (port_s && parse_port(port_s, &port)) {
		snprintf(err, errlen, "invalid port '%.40s' in listen address (want 1..65535)",
			 port_s);
		return -1;
	}
	if (fill_addr(host, v6, port, out, err, errlen)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

void exporter_opts_init(struct exporter_opts *o)
{
	char err[8];

	memset(o, 0, sizeof(*o));
	listen_addr_parse(EXPORTER_DEFAULT_ADDR, &o->listen, err, sizeof(err));
	o->prom.by = BY_CGROUP;
	o->prom.series_ttl_s = EXPORTER_DEFAULT_TTL_S;
	o->prom.method = "none";
	o->interval_s = 1.0;
}

int exporter_opts_from_options(const struct options *o, struct exporter_opts *eo, char *err,
				size_t errlen)
{
	exporter_opts_init(eo);
	if (o->listen && listen_addr_parse(o->listen, &eo->listen, err, errlen))
		return -1;
	if (o->by != BY_CGROUP && o->by != BY_PROCESS) {
		snprintf(err, errlen, "the exporter has no per-thread series: use --by cgroup or "
			 "--by process");
		return -1;
	}
	eo->prom.by = o->by;
	if (o->top > PROM_MAX_SERIES) {
		snprintf(err, errlen, "invalid --top '%zu' for the exporter (want 1..%d)", o->top,
			 PROM_MAX_SERIES);
		return -1;
	}
	eo->prom.top = o->top ? o->top : o->by == BY_PROCESS ? EXPORTER_DEFAULT_TOP : 0;
	eo->interval_s = o->delay_s;
	return 0;
}

/* ---- event kinds ---- */

void prom_event_kinds_from_roles(const int *role, int n, enum prom_event_kind *out)
{
	for (int i = 0; i < n && i < MAX_EVENTS; i++) {
		if (role[i] == TD_CYCLES)
			out[i] = PROM_EV_CYCLES;
		else if (role[i] == TD_INSTRUCTIONS)
			out[i] = PROM_EV_INSTRUCTIONS;
		else if (role[i] == TD_NO_ROLE)
			out[i] = PROM_EV_GENERIC;
		else
			out[i] = PROM_EV_SKIP;
	}
}
