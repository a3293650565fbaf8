// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Keys of the interactive view as pure state changes: the main table's
 * (sorting, grouping, the tree, levels, scrolling, pause, filters) and
 * the dispatch to the prompts (input.c) and menus (menu.c); the caller
 * redraws and refetches.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/macros.h"
#include "cgroup/names.h"
#include "rows/metrics.h"
#include "util/errmsg.h"
#include "util/format.h"
#include "tui/draw.h"
#include "tui/handlers.h"
#include "tui/keys.h"

/* TopDown fields < and > offer at each level, by their --sort names */
static const char *const td_level1[] = { "retiring", "bad-spec", "frontend", "backend" };
static const char *const td_level2[] = {
	"heavy-ops", "light-ops", "branch-mispredicts", "machine-clears",
	"fetch-latency", "fetch-bandwidth", "memory-bound", "core-bound",
};

void tui_state__msg(struct tui_state *st, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->msg, sizeof(st->msg), fmt, ap);
	va_end(ap);
	st->msg_error = error;
}

/* Choices of the command line that the interactive view cannot show. */
static int check_opts(const struct tui_opts *o, char *err, size_t errlen)
{
	if (o->view.nr_pids > TUI_MAX_PIDS)
		return errmsg(err, errlen, -1,
			      "too many PIDs for the interactive view (at most %d)", TUI_MAX_PIDS);
	if (o->view.by == BY_CGROUP && !(o->cgroups_available && o->view.cg))
		return errmsg(err, errlen, -1, "the cgroup view needs tasks charged per cgroup");
	if (o->view.by != BY_PROCESS && o->view.by != BY_THREAD && o->view.by != BY_CGROUP)
		return errmsg(err, errlen, -1, "invalid grouping %d for the interactive view",
			      o->view.by);
	if (o->level != 1 && o->level != 2)
		return errmsg(err, errlen, -1, "invalid TopDown level %d (want 1 or 2)", o->level);
	return 0;
}

int tui_state__init(struct tui_state *st, const struct tui_opts *o, bool live, char *err,
		    size_t errlen)
{
	memset(st, 0, sizeof(*st));
	if (check_opts(o, err, errlen))
		return -1;
	st->base = o->view;
	st->base.pids = NULL;
	st->base.nr_pids = 0;
	st->base.comm = NULL;
	st->by = o->view.by;
	st->task_by = o->view.by == BY_THREAD ? BY_THREAD : BY_PROCESS;
	st->cgroups_available = o->cgroups_available && o->view.cg;
	st->cgroups_why = o->cgroups_why;
	st->sort = o->view.sort;
	if (st->by == BY_CGROUP && st->sort.kind == SORT_PID)
		st->sort = (struct sort_key){ .kind = SORT_COMM, .event = -1 };
	st->reverse = o->reverse;
	/* -H asks for threads, flat */
	st->tree = o->tree && o->view.by != BY_THREAD;
	st->hidden = o->hidden & TUI_HIDE_ALL;
	st->top = o->view.top;
	st->level = o->level == 2 && o->level2_available ? 2 : 1;
	st->level2_available = o->level2_available;
	st->level2_why = o->level2_why;
	st->topdown = o->topdown;
	st->nr_events = o->nr_events < 0 ? 0 : o->nr_events;
	if (st->nr_events > MAX_EVENTS)
		st->nr_events = MAX_EVENTS;
	st->names = o->names;
	st->live = live;
	st->self_pid = getpid();
	st->delay_s = o->delay_s;
	if (o->view.nr_pids)
		memcpy(st->pids, o->view.pids, o->view.nr_pids * sizeof(st->pids[0]));
	st->nr_pids = o->view.nr_pids;
	if (o->view.comm)
		snprintf(st->comm, sizeof(st->comm), "%s", o->view.comm);
	st->list.page = 1;
	st->detail.page = 1;
	st->menu_list.page = 1;
	st->help.page = 1;
	if (o->note && *o->note)
		tui_state__msg(st, true, "%s", o->note);
	return 0;
}

