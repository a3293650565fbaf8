// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop report --diff: per-key sums of two recordings, compared and
 * printed as text, CSV or JSON Lines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "record/diff.h"
#include "util/format.h"
#include "util/grow.h"
#include "util/json.h"
#include "rows/metrics.h"

struct key_ref {
	const struct diff_table *t;
	const char *key;
};

static bool key_is(const void *ctx, size_t pos)
{
	const struct key_ref *k = ctx;

	return !strcmp(k->t->e[pos].key, k->key);
}

static struct diff_entry *lookup(struct diff_table *t, const char *key)
{
	struct key_ref ref = { t, key };
	size_t hash = key_hash_str(key);
	long pos = key_index__find(&t->index, hash, key_is, &ref);

	if (pos >= 0)
		return &t->e[pos];
	if (GROW(t->e, t->cap, t->nr + 1, 128) ||
	    key_index__set(&t->index, hash, t->nr, NULL, NULL))
		return NULL;
	memset(&t->e[t->nr], 0, sizeof(t->e[0]));
	snprintf(t->e[t->nr].key, sizeof(t->e[0].key), "%s", key);
	return &t->e[t->nr++];
}

int diff_table__add(struct diff_table *t, const char *key, int which, const struct row *r)
{
	struct diff_entry *e = lookup(t, key);
	struct diff_side *s;

	if (!e)
		return -ENOMEM;
	s = &e->side[which];
	s->seen = true;
	s->cpu_ns += r->cpu_ns;
	for (int i = 0; i < MAX_EVENTS; i++) {
		s->ev[i].count += r->ev[i].count;
		s->ev[i].enabled += r->ev[i].enabled;
		s->ev[i].running += r->ev[i].running;
	}
	return 0;
}

void diff_table__finish(struct diff_table *t, int which, const struct pipeline *p,
			double duration_s)
{
	t->run[which].duration_s = duration_s;
	snprintf(t->run[which].method, sizeof(t->run[which].method), "%s",
		 p->method ? p->method : "none");
	for (size_t i = 0; i < t->nr; i++) {
		struct diff_side *s = &t->e[i].side[which];

		metrics_compute(s->ev, &p->cfg, p->scale, &s->td, &s->ipc);
		if (!p->topdown)
			s->td.valid = false;
	}
}

/* *v* per second of side *which*'s recording; NaN when it has no length. */
static double per_s(const struct diff_table *t, int which, double v)
{
	double d = t->run[which].duration_s;

	return d > 0 ? v / d : NAN;
}

/* On-CPU time as a percentage of one CPU over the recording; 0 when not seen. */
static double cpu_pct(const struct diff_table *t, const struct diff_entry *e, int which)
{
	return per_s(t, which, (double)e->side[which].cpu_ns / 1e9) * 100.0;
}

static double frac(const struct diff_side *s, int field)
{
	return s->seen && s->td.valid ? td_field_value(&s->td, field) : NAN;
}

static double slots_per_s(const struct diff_table *t, const struct diff_entry *e, int which)
{
	const struct diff_side *s = &e->side[which];

	return s->seen && s->td.valid ? per_s(t, which, s->td.slots) : NAN;
}

static double ipc(const struct diff_side *s)
{
	return s->seen ? s->ipc : NAN;
}

/* The -s event per second; 0 when not seen, NaN when the recording lacks it. */
static double event_per_s(const struct diff_table *t, const struct diff_entry *e, int which)
{
	int ev = t->run[which].sort_event;

	if (ev < 0 || ev >= MAX_EVENTS)
		return NAN;
	return e->side[which].seen ? per_s(t, which, delta__scaled(&e->side[which].ev[ev])) : 0;
}

/* after - before of what t->sort names. */
static double sort_change(const struct diff_table *t, const struct diff_entry *e)
{
	const struct sort_key *k = &t->sort;

	if (k->kind == SORT_EVENT)
		return event_per_s(t, e, 1) - event_per_s(t, e, 0);
	if (k->kind != SORT_TD)
		return cpu_pct(t, e, 1) - cpu_pct(t, e, 0);
	if (k->field == TD_SORT_SLOTS)
		return slots_per_s(t, e, 1) - slots_per_s(t, e, 0);
	if (k->field == TD_SORT_IPC)
		return ipc(&e->side[1]) - ipc(&e->side[0]);
	return frac(&e->side[1], k->field) - frac(&e->side[0], k->field);
}

