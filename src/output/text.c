// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The plain-text batch format: a top-like header block, then aligned rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "rows/metrics.h"
#include "output/formats.h"

/* Event columns are at least this wide, so "12.3K" and "-" line up. */
#define MIN_EVENT_WIDTH 6
/* Sanitised event names; longer ones are cut in the text output only. */
#define NAME_LEN 80

static void put_clock(FILE *f, double ts)
{
	char buf[16] = "--:--:--";
	struct tm tm;
	time_t t;

	if (isfinite(ts) && ts >= 0 && ts < 1e15) {
		t = (time_t)ts;
		if (localtime_r(&t, &tm))
			strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	}
	fputs(buf, f);
}

static const char *text_name(const struct interval *iv, int i, char *buf, size_t size)
{
	char tmp[EVENT_NAME_LEN];
	const char *name = interval__event_name(iv, i, tmp, sizeof(tmp));

	fmt_comm_ascii(buf, size, name, strlen(name));
	return buf;
}

static double td_pct(const struct td_result *td, int i)
{
	return td->valid ? td_field_value(td, i) * 100.0 : NAN;
}

/* What makes the counts less than exact. */
static void put_warnings(FILE *f, const struct interval *iv)
{
	double share = interval__min_running_share(iv);

	if (iv->dropped)
		fprintf(f, "warning: dropped %llu slices: task map full (raise --max-tasks)\n",
			(unsigned long long)iv->dropped);
	if (iv->read_errors)
		fprintf(f, "warning: %llu counter reads failed\n",
			(unsigned long long)iv->read_errors);
	if (share < 1.0)
		fprintf(f, "warning: counted %.1f%% of the time (multiplexed), counts scaled\n",
			share * 100.0);
}

static void put_header(FILE *f, const struct interval *iv)
{
	int nr = interval__nr_events(iv);
	char name[NAME_LEN], num[FMT_COMPACT_LEN], pct[16];
	double busy = interval__busy_pct(iv);

	fputs("tdtop - ", f);
	put_clock(f, iv->ts);
	fprintf(f, " interval %.2fs, %d CPUs, %zu rows, switches %llu\n", iv->interval_s,
		iv->ncpus, iv->rows ? iv->nr_rows : 0, (unsigned long long)iv->switches);
	fprintf(f, "Totals: busy %s%s", fmt_fixed(pct, sizeof(pct), busy, 1),
		isfinite(busy) ? "%" : "");
	for (int i = 0; i < nr; i++)
		fprintf(f, ", %s %s", text_name(iv, i, name, sizeof(name)),
			fmt_compact(num, sizeof(num), delta__scaled(&iv->totals[i])));
	fputc('\n', f);
	if (iv->topdown) {
		fprintf(f, "TopDown (%s):", iv->method ? iv->method : "none");
		for (int i = 0; i < nr_td_fields; i++)
			if (td_field_shown(iv, i))
				fprintf(f, " %s %s%%", td_fields[i].sort,
					fmt_fixed(pct, sizeof(pct), td_pct(&iv->td, i), 1));
		fprintf(f, ", IPC %s\n", fmt_fixed(pct, sizeof(pct), iv->ipc, 2));
	}
	if (iv->notice)
		fprintf(f, "note: %s\n", iv->notice);
	put_warnings(f, iv);
}

static bool has_threads(const struct interval *iv)
{
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		if (iv->rows[i].kind == ROW_THREAD)
			return true;
	return false;
}

static int event_width(const char *name)
{
	int len = (int)strlen(name);

	return len > MIN_EVENT_WIDTH ? len : MIN_EVENT_WIDTH;
}

/* Cgroup rows are named by a recognisable form of their path. */
#define CGROUP_WIDTH 40

static bool has_cgroup_rows(const struct interval *iv)
{
	return iv->rows && iv->nr_rows && iv->rows[0].kind == ROW_CGROUP;
}

static void put_columns(FILE *f, const struct interval *iv, bool threads)
{
	int nr = interval__nr_events(iv);
	char name[NAME_LEN];

	if (has_cgroup_rows(iv)) {
		fprintf(f, "%-*s %6s", CGROUP_WIDTH, "CGROUP", "CPU%");
	} else {
		fprintf(f, "%7s", "PID");
		if (threads)
			fprintf(f, " %7s", "TID");
		fprintf(f, " %-15s %6s", "COMM", "CPU%");
	}
	if (iv->topdown) {
		for (int i = 0; i < nr_td_fields; i++)
			if (td_field_shown(iv, i))
				fprintf(f, " %*s", event_width(td_fields[i].label),
					td_fields[i].label);
		fprintf(f, " %7s %5s\n", "SLOTS/s", "IPC");
		return;
	}
	for (int i = 0; i < nr; i++) {
		text_name(iv, i, name, sizeof(name));
		fprintf(f, " %*s", event_width(name), name);
	}
	fputc('\n', f);
}

static void put_row(FILE *f, const struct interval *iv, const struct row *r, bool threads)
{
	char comm[TASK_COMM_LEN], name[NAME_LEN], num[FMT_COMPACT_LEN], pct[16];
	int nr = interval__nr_events(iv);

	if (r->kind == ROW_CGROUP) {
		char cg[CGROUP_WIDTH + 1];

		cgroup_display_name(r->cgroup ? r->cgroup : "?", 0, cg, sizeof(cg));
		fprintf(f, "%-*s %6s", CGROUP_WIDTH, cg,
			fmt_fixed(pct, sizeof(pct), interval__cpu_pct(iv, r->cpu_ns), 1));
	} else {
		fmt_comm_ascii(comm, sizeof(comm), r->comm, sizeof(r->comm));
		fprintf(f, "%7d", r->pid);
		if (threads && r->kind == ROW_THREAD)
			fprintf(f, " %7d", r->tid);
		else if (threads)
			fprintf(f, " %7s", "-");
		fprintf(f, " %-15s %6s", comm,
			fmt_fixed(pct, sizeof(pct), interval__cpu_pct(iv, r->cpu_ns), 1));
	}
	if (iv->topdown) {
		for (int i = 0; i < nr_td_fields; i++)
			if (td_field_shown(iv, i))
				fprintf(f, " %*s", event_width(td_fields[i].label),
					fmt_fixed(pct, sizeof(pct), td_pct(&r->td, i), 1));
		fprintf(f, " %7s %5s",
			fmt_compact(num, sizeof(num),
				    iv->interval_s > 0 ? r->td.slots / iv->interval_s : NAN),
			fmt_fixed(pct, sizeof(pct), r->ipc, 2));
		nr = 0;
	}
	for (int i = 0; i < nr; i++) {
		text_name(iv, i, name, sizeof(name));
		fprintf(f, " %*s", event_width(name),
			fmt_compact(num, sizeof(num), delta__scaled(&r->ev[i])));
	}
	if (r->exited)
		fputs(" (exited)", f);
	fputc('\n', f);
}

int output_write_text(FILE *f, const struct interval *iv)
{
	bool threads = has_threads(iv);

	put_header(f, iv);
	put_columns(f, iv, threads);
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		put_row(f, iv, &iv->rows[i], threads);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}
