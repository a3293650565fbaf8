// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CSV output: a header line, then per interval one "interval" line and
 * one line per row. The columns are the fields of the JSON objects, the
 * keys of nested ones joined with '.' (totals.cpu-clock,
 * topdown.retiring); a line leaves the columns of the other type empty.
 * Lines end in "\n".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "rows/metrics.h"
#include "output/formats.h"
#include "output/output.h"

enum cell_mode {
	CELL_NAME,	/* the header: each column's name */
	CELL_VALUE,
	CELL_EMPTY,	/* a column of the other line type */
};

struct line {
	FILE *f;
	enum cell_mode mode;
	bool first;
};

/*
 * Start a cell: its separator and, in the header, the column's name, the
 * non-NULL parts of *a*.*b*.*c*. True when the caller writes its value.
 */
static bool cell(struct line *l, const char *a, const char *b, const char *c)
{
	char name[3 * EVENT_NAME_LEN];
	int len;

	if (!l->first)
		fputc(',', l->f);
	l->first = false;
	if (l->mode == CELL_NAME) {
		len = snprintf(name, sizeof(name), "%s%s%s%s%s", a, b ? "." : "", b ? b : "",
			       c ? "." : "", c ? c : "");
		if (len >= (int)sizeof(name))
			len = (int)sizeof(name) - 1;
		fmt_csv_field(l->f, name, len < 0 ? 0 : (size_t)len);
	}
	return l->mode == CELL_VALUE;
}

static void cell_u64(struct line *l, const char *a, const char *b, __u64 v)
{
	if (cell(l, a, b, NULL))
		fprintf(l->f, "%llu", (unsigned long long)v);
}

static void cell_int(struct line *l, const char *a, const char *b, int v)
{
	if (cell(l, a, b, NULL))
		fprintf(l->f, "%d", v);
}

/* Rounded to *decimals*; empty when unknown (NaN). */
static void cell_double(struct line *l, const char *a, const char *b, double v, int decimals)
{
	if (cell(l, a, b, NULL))
		fmt_csv_double(l->f, fmt_round(v, decimals));
}

static void cell_str(struct line *l, const char *a, const char *s, size_t len)
{
	if (cell(l, a, NULL, NULL))
		fmt_csv_field(l->f, s, len);
}

/* One column per event: *key*.<event>, the scaled count. */
static void put_counts(struct line *l, const struct interval *iv, const char *key,
		       const struct delta *ev)
{
	char buf[EVENT_NAME_LEN], num[FMT_DOUBLE_LEN];

	for (int i = 0; i < interval__nr_events(iv); i++) {
		if (!cell(l, key, interval__event_name(iv, i, buf, sizeof(buf)), NULL))
			continue;
		delta__format(&ev[i], num, sizeof(num));
		fputs(num, l->f);
	}
}

/* running.<event> and raw.<event>.count/enabled/running of the totals. */
static void put_scaling(struct line *l, const struct interval *iv)
{
	static const char *const raw[] = { "count", "enabled", "running" };
	char buf[EVENT_NAME_LEN];
	int nr = interval__nr_events(iv);

	for (int i = 0; i < nr; i++)
		cell_double(l, "running", interval__event_name(iv, i, buf, sizeof(buf)),
			    delta__running_share(&iv->totals[i]), OUTPUT_DEC_FRACTION);
	for (int i = 0; i < nr; i++) {
		const __u64 v[] = { iv->totals[i].count, iv->totals[i].enabled,
				    iv->totals[i].running };

		for (int k = 0; k < 3; k++)
			if (cell(l, "raw", interval__event_name(iv, i, buf, sizeof(buf)), raw[k]))
				fprintf(l->f, "%llu", (unsigned long long)v[k]);
	}
}

/* The fields of the JSON interval object but TopDown. */
static void put_interval(struct line *l, const struct interval *iv)
{
	const char *method = iv->method ? iv->method : "none";
	const char *notice = iv->notice ? iv->notice : "";

	cell_int(l, "schema", NULL, OUTPUT_SCHEMA);
	cell_double(l, "interval_s", NULL, iv->interval_s, OUTPUT_DEC_SECONDS);
	cell_int(l, "ncpus", NULL, iv->ncpus);
	put_counts(l, iv, "totals", iv->totals);
	put_counts(l, iv, "idle", iv->idle);
	put_counts(l, iv, "lost", iv->lost);
	cell_u64(l, "cpu_ns", "total", iv->total_cpu_ns);
	cell_u64(l, "cpu_ns", "idle", iv->idle_cpu_ns);
	cell_u64(l, "cpu_ns", "lost", iv->lost_cpu_ns);
	put_scaling(l, iv);
	cell_u64(l, "dropped", NULL, iv->dropped);
	cell_u64(l, "read_errors", NULL, iv->read_errors);
	cell_u64(l, "switches", NULL, iv->switches);
	cell_double(l, "self", "bpf_ns_per_switch", iv->bpf_ns_per_switch, OUTPUT_DEC_NS);
	cell_double(l, "self", "cpu_pct", iv->self_cpu_pct, OUTPUT_DEC_PCT);
	cell_str(l, "method", method, strlen(method));
	if (iv->topdown)
		cell_int(l, "level", NULL, iv->level);
	cell_str(l, "notice", notice, strlen(notice));
}

