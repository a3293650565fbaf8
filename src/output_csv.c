// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CSV output: one header row, then one line per row of every interval;
 * the ts column ties rows to their interval. Lines end in "\n".
 */
#include <math.h>
#include <string.h>
#include "cgroup_names.h"
#include "format.h"
#include "metrics.h"
#include "output.h"

/*
 * A field's bytes that a line-oriented reader must not see raw: control
 * bytes and 0x7f become \xNN, and so do bytes that are not well-formed
 * UTF-8 (the file stays valid UTF-8). '\\' is doubled so every escape
 * reads back unambiguously. Well-formed UTF-8 is copied. The escapes hold
 * no comma, quote or space, so the quoting decision can be made on the
 * raw bytes (RFC 4180: quote a field holding a comma, a quote or edge
 * spaces, double the quotes inside; CR and LF never reach the file raw).
 */
static void put_field(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote;
	size_t i = 0;

	if (!len)
		return;
	quote = memchr(s, ',', len) || memchr(s, '"', len) || s[0] == ' ' || s[len - 1] == ' ';
	if (quote)
		fputc('"', f);
	while (i < len) {
		int n = utf8_seq_len(p + i, len - i);

		if (p[i] == '\\' || p[i] == '"') {
			fputc(p[i], f);
			fputc(p[i], f);
			i++;
		} else if (n < 0 || p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\x%02x", p[i]);
			i++;
		} else {
			fwrite(p + i, 1, (size_t)n, f);
			i += (size_t)n;
		}
	}
	if (quote)
		fputc('"', f);
}

/* TopDown columns: level 1, level 2 when shown, slots and IPC. */
static bool td_column(const struct interval *iv, int i)
{
	return td_fields[i].level && td_fields[i].level <= iv->level;
}

static void put_header(FILE *f, const struct interval *iv)
{
	int nr = iv_nr_events(iv);
	char buf[EVENT_NAME_LEN];

	fputs("ts,type,pid,tid,comm,cpu_ns,cpu_pct,threads,exited", f);
	if (iv->cgroups)
		fputs(",cgroup,cgroup_id,container,pod,unit", f);
	for (int i = 0; i < nr; i++) {
		const char *name = iv_event_name(iv, i, buf, sizeof(buf));

		fputc(',', f);
		put_field(f, name, strlen(name));
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
	put_field(f, path, strlen(path));
	fprintf(f, ",%llu,%s,%s,", (unsigned long long)r->cgroup_id, l.container, l.pod_uid);
	put_field(f, l.unit, strlen(l.unit));
}

static void put_double(FILE *f, double v)
{
	char num[FMT_DOUBLE_LEN];

	fmt_double(num, sizeof(num), v);
	fprintf(f, ",%s", isnan(v) ? "" : num);
}

static void put_topdown(FILE *f, const struct interval *iv, const struct row *r)
{
	for (int i = 0; i < nr_td_fields; i++)
		if (td_column(iv, i))
			put_double(f, r->td.valid ? td_field_value(&r->td, i) : NAN);
	put_double(f, isnan(r->td.slots) ? NAN : round(r->td.slots));
	put_double(f, r->ipc);
}

/* The header is written again when the columns change. */
static int shape(const struct interval *iv)
{
	return iv_nr_events(iv) | iv->topdown << 8 | iv->level << 9 | iv->cgroups << 12;
}

static void put_row(FILE *f, const struct interval *iv, const struct row *r, const char *ts)
{
	static const char *const types[] = { [ROW_PROCESS] = "process", [ROW_THREAD] = "thread",
					     [ROW_CGROUP] = "cgroup" };
	bool thread = r->kind == ROW_THREAD, cgroup = r->kind == ROW_CGROUP;
	int nr = iv_nr_events(iv);
	char num[FMT_DOUBLE_LEN];

	fprintf(f, "%s,%s,", ts, types[r->kind]);
	if (!cgroup)
		fprintf(f, "%d", r->pid);
	fputc(',', f);
	if (thread)
		fprintf(f, "%d", r->tid);
	fputc(',', f);
	if (!cgroup)
		put_field(f, r->comm, strnlen(r->comm, sizeof(r->comm)));
	fmt_double(num, sizeof(num), iv_cpu_pct(iv, r->cpu_ns));
	fprintf(f, ",%llu,%s,", (unsigned long long)r->cpu_ns, num);
	if (!thread)
		fprintf(f, "%d", r->nr_threads);
	fprintf(f, ",%d", r->exited ? 1 : 0);
	if (iv->cgroups)
		put_cgroup(f, r);
	for (int i = 0; i < nr; i++) {
		fmt_scaled(num, sizeof(num), &r->ev[i]);
		fprintf(f, ",%s", num);
	}
	if (iv->topdown)
		put_topdown(f, iv, r);
	fputc('\n', f);
}

int output_csv_write(FILE *f, const struct interval *iv, int *csv_columns)
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
