// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Layout of the interactive view: columns per width, cells, bars, colour thresholds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "tui/draw.h"

static const char *const names3[] = { "cpu-clock", "context-switches", "page-faults" };

/* The column titles joined by '|', e.g. "PID|COMM|CPU%". */
static const char *titles(const struct tui_col *cols, int n)
{
	static char buf[512];
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "|" : "", cols[i].title);
	return buf;
}

static struct tui_layout td_layout(int level, bool threads)
{
	return (struct tui_layout){ .topdown = true, .level = level, .threads = threads,
				    .user = true, .nr_events = 3, .names = names3 };
}

TEST(tui_columns_level1_at_80_and_120)
{
	struct tui_layout l = td_layout(1, false);
	struct tui_col cols[TUI_MAX_COLS];
	int n;

	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC");
	CHECK_INT(tui_columns_width(cols, n), 80);
	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n),
		  "PID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC|TopDown");
	CHECK_INT(cols[n - 1].id, TUI_COL_BAR);
	CHECK_INT(cols[n - 1].width, TUI_BAR_MAX);
	/* a bar squeezed below its minimum goes */
	n = tui_columns(&l, 80 + TUI_BAR_MIN, cols);
	CHECK_INT(cols[n - 1].id, TUI_COL_IPC);
	n = tui_columns(&l, 81 + TUI_BAR_MIN, cols);
	CHECK_INT(cols[n - 1].id, TUI_COL_BAR);
	CHECK_INT(cols[n - 1].width, TUI_BAR_MIN);
	CHECK_INT(tui_columns_width(cols, n), 81 + TUI_BAR_MIN);
}

TEST(tui_columns_level2_keeps_level1_first)
{
	struct tui_layout l = td_layout(2, false);
	struct tui_col cols[TUI_MAX_COLS];
	int n;

	/* level 1 in its short form, and the level-2 children of the bound nodes */
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|CPU%|Retir|BadSp|Front|Back|FLat|FBw|MemB|CoreB");
	CHECK(tui_columns_width(cols, n) <= 80);
	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n), "PID|USER|COMM|CPU%|Retir|BadSp|Front|Back|"
				   "Heavy|Light|BrMsp|MClr|FLat|FBw|MemB|CoreB|IPC");
	CHECK(tui_columns_width(cols, n) <= 120);
	l.threads = true;
	l.user = false;
	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n), "PID|TID|COMM|CPU%|Retir|BadSp|Front|Back|"
				   "Heavy|Light|BrMsp|MClr|FLat|FBw|MemB|CoreB|IPC");
	l.threads = false;
	l.user = true;
	n = tui_columns(&l, 200, cols);
	CHECK_INT(cols[1].id, TUI_COL_USER);
	CHECK_STR(cols[4].title, "Retiring");
	CHECK_INT(cols[n - 1].id, TUI_COL_BAR);
}

/* Whole columns at the usual narrow and wide terminals, by priority. */
TEST(tui_columns_at_40_60_80_160)
{
	static const struct {
		int level;
		int width;
		const char *want;
	} cases[] = {
		{ 1, 40, "PID|COMM|CPU%|IPC" },
		{ 1, 60, "PID|COMM|CPU%|Retir|BadSp|Front|Back|IPC" },
		{ 1, 80, "PID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC" },
		{ 1, 160, "PID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC|TopDown" },
		{ 2, 40, "PID|COMM|CPU%|IPC" },
		/* -l 2 at 60 keeps level 1 whole */
		{ 2, 60, "PID|COMM|CPU%|Retir|BadSp|Front|Back|IPC" },
		{ 2, 80, "PID|COMM|CPU%|Retir|BadSp|Front|Back|FLat|FBw|MemB|CoreB" },
		{ 2, 160, "PID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|Heavy|Light|"
			  "BrMsp|MClr|FLat|FBw|MemB|CoreB|IPC|TopDown" },
		/* events: counts from the left, then USER, then the rates */
		{ 0, 40, "PID|COMM|CPU%|cpu-clock" },
		{ 0, 60, "PID|COMM|CPU%|cpu-clock|context-swit" },
		{ 0, 80, "PID|USER|COMM|CPU%|cpu-clock|context-swit|page-faults" },
		{ 0, 160, "PID|USER|COMM|CPU%|cpu-clock|context-swit|page-faults|"
			  "cpu-clock/s|context-sw/s|page-fault/s" },
	};
	struct tui_col cols[TUI_MAX_COLS];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tui_layout l = td_layout(cases[i].level ? cases[i].level : 1, false);
		int n;

		l.topdown = cases[i].level > 0;
		n = tui_columns(&l, cases[i].width, cols);
		CHECK_STR(titles(cols, n), cases[i].want);
		CHECK(tui_columns_width(cols, n) <= cases[i].width);
		/* each title fits its column: nothing is cut */
		for (int k = 0; k < n; k++)
			CHECK((int)strlen(cols[k].title) <= cols[k].width);
	}
}