void tui_state__view(const struct tui_state *st, struct view *v)
{
	*v = st->base;
	v->by = st->by;
	v->pids = st->nr_pids ? st->pids : NULL;
	v->nr_pids = st->nr_pids;
	/* the name filter of cgroup rows is their path, which aggregation does not match */
	v->comm = st->comm[0] && st->by != BY_CGROUP ? st->comm : NULL;
	if (st->cg_within && st->by != BY_CGROUP)
		v->within = st->cg_within;
	v->sort = st->sort;
	v->top = st->top;
}

static void add_td_keys(const char *const *fields, int n, struct sort_key *keys, int *nr, int max)
{
	for (int i = 0; i < n && *nr < max; i++)
		if (!sort_key__parse(fields[i], NULL, 0, &keys[*nr]))
			(*nr)++;
}

int tui_state__sort_keys(const struct tui_state *st, struct sort_key *keys, int max)
{
	static const enum sort_kind fixed[] = { SORT_PID, SORT_COMM, SORT_CPU };
	size_t first = st->by == BY_CGROUP ? 1 : 0;	/* cgroup rows have no PID */
	int nr = 0;

	for (size_t i = first; i < ARRAY_SIZE(fixed) && nr < max; i++)
		keys[nr++] = (struct sort_key){ .kind = fixed[i], .event = -1 };
	if (st->topdown) {
		add_td_keys(td_level1, ARRAY_SIZE(td_level1), keys, &nr, max);
		if (st->level == 2)
			add_td_keys(td_level2, ARRAY_SIZE(td_level2), keys,
				    &nr, max);
		add_td_keys((const char *const[]){ "ipc" }, 1, keys, &nr, max);
		return nr;
	}
	for (int i = 0; i < st->nr_events && nr < max; i++)
		keys[nr++] = (struct sort_key){ .kind = SORT_EVENT, .event = i };
	return nr;
}

static bool same_key(const struct sort_key *a, const struct sort_key *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == SORT_EVENT)
		return a->event == b->event;
	if (a->kind == SORT_TD)
		return a->field == b->field;
	return true;
}

int tui_sort_index(const struct sort_key *key, const struct sort_key *keys, int nr)
{
	for (int i = 0; i < nr; i++)
		if (same_key(key, &keys[i]))
			return i;
	return -1;
}

static unsigned int cycle_sort(struct tui_state *st, int step)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	int nr = tui_state__sort_keys(st, keys, TUI_MAX_SORT_KEYS);
	int i = tui_sort_index(&st->sort, keys, nr);

	if (!nr)
		return 0;
	if (i < 0)
		i = step > 0 ? 0 : nr - 1;
	else
		i = (i + step + nr) % nr;
	st->sort = keys[i];
	return TUI_REBUILD | TUI_REDRAW;
}

void tui_list__clamp(struct tui_list *l)
{
	if (!l->page)
		l->page = 1;
	if (!l->nr) {
		l->cursor = l->first = 0;
		return;
	}
	if (l->cursor >= l->nr)
		l->cursor = l->nr - 1;
	if (l->cursor < l->first)
		l->first = l->cursor;
	if (l->cursor >= l->first + l->page)
		l->first = l->cursor - l->page + 1;
	/* no empty space below the last row while rows are hidden above */
	if (l->first + l->page > l->nr)
		l->first = l->nr > l->page ? l->nr - l->page : 0;
}

void tui_list__set_page(struct tui_list *l, size_t page)
{
	l->page = page ? page : 1;
	tui_list__clamp(l);
}

