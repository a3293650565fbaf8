// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CSV output: one header row, then one line per row of every interval;
 * the ts column ties rows to their interval. Lines end in "\n".
 */
#include <math.h>
#include <string.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "rows/metrics.h"
#include "output/formats.h"

/* TopDown columns: level 1, level 2 when shown, slots and IPC. */
static bool td_column(const struct interval *iv, int i)
{
	return td_fields[i].level && td_fields[i].level <= iv->level;
}

static void put_header(FILE *f, const struct interval *iv)
{
	int nr = interval__nr_events(iv);
	char buf[EVENT_NAME_LEN];

	fputs("ts,type,pid,tid,comm,cpu_ns,cpu_pct,threads,exited", f);
	if (iv->cgroups)
		fputs(",cgroup,cgroup_id,container,pod,unit", f);
	for (int i = 0; i < nr; i++) {
		const char *name = interval__event_name(iv, i, buf, sizeof(buf));

		fputc(',', f);
		fmt_csv_field(f, name, strlen(name));
	}
	if (iv->topdown) {
		for (int i = 0; i < nr_td_fields; i++)
			if (td_column(iv, i))
				fprintf(f, ",%s", td_fields[i].key);
		fputs(",slots,ipc", f);
	}
	fputc('\n', f);
}

static void put_cgroup(FILE *f, const struct row *r)
{
	struct cgroup_label l;
	const char *path = r->cgroup ? r->cgroup : "";

	cgroup_name_recognise(path, &l);
	fputc(',', f);
	fmt_csv_field(f, path, strlen(path));
	fprintf(f, ",%llu,%s,%s,", (unsigned long long)r->cgroup_id, l.container, l.pod_uid);
	fmt_csv_field(f, l.unit, strlen(l.unit));
}

static void put_double(FILE *f, double v)
{
	fputc(',', f);
	fmt_csv_double(f, v);
}

static void put_topdown(FILE *f, const struct interval *iv, const struct row *r)
{
	for (int i = 0; i < nr_td_fields; i++)
		if (td_column(iv, i))
			put_double(f, r->td.valid ? td_field_value(&r->td, i) : NAN);
	put_double(f, round(r->td.slots));
	put_double(f, r->ipc);
}

/* The header is written again when the columns change. */
static int shape(const struct interval *iv)
{
	return interval__nr_events(iv) | iv->topdown << 8 | iv->level << 9 | iv->cgroups << 12;
}

static void put_row(FILE *f, const struct interval *iv, const struct row *r, const char *ts)
{
	bool thread = r->kind == ROW_THREAD, cgroup = r->kind == ROW_CGROUP;
	int nr = interval__nr_events(iv);
	char num[FMT_DOUBLE_LEN];

	fprintf(f, "%s,%s,", ts, row__type(r));
	if (!cgroup)
		fprintf(f, "%d", r->pid);
	fputc(',', f);
	if (thread)
		fprintf(f, "%d", r->tid);
	fputc(',', f);
	if (!cgroup)
		fmt_csv_field(f, r->comm, strnlen(r->comm, sizeof(r->comm)));
	fmt_double(num, sizeof(num), interval__cpu_pct(iv, r->cpu_ns));
	fprintf(f, ",%llu,%s,", (unsigned long long)r->cpu_ns, num);
	if (!thread)
		fprintf(f, "%d", r->nr_threads);
	fprintf(f, ",%d", r->exited ? 1 : 0);
	if (iv->cgroups)
		put_cgroup(f, r);
	for (int i = 0; i < nr; i++) {
		delta__format(&r->ev[i], num, sizeof(num));
		fprintf(f, ",%s", num);
	}
	if (iv->topdown)
		put_topdown(f, iv, r);
	fputc('\n', f);
}

int output_csv__write(FILE *f, const struct interval *iv, int *csv_columns)
{
	char ts[FMT_DOUBLE_LEN];

	if (*csv_columns != shape(iv)) {
		put_header(f, iv);
		*csv_columns = shape(iv);
	}
	fmt_double(ts, sizeof(ts), iv->ts);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_row(f, iv, &iv->rows[i], ts);
	return ferror(f) ? -1 : 0;
}
