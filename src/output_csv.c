// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CSV output: one header row, then one line per row of every interval;
 * the ts column ties rows to their interval. Lines end in "\n".
 */
#include <string.h>
#include "format.h"
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

static void put_header(FILE *f, const struct interval *iv)
{
	int nr = iv_nr_events(iv);
	char buf[32];

	fputs("ts,type,pid,tid,comm,cpu_ns,cpu_pct,threads,exited", f);
	for (int i = 0; i < nr; i++) {
		const char *name = iv_event_name(iv, i, buf, sizeof(buf));

		fputc(',', f);
		put_field(f, name, strlen(name));
	}
	fputc('\n', f);
}

static void put_row(FILE *f, const struct interval *iv, const struct row *r, const char *ts)
{
	bool thread = r->kind == ROW_THREAD;
	int nr = iv_nr_events(iv);
	char num[FMT_DOUBLE_LEN];

	fprintf(f, "%s,%s,%d,", ts, thread ? "thread" : "process", r->pid);
	if (thread)
		fprintf(f, "%d", r->tid);
	fputc(',', f);
	put_field(f, r->comm, strnlen(r->comm, sizeof(r->comm)));
	fmt_double(num, sizeof(num), iv_cpu_pct(iv, r->cpu_ns));
	fprintf(f, ",%llu,%s,", (unsigned long long)r->cpu_ns, num);
	if (!thread)
		fprintf(f, "%d", r->nr_threads);
	fprintf(f, ",%d", r->exited ? 1 : 0);
	for (int i = 0; i < nr; i++) {
		fmt_scaled(num, sizeof(num), &r->ev[i]);
		fprintf(f, ",%s", num);
	}
	fputc('\n', f);
}

int output_csv_write(FILE *f, const struct interval *iv, int *csv_columns)
{
	char ts[FMT_DOUBLE_LEN];

	if (*csv_columns != iv_nr_events(iv)) {
		put_header(f, iv);
		*csv_columns = iv_nr_events(iv);
	}
	fmt_double(ts, sizeof(ts), iv->ts);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_row(f, iv, &iv->rows[i], ts);
	return ferror(f) ? -1 : 0;
}