/* PgUp/PgDn also scroll by a page, as less and htop do. */
bool tui_list__key(struct tui_list *l, int key)
{
	switch (key) {
	case KEY_UP:
		if (l->cursor)
			l->cursor--;
		break;
	case KEY_DOWN:
		l->cursor++;
		break;
	case KEY_PPAGE:
		l->cursor = l->cursor > l->page ? l->cursor - l->page : 0;
		l->first = l->first > l->page ? l->first - l->page : 0;
		break;
	case KEY_NPAGE:
		l->cursor += l->page;
		l->first += l->page;
		break;
	case KEY_HOME:
		l->cursor = 0;
		l->first = 0;
		break;
	case KEY_END:
		l->cursor = l->nr ? l->nr - 1 : 0;
		break;
	default:
		return false;
	}
	tui_list__clamp(l);
	return true;
}

static bool is_selected(const struct tui_state *st, const struct row *r)
{
	if (st->by == BY_CGROUP)
		return r->cgroup_id == st->sel_cg;
	/* in the tree a process and its threads share the PID */
	return r->pid == st->sel_pid && r->kind == st->sel_kind &&
	       (r->kind != ROW_THREAD || r->tid == st->sel_tid);
}

void tui_state__rows(struct tui_state *st, const struct row *rows, size_t nr)
{
	struct tui_list *l = &st->list;
	const struct row *sel;

	/* rows of the grouping just left: the rebuild for the new one follows */
	if (nr && (rows[0].kind == ROW_CGROUP) != (st->by == BY_CGROUP))
		return;
	l->nr = nr;
	if (st->follow && !st->moved) {
		for (size_t i = 0; i < nr; i++) {
			if (is_selected(st, &rows[i])) {
				l->cursor = i;
				break;
			}
		}
	}
	tui_state__search(st, rows, nr);
	tui_list__clamp(l);
	st->moved = false;
	if (!nr)
		return;
	sel = &rows[l->cursor];
	st->sel_pid = sel->pid;
	st->sel_tid = sel->tid;
	st->sel_kind = sel->kind;
	st->sel_exited = sel->exited;
	fmt_comm_ascii(st->sel_comm, sizeof(st->sel_comm), sel->comm, sizeof(sel->comm));
	st->sel_cg = sel->cgroup_id;
	st->sel_cg_name[0] = '\0';
	if (st->by == BY_CGROUP)
		cgroup_display_name(sel->cgroup ? sel->cgroup : "?", 0, st->sel_cg_name,
				    sizeof(st->sel_cg_name));
}

unsigned int tui_state__filter_changed(struct tui_state *st)
{
	st->list.cursor = st->list.first = 0;
	st->follow = false;
	return TUI_REBUILD | TUI_REDRAW;
}

static unsigned int set_level(struct tui_state *st, int level)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	int nr;

	if (!st->topdown) {
		tui_state__msg(st, true, "no TopDown breakdown on this machine: levels do not apply");
		return TUI_REDRAW;
	}
	if (level == 2 && !st->level2_available) {
		tui_state__msg(st, true, "TopDown level 2: %s",
			       st->level2_why ? st->level2_why : "not available on this CPU");
		return TUI_REDRAW;
	}
	st->level = level;
	nr = tui_state__sort_keys(st, keys, TUI_MAX_SORT_KEYS);
	/* a level-2 sort key means nothing once its column is gone */
	if (tui_sort_index(&st->sort, keys, nr) < 0)
		st->sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	tui_state__msg(st, false, "TopDown level %d", level);
	return TUI_REBUILD | TUI_REDRAW;
}

static unsigned int toggle_pause(struct tui_state *st)
{
	st->paused = !st->paused;
	if (st->paused)
		tui_state__msg(st, false, "%s", st->live ? "paused: still collecting, space resumes"
						     : "paused: n steps, space resumes");
	return TUI_RESCHEDULE | TUI_REDRAW;
}

