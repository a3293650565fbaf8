// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The curses drawing of the interactive view: header, table, help screen
 * and the per-process detail view, and the owner of each row's process.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "util/format.h"
#include "util/usernames.h"
#include "tui/draw.h"
#include "tui/screen.h"

/* uids of PIDs are looked up again after this many intervals (setuid, PID reuse) */
#define USER_TTL 16
#define USER_SLOTS 4096
#define HEADER_BAR_MIN 8
#define HEADER_BAR_MAX 40
/* a long reason why TopDown is off gets this many lines */
#define NOTICE_LINES 2

enum {
	PAIR_BAD = 1,
	PAIR_GOOD,
	PAIR_WARN,
	PAIR_SORT,
	PAIR_BAR_R,
	PAIR_BAR_B,
	PAIR_BAR_F,
	PAIR_BAR_K,
};

struct pid_user {
	int pid;		/* 0: free slot */
	bool known;		/* false: /proc/PID was gone */
	uid_t uid;
	long stamp;		/* interval number of the lookup */
};

/* PID -> user, direct-mapped: only the rows on screen are looked up. */
struct tui_users {
	struct pid_user slot[USER_SLOTS];
	struct user_names names;
};

struct tui_users *tui_users__new(void)
{
	return calloc(1, sizeof(struct tui_users));
}

void tui_users__free(struct tui_users *u)
{
	free(u);
}

/* The owner of process *pid*; "?" once /proc/PID is gone. */
static const char *user_of(struct tui_users *u, int pid, long now)
{
	struct pid_user *p = &u->slot[(unsigned int)pid % USER_SLOTS];
	char path[32];
	struct stat sb;

	if (p->pid != pid || now - p->stamp > USER_TTL) {
		snprintf(path, sizeof(path), "/proc/%d", pid);
		p->pid = pid;
		p->stamp = now;
		p->known = !stat(path, &sb);
		p->uid = p->known ? sb.st_uid : 0;
	}
	return p->known ? user_names__get(&u->names, p->uid) : "?";
}

/*
 * USER of a row: live, the owner of its process now; replayed, the one
 * recorded with it ("-" when the recording has none), never this
 * machine's idea of the PID.
 */
static const char *row_user(struct tui *t, const struct row *r)
{
	if (t->src->live)
		return user_of(t->users, r->pid, t->fetched);
	return r->user[0] ? r->user : "-";
}

/* A PID is reused after its process exits: forget what it was. */
static void user_forget(struct tui_users *u, int pid)
{
	struct pid_user *p = &u->slot[(unsigned int)pid % USER_SLOTS];

	if (p->pid == pid)
		p->pid = 0;
}

/* ---- drawing helpers ---- */

static attr_t hl_attr(const struct tui *t, enum tui_hl hl)
{
	if (hl == TUI_HL_NONE)
		return A_NORMAL;
	if (!t->color)
		return A_BOLD;
	return COLOR_PAIR(hl == TUI_HL_BAD ? PAIR_BAD : PAIR_GOOD) | A_BOLD;
}

static attr_t warn_attr(const struct tui *t)
{
	return t->color ? COLOR_PAIR(PAIR_WARN) | A_BOLD : A_BOLD;
}

/* Text at (y, x) cut at the right edge; returns the column after it. */
static int put(int y, int x, attr_t attr, const char *s)
{
	int room = COLS - x;
	int len = (int)strlen(s);

	if (y < 0 || y >= LINES || room <= 0)
		return x;
	if (len > room)
		len = room;
	attrset(attr);
	mvaddnstr(y, x, s, len);
	attrset(A_NORMAL);
	return x + len;
}

