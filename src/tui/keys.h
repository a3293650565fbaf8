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
#include "rows/aggregate.h"
#include "tui/view.h"

#define TUI_INPUT_LEN 64
#define TUI_MSG_LEN 160
#define TUI_MAX_PIDS 1024
#define TUI_MAX_SORT_KEYS (3 + 16 + MAX_EVENTS)
#define TUI_CG_NAME_LEN 96	/* a cgroup's display name in the status line */
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
};

enum tui_mode {
	TUI_MODE_MAIN,
	TUI_MODE_HELP,
	TUI_MODE_PROMPT,
	TUI_MODE_DETAIL,
};

enum tui_prompt {
	TUI_PROMPT_NONE,
	TUI_PROMPT_DELAY,
	TUI_PROMPT_PID,
	TUI_PROMPT_COMM,
	TUI_PROMPT_PATH,	/* the cgroup view's name filter */
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
	int level;		/* 1 or 2 */
	bool level2_available;
	const char *level2_why;	/* borrowed from tui_opts */
	bool topdown;
	int nr_events;
	bool live;
	int pids[TUI_MAX_PIDS];
	size_t nr_pids;
	char comm[TASK_COMM_LEN]; /* name filter, "" for none */
	size_t top;
	double delay_s;
	bool paused;

	/* the main table; the selection follows its task once the user moved it */
	struct tui_list list;
	bool follow;
	bool moved;		/* the cursor moved since the last tui_state__rows() */
	int sel_pid;
	int sel_tid;
	__u64 sel_cg;		/* cgroup rows */
	char sel_cg_name[TUI_CG_NAME_LEN];

	/* the detail view of one process */
	int detail_pid;
	struct tui_list detail;
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

/* "cpu", "pid", "comm", a TopDown field or the event's name ("?" if out of range). */
const char *tui_sort_name(const struct sort_key *k, const char *const *names, int nr_names);

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
 * Prompt validation; 0, or -1 with a message in *err* (the old value is kept).
 * Delays are seconds from TUI_MIN_DELAY to TUI_MAX_DELAY. PIDs are a list
 * separated by commas or spaces; an empty string means none. A name filter
 * is at most TASK_COMM_LEN - 1 printable characters.
 */
int tui_parse_delay(const char *s, double *out, char *err, size_t errlen);
int tui_parse_pids(const char *s, int *pids, size_t max, size_t *nr, char *err, size_t errlen);
int tui_parse_comm(const char *s, char *out, size_t size, char *err, size_t errlen);

#endif /* __TDTOP_TUI_KEYS_H */