/* Largest change first, unknown changes last; by name for comm and ties. */
static int entry_cmp(const void *a, const void *b, void *ctx)
{
	const struct diff_entry *x = a, *y = b;
	const struct diff_table *t = ctx;
	double cx, cy;

	if (t->sort.kind != SORT_COMM) {
		cx = fabs(sort_change(t, x));
		cy = fabs(sort_change(t, y));
		if (isnan(cx) != isnan(cy))
			return isnan(cx) ? 1 : -1;
		if (cx != cy && !isnan(cx))
			return cx < cy ? 1 : -1;
	}
	return strcmp(x->key, y->key);
}

static bool shown(int field, int level)
{
	return td_fields[field].level && td_fields[field].level <= level;
}

/* One number of the comparison, as JSON and CSV name it. */
struct diff_value {
	const char *name;
	double v;
	int decimals;
};

/* cpu_ns, TopDown and slots, IPC: at most this many values a group */
#define MAX_VALUES (4 + 16)

/* Side *which* of *e* (before or after); the same names whatever the data. */
static int side_values(const struct diff_table *t, const struct diff_entry *e, int which,
		       int level, struct diff_value *out)
{
	const struct diff_side *s = &e->side[which];
	int n = 0;

	out[n++] = (struct diff_value){ "cpu_ns", (double)s->cpu_ns, 0 };
	out[n++] = (struct diff_value){ "cpu_pct", cpu_pct(t, e, which), OUTPUT_DEC_PCT };
	if (t->topdown) {
		out[n++] = (struct diff_value){ "slots_per_s", slots_per_s(t, e, which), 0 };
		for (int f = 0; f < nr_td_fields && n < MAX_VALUES - 1; f++)
			if (shown(f, level))
				out[n++] = (struct diff_value){ td_fields[f].key, frac(s, f),
								OUTPUT_DEC_FRACTION };
	}
	out[n++] = (struct diff_value){ "ipc", ipc(s), OUTPUT_DEC_RATIO };
	return n;
}

/* after - before (slots: after / before). */
static int change_values(const struct diff_table *t, const struct diff_entry *e, int level,
			 struct diff_value *out)
{
	const struct diff_side *s0 = &e->side[0], *s1 = &e->side[1];
	int n = 0;

	out[n++] = (struct diff_value){ "cpu_pct", cpu_pct(t, e, 1) - cpu_pct(t, e, 0),
					OUTPUT_DEC_PCT };
	if (t->topdown) {
		out[n++] = (struct diff_value){ "slots_ratio",
						slots_per_s(t, e, 1) / slots_per_s(t, e, 0),
						OUTPUT_DEC_RATIO };
		for (int f = 0; f < nr_td_fields && n < MAX_VALUES - 1; f++)
			if (shown(f, level))
				out[n++] = (struct diff_value){ td_fields[f].key,
								frac(s1, f) - frac(s0, f),
								OUTPUT_DEC_FRACTION };
	}
	out[n++] = (struct diff_value){ "ipc", ipc(s1) - ipc(s0), OUTPUT_DEC_RATIO };
	return n;
}

static const char *const groups[] = { "before", "after", "change" };

/* The values of group *g* (0 before, 1 after, 2 change) of *e*. */
static int group_values(const struct diff_table *t, const struct diff_entry *e, int g,
			int level, struct diff_value *out)
{
	return g < 2 ? side_values(t, e, g, level, out) : change_values(t, e, level, out);
}