static int putf(int y, int x, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int putf(int y, int x, attr_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put(y, x, attr, buf);
}

/* A stacked bar, each letter on its colour. */
static int put_bar(const struct tui *t, int y, int x, attr_t base, const char *bar)
{
	static const int pairs[] = { PAIR_BAR_R, PAIR_BAR_B, PAIR_BAR_F, PAIR_BAR_K };

	for (const char *c = bar; *c && x < COLS; c++) {
		int td = tui_bar_td(*c);
		attr_t a = base;

		if (td >= 0 && t->color)
			a = COLOR_PAIR(pairs[td]) | (base & A_REVERSE ? A_BOLD : A_NORMAL);
		attrset(a);
		mvaddch(y, x++, (chtype)(unsigned char)*c);
	}
	attrset(A_NORMAL);
	return x;
}

static void clock_text(char *buf, size_t size, double ts)
{
	struct tm tm;
	time_t sec;

	snprintf(buf, size, "--:--:--");
	if (!isfinite(ts) || ts < 0 || ts > 1e15)
		return;
	sec = (time_t)ts;
	if (localtime_r(&sec, &tm))
		strftime(buf, size, "%H:%M:%S", &tm);
}

/* ---- header ---- */

static int draw_title(struct tui *t, int y)
{
	char right[96], clock[16], ns[40] = "";
	double cpu = t->self_cpu, ns_switch = t->self_ns;
	int len, room;

	/* without the callback, what the build put into the interval */
	if (!t->src->self_cost && t->have_iv) {
		cpu = t->iv.self_cpu_pct;
		ns_switch = t->iv.bpf_ns_per_switch;
	}
	clock_text(clock, sizeof(clock), t->have_iv ? t->iv.ts : NAN);
	if (isfinite(ns_switch))
		snprintf(ns, sizeof(ns), ", %.0f ns/switch", ns_switch);
	if (isfinite(cpu))
		snprintf(right, sizeof(right), "tdtop: %.1f%% CPU%s  %s", cpu, ns, clock);
	else
		snprintf(right, sizeof(right), "%s", clock);
	len = (int)strlen(right);
	/* the title gives way to the cost and clock, with a gap */
	room = COLS - len - 2;
	if (room < 16)
		room = COLS;
	else
		put(y, COLS - len, A_NORMAL, right);
	putf(y, 0, A_BOLD, "tdtop - %.*s", room > 8 ? room - 8 : 0, t->o->title ? t->o->title : "");
	return y + 1;
}

static int draw_summary(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	char num[FMT_COMPACT_LEN], busy[16] = "-";
	double busy_pct = interval__busy_pct(iv);
	int x;

	if (isfinite(busy_pct))
		snprintf(busy, sizeof(busy), "%.1f%%", busy_pct);
	x = putf(y, 0, A_NORMAL, "interval %.2fs  %d CPUs  busy %s  tasks %zu  rows %zu",
		 iv->interval_s, iv->ncpus, busy, t->smp[t->shown].nr, iv->nr_rows);
	x = putf(y, x, A_NORMAL, "  switches %s",
		 fmt_compact(num, sizeof(num), (double)iv->switches));
	if (iv->topdown && isfinite(iv->ipc))
		putf(y, x, A_NORMAL, "  IPC %.2f", iv->ipc);
	return y + 1;
}

static int draw_breakdown(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	char labels[TUI_TD_BACKEND + 1][40], bar[HEADER_BAR_MAX + 1], pct[16];
	int x, len = 0, width;

	if (!iv->topdown) {
		char name[32], num[FMT_COMPACT_LEN];

		x = put(y, 0, A_NORMAL, "Totals");
		for (int i = 0; i < interval__nr_events(iv); i++) {
			const char *n = interval__event_name(iv, i, name, sizeof(name));

			x = putf(y, x, A_NORMAL, "  %s %s", n,
				 fmt_compact(num, sizeof(num), delta__scaled(&iv->totals[i])));
		}
		return y + 1;
	}
	for (int i = 0; i <= TUI_TD_BACKEND; i++) {
		snprintf(labels[i], sizeof(labels[i]), "  %s %s%%", tui_td_title(i),
			 tui_pct(pct, sizeof(pct), tui_td_value(&iv->td, i)));
		len += (int)strlen(labels[i]);
	}
	width = COLS - len - 2;
	width = width < HEADER_BAR_MIN ? HEADER_BAR_MIN : width > HEADER_BAR_MAX ? HEADER_BAR_MAX
										  : width;
	tui_bar(bar, width, &iv->td);
	x = put(y, 0, A_NORMAL, "[");
	x = put_bar(t, y, x, A_NORMAL, bar);
	x = put(y, x, A_NORMAL, "]");
	for (int i = 0; i <= TUI_TD_BACKEND; i++)
		x = put(y, x, hl_attr(t, tui_td_hl(i, tui_td_value(&iv->td, i))), labels[i]);
	return y + 1;
}

/* *text* after *label* on up to *lines* lines, broken at spaces. */
static int put_wrapped(int y, const char *label, const char *text, int lines)
{
	int x = put(y, 0, A_NORMAL, label);

	for (int i = 0; i < lines && *text; i++, y++) {
		size_t n = i + 1 < lines ? tui_wrap(text, COLS - x) : strlen(text);

		putf(y, x, A_NORMAL, "%.*s", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
	}
	return y;
}

static int draw_warnings(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	double share = interval__min_running_share(iv);

	if (iv->dropped)
		putf(y++, 0, warn_attr(t), "dropped %llu: task map full (raise --max-tasks)",
		     (unsigned long long)iv->dropped);
	if (iv->read_errors)
		putf(y++, 0, warn_attr(t), "%llu counter reads failed",
		     (unsigned long long)iv->read_errors);
	if (share < 1.0)
		putf(y++, 0, warn_attr(t), "multiplexed: counted %.1f%% of the time, counts scaled",
		     share * 100.0);
	if (iv->notice)
		y = put_wrapped(y, "note: ", iv->notice, NOTICE_LINES);
	return y;
}

static void filter_text(const struct tui_state *st, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (st->nr_pids) {
		len += snprintf(buf + len, size - len, "  pid %d", st->pids[0]);
		for (size_t i = 1; i < st->nr_pids && i < 4 && len < size; i++)
			len += snprintf(buf + len, size - len, ",%d", st->pids[i]);
		if (st->nr_pids > 4 && len < size)
			len += snprintf(buf + len, size - len, ",...");
	}
	if (st->by == BY_CGROUP) {
		if (st->cg_filter[0] && len < size)
			snprintf(buf + len, size - len, "  path '%s'", st->cg_filter);
		return;
	}
	if (st->comm[0] && len < size)
		snprintf(buf + len, size - len, "  comm '%s'", st->comm);
}

static const char *grouping(const struct tui_state *st)
{
	switch (st->by) {
	case BY_THREAD:
		return "threads";
	case BY_CGROUP:
		return "cgroups";
	case BY_PROCESS:
		break;
	}
	return "processes";
}

/* Cgroup rows are sorted by their name, not by a command's. */
static const char *sort_name(const struct tui *t)
{
	if (t->st.by == BY_CGROUP && t->st.sort.kind == SORT_COMM)
		return "name";
	return sort_key__name(&t->st.sort, t->o->names, t->o->nr_events);
}

static const char *prompt_label(enum tui_prompt p)
{
	switch (p) {
	case TUI_PROMPT_DELAY:
		return "Delay in seconds: ";
	case TUI_PROMPT_PID:
		return "Show PIDs (comma-separated, empty for all): ";
	case TUI_PROMPT_COMM:
		return "Show commands containing (empty for all): ";
	case TUI_PROMPT_PATH:
		return "Show cgroups whose path contains (empty for all): ";
	case TUI_PROMPT_NONE:
		break;
	}
	return "";
}

/* The prompt, a message, or what the table shows. */
static void draw_status(struct tui *t, int y)
{
	const struct tui_state *st = &t->st;
	char filters[TUI_INPUT_LEN + 96];
	int x = 0;

	if (st->mode == TUI_MODE_PROMPT) {
		x = put(y, 0, A_BOLD, prompt_label(st->prompt));
		x = put(y, x, A_NORMAL, st->input);
		if (x < COLS) {
			move(y, x);
			curs_set(1);
		}
		return;
	}
	if (st->paused)
		x = put(y, 0, A_REVERSE | A_BOLD, "PAUSED");
	if (!st->live)
		x = put(y, x ? x + 1 : 0, A_REVERSE, t->eof ? "END" : "REPLAY");
	if (x)
		x++;
	if (st->msg[0]) {
		put(y, x, st->msg_error ? warn_attr(t) : A_BOLD, st->msg);
		return;
	}
	filter_text(st, filters, sizeof(filters));
	x = putf(y, x, A_NORMAL, "sort %s  %s", sort_name(t), grouping(st));
	if (st->cg_within)
		x = putf(y, x, A_NORMAL, " in %s (Esc: back)", st->cg_name);
	if (st->topdown)
		x = putf(y, x, A_NORMAL, "  level %d", st->level);
	putf(y, x, A_NORMAL, "%s  delay %gs   h help  q quit", filters, st->delay_s);
}

/* ---- table ---- */

static int layout(const struct tui *t, int level, bool threads, bool user, struct tui_col *cols)
{
	struct tui_layout l = {
		.topdown = t->st.topdown,
		.level = level,
		.threads = threads,
		.user = user,
		.cgroup_indent = -1,
		.nr_events = t->o->nr_events,
		.names = t->o->names,
	};

	return tui_columns(&l, COLS, cols);
}

/* Cgroup rows in tree order are indented below the shallowest of them. */
static int cgroup_layout(const struct tui *t, struct tui_col *cols)
{
	struct tui_layout l = {
		.topdown = t->st.topdown,
		.level = t->st.level,
		.cgroups = true,
		.cgroup_indent = -1,
		.nr_events = t->o->nr_events,
		.names = t->o->names,
	};

	if (t->st.sort.kind == SORT_COMM) {
		for (size_t i = 0; i < t->iv.nr_rows; i++)
			if (l.cgroup_indent < 0 || t->iv.rows[i].depth < l.cgroup_indent)
				l.cgroup_indent = t->iv.rows[i].depth;
	}
	return tui_columns(&l, COLS, cols);
}

static void draw_col_titles(struct tui *t, int y, const struct tui_col *cols, int n)
{
	attr_t sort_attr = t->color ? COLOR_PAIR(PAIR_SORT) | A_BOLD : A_BOLD | A_UNDERLINE;
	int x = 0;

	attrset(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	attrset(A_NORMAL);
	for (int i = 0; i < n; i++) {
		struct sort_key key;
		bool sorted = tui_col__sort_key(&cols[i], &key) && key.kind == t->st.sort.kind &&
			      (key.kind != SORT_EVENT || key.event == t->st.sort.event) &&
			      (key.kind != SORT_TD || key.field == t->st.sort.field) &&
			      cols[i].id != TUI_COL_TID;

		x = putf(y, x, sorted ? sort_attr : A_REVERSE, cols[i].left ? "%-*s" : "%*s",
			 cols[i].width, cols[i].title);
		if (i + 1 < n)
			x = put(y, x, A_REVERSE, " ");
	}
}

static void draw_row(struct tui *t, int y, const struct interval *iv, const struct row *r,
		     const struct tui_col *cols, int n, bool selected)
{
	attr_t base = selected ? A_REVERSE : r->exited ? A_DIM : A_NORMAL;
	char cell[64];
	int x = 0;

	if (selected) {
		attrset(A_REVERSE);
		mvhline(y, 0, ' ', COLS);
		attrset(A_NORMAL);
	}
	for (int i = 0; i < n; i++) {
		const char *user = NULL;
		attr_t a = base;

		if (cols[i].id == TUI_COL_USER)
			user = row_user(t, r);
		tui_cell(&cols[i], iv, r, user, cell, sizeof(cell));
		if (cols[i].id == TUI_COL_BAR) {
			x = put_bar(t, y, x, base, cell);
			continue;
		}
		if (cols[i].id == TUI_COL_TD && iv->topdown && r->td.valid)
			a |= hl_attr(t, tui_td_hl(cols[i].idx, tui_td_value(&r->td, cols[i].idx)));
		x = putf(y, x, a, cols[i].left ? "%-*s" : "%*s", cols[i].width, cell);
		if (i + 1 < n)
			x = put(y, x, base, " ");
	}
	if (r->exited)
		user_forget(t->users, r->pid);
}

static void draw_table(struct tui *t, int y)
{
	struct tui_col cols[TUI_MAX_COLS];
	bool threads = t->st.by == BY_THREAD, cgroups = t->st.by == BY_CGROUP;
	int n = cgroups ? cgroup_layout(t, cols) : layout(t, t->st.level, threads, true, cols);
	struct tui_list *l = &t->st.list;
	int page = LINES - y - 1;

	draw_col_titles(t, y++, cols, n);
	tui_list__set_page(l, page > 0 ? (size_t)page : 1);
	tui_state__rows(&t->st, t->iv.rows, t->iv.nr_rows);
	if (!t->iv.nr_rows) {
		bool filtered = t->st.nr_pids || (cgroups ? t->st.cg_filter[0] : t->st.comm[0]);

		put(y, 0, A_NORMAL, !filtered ? "no task ran"
				    : cgroups ? "no cgroup matches the filter"
					      : "no task matches the filter");
		return;
	}
	for (size_t i = l->first; i < l->nr && y < LINES; i++, y++)
		draw_row(t, y, &t->iv, &t->iv.rows[i], cols, n, i == l->cursor);
}

static void draw_main(struct tui *t)
{
	int y = draw_title(t, 0);

	if (!t->have_iv) {
		put(y + 1, 0, A_NORMAL, t->eof ? "the recording holds no interval"
					       : "waiting for the first interval...");
		draw_status(t, y + 2);
		return;
	}
	y = draw_summary(t, y);
	y = draw_breakdown(t, y);
	y = draw_warnings(t, y);
	draw_status(t, y++);
	draw_table(t, y);
}

/* ---- help ---- */

static const char *const help_lines[] = {
	"tdtop: TopDown and counter breakdown of every task",
	"",
	"  q            quit",
	"  h ?  F1      this help (any key closes it)",
	"  Up Down PgUp PgDn Home End   move the selection",
	"  < >  F6      sort by the previous/next column",
	"  d            set the delay between intervals",
	"  p            show only these PIDs (empty: all)",
	"  /            show only commands (cgroups: paths) containing a text (empty: all)",
	"  space        pause: the screen freezes, collecting goes on; resume shows the newest",
	"  n            recordings: show the next interval (pauses)",
	"  1 2          TopDown level 1 or 2 (when the CPU has level 2)",
	"  t H          threads instead of processes, and back",
	"  c            cgroups, and back (when tdtop charges per cgroup: --by cgroup, -c)",
	"  Enter        threads and level-2 breakdown of the selected process;",
	"               on a cgroup: its processes (Esc goes back to the cgroups)",
	"",
	"Columns: CPU% is on-CPU time over the interval (100 = one CPU). TopDown columns are",
	"the share of issue slots; - when the row has too few slots to be measured.",
	"Cgroup rows count their descendants too; TASKS: tasks that ran in the interval.",
	"Bar letters: R Retiring, B Bad Speculation, F Frontend Bound, K Backend Bound.",
	"Highlighted as perf stat does: Frontend > 20%, Bad Speculation > 10% and",
	"Backend > 20% in red, Retiring > 70% in green.",
	"Level 2: Heavy/Light operations, BrMsp branch mispredicts, MClr machine clears,",
	"FLat/FBw fetch latency/bandwidth, MemB/CoreB memory/core bound.",
	"",
	"Press any key to return.",
};

static void draw_help(struct tui *t)
{
	int y = 0;

	for (size_t i = 0; i < sizeof(help_lines) / sizeof(help_lines[0]) && y < LINES; i++)
		put(y++, 0, i == 0 ? A_BOLD : A_NORMAL, help_lines[i]);
}

/* ---- detail view ---- */

static void draw_td_tree(struct tui *t, int y, const struct td_result *td)
{
	static const int children[][2] = {
		{ TUI_TD_HEAVY_OPS, TUI_TD_LIGHT_OPS },
		{ TUI_TD_BR_MISPREDICT, TUI_TD_MACHINE_CLEARS },
		{ TUI_TD_FETCH_LAT, TUI_TD_FETCH_BW },
		{ TUI_TD_MEM_BOUND, TUI_TD_CORE_BOUND },
	};
	char pct[16];

	for (int i = 0; i <= TUI_TD_BACKEND; i++, y++) {
		double v = tui_td_value(td, i);
		int x = putf(y, 0, hl_attr(t, tui_td_hl(i, v)), "  %-16s%6s%%", tui_td_long_name(i),
			     tui_pct(pct, sizeof(pct), v));

		for (int c = 0; c < 2; c++)
			x = putf(y, x, A_NORMAL, "   %-18s%6s%%", tui_td_long_name(children[i][c]),
				 tui_pct(pct, sizeof(pct), tui_td_value(td, children[i][c])));
	}
}

static int draw_detail_summary(struct tui *t, int y, const struct row *p)
{
	const struct interval *iv = &t->det_proc;
	char bar[HEADER_BAR_MAX + 1], num[FMT_COMPACT_LEN], rate[FMT_COMPACT_LEN], name[32];
	int x;

	if (!iv->topdown) {
		for (int i = 0; i < interval__nr_events(iv); i++, y++) {
			const char *n = interval__event_name(iv, i, name, sizeof(name));
			double v = delta__scaled(&p->ev[i]);

			putf(y, 0, A_NORMAL, "  %-24.24s %8s %8s/s", n,
			     fmt_compact(num, sizeof(num), v),
			     fmt_compact(rate, sizeof(rate),
					 iv->interval_s > 0 ? v / iv->interval_s : NAN));
		}
		return y;
	}
	if (!p->td.valid) {
		put(y++, 0, A_NORMAL, "  TopDown: - (too few issue slots in this interval)");
		return y;
	}
	draw_td_tree(t, y, &p->td);
	y += TUI_TD_BACKEND + 1;
	tui_bar(bar, HEADER_BAR_MAX, &p->td);
	x = put(y, 0, A_NORMAL, "  [");
	x = put_bar(t, y, x, A_NORMAL, bar);
	x = put(y, x, A_NORMAL, "]");
	if (isfinite(p->ipc))
		putf(y, x, A_NORMAL, "  IPC %.2f", p->ipc);
	return y + 1;
}

static void draw_detail(struct tui *t)
{
	struct tui_col cols[TUI_MAX_COLS];
	struct tui_list *l = &t->st.detail;
	const struct row *p;
	char comm[TASK_COMM_LEN], cpu[16];
	int y = draw_title(t, 0), n, page;

	if (!t->have_det || !t->det_proc.nr_rows) {
		putf(y + 1, 0, A_NORMAL, "PID %d did not run in this interval (or has exited)",
		     t->st.detail_pid);
		put(y + 2, 0, A_NORMAL, "Esc, Enter or q: back");
		return;
	}
	p = &t->det_proc.rows[0];
	fmt_comm_ascii(comm, sizeof(comm), p->comm, sizeof(p->comm));
	tui_pct(cpu, sizeof(cpu), interval__cpu_pct(&t->det_proc, p->cpu_ns) / 100.0);
	putf(y++, 0, A_BOLD, "PID %d %s  user %s  %d thread%s  CPU %s%%%s", p->pid, comm,
	     row_user(t, p), p->nr_threads, p->nr_threads == 1 ? "" : "s",
	     cpu, p->exited ? "  (exited)" : "");
	put(y++, 0, A_NORMAL, "Esc, Enter or q: back");
	y = draw_detail_summary(t, y + 1, p) + 1;

	/* its threads: the main table's layout with TIDs and without USER */
	n = layout(t, t->det_threads.level == 2 ? 2 : 1, true, false, cols);
	if (y >= LINES - 1)
		return;
	draw_col_titles(t, y++, cols, n);
	page = LINES - y;
	tui_list__set_page(l, page > 0 ? (size_t)page : 1);
	l->nr = t->det_threads.nr_rows;
	tui_list__clamp(l);
	for (size_t i = l->first; i < l->nr && y < LINES; i++, y++)
		draw_row(t, y, &t->det_threads, &t->det_threads.rows[i], cols, n, false);
}

void tui__draw(struct tui *t)
{
	curs_set(0);
	erase();
	switch (t->st.mode) {
	case TUI_MODE_HELP:
		draw_help(t);
		break;
	case TUI_MODE_DETAIL:
		draw_detail(t);
		break;
	case TUI_MODE_PROMPT:
		if (t->st.back == TUI_MODE_DETAIL) {
			draw_detail(t);
			break;
		}
		draw_main(t);
		break;
	case TUI_MODE_MAIN:
		draw_main(t);
		break;
	}
	refresh();
}

void tui_screen_colors(void)
{
	start_color();
	use_default_colors();
	init_pair(PAIR_BAD, COLOR_RED, -1);
	init_pair(PAIR_GOOD, COLOR_GREEN, -1);
	init_pair(PAIR_WARN, COLOR_YELLOW, -1);
	init_pair(PAIR_SORT, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_BAR_R, COLOR_BLACK, COLOR_GREEN);
	init_pair(PAIR_BAR_B, COLOR_BLACK, COLOR_RED);
	init_pair(PAIR_BAR_F, COLOR_BLACK, COLOR_MAGENTA);
	init_pair(PAIR_BAR_K, COLOR_WHITE, COLOR_BLUE);
}