TEST(tui_columns_hidden_and_scrolled)
{
	struct tui_layout l = td_layout(1, false);
	struct tui_col cols[TUI_MAX_COLS];
	int n;

	/* what the user turned off leaves its room to the others */
	l.hidden = TUI_HIDE(TUI_OPT_USER) | TUI_HIDE(TUI_OPT_IPC);
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|TopDown");
	CHECK_INT(cols[n - 1].width, 14);
	l.hidden = TUI_HIDE_ALL;
	n = tui_columns(&l, 200, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|Retiring|Bad Spec|Frontend|Backend");
	CHECK_INT(tui_columns_scroll_max(&l, 200), 0);

	/* scrolled: the fixed columns, then whole ones from the scroll position */
	l = td_layout(2, false);
	CHECK_INT(tui_columns_scroll_max(&l, 80), 7);
	l.hscroll = 1;
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|Heavy|Light");
	l.hscroll = 6;
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|Heavy|Light|BrMsp|MClr|FLat|FBw|MemB|CoreB|IPC");
	l.hscroll = 7;
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|COMM|Light|BrMsp|MClr|FLat|FBw|MemB|CoreB|IPC|TopDown");
	CHECK_INT(tui_columns_width(cols, n), 80);
	/* everything fits: nothing to scroll */
	CHECK_INT(tui_columns_scroll_max(&l, 300), 0);
	l = td_layout(1, false);
	CHECK_INT(tui_columns_scroll_max(&l, 120), 0);
	CHECK(tui_columns_scroll_max(&l, 80) > 0);	/* the bar is off screen */
}

TEST(tui_columns_tree_has_tids)
{
	struct tui_layout l = td_layout(1, false);
	struct tui_col cols[TUI_MAX_COLS];
	struct interval iv;
	struct row r;
	char buf[64];
	int n;

	l.tree = true;
	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n),
		  "PID|TID|USER|COMM|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC|TopDown");
	memset(&iv, 0, sizeof(iv));
	memset(&r, 0, sizeof(r));
	memcpy(r.comm, "worker", 7);
	r.kind = ROW_PROCESS;
	tui_cell(&cols[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "worker");
	/* a thread hangs below its process */
	r.kind = ROW_THREAD;
	tui_cell(&cols[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, " `- worker");
	memcpy(r.comm, "abcdefghijklmno", 16);
	tui_cell(&cols[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, " `- abcdefghijk");
}

TEST(tui_columns_events_and_rates)
{
	struct tui_layout l = { .nr_events = 3, .names = names3, .user = true };
	struct tui_col cols[TUI_MAX_COLS];
	int n;

	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n), "PID|USER|COMM|CPU%|cpu-clock|context-swit|page-faults|"
				   "cpu-clock/s|context-sw/s|page-fault/s");
	CHECK_INT(cols[5].width, 12);
	CHECK_INT(cols[5].id, TUI_COL_EVENT);
	CHECK_INT(cols[8].id, TUI_COL_RATE);
	CHECK_INT(cols[8].idx, 1);
	/* rates go first, from the right */
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "PID|USER|COMM|CPU%|cpu-clock|context-swit|page-faults");
	n = tui_columns(&l, 86, cols);
	CHECK_STR(titles(cols, n),
		  "PID|USER|COMM|CPU%|cpu-clock|context-swit|page-faults|cpu-clock/s");
	/* a short name still gets a readable column */
	l.names = (const char *const[]){ "cs", NULL, "x" };
	n = tui_columns(&l, 200, cols);
	CHECK_STR(titles(cols, n), "PID|USER|COMM|CPU%|cs|event|x|cs/s|event/s|x/s");
	CHECK_INT(cols[4].width, 6);
}