/* Another grouping: the table starts over at its first row. */
static unsigned int show(struct tui_state *st, enum group_by by)
{
	st->by = by;
	if (by != BY_CGROUP)
		st->task_by = by;
	tui_state__msg(st, false, "%s", by == BY_CGROUP  ? "showing cgroups"
					: by == BY_THREAD ? "showing threads"
							  : "showing processes");
	return tui_state__filter_changed(st);
}

/* Enter on a cgroup row: the processes in it and below. */
static unsigned int open_cgroup(struct tui_state *st)
{
	/* 0 would mean every cgroup */
	if (!st->sel_cg) {
		tui_state__msg(st, true, "this row has no cgroup id");
		return TUI_REDRAW;
	}
	st->cg_within = st->sel_cg;
	snprintf(st->cg_name, sizeof(st->cg_name), "%s", st->sel_cg_name);
	show(st, st->task_by);
	tui_state__msg(st, false, "processes in %s: Esc goes back", st->cg_name);
	return TUI_REBUILD | TUI_REDRAW;
}

/* Back to the cgroup rows, on the one that was opened. */
static unsigned int close_cgroup(struct tui_state *st)
{
	st->by = BY_CGROUP;
	st->sel_cg = st->cg_within;
	st->cg_within = 0;
	st->cg_name[0] = '\0';
	st->list.cursor = st->list.first = 0;
	st->follow = true;
	st->moved = false;
	return TUI_REBUILD | TUI_REDRAW;
}

static unsigned int toggle_cgroups(struct tui_state *st)
{
	if (st->by == BY_CGROUP)
		return show(st, st->task_by);
	if (st->cg_within)
		return close_cgroup(st);
	if (!st->cgroups_available) {
		tui_state__msg(st, true, "%s",
			       st->cgroups_why ? st->cgroups_why
					       : "start tdtop with --by cgroup or -c PATH "
						 "for the cgroup view");
		return TUI_REDRAW;
	}
	/* cgroup rows have no PID; their names in order draw the tree */
	if (st->sort.kind == SORT_PID)
		st->sort = (struct sort_key){ .kind = SORT_COMM, .event = -1 };
	return show(st, BY_CGROUP);
}

/* Help over whatever is open; any key goes back there. */
static unsigned int open_help(struct tui_state *st)
{
	st->help.cursor = st->help.first = 0;
	st->back = st->mode;
	st->mode = TUI_MODE_HELP;
	return TUI_REDRAW;
}

/* n: one interval of a recording, which stays paused. */
static unsigned int step(struct tui_state *st)
{
	if (st->live) {
		tui_state__msg(st, true, "stepping works on recordings only");
		return TUI_REDRAW;
	}
	st->paused = true;
	return TUI_STEP | TUI_RESCHEDULE | TUI_REDRAW;
}

/*
 * t and H swap processes and threads (a flat list: the tree goes); from
 * cgroups, t shows threads and H processes.
 */
static unsigned int toggle_threads(struct tui_state *st, int key)
{
	if (st->by == BY_CGROUP)
		return show(st, key == 't' ? BY_THREAD : BY_PROCESS);
	st->by = st->task_by = st->by == BY_PROCESS ? BY_THREAD : BY_PROCESS;
	st->tree = false;
	tui_state__msg(st, false, "%s",
		       st->by == BY_THREAD ? "showing threads" : "showing processes");
	return TUI_REBUILD | TUI_REDRAW;
}

/* F5: processes with their threads below, cgroups below their parents. */
static unsigned int toggle_tree(struct tui_state *st)
{
	st->tree = !st->tree;
	if (st->by == BY_CGROUP) {
		tui_state__msg(st, false, "%s", st->tree ? "cgroups as a tree"
							 : "cgroups sorted, with full paths");
		return TUI_REBUILD | TUI_REDRAW;
	}
	if (st->tree)
		st->by = st->task_by = BY_PROCESS;
	tui_state__msg(st, false, "%s", st->tree ? "processes with their threads"
						 : "showing processes");
	return TUI_REBUILD | TUI_REDRAW;
}

