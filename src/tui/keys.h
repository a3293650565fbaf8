/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interactive view's state and what each key does to it, without a
 * terminal: tui_state__key() changes the state and says what the caller
 * must redo. Key codes are curses' (KEY_UP, KEY_RESIZE, ...) or plain characters.
 */
#ifndef __TDTOP_TUI_KEYS_H
#define __TDTOP_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "rows/aggregate.h"
#include "tui/view.h"

#define TUI_INPUT_LEN 64
#define TUI_MSG_LEN 160
#define TUI_MAX_PIDS 1024
#define TUI_MAX_SORT_KEYS (3 + 16 + MAX_EVENTS)
#define TUI_CG_NAME_LEN 96	/* a cgroup's display name in the status line */
#define TUI_MAX_USERS 64	/* owners the u menu offers */
#define TUI_USER_NAME_LEN 33
/* delays accepted by the d prompt, as by -d */
#define TUI_MIN_DELAY 0.01
#define TUI_MAX_DELAY 86400.0

/* Bits of tui_state__key()'s result */
enum {
	TUI_REDRAW = 1 << 0,	 /* the screen changed */
	TUI_REBUILD = 1 << 1,	 /* the view changed: rebuild the rows of the shown sample */
	TUI_QUIT = 1 << 2,
	TUI_RESCHEDULE = 1 << 3, /* delay or pause changed: recompute the next fetch */
	TUI_STEP = 1 << 4,	 /* fetch one interval now (paused recording) */
	TUI_DETAIL = 1 << 5,	 /* the detail view opened: build its rows */
	TUI_USERS = 1 << 6,	 /* the u menu opened: fill it, tui_state__set_users() */
	TUI_KILL = 1 << 7,	 /* confirmed: send st->kill_sig to st->kill_pid */
};

enum tui_mode {
	TUI_MODE_MAIN,
	TUI_MODE_HELP,
	TUI_MODE_PROMPT,
	TUI_MODE_DETAIL,
	TUI_MODE_MENU,		/* a list to pick from; st->menu says which */
	TUI_MODE_CONFIRM,	/* y sends the signal picked in the F9 menu */
};

enum tui_menu {
	TUI_MENU_NONE,
	TUI_MENU_SORT,		/* F6: the sort keys */
	TUI_MENU_USER,		/* u: the owners of the tasks, and all */
	TUI_MENU_SIGNAL,	/* F9: the signal for the selected process */
	TUI_MENU_COLUMNS,	/* F2: the optional columns, on and off */
};

/* An owner the u menu offers. */
struct tui_user {
	uid_t uid;
	char name[TUI_USER_NAME_LEN];
};

enum tui_prompt {
	TUI_PROMPT_NONE,
	TUI_PROMPT_DELAY,
	TUI_PROMPT_PID,
	TUI_PROMPT_COMM,
	TUI_PROMPT_PATH,	/* the cgroup view's name filter */
	TUI_PROMPT_SEARCH,	/* F3: jump to a matching row */
};

/* A scrolled list: the selected line and the first one on screen. */
struct tui_list {
	size_t nr;
	size_t cursor;
	size_t first;
	size_t page;		/* lines on screen, at least 1 */
};

struct tui_state {
	enum tui_mode mode;
	enum tui_mode back;	/* where help and prompts return to */
	enum tui_prompt prompt;
	char input[TUI_INPUT_LEN];
	size_t input_len;
	char msg[TUI_MSG_LEN];	/* shown on the status line until the next key */
	bool msg_error;

	/* what the table shows; base keeps the view's other fields (cgroup filter) */
	struct view base;
	enum group_by by;
	enum group_by task_by;	/* processes or threads: where c leaves the cgroup view to */
	bool cgroups_available;
	const char *cgroups_why; /* borrowed from tui_opts */
	char cg_filter[TUI_INPUT_LEN]; /* cgroup rows whose path contains this, "" for all */
	/* the processes of one cgroup, opened by Enter on its row; 0: none */
	__u64 cg_within;
	char cg_name[TUI_CG_NAME_LEN];
	struct sort_key sort;
	bool reverse;		/* the other way round (I) */
	bool tree;		/* F5: processes with their threads, cgroups as a tree */
	unsigned int hidden;	/* TUI_HIDE() bits of the columns turned off */
	int hscroll;		/* columns scrolled out to the left (Left, Right) */
	int hscroll_max;	/* set by the drawing: the last useful hscroll */
	int level;		/* 1 or 2 */
	bool level2_available;
	const char *level2_why;	/* borrowed from tui_opts */
	bool topdown;
	int nr_events;
	const char *const *names; /* the events', borrowed from tui_opts */
	bool live;
	int pids[TUI_MAX_PIDS];
	size_t nr_pids;
	char comm[TASK_COMM_LEN]; /* name filter, "" for none */
	bool user_filter;	/* only the tasks of *uid* */
	uid_t uid;
	char user_name[TUI_USER_NAME_LEN];
	struct tui_user users[TUI_MAX_USERS]; /* the u menu's entries after "all users" */
	size_t nr_users;
	size_t top;
	double delay_s;
	bool paused;