TEST(tui_column_sort_keys)
{
	struct tui_layout l = td_layout(2, true);
	struct tui_col cols[TUI_MAX_COLS];
	struct sort_key key, want;
	int n = tui_columns(&l, 300, cols);

	CHECK(tui_col__sort_key(&cols[0], &key));
	CHECK_INT(key.kind, SORT_PID);
	CHECK(!tui_col__sort_key(&cols[2], &key)); /* USER */
	CHECK(tui_col__sort_key(&cols[4], &key));
	CHECK_INT(key.kind, SORT_CPU);
	/* a TopDown column sorts by the value it shows */
	CHECK_INT(cols[5].id, TUI_COL_TD);
	CHECK(tui_col__sort_key(&cols[5], &key));
	CHECK_INT(sort_key__parse("retiring", NULL, 0, &want), 0);
	CHECK_INT(key.kind, SORT_TD);
	CHECK_INT(key.field, want.field);
	CHECK_INT(cols[13].idx, TUI_TD_FETCH_LAT);
	CHECK(tui_col__sort_key(&cols[13], &key));
	CHECK_INT(sort_key__parse("fetch-latency", NULL, 0, &want), 0);
	CHECK_INT(key.field, want.field);
	CHECK(tui_col__sort_key(&cols[n - 2], &key));
	CHECK_INT(key.kind, SORT_TD);
	CHECK_INT(key.field, TD_SORT_IPC);
	CHECK(!tui_col__sort_key(&cols[n - 1], &key)); /* the bar */
}

static struct td_result td4(double r, double b, double f, double k)
{
	struct td_result td;

	memset(&td, 0, sizeof(td));
	td.valid = true;
	td.retiring = r;
	td.bad_speculation = b;
	td.frontend_bound = f;
	td.backend_bound = k;
	td.heavy_ops = td.light_ops = NAN;
	return td;
}

TEST(tui_bar_strings)
{
	struct td_result td = td4(0.25, 0.25, 0.25, 0.25);
	char buf[64];

	tui_bar(buf, 8, &td);
	CHECK_STR(buf, "RRBBFFKK");
	td = td4(0.5, 0.1, 0.2, 0.2);
	tui_bar(buf, 10, &td);
	CHECK_STR(buf, "RRRRRBFFKK");
	/* largest remainder: 3.3 + 3.3 + 3.4 cells -> the 0.4 gets the tenth */
	td = td4(0.33, 0.33, 0.34, 0);
	tui_bar(buf, 10, &td);
	CHECK_STR(buf, "RRRBBBFFFF");
	/* parts under one cell still add up to the width */
	td = td4(0.97, 0.01, 0.01, 0.01);
	tui_bar(buf, 10, &td);
	CHECK_STR(buf, "RRRRRRRRRR");
	/* what the fractions leave (AMD SMT contention) is blank */
	td = td4(0.4, 0.1, 0.2, 0.2);
	tui_bar(buf, 10, &td);
	CHECK_STR(buf, "RRRRBFFKK ");
	/* a sum a little above 1 is scaled down, NaN counts as nothing */
	td = td4(0.6, NAN, 0.3, 0.3);
	tui_bar(buf, 12, &td);
	CHECK_STR(buf, "RRRRRRFFFKKK");
	td.valid = false;
	tui_bar(buf, 5, &td);
	CHECK_STR(buf, "     ");
	tui_bar(buf, 0, &td);
	CHECK_STR(buf, "");
	CHECK_INT(tui_bar_td('K'), TUI_TD_BACKEND);
	CHECK_INT(tui_bar_td('R'), TUI_TD_RETIRING);
	CHECK_INT(tui_bar_td(' '), -1);
}