const char *tui_state__sort_text(const struct tui_state *st, const struct sort_key *k)
{
	if (st->by == BY_CGROUP && k->kind == SORT_COMM)
		return "name";
	return sort_key__name(k, st->names, st->nr_events);
}

/* I: the other order. */
static unsigned int invert_sort(struct tui_state *st)
{
	st->reverse = !st->reverse;
	tui_state__msg(st, false, "sort %s%s", tui_state__sort_text(st, &st->sort),
		       st->reverse ? ", reversed" : "");
	return TUI_REBUILD | TUI_REDRAW;
}

/* P: by CPU, the busiest first; again: the other way round, as htop does. */
static unsigned int sort_cpu(struct tui_state *st)
{
	if (st->sort.kind == SORT_CPU)
		return invert_sort(st);
	st->sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	st->reverse = false;
	tui_state__msg(st, false, "sort cpu");
	return TUI_REBUILD | TUI_REDRAW;
}

/* Left and Right: the columns a narrow terminal leaves out. */
static unsigned int scroll_columns(struct tui_state *st, int step)
{
	if (step > 0 && st->hscroll >= st->hscroll_max) {
		tui_state__msg(st, false, "%s", st->hscroll ? "the last column is on screen"
							    : "every column is on screen");
		return TUI_REDRAW;
	}
	if (step < 0 && !st->hscroll)
		return 0;
	st->hscroll += step;
	return TUI_REDRAW;
}

static bool has_filter(const struct tui_state *st)
{
	if (st->by == BY_CGROUP)
		return st->cg_filter[0];
	return st->comm[0] || st->user_filter;
}

/* Esc: the view's name and user filters go; without any, back out of a cgroup. */
static unsigned int escape(struct tui_state *st)
{
	if (has_filter(st)) {
		if (st->by == BY_CGROUP) {
			st->cg_filter[0] = '\0';
		} else {
			st->comm[0] = '\0';
			st->user_filter = false;
		}
		tui_state__msg(st, false, "filter cleared");
		return tui_state__filter_changed(st);
	}
	return st->cg_within ? close_cgroup(st) : 0;
}

static unsigned int user_menu(struct tui_state *st)
{
	if (st->by == BY_CGROUP) {
		tui_state__msg(st, true, "cgroup rows have no owner: u works on processes");
		return TUI_REDRAW;
	}
	return tui_state__open_menu(st, TUI_MENU_USER);
}

/* Enter: the processes of a cgroup row, or the detail view of a process. */
static unsigned int open_row(struct tui_state *st)
{
	if (!st->list.nr)
		return 0;
	if (st->by == BY_CGROUP)
		return open_cgroup(st);
	st->detail_pid = st->sel_pid;
	memset(&st->detail, 0, sizeof(st->detail));
	st->detail.page = 1;
	st->mode = TUI_MODE_DETAIL;
	return TUI_DETAIL | TUI_REDRAW;
}

static unsigned int move_cursor(struct tui_state *st, int key)
{
	if (!tui_list__key(&st->list, key))
		return 0;
	/* Home goes back to watching whatever is on top */
	st->follow = key != KEY_HOME;
	st->moved = true;
	return TUI_REDRAW;
}

const char *tui_state__empty_text(const struct tui_state *st)
{
	if (st->by == BY_CGROUP)
		return st->nr_pids || st->cg_filter[0] ? "no cgroup matches the filter"
						       : "no cgroups charged yet: none of their "
							 "tasks ran in this interval";
	if (st->nr_pids || st->comm[0] || st->user_filter)
		return "no task matches the filter";
	return st->cg_within ? "no task of this cgroup ran in this interval" : "no task ran";
}

static unsigned int filter_prompt(struct tui_state *st)
{
	return tui_state__open_prompt(st, st->by == BY_CGROUP ? TUI_PROMPT_PATH : TUI_PROMPT_COMM);
}

