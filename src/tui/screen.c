// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The curses drawing of the interactive view: header, table, menus, key
 * bar, help screen and the per-process detail view.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "util/macros.h"
#include "util/format.h"
#include "tui/draw.h"
#include "tui/paint.h"
#include "tui/screen.h"

/* ---- table ---- */

static void table_layout(const struct tui *t, int level, bool threads, struct tui_layout *l)
{
	*l = (struct tui_layout){
		.topdown = t->st.topdown,
		.level = level,
		.threads = threads,
		.user = true,
		.cgroup_indent = -1,
		.hidden = t->st.hidden,
		.nr_events = t->o->nr_events,
		.names = t->o->names,
	};
}

/* The main table's columns; Left and Right scroll them within what exists. */
static int main_layout(struct tui *t, struct tui_col *cols)
{
	struct tui_state *st = &t->st;
	struct tui_layout l;

	table_layout(t, st->level, st->by == BY_THREAD, &l);
	l.cgroups = st->by == BY_CGROUP;
	l.tree = st->tree && !l.cgroups;
	/* cgroups in tree order are indented below the shallowest of them */
	for (size_t i = 0; l.cgroups && st->tree && i < t->iv.nr_rows; i++)
		if (l.cgroup_indent < 0 || t->iv.rows[i].depth < l.cgroup_indent)
			l.cgroup_indent = t->iv.rows[i].depth;
	st->hscroll_max = tui_columns_scroll_max(&l, COLS);
	if (st->hscroll > st->hscroll_max)
		st->hscroll = st->hscroll_max;
	l.hscroll = st->hscroll;
	return tui_columns(&l, COLS, cols);
}

static void draw_col_titles(struct tui *t, int y, const struct tui_col *cols, int n)
{
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

		x = tui_putf(y, x, sorted ? tui_attr_sort(t->color) : A_REVERSE,
			     cols[i].left ? "%-*s" : "%*s", cols[i].width, cols[i].title);
		if (i + 1 < n)
			x = tui_put(y, x, A_REVERSE, " ");
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
			user = tui_users__row(t->users, r, t->src->live, t->fetched);
		tui_cell(&cols[i], iv, r, user, cell, sizeof(cell));
		if (cols[i].id == TUI_COL_BAR) {
			x = tui_put_bar(t->color, y, x, base, cell);
			continue;
		}
		if (cols[i].id == TUI_COL_TD && iv->topdown && r->td.valid)
			a |= tui_attr_hl(t->color,
					 tui_td_hl(cols[i].idx, tui_td_value(&r->td, cols[i].idx)));
		x = tui_putf(y, x, a, cols[i].left ? "%-*s" : "%*s", cols[i].width, cell);
		if (i + 1 < n)
			x = tui_put(y, x, base, " ");
	}
	if (r->exited)
		tui_users__forget(t->users, r->pid);
}

static void draw_table(struct tui *t, int y, int bottom)
{
	struct tui_col cols[TUI_MAX_COLS];
	int n = main_layout(t, cols);
	struct tui_list *l = &t->st.list;
	int page = bottom - y - 1;

	tui_list__set_page(l, page > 0 ? (size_t)page : 1);
	tui_state__rows(&t->st, t->iv.rows, t->iv.nr_rows);
	if (!t->iv.nr_rows) {
		/* no column titles for rows that are not there */
		tui_put(y, 0, A_NORMAL, tui_state__empty_text(&t->st));
		return;
	}
	draw_col_titles(t, y++, cols, n);
	for (size_t i = l->first; i < l->nr && y < bottom; i++, y++)
		draw_row(t, y, &t->iv, &t->iv.rows[i], cols, n, i == l->cursor);
}

/* ---- menus ---- */

static void draw_menu(struct tui *t, int y, int bottom)
{
	struct tui_list *l = &t->st.menu_list;
	char text[TUI_MSG_LEN];
	int page = bottom - y - 1;

	tui_state__menu_title(&t->st, text, sizeof(text));
	attrset(A_REVERSE);
	mvhline(y, 0, ' ', COLS);
	attrset(A_NORMAL);
	tui_put(y++, 0, A_REVERSE | A_BOLD, text);
	tui_list__set_page(l, page > 0 ? (size_t)page : 1);
	for (size_t i = l->first; i < l->nr && y < bottom; i++, y++) {
		bool current = tui_state__menu_item(&t->st, i, text, sizeof(text));

		if (i == l->cursor) {
			attrset(A_REVERSE);
			mvhline(y, 0, ' ', COLS);
			attrset(A_NORMAL);
		}
		tui_putf(y, 0, i == l->cursor ? A_REVERSE : current ? A_BOLD : A_NORMAL, "%s %s",
			 current ? "*" : " ", text);
	}
}

/* ---- key bar ---- */

struct key_hint {
	const char *key;
	const char *label;
};