	/* the main table; the selection follows its task once the user moved it */
	struct tui_list list;
	bool follow;
	bool moved;		/* the cursor moved since the last tui_state__rows() */
	int sel_pid;
	int sel_tid;
	enum row_kind sel_kind;
	char sel_comm[TASK_COMM_LEN];
	bool sel_exited;
	__u64 sel_cg;		/* cgroup rows */
	char sel_cg_name[TUI_CG_NAME_LEN];

	/* F3: the text and a jump for the next tui_state__rows() */
	char search[TUI_INPUT_LEN];
	bool search_pending;
	bool search_next;	/* from the row after the cursor (F3 again) */
	bool search_failed;

	enum tui_menu menu;
	struct tui_list menu_list;

	/* F9: what the confirmation is about */
	int self_pid;		/* tdtop: never signalled */
	int kill_pid;
	int kill_tid;		/* the row's task, for the name check */
	char kill_comm[TASK_COMM_LEN];
	int kill_sig;

	/* the detail view of one process */
	int detail_pid;
	struct tui_list detail;

	/* the help, scrolled by the drawing's page: the cursor is its first line */
	struct tui_list help;
};

/*
 * Start from the command line's choices. -1 with a message in *err* when
 * they cannot be shown (too many PIDs, a level that does not exist, cgroup
 * rows without the cgroup tree).
 */
int tui_state__init(struct tui_state *st, const struct tui_opts *o, bool live, char *err,
		    size_t errlen);

/* Apply one key; returns TUI_* bits. */
unsigned int tui_state__key(struct tui_state *st, int key);

/*
 * The struct view for the state: the initial view with the state's
 * grouping, filters, sort and top; v->pids points into *st*. Inside a
 * cgroup opened from its row, v->within is that cgroup. The cgroup view's
 * path filter is not part of it: see tui_cgroup_rows().
 */
void tui_state__view(const struct tui_state *st, struct view *v);

/*
 * The sort keys < and > cycle through, in column order: pid, comm, cpu,
 * then the TopDown fields of the current level and ipc, or the events.
 * Cgroup rows have no pid: their cycle starts at comm (the cgroup's name).
 * Returns how many were written (at most *max*).
 */
int tui_state__sort_keys(const struct tui_state *st, struct sort_key *keys, int max);


/* What the status line and the sort menu call key *k*: cgroup rows sort by "name". */
const char *tui_state__sort_text(const struct tui_state *st, const struct sort_key *k);

/*
 * New rows are shown (after an interval or a rebuild), or the cursor moved:
 * keep the selected task (or cgroup) under the cursor if the user picked
 * one, else keep the cursor line; then clamp the list to *nr* rows.
 */
void tui_state__rows(struct tui_state *st, const struct row *rows, size_t nr);

/* The screen has room for *page* rows (at least 1 is assumed). */
void tui_list__set_page(struct tui_list *l, size_t page);

/* Clamp cursor and first line to the list's length and page. */
void tui_list__clamp(struct tui_list *l);

/*
 * The owners the u menu offers after "all users", in the order given;
 * the cursor goes to the current filter. At most TUI_MAX_USERS are kept.
 */
void tui_state__set_users(struct tui_state *st, const struct tui_user *users, size_t nr);

/* The open menu for the drawing: its title, and entry *i* (true: the current choice). */
void tui_state__menu_title(const struct tui_state *st, char *buf, size_t size);
bool tui_state__menu_item(const struct tui_state *st, size_t i, char *buf, size_t size);

/* The status line's message until the next key. */
void tui_state__msg(struct tui_state *st, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "SIGTERM" for the signals the F9 menu offers, "?" for others. */
const char *tui_signal_name(int sig);

/* The F9 question: which signal goes to which process. */
void tui_state__confirm_text(const struct tui_state *st, char *buf, size_t size);

/* What an empty table says instead of rows: why there are none. */
const char *tui_state__empty_text(const struct tui_state *st);

/* Whether a row's name (a cgroup row's path) contains *text*, ignoring case. */
bool tui_row_matches(const struct row *r, const char *text);

/*
 * Prompt validation; 0, or -1 with a message in *err* (the old value is kept).
 * Delays are seconds from TUI_MIN_DELAY to TUI_MAX_DELAY. PIDs are a list
 * separated by commas or spaces; an empty string means none. A name filter
 * is at most TASK_COMM_LEN - 1 printable characters.
 */
int tui_parse_delay(const char *s, double *out, char *err, size_t errlen);
int tui_parse_pids(const char *s, int *pids, size_t max, size_t *nr, char *err, size_t errlen);
int tui_parse_comm(const char *s, char *out, size_t size, char *err, size_t errlen);

#endif /* __TDTOP_TUI_KEYS_H */