static void print_json(const struct diff_table *t, int level, struct json_writer *w)
{
	struct diff_value v[MAX_VALUES];

	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];

		json__begin_object(w);
		json__member_string(w, "type", "diff");
		json__member_int(w, "schema", OUTPUT_SCHEMA);
		json__member_string(w, "key", e->key);
		for (int g = 0; g < 3; g++) {
			int n = group_values(t, e, g, level, v);

			json__key(w, groups[g]);
			if (g < 2 && !e->side[g].seen) {
				json__null(w);
				continue;
			}
			json__begin_object(w);
			for (int k = 0; k < n; k++)
				json__member_double(w, v[k].name, fmt_round(v[k].v, v[k].decimals));
			json__end_object(w);
		}
		json__end_object(w);
		json__newline(w);
	}
}

/* The columns of the JSON object, its groups' keys joined by '.'. */
static void print_csv(const struct diff_table *t, int level, FILE *f)
{
	static const struct diff_entry none;
	struct diff_value v[MAX_VALUES];

	fputs("key", f);
	for (int g = 0; g < 3; g++)
		for (int k = 0, n = group_values(t, &none, g, level, v); k < n; k++)
			fprintf(f, ",%s.%s", groups[g], v[k].name);
	fputc('\n', f);
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];

		fmt_csv_field(f, e->key, strlen(e->key));
		for (int g = 0; g < 3; g++) {
			int n = group_values(t, e, g, level, v);

			for (int k = 0; k < n; k++) {
				fputc(',', f);
				if (g == 2 || e->side[g].seen)
					fmt_csv_double(f, fmt_round(v[k].v, v[k].decimals));
			}
		}
		fputc('\n', f);
	}
}

static void print_pp(FILE *f, double before, double after)
{
	if (isnan(before) || isnan(after))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %+7.1fpp", (after - before) * 100.0);
}

static void print_cpu(FILE *f, const struct diff_table *t, const struct diff_entry *e, int which)
{
	char num[16];

	fprintf(f, " %9s", e->side[which].seen ? fmt_fixed(num, sizeof(num),
							   cpu_pct(t, e, which), 1) : "-");
}

static void print_text(const struct diff_table *t, int level, FILE *f)
{
	fprintf(f, "%-24s %9s %9s", "COMMAND/CGROUP", "CPU%", "CPU%");
	if (t->topdown) {
		fprintf(f, " %8s", "SLOTS/s");
		for (int k = 0; k < nr_td_fields; k++)
			if (shown(k, level))
				fprintf(f, " %9s", td_fields[k].label);
	}
	fprintf(f, "\n%-24s %9s %9s%s\n", "", "before", "after",
		t->topdown ? "    ratio  (percentage points, after - before)" : "");
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];
		char key[25];

		fmt_comm_ascii(key, sizeof(key), e->key, strlen(e->key));
		fprintf(f, "%-24s", key);
		print_cpu(f, t, e, 0);
		print_cpu(f, t, e, 1);
		if (t->topdown) {
			double r = slots_per_s(t, e, 1) / slots_per_s(t, e, 0);

			if (isfinite(r))
				fprintf(f, " %7.2fx", r);
			else
				fprintf(f, " %8s", "-");
			for (int k = 0; k < nr_td_fields; k++)
				if (shown(k, level))
					print_pp(f, frac(&e->side[0], k), frac(&e->side[1], k));
		}
		fputc('\n', f);
	}
}

int diff_table__print(struct diff_table *t, enum output_format fmt, int level, FILE *f)
{
	qsort_r(t->e, t->nr, sizeof(t->e[0]), entry_cmp, t);
	/* the order changed under the index: point it at the new positions
	 * (it keeps its size, so this cannot fail) */
	key_index__clear(&t->index);
	for (size_t i = 0; i < t->nr; i++)
		key_index__set(&t->index, key_hash_str(t->e[i].key), i, NULL, NULL);
	if (fmt == OUTPUT_JSON) {
		struct json_writer *w = json__new(f);

		if (!w)
			return -1;
		print_json(t, level, w);
		json__free(w);
	} else if (fmt == OUTPUT_CSV) {
		print_csv(t, level, f);
	} else {
		print_text(t, level, f);
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

void diff_table__free(struct diff_table *t)
{
	free(t->e);
	key_index__free(&t->index);
	memset(t, 0, sizeof(*t));
}