/* cgroup, cgroup_id and what the path is recognised as. */
static void put_cgroup(struct line *l, const struct row *r)
{
	const char *path = r->cgroup ? r->cgroup : "";
	struct cgroup_label lb;

	cgroup_name_recognise(path, &lb);
	cell_str(l, "cgroup", path, strlen(path));
	cell_u64(l, "cgroup_id", NULL, r->cgroup_id);
	cell_str(l, "container", lb.container, strlen(lb.container));
	cell_str(l, "runtime", lb.runtime, strlen(lb.runtime));
	cell_str(l, "pod", lb.pod_uid, strlen(lb.pod_uid));
	cell_str(l, "qos", lb.qos, strlen(lb.qos));
	cell_str(l, "unit", lb.unit, strlen(lb.unit));
}

/* The fields of the JSON row objects of the interval's kind but TopDown. */
static void put_row(struct line *l, const struct interval *iv, const struct row *r)
{
	bool task = iv->row_kind != ROW_CGROUP;

	if (task) {
		cell_int(l, "pid", NULL, r->pid);
		if (iv->row_kind == ROW_THREAD)
			cell_int(l, "tid", NULL, r->tid);
		cell_str(l, "comm", r->comm, strnlen(r->comm, sizeof(r->comm)));
	}
	if (iv->cgroups)
		put_cgroup(l, r);
	cell_u64(l, "cpu_ns", NULL, r->cpu_ns);
	cell_double(l, "cpu_pct", NULL, interval__cpu_pct(iv, r->cpu_ns), OUTPUT_DEC_PCT);
	if (iv->row_kind == ROW_PROCESS)
		cell_int(l, "threads", NULL, r->nr_threads);
	if (!task) {
		cell_int(l, "depth", NULL, r->depth);
		cell_int(l, "tasks", NULL, r->nr_threads);
	}
	if (task)
		cell_int(l, "exited", NULL, r->exited);
	put_counts(l, iv, "counts", r->ev);
}

/* Interval and rows alike: the TopDown fields, slots and IPC. */
static void put_topdown(struct line *l, const struct interval *iv, const struct td_result *td,
			double ipc)
{
	for (int i = 0; i < nr_td_fields; i++)
		if (td_field_shown(iv, i))
			cell_double(l, "topdown", td_fields[i].key,
				    td->valid ? td_field_value(td, i) : NAN, OUTPUT_DEC_FRACTION);
	cell_double(l, "slots", NULL, round(td->slots), 0);
	cell_double(l, "ipc", NULL, ipc, OUTPUT_DEC_RATIO);
}

/*
 * The header (*header*), the interval's line (r NULL) or a row's: every
 * line has the same cells in the same order, only what they hold differs.
 */
static void put_line(FILE *f, const struct interval *iv, const struct row *r, bool header)
{
	static const struct row none = { .ipc = NAN };
	enum cell_mode value = header ? CELL_NAME : CELL_VALUE;
	enum cell_mode other = header ? CELL_NAME : CELL_EMPTY;
	struct line l = { .f = f, .mode = value, .first = true };
	const char *type = r ? row__type(r) : "interval";

	cell_double(&l, "ts", NULL, iv->ts, OUTPUT_DEC_SECONDS);
	cell_str(&l, "type", type, strlen(type));
	l.mode = r ? other : value;
	put_interval(&l, iv);
	l.mode = r ? value : other;
	put_row(&l, iv, r ? r : &none);
	l.mode = value;
	if (iv->topdown)
		put_topdown(&l, iv, r ? &r->td : &iv->td, r ? r->ipc : iv->ipc);
	fputc('\n', f);
}

/* The header of *iv*'s columns, malloc'ed; NULL on ENOMEM. */
static char *header_of(const struct interval *iv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	put_line(m, iv, NULL, true);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int output_write_csv(FILE *f, const struct interval *iv, char **header)
{
	char *h = header_of(iv);

	if (!h)
		return -1;
	if (!*header || strcmp(*header, h)) {
		fputs(h, f);
		free(*header);
		*header = h;
	} else {
		free(h);
	}
	put_line(f, iv, NULL, false);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_line(f, iv, &iv->rows[i], false);
	return ferror(f) ? -1 : 0;
}