static const struct key_hint main_keys[] = {
	{ "F1", "Help" }, { "F2", "Setup" }, { "F3", "Search" }, { "F4", "Filter" },
	{ "F5", "Tree" }, { "F6", "SortBy" }, { "F9", "Kill" }, { "F10", "Quit" }, { NULL, NULL },
};
static const struct key_hint menu_keys[] = {
	{ "Enter", "Select" }, { "Esc", "Cancel" }, { NULL, NULL },
};
static const struct key_hint column_keys[] = {
	{ "Enter", "On/off" }, { "Esc", "Done" }, { NULL, NULL },
};
static const struct key_hint search_keys[] = {
	{ "F3", "Next" }, { "Enter", "Done" }, { "Esc", "Done" }, { NULL, NULL },
};
static const struct key_hint prompt_keys[] = {
	{ "Enter", "Done" }, { "Esc", "Cancel" }, { NULL, NULL },
};
static const struct key_hint confirm_keys[] = {
	{ "y", "Send" }, { "Esc", "Cancel" }, { NULL, NULL },
};

static const struct key_hint *key_hints(const struct tui_state *st)
{
	switch (st->mode) {
	case TUI_MODE_MENU:
		return st->menu == TUI_MENU_COLUMNS ? column_keys : menu_keys;
	case TUI_MODE_PROMPT:
		return st->prompt == TUI_PROMPT_SEARCH ? search_keys : prompt_keys;
	case TUI_MODE_CONFIRM:
		return confirm_keys;
	case TUI_MODE_MAIN:
	case TUI_MODE_HELP:
	case TUI_MODE_DETAIL:
		break;
	}
	return main_keys;
}

/* htop's bar: each key, then its label on colour; keys that do not fit are left out. */
static void draw_keybar(struct tui *t, int y)
{
	const struct key_hint *k = key_hints(&t->st);
	struct tui_line l;

	tui_line__init(&l, COLS);
	for (; k->key; k++) {
		/* six cells at least, as htop's, and a blank before the next key */
		int width = (int)strlen(k->label) < 6 ? 6 : (int)strlen(k->label) + 1;
		int at = tui_line__add(&l, "", "%s%-*s", k->key, width, k->label);

		if (at < 0)
			continue;
		tui_put(y, at, A_NORMAL, k->key);
		tui_putf(y, at + (int)strlen(k->key), tui_attr_label(t->color), "%-*s", width,
			 k->label);
	}
}

/* Whether the last line is the key bar: not in plain text, not on tiny terminals. */
static bool keybar(const struct tui *t)
{
	return !t->plain && tui_keybar_shown(LINES, COLS);
}

static void draw_main(struct tui *t)
{
	bool bar = keybar(t);
	int y = tui__draw_title(t, 0), bottom = LINES - bar;

	if (bar)
		draw_keybar(t, LINES - 1);
	if (!t->have_iv) {
		tui_put(y + 1, 0, A_NORMAL, t->eof ? "the recording holds no interval"
						   : "waiting for the first interval...");
		tui__draw_status(t, y + 2, bar);
		return;
	}
	y = tui__draw_header(t, y);
	/* the table first: the status line tells whether it scrolls */
	if (t->st.mode == TUI_MODE_MENU)
		draw_menu(t, y + 1, bottom);
	else
		draw_table(t, y + 1, bottom);
	tui__draw_status(t, y, bar);
}

/* ---- help ---- */

static const char *const help_lines[] = {
	"tdtop: TopDown and counter breakdown of every task",
	"",
	"  q F10      quit (the settings are saved, see below)",
	"  h ? F1     this help: Up, Down, PgUp, PgDn scroll it, any other key closes it",
	"  Up Down PgUp PgDn Home End   move the selection",
	"  Left Right scroll the columns a narrow terminal leaves out",
	"  o F6       sort by a column picked from a list;  < >  the previous/next one",
	"  I          the other order;  P by CPU (again: the other order)",
	"  s F3       search a command (cgroups: a path) as you type; F3 the next one",
	"  / \\ F4     show only commands (cgroups: paths) containing a text",
	"  u          show only one user's processes;  p only these PIDs",
	"  Esc        clear the name and user filters; in a cgroup's processes: back",
	"  T F5       tree: processes with their threads, cgroups below their parents",
	"  t H        threads instead of processes, and back (a flat list)",
	"  c          cgroups, and back (when tdtop charges per cgroup: --by cgroup, -c)",
	"  S F2       columns: USER, CPU%, IPC, the bar, counts, rates on and off",
	"  k F9       send a signal to the selected process (asks first; SIGTERM first)",
	"  d          the delay between intervals",
	"  space      pause: the screen freezes, collecting goes on",
	"  n          recordings: show the next interval (pauses)",
	"  1 2        TopDown level 1 or 2 (when the CPU has level 2)",
	"  Enter      threads and level-2 breakdown of the selected process;",
	"             on a cgroup: its processes (Esc goes back to the cgroups)",
	"",
	"CPU% is on-CPU time over the interval (100 = one CPU). TopDown columns are the",
	"share of issue slots; - when the row has too few slots to be measured.",
	"Cgroup rows count their descendants too; TASKS: tasks that ran in the interval.",
	"Bar letters: R Retiring, B Bad Speculation, F Frontend Bound, K Backend Bound.",
	"Highlighted as perf stat does: Frontend > 20%, Bad Speculation > 10% and",
	"Backend > 20% in red, Retiring > 70% in green.",
	"Level 2: Heavy/Light operations, BrMsp branch mispredicts, MClr machine clears,",
	"FLat/FBw fetch latency/bandwidth, MemB/CoreB memory/core bound.",
	"Sort key and order, columns, level, delay and tree are kept in",
	"$XDG_CONFIG_HOME/tdtop/tdtoprc (~/.config/tdtop/tdtoprc); -s, -d, -l override.",
	"",
	"Press any key to return.",
};

