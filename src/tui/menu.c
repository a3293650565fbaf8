// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The interactive view's menus, htop's way: F6 the sort key, u an owner,
 * F2 the optional columns, F9 a signal for the selected process and the
 * confirmation that names the PID and command before anything is sent.
 */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "util/macros.h"
#include "tui/draw.h"
#include "tui/handlers.h"
#include "tui/keys.h"

/* SIGTERM first: Enter right away asks the process to end, as htop does */
static const struct {
	int sig;
	const char *name;
	const char *what;
} signals[] = {
	{ SIGTERM, "SIGTERM", "ask to terminate" },
	{ SIGINT, "SIGINT", "interrupt, as Ctrl-C" },
	{ SIGHUP, "SIGHUP", "hang up; many daemons reload" },
	{ SIGQUIT, "SIGQUIT", "quit with a core dump" },
	{ SIGKILL, "SIGKILL", "kill, no clean-up" },
	{ SIGSTOP, "SIGSTOP", "stop (SIGCONT resumes)" },
	{ SIGCONT, "SIGCONT", "continue a stopped process" },
	{ SIGUSR1, "SIGUSR1", "user-defined 1" },
	{ SIGUSR2, "SIGUSR2", "user-defined 2" },
};

#define NR_SIGNALS ARRAY_SIZE(signals)

const char *tui_signal_name(int sig)
{
	for (size_t i = 0; i < NR_SIGNALS; i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	return "?";
}

static size_t sort_choices(const struct tui_state *st, struct sort_key *keys)
{
	return (size_t)tui_state__sort_keys(st, keys, TUI_MAX_SORT_KEYS);
}

static size_t menu_len(const struct tui_state *st)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];

	switch (st->menu) {
	case TUI_MENU_SORT:
		return sort_choices(st, keys);
	case TUI_MENU_USER:
		return st->nr_users + 1;
	case TUI_MENU_SIGNAL:
		return NR_SIGNALS;
	case TUI_MENU_COLUMNS:
		return TUI_OPT_NR;
	case TUI_MENU_NONE:
		break;
	}
	return 0;
}

/* The entry of the current choice, where the cursor starts. */
static size_t current(const struct tui_state *st)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	int i;

	switch (st->menu) {
	case TUI_MENU_SORT:
		i = tui_sort_index(&st->sort, keys, (int)sort_choices(st, keys));
		return i < 0 ? 0 : (size_t)i;
	case TUI_MENU_USER:
		for (size_t u = 0; st->user_filter && u < st->nr_users; u++)
			if (st->users[u].uid == st->uid)
				return u + 1;
		return 0;
	case TUI_MENU_SIGNAL:
	case TUI_MENU_COLUMNS:
	case TUI_MENU_NONE:
		break;
	}
	return 0;
}

static void reset_list(struct tui_state *st)
{
	st->menu_list.nr = menu_len(st);
	st->menu_list.cursor = current(st);
	st->menu_list.first = 0;
	tui_list__clamp(&st->menu_list);
}

unsigned int tui_state__open_menu(struct tui_state *st, enum tui_menu m)
{
	st->back = TUI_MODE_MAIN;
	st->mode = TUI_MODE_MENU;
	st->menu = m;
	reset_list(st);
	return m == TUI_MENU_USER ? TUI_USERS | TUI_REDRAW : TUI_REDRAW;
}

void tui_state__set_users(struct tui_state *st, const struct tui_user *users, size_t nr)
{
	st->nr_users = nr < TUI_MAX_USERS ? nr : TUI_MAX_USERS;
	memcpy(st->users, users, st->nr_users * sizeof(*users));
	if (st->mode == TUI_MODE_MENU && st->menu == TUI_MENU_USER)
		reset_list(st);
}

static void close_menu(struct tui_state *st)
{
	st->mode = TUI_MODE_MAIN;
	st->menu = TUI_MENU_NONE;
}

static unsigned int pick_sort(struct tui_state *st, size_t i)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];

	if (i >= sort_choices(st, keys))
		return TUI_REDRAW;
	st->sort = keys[i];
	return TUI_REBUILD | TUI_REDRAW;
}

static unsigned int pick_user(struct tui_state *st, size_t i)
{
	if (i > st->nr_users)
		return TUI_REDRAW;
	st->user_filter = i > 0;
	if (i) {
		st->uid = st->users[i - 1].uid;
		snprintf(st->user_name, sizeof(st->user_name), "%s", st->users[i - 1].name);
	}
	return tui_state__filter_changed(st);
}

static unsigned int pick(struct tui_state *st)
{
	size_t i = st->menu_list.cursor;
	enum tui_menu m = st->menu;

	if (m == TUI_MENU_COLUMNS) {
		/* the menu stays open: several columns in one go */
		if (i < TUI_OPT_NR)
			st->hidden ^= TUI_HIDE(i);
		return TUI_REDRAW;
	}
	close_menu(st);
	switch (m) {
	case TUI_MENU_SORT:
		return pick_sort(st, i);
	case TUI_MENU_USER:
		return pick_user(st, i);
	case TUI_MENU_SIGNAL:
		if (i >= NR_SIGNALS)
			return TUI_REDRAW;
		st->kill_sig = signals[i].sig;
		st->mode = TUI_MODE_CONFIRM;
		return TUI_REDRAW;
	case TUI_MENU_COLUMNS:
	case TUI_MENU_NONE:
		break;
	}
	return TUI_REDRAW;
}

