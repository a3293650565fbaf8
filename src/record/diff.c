// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop report --diff: per-key sums of two recordings, compared and
 * printed as text, CSV or JSON Lines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
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

void diff_table__finish(struct diff_table *t, int which, const struct pipeline *p)
{
	for (size_t i = 0; i < t->nr; i++) {
		struct diff_side *s = &t->e[i].side[which];

		metrics_compute(s->ev, &p->cfg, p->scale, &s->td, &s->ipc);
		if (!p->topdown)
			s->td.valid = false;
	}
}

static double abs_change(const struct diff_entry *e)
{
	return fabs((double)e->side[1].cpu_ns - (double)e->side[0].cpu_ns);
}

static int by_change(const void *a, const void *b)
{
	double x = abs_change(a), y = abs_change(b);

	if (x != y)
		return x < y ? 1 : -1;
	return strcmp(((const struct diff_entry *)a)->key, ((const struct diff_entry *)b)->key);
}

static double frac(const struct diff_side *s, int field)
{
	return s->seen && s->td.valid ? td_field_value(&s->td, field) : NAN;
}

static double slots(const struct diff_side *s)
{
	return s->seen && s->td.valid ? s->td.slots : NAN;
}

static bool shown(int field, int level)
{
	return td_fields[field].level && td_fields[field].level <= level;
}

static void print_json(const struct diff_table *t, int level, struct json_writer *w)
{
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];

		json__begin_object(w);
		json__member_string(w, "type", "diff");
		json__member_string(w, "key", e->key);
		for (int side = 0; side < 2; side++) {
			const struct diff_side *s = &e->side[side];

			json__key(w, side ? "after" : "before");
			if (!s->seen) {
				json__null(w);
				continue;
			}
			json__begin_object(w);
			json__member_uint(w, "cpu_ns", s->cpu_ns);
			if (t->topdown) {
				json__member_double(w, "slots",
						    isnan(slots(s)) ? NAN : round(slots(s)));
				for (int f = 0; f < nr_td_fields; f++) {
					if (!shown(f, level))
						continue;
					json__member_double(w, td_fields[f].key, frac(s, f));
				}
			}
			json__end_object(w);
		}
		json__key(w, "change");
		json__begin_object(w);
		json__member_int(w, "cpu_ns",
				 (long long)e->side[1].cpu_ns - (long long)e->side[0].cpu_ns);
		if (t->topdown) {
			json__member_double(w, "slots_ratio",
					    slots(&e->side[1]) / slots(&e->side[0]));
			for (int f = 0; f < nr_td_fields; f++) {
				if (!shown(f, level))
					continue;
				json__member_double(w, td_fields[f].key,
						    frac(&e->side[1], f) - frac(&e->side[0], f));
			}
		}
		json__end_object(w);
		json__end_object(w);
		json__newline(w);
	}
}

static void print_pp(FILE *f, double before, double after)
{
	if (isnan(before) || isnan(after))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %+7.1fpp", (after - before) * 100.0);
}

static void put_double(FILE *f, double v)
{
	fputc(',', f);
	fmt_csv_double(f, v);
}

static void print_csv(const struct diff_table *t, int level, FILE *f)
{
	fputs("key,cpu_ns_before,cpu_ns_after,slots_before,slots_after", f);
	for (int k = 0; k < nr_td_fields && t->topdown; k++)
		if (shown(k, level))
			fprintf(f, ",%s_before,%s_after", td_fields[k].key, td_fields[k].key);
	fputc('\n', f);
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];

		fmt_csv_field(f, e->key, strlen(e->key));
		fprintf(f, ",%llu,%llu", (unsigned long long)e->side[0].cpu_ns,
			(unsigned long long)e->side[1].cpu_ns);
		put_double(f, slots(&e->side[0]));
		put_double(f, slots(&e->side[1]));
		for (int k = 0; k < nr_td_fields && t->topdown; k++) {
			if (!shown(k, level))
				continue;
			put_double(f, frac(&e->side[0], k));
			put_double(f, frac(&e->side[1], k));
		}
		fputc('\n', f);
	}
}

static void print_cpu_s(FILE *f, const struct diff_side *s)
{
	if (s->seen)
		fprintf(f, " %9.2f", s->cpu_ns / 1e9);
	else
		fprintf(f, " %9s", "-");
}

static void print_text(const struct diff_table *t, int level, FILE *f)
{
	fprintf(f, "%-24s %9s %9s", "COMMAND/CGROUP", "CPU s", "CPU s");
	if (t->topdown) {
		fprintf(f, " %8s", "SLOTS");
		for (int k = 0; k < nr_td_fields; k++)
			if (shown(k, level))
				fprintf(f, " %9s", td_fields[k].label);
	}
	fprintf(f, "\n%-24s %9s %9s%s\n", "", "before", "after",
		t->topdown ? "    ratio  (percentage points, after - before)" : "");
	for (size_t i = 0; i < t->nr; i++) {
		const struct diff_entry *e = &t->e[i];
		const struct diff_side *s0 = &e->side[0], *s1 = &e->side[1];
		char key[25];

		fmt_comm_ascii(key, sizeof(key), e->key, strlen(e->key));
		fprintf(f, "%-24s", key);
		print_cpu_s(f, s0);
		print_cpu_s(f, s1);
		if (t->topdown) {
			double r = slots(s1) / slots(s0);

			if (isfinite(r))
				fprintf(f, " %7.2fx", r);
			else
				fprintf(f, " %8s", "-");
			for (int k = 0; k < nr_td_fields; k++)
				if (shown(k, level))
					print_pp(f, frac(s0, k), frac(s1, k));
		}
		fputc('\n', f);
	}
}

int diff_table__print(struct diff_table *t, enum output_format fmt, int level, FILE *f)
{
	qsort(t->e, t->nr, sizeof(t->e[0]), by_change);
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