TEST(tui_colour_thresholds)
{
	CHECK_INT(tui_td_hl(TUI_TD_FRONTEND, 0.21), TUI_HL_BAD);
	CHECK_INT(tui_td_hl(TUI_TD_FRONTEND, 0.20), TUI_HL_NONE);
	CHECK_INT(tui_td_hl(TUI_TD_BAD_SPEC, 0.11), TUI_HL_BAD);
	CHECK_INT(tui_td_hl(TUI_TD_BAD_SPEC, 0.10), TUI_HL_NONE);
	CHECK_INT(tui_td_hl(TUI_TD_BACKEND, 0.25), TUI_HL_BAD);
	CHECK_INT(tui_td_hl(TUI_TD_BACKEND, 0.05), TUI_HL_NONE);
	CHECK_INT(tui_td_hl(TUI_TD_RETIRING, 0.71), TUI_HL_GOOD);
	CHECK_INT(tui_td_hl(TUI_TD_RETIRING, 0.70), TUI_HL_NONE);
	CHECK_INT(tui_td_hl(TUI_TD_RETIRING, NAN), TUI_HL_NONE);
	CHECK_INT(tui_td_hl(TUI_TD_MEM_BOUND, 0.9), TUI_HL_NONE);
}

TEST(tui_cells)
{
	struct tui_layout l = td_layout(2, true);
	struct tui_col cols[TUI_MAX_COLS], ev[TUI_MAX_COLS];
	struct interval iv;
	struct row r;
	char buf[64];
	int n = tui_columns(&l, 300, cols), ne;
	struct tui_layout le = { .nr_events = 3, .names = names3 };

	memset(&iv, 0, sizeof(iv));
	memset(&r, 0, sizeof(r));
	iv.interval_s = 0.5;
	iv.topdown = true;
	iv.nr_events = 3;
	iv.event_names = names3;
	r.kind = ROW_PROCESS;
	r.pid = r.tid = 4321;
	memcpy(r.comm, "a\x1b[31mb", 8);
	r.cpu_ns = 250000000;
	r.td = td4(0.123, 0.05, 0.2, 0.627);
	r.ipc = NAN;
	r.ev[1] = (struct delta){ .count = 12345, .enabled = 10, .running = 10 };

	CHECK_INT(n, 19);
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "4321");
	tui_cell(&cols[1], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");	/* TID of a process row */
	tui_cell(&cols[2], &iv, &r, "verylongname", buf, sizeof(buf));
	CHECK_STR(buf, "verylon+");
	tui_cell(&cols[2], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "?");
	tui_cell(&cols[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "a?[31mb");	/* no escape sequence reaches the terminal */
	tui_cell(&cols[4], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "50.0");
	tui_cell(&cols[5], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "12.3");
	tui_cell(&cols[9], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");	/* a level-2 node the method did not compute */
	tui_cell(&cols[n - 2], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");	/* IPC not counted */
	r.ipc = 1.234;
	tui_cell(&cols[n - 2], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "1.23");
	tui_cell(&cols[n - 1], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "RRBFFFFKKKKKKKKKKKKK");
	r.cpu_ns = 8000000000ULL;
	tui_cell(&cols[4], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "1600");

	/* rows too small to measure show "-" everywhere */
	r.td.valid = false;
	tui_cell(&cols[5], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	tui_cell(&cols[n - 1], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");

	r.kind = ROW_THREAD;
	r.tid = 4322;
	tui_cell(&cols[1], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "4322");

	ne = tui_columns(&le, 300, ev);
	CHECK_STR(titles(ev, ne), "PID|COMM|CPU%|cpu-clock|context-swit|page-faults|"
				  "cpu-clock/s|context-sw/s|page-fault/s");
	tui_cell(&ev[4], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "12.3K");
	tui_cell(&ev[7], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "24.7K");	/* per second over 0.5 s */
	r.ev[0] = (struct delta){ .count = 0, .enabled = 10, .running = 0 };
	tui_cell(&ev[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");	/* enabled but never counted */
	iv.interval_s = 0;
	tui_cell(&ev[7], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	tui_cell(&ev[2], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "-");
}

TEST(tui_pct_and_user_fit)
{
	char buf[16];

	CHECK_STR(tui_pct(buf, sizeof(buf), 0.4567), "45.7");
	CHECK_STR(tui_pct(buf, sizeof(buf), NAN), "-");
	tui_user_fit(buf, sizeof(buf), "root", 8);
	CHECK_STR(buf, "root");
	tui_user_fit(buf, sizeof(buf), "abcdefgh", 8);
	CHECK_STR(buf, "abcdefgh");
	tui_user_fit(buf, sizeof(buf), "abcdefghi", 8);
	CHECK_STR(buf, "abcdefg+");
	CHECK_STR(tui_td_title(TUI_TD_CORE_BOUND), "CoreB");
	CHECK_STR(tui_td_long_name(TUI_TD_BAD_SPEC), "Bad Speculation");
	CHECK(tui_td_title(TUI_TD_NR) == NULL);
}

TEST(tui_wrap_at_spaces)
{
	CHECK_INT(tui_wrap("short", 10), 5);
	CHECK_INT(tui_wrap("no hardware PMU here", 12), 11);	/* "no hardware" */
	CHECK_INT(tui_wrap("no hardware PMU here", 11), 11);
	CHECK_INT(tui_wrap("no hardware PMU here", 10), 2);	/* "no" */
	CHECK_INT(tui_wrap("averyveryverylongword and", 8), 8);
	CHECK_INT(tui_wrap("abc", 0), 0);
	CHECK_INT(tui_wrap("", 5), 0);
}

/* ---- cgroup rows ---- */

static struct tui_layout cg_layout(bool topdown, int level, int indent)
{
	return (struct tui_layout){ .topdown = topdown, .level = level, .cgroups = true,
				    .cgroup_indent = indent, .nr_events = 3, .names = names3,
				    .user = true, .threads = true };
}

TEST(tui_cgroup_columns_at_80_and_120)
{
	struct tui_layout l = cg_layout(true, 1, -1);
	struct tui_col cols[TUI_MAX_COLS];
	struct sort_key key;
	int n;

	/* no PID, TID, USER or COMM whatever the layout asks for */
	n = tui_columns(&l, 120, cols);
	CHECK_STR(titles(cols, n),
		  "CGROUP|TASKS|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC|TopDown");
	CHECK_INT(cols[0].width, TUI_CGROUP_MAX);
	CHECK(cols[0].left);
	CHECK_INT(cols[n - 1].width, TUI_BAR_MAX);
	/* at 80 the bar goes, then the name gives up width before IPC leaves */
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "CGROUP|TASKS|CPU%|Retiring|Bad Spec|Frontend|Backend|IPC");
	CHECK_INT(tui_columns_width(cols, n), 80);
	CHECK_INT(cols[0].width, 26);
	CHECK_INT(cols[1].width, 5);
	/* level 2 at 80: level 1, the bound nodes' children and a name at its minimum */
	l = cg_layout(true, 2, -1);
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n),
		  "CGROUP|TASKS|CPU%|Retir|BadSp|Front|Back|FLat|FBw|MemB|CoreB");
	CHECK_INT(cols[0].width, TUI_CGROUP_MIN);
	CHECK(tui_columns_width(cols, n) <= 80);
	/* events: the rates go first, then the name shrinks */
	l = cg_layout(false, 1, -1);
	n = tui_columns(&l, 80, cols);
	CHECK_STR(titles(cols, n), "CGROUP|TASKS|CPU%|cpu-clock|context-swit|page-faults");
	CHECK_INT(cols[0].width, 33);
	CHECK_INT(tui_columns_width(cols, n), 80);
	/* narrow: the counts that fit, TASKS, the name always stays */
	n = tui_columns(&l, 60, cols);
	CHECK_STR(titles(cols, n), "CGROUP|TASKS|CPU%|cpu-clock|context-swit");
	CHECK_INT(cols[0].width, 25);
	n = tui_columns(&l, 30, cols);
	CHECK_STR(titles(cols, n), "CGROUP|CPU%");
	n = tui_columns(&l, 10, cols);
	CHECK_STR(titles(cols, n), "CGROUP");
	CHECK_INT(cols[0].width, TUI_CGROUP_MIN);
	/* the name column sorts by name; TASKS sorts by nothing */
	n = tui_columns(&l, 120, cols);
	CHECK(tui_col__sort_key(&cols[0], &key));
	CHECK_INT(key.kind, SORT_COMM);
	CHECK_INT(cols[1].id, TUI_COL_TASKS);
	CHECK(!tui_col__sort_key(&cols[1], &key));
}

TEST(tui_cgroup_cells_indent_by_depth)
{
	struct tui_layout l = cg_layout(true, 1, 1);
	struct tui_col cols[TUI_MAX_COLS];
	char path[] = "/system.slice/nginx.service/worker";
	char docker[] = "/system.slice/docker-3f2a1b9c8d7e3f2a1b9c8d7e3f2a1b9c8d7e3f2a1b9c8d7e"
			"3f2a1b9c8d7e3f2a.scope";
	struct interval iv;
	struct row r;
	char buf[64];
	int n = tui_columns(&l, 80, cols);

	memset(&iv, 0, sizeof(iv));
	memset(&r, 0, sizeof(r));
	iv.interval_s = 1.0;
	iv.topdown = true;
	r.kind = ROW_CGROUP;
	r.cgroup = path;
	r.depth = 3;
	r.nr_threads = 12;
	r.cpu_ns = 980000000;
	r.td = td4(0.5, 0.1, 0.1, 0.3);

	CHECK_INT(n, 8);
	CHECK_INT(cols[0].idx, 1);
	/* two cells per level below the shallowest row shown */
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "    nginx.service/worker");
	r.depth = 1;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "nginx.service/worker");
	/* deep trees keep half the column for the name, cut at the width */
	r.depth = 40;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_INT(strlen(buf), 26);
	CHECK_STR(buf, "             nginx.service");
	/* containers by runtime and short id */
	r.cgroup = docker;
	r.depth = 2;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "  docker:3f2a1b9c8d7e");
	r.cgroup = NULL;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "  ?");
	tui_cell(&cols[1], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "12");
	tui_cell(&cols[2], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "98.0");
	tui_cell(&cols[3], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "50.0");

	/* a flat list: the full path, its end when it is too long */
	l = cg_layout(true, 1, -1);
	n = tui_columns(&l, 80, cols);
	r.cgroup = path;
	r.depth = 3;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "..ice/nginx.service/worker");
}

TEST(tui_cgroup_flat_paths_tell_units_apart)
{
	struct tui_layout l = cg_layout(false, 1, -1);
	struct tui_col cols[TUI_MAX_COLS];
	char a[] = "/a.slice/x.service", b[] = "/b.slice/x.service", odd[] = "/a\x1b[2J\tb";
	struct interval iv;
	struct row r;
	char buf[64];

	memset(&iv, 0, sizeof(iv));
	memset(&r, 0, sizeof(r));
	r.kind = ROW_CGROUP;
	tui_columns(&l, 80, cols);
	r.cgroup = a;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "/a.slice/x.service");
	r.cgroup = b;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "/b.slice/x.service");
	/* no byte of a path drives the terminal */
	r.cgroup = odd;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "/a?[2J?b");
	/* in the tree both are their unit's name, below their slice */
	l.cgroup_indent = 1;
	tui_columns(&l, 80, cols);
	r.cgroup = a;
	r.depth = 2;
	tui_cell(&cols[0], &iv, &r, NULL, buf, sizeof(buf));
	CHECK_STR(buf, "  x.service");
}