unsigned int tui_state__menu_key(struct tui_state *st, int key)
{
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return pick(st);
	case ' ':
		return st->menu == TUI_MENU_COLUMNS ? pick(st) : 0;
	case KEY_ESC:
	case 'q':
	case KEY_F(10):
	case KEY_LEFT:
		close_menu(st);
		return TUI_REDRAW;
	default:
		return tui_list__key(&st->menu_list, key) ? TUI_REDRAW : 0;
	}
}

void tui_state__menu_title(const struct tui_state *st, char *buf, size_t size)
{
	switch (st->menu) {
	case TUI_MENU_SORT:
		snprintf(buf, size, "Sort by");
		return;
	case TUI_MENU_USER:
		snprintf(buf, size, "Show the tasks of");
		return;
	case TUI_MENU_SIGNAL:
		snprintf(buf, size, "Send a signal to PID %d (%s)", st->kill_pid, st->kill_comm);
		return;
	case TUI_MENU_COLUMNS:
		snprintf(buf, size, "Columns (Enter or space turns one on or off)");
		return;
	case TUI_MENU_NONE:
		break;
	}
	buf[0] = '\0';
}

static bool sort_item(const struct tui_state *st, size_t i, char *buf, size_t size)
{
	struct sort_key keys[TUI_MAX_SORT_KEYS];
	size_t nr = sort_choices(st, keys);

	if (i >= nr) {
		buf[0] = '\0';
		return false;
	}
	snprintf(buf, size, "%s", tui_state__sort_text(st, &keys[i]));
	return tui_sort_index(&st->sort, &keys[i], 1) == 0;
}

bool tui_state__menu_item(const struct tui_state *st, size_t i, char *buf, size_t size)
{
	buf[0] = '\0';
	switch (st->menu) {
	case TUI_MENU_SORT:
		return sort_item(st, i, buf, size);
	case TUI_MENU_USER:
		if (!i) {
			snprintf(buf, size, "all users");
			return !st->user_filter;
		}
		if (i > st->nr_users)
			return false;
		snprintf(buf, size, "%s", st->users[i - 1].name);
		return st->user_filter && st->users[i - 1].uid == st->uid;
	case TUI_MENU_SIGNAL:
		if (i < NR_SIGNALS)
			snprintf(buf, size, "%-8s %2d  %s", signals[i].name, signals[i].sig,
				 signals[i].what);
		return false;
	case TUI_MENU_COLUMNS:
		if (i < TUI_OPT_NR)
			snprintf(buf, size, "[%c] %s", st->hidden & TUI_HIDE(i) ? ' ' : 'x',
				 tui_optional_desc(i));
		return false;
	case TUI_MENU_NONE:
		break;
	}
	return false;
}

/* ---- F9 ---- */

unsigned int tui_state__open_kill(struct tui_state *st)
{
	if (!st->live) {
		tui_state__msg(st, true, "a recording: there is no process to signal");
		return TUI_REDRAW;
	}
	if (st->by == BY_CGROUP) {
		tui_state__msg(st, true, "F9 signals a process: Enter shows the cgroup's processes");
		return TUI_REDRAW;
	}
	if (!st->list.nr)
		return 0;
	if (st->sel_exited) {
		tui_state__msg(st, true, "PID %d has exited", st->sel_pid);
		return TUI_REDRAW;
	}
	if (st->sel_pid == st->self_pid) {
		tui_state__msg(st, true, "PID %d is tdtop itself: q quits", st->sel_pid);
		return TUI_REDRAW;
	}
	/* init ignores what it has no handler for, but may act on the rest */
	if (st->sel_pid <= 1) {
		tui_state__msg(st, true, "PID %d is init: tdtop does not signal it", st->sel_pid);
		return TUI_REDRAW;
	}
	st->kill_pid = st->sel_pid;
	st->kill_tid = st->sel_kind == ROW_THREAD ? st->sel_tid : st->sel_pid;
	snprintf(st->kill_comm, sizeof(st->kill_comm), "%s", st->sel_comm);
	st->kill_sig = SIGTERM;
	return tui_state__open_menu(st, TUI_MENU_SIGNAL);
}

void tui_state__confirm_text(const struct tui_state *st, char *buf, size_t size)
{
	if (st->kill_tid != st->kill_pid)
		snprintf(buf, size, "Send %s to process %d (thread %d '%s')? y sends, any other "
			 "key cancels", tui_signal_name(st->kill_sig), st->kill_pid, st->kill_tid,
			 st->kill_comm);
	else
		snprintf(buf, size, "Send %s to PID %d '%s'? y sends, any other key cancels",
			 tui_signal_name(st->kill_sig), st->kill_pid, st->kill_comm);
}

unsigned int tui_state__confirm_key(struct tui_state *st, int key)
{
	st->mode = TUI_MODE_MAIN;
	if (key == 'y' || key == 'Y')
		return TUI_KILL | TUI_REDRAW;
	tui_state__msg(st, false, "%s not sent", tui_signal_name(st->kill_sig));
	return TUI_REDRAW;
}