/* Keys that only change the order, the columns or the scroll position. */
static unsigned int order_key(struct tui_state *st, int key)
{
	switch (key) {
	case '<':
	case ',':
		return cycle_sort(st, -1);
	case '>':
	case '.':
		return cycle_sort(st, 1);
	case KEY_F(6):
	case 'o':
		return tui_state__open_menu(st, TUI_MENU_SORT);
	case 'I':
		return invert_sort(st);
	case 'P':
		return sort_cpu(st);
	case 'M':
		tui_state__msg(st, true, "no memory column: tdtop measures the CPU pipeline "
					 "(P sorts by CPU, F6 by any column)");
		return TUI_REDRAW;
	case KEY_F(5):
	case 'T':
		return toggle_tree(st);
	case KEY_F(2):
	case 'S':
		return tui_state__open_menu(st, TUI_MENU_COLUMNS);
	case KEY_LEFT:
		return scroll_columns(st, -1);
	case KEY_RIGHT:
		return scroll_columns(st, 1);
	default:
		return move_cursor(st, key);
	}
}

static unsigned int main_key(struct tui_state *st, int key)
{
	switch (key) {
	case 'q':
	case 'Q':
	case KEY_F(10):
		return TUI_QUIT;
	case 'h':
	case '?':
	case KEY_F(1):
		return open_help(st);
	case 'd':
		return tui_state__open_prompt(st, TUI_PROMPT_DELAY);
	case 'p':
		return tui_state__open_prompt(st, TUI_PROMPT_PID);
	case '/':
	case '\\':
	case KEY_F(4):
		return filter_prompt(st);
	case KEY_F(3):
	case 's':
		return tui_state__open_prompt(st, TUI_PROMPT_SEARCH);
	case 'u':
		return user_menu(st);
	case KEY_F(9):
	case 'k':
		return tui_state__open_kill(st);
	case ' ':
		return toggle_pause(st);
	case 'n':
		return step(st);
	case '1':
	case '2':
		return set_level(st, key - '0');
	case 't':
	case 'H':
		return toggle_threads(st, key);
	case 'c':
		return toggle_cgroups(st);
	case KEY_ESC:
		return escape(st);
	case '\n':
	case '\r':
	case KEY_ENTER:
		return open_row(st);
	default:
		return order_key(st, key);
	}
}

static unsigned int detail_key(struct tui_state *st, int key)
{
	switch (key) {
	case KEY_ESC:
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'q':
	case 'Q':
	case KEY_LEFT:
		st->mode = TUI_MODE_MAIN;
		return TUI_REDRAW;
	case 'h':
	case '?':
	case KEY_F(1):
		return open_help(st);
	case ' ':
		return toggle_pause(st);
	default:
		return tui_list__key(&st->detail, key) ? TUI_REDRAW : 0;
	}
}

unsigned int tui_state__key(struct tui_state *st, int key)
{
	if (key == ERR)
		return 0;
	/* a resize redraws whatever is open and is no key press */
	if (key == KEY_RESIZE)
		return TUI_REDRAW;
	if (st->msg[0] && st->mode != TUI_MODE_PROMPT)
		st->msg[0] = '\0';
	switch (st->mode) {
	case TUI_MODE_HELP:
		/* the arrows scroll a help longer than the screen, any other key closes it */
		if (key != KEY_LEFT && key != KEY_RIGHT && tui_list__key(&st->help, key))
			return TUI_REDRAW;
		st->mode = st->back;
		return TUI_REDRAW;
	case TUI_MODE_PROMPT:
		return tui_state__prompt_key(st, key);
	case TUI_MODE_DETAIL:
		return detail_key(st, key);
	case TUI_MODE_MENU:
		return tui_state__menu_key(st, key);
	case TUI_MODE_CONFIRM:
		return tui_state__confirm_key(st, key);
	case TUI_MODE_MAIN:
		break;
	}
	return main_key(st, key);
}