#define NR_HELP_LINES ARRAY_SIZE(help_lines)

static void draw_help(struct tui *t)
{
	struct tui_list *l = &t->st.help;

	/* the cursor is the first line shown: scrolling moves it by lines and pages */
	l->nr = NR_HELP_LINES > (size_t)LINES ? NR_HELP_LINES - LINES + 1 : 1;
	tui_list__set_page(l, LINES > 1 ? (size_t)LINES - 1 : 1);
	for (size_t i = l->cursor, y = 0; i < NR_HELP_LINES && y < (size_t)LINES; i++, y++)
		tui_put((int)y, 0, i == 0 ? A_BOLD : A_NORMAL, help_lines[i]);
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
		int x = tui_putf(y, 0, tui_attr_hl(t->color, tui_td_hl(i, v)), "  %-16s%6s%%",
				 tui_td_long_name(i), tui_pct(pct, sizeof(pct), v));

		for (int c = 0; c < 2; c++)
			x = tui_putf(y, x, A_NORMAL, "   %-18s%6s%%",
				     tui_td_long_name(children[i][c]),
				     tui_pct(pct, sizeof(pct), tui_td_value(td, children[i][c])));
	}
}

static int draw_detail_summary(struct tui *t, int y, const struct row *p)
{
	const struct interval *iv = &t->det_proc;
	char bar[TUI_HEADER_BAR_MAX + 1], num[FMT_COMPACT_LEN], rate[FMT_COMPACT_LEN], name[32];
	int x;

	if (!iv->topdown) {
		for (int i = 0; i < interval__nr_events(iv); i++, y++) {
			const char *n = interval__event_name(iv, i, name, sizeof(name));
			double v = delta__scaled(&p->ev[i]);

			tui_putf(y, 0, A_NORMAL, "  %-24.24s %8s %8s/s", n,
				 fmt_compact(num, sizeof(num), v),
				 fmt_compact(rate, sizeof(rate),
					     iv->interval_s > 0 ? v / iv->interval_s : NAN));
		}
		return y;
	}
	if (!p->td.valid) {
		tui_put(y++, 0, A_NORMAL, "  TopDown: - (too few issue slots in this interval)");
		return y;
	}
	draw_td_tree(t, y, &p->td);
	y += TUI_TD_BACKEND + 1;
	tui_bar(bar, TUI_HEADER_BAR_MAX, &p->td);
	x = tui_put(y, 0, A_NORMAL, "  [");
	x = tui_put_bar(t->color, y, x, A_NORMAL, bar);
	x = tui_put(y, x, A_NORMAL, "]");
	if (isfinite(p->ipc))
		tui_putf(y, x, A_NORMAL, "  IPC %.2f", p->ipc);
	return y + 1;
}

static void draw_detail(struct tui *t)
{
	struct tui_col cols[TUI_MAX_COLS];
	struct tui_list *l = &t->st.detail;
	const struct row *p;
	char comm[TASK_COMM_LEN], cpu[16];
	struct tui_layout lay;
	int y = tui__draw_title(t, 0), n, page;

	if (!t->have_det || !t->det_proc.nr_rows) {
		tui_putf(y + 1, 0, A_NORMAL, "PID %d did not run in this interval (or has exited)",
			 t->st.detail_pid);
		tui_put(y + 2, 0, A_NORMAL, "Esc, Enter or q: back");
		return;
	}
	p = &t->det_proc.rows[0];
	fmt_comm_ascii(comm, sizeof(comm), p->comm, sizeof(p->comm));
	tui_pct(cpu, sizeof(cpu), interval__cpu_pct(&t->det_proc, p->cpu_ns) / 100.0);
	tui_putf(y++, 0, A_BOLD, "PID %d %s  user %s  %d thread%s  CPU %s%%%s", p->pid, comm,
		 tui_users__row(t->users, p, t->src->live, t->fetched), p->nr_threads,
		 p->nr_threads == 1 ? "" : "s", cpu, p->exited ? "  (exited)" : "");
	tui_put(y++, 0, A_NORMAL, "Esc, Enter or q: back");
	y = draw_detail_summary(t, y + 1, p) + 1;

	/* its threads: the main table's layout with TIDs and without USER */
	table_layout(t, t->det_threads.level == 2 ? 2 : 1, true, &lay);
	lay.user = false;
	n = tui_columns(&lay, COLS, cols);
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
	case TUI_MODE_MENU:
	case TUI_MODE_CONFIRM:
		draw_main(t);
		break;
	}
	if (!t->plain)
		refresh();
}
