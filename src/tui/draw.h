/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Layout of the interactive view without a terminal: which columns fit a
 * width, each cell's text, the TopDown stacked bars and the colour a value
 * earns (perf stat's thresholds), lines of whole fields.
 */
#ifndef __TDTOP_TUI_DRAW_H
#define __TDTOP_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/aggregate.h"
#include "rows/model.h"

enum tui_col_id {
	TUI_COL_PID,
	TUI_COL_TID,
	TUI_COL_USER,
	TUI_COL_COMM,		/* idx 1: thread rows indented below their process */
	TUI_COL_CPU,
	TUI_COL_TD,		/* idx: enum tui_td */
	TUI_COL_IPC,
	TUI_COL_EVENT,		/* idx: event; scaled count over the interval */
	TUI_COL_RATE,		/* idx: event; scaled count per second */
	TUI_COL_BAR,		/* stacked TopDown level-1 bar */
	TUI_COL_CGROUP,		/* idx: the depth drawn without indent; -1: a flat list,
				 * the full path */
	TUI_COL_TASKS,		/* tasks of a cgroup row */
};

/* TopDown nodes in column order: level 1, then level 2 by parent. */
enum tui_td {
	TUI_TD_RETIRING,
	TUI_TD_BAD_SPEC,
	TUI_TD_FRONTEND,
	TUI_TD_BACKEND,
	TUI_TD_HEAVY_OPS,
	TUI_TD_LIGHT_OPS,
	TUI_TD_BR_MISPREDICT,
	TUI_TD_MACHINE_CLEARS,
	TUI_TD_FETCH_LAT,
	TUI_TD_FETCH_BW,
	TUI_TD_MEM_BOUND,
	TUI_TD_CORE_BOUND,
	TUI_TD_NR,
};

/* The letters of the stacked bars, also used without colour. */
#define TUI_BAR_RETIRING 'R'
#define TUI_BAR_BAD_SPEC 'B'
#define TUI_BAR_FRONTEND 'F'
#define TUI_BAR_BACKEND 'K'

#define TUI_TITLE_LEN 16
#define TUI_MAX_COLS (6 + TUI_TD_NR + 2 + 2 * MAX_EVENTS)
/* the CGROUP column gives up width, down to its minimum, before any other column leaves */
#define TUI_CGROUP_MIN 20
#define TUI_CGROUP_MAX 40
#define TUI_CGROUP_INDENT 2	/* cells per level below the shallowest row */
#define TUI_USER_WIDTH 8
#define TUI_BAR_MIN 8		/* a row bar narrower than this is left out */
#define TUI_BAR_MAX 20

struct tui_col {
	enum tui_col_id id;
	int idx;
	int width;
	bool left;		/* left-aligned (text) */
	char title[TUI_TITLE_LEN];
};

/* Columns the user may turn off (F2); PID, TID, COMM, CGROUP and the TopDown nodes stay. */
enum tui_optional {
	TUI_OPT_USER,
	TUI_OPT_CPU,
	TUI_OPT_IPC,
	TUI_OPT_BAR,
	TUI_OPT_COUNTS,		/* event counts */
	TUI_OPT_RATES,		/* event rates */
	TUI_OPT_TASKS,
	TUI_OPT_NR,
};

#define TUI_HIDE(opt) (1u << (opt))
#define TUI_HIDE_ALL ((1u << TUI_OPT_NR) - 1)

struct tui_layout {
	bool topdown;
	int level;		/* 1 or 2 */
	bool threads;		/* a TID column */
	bool user;		/* a USER column */
	bool tree;		/* processes with their threads: TID, and thread rows indented */
	bool cgroups;		/* cgroup rows: CGROUP and TASKS instead of PID to COMM */
	int cgroup_indent;	/* cgroups: the depth drawn without indent; -1: a flat list */
	unsigned int hidden;	/* TUI_HIDE() bits */
	int hscroll;		/* 0: columns leave by priority; N: all of them, the first
				 * N after the fixed ones scrolled out to the left */
	int nr_events;
	const char *const *names;
};

/* The rc file's and the F2 menu's name of an optional column ("user"), NULL out of range. */
const char *tui_optional_name(enum tui_optional opt);
/* What it shows, for the F2 menu. */
const char *tui_optional_desc(enum tui_optional opt);

/* Highlight a value earns. */
enum tui_hl {
	TUI_HL_NONE,
	TUI_HL_GOOD,		/* green */
	TUI_HL_BAD,		/* red */
};

/*
 * The columns that fit in *width* screen cells, in display order, each
 * followed by one space except the last; a column is shown whole or not
 * at all. When they do not all fit, columns leave in this order: the row
 * bar, the rates (from the right), the CGROUP column's width above
 * TUI_CGROUP_MIN, the level-1 titles' long form ("Retiring" becomes
 * "Retir"), USER, IPC, the level-2 nodes by parent (Retiring's first,
 * Backend's last), TASKS, the event counts (from the right), CPU%, the
 * four level-1 nodes together, TID. PID and COMM (or CGROUP) always
 * stay. Columns are taken in the reverse order, each one if it still
 * fits: a narrow column may stay where a wider, more important one did
 * not fit. With l->hscroll, none leaves by priority: the fixed ones,
 * then the others from the hscroll-th on as far as they fit. Columns in
 * l->hidden are never shown. Returns the number written.
 */
int tui_columns(const struct tui_layout *l, int width, struct tui_col *cols);

/*
 * The largest useful l->hscroll at *width*: from it on, the last column
 * is on screen. 0 when every column fits.
 */
int tui_columns_scroll_max(const struct tui_layout *l, int width);

/* Total width of *n* columns with their separators. */
int tui_columns_width(const struct tui_col *cols, int n);

/* The sort key a column shows; false for USER, TASKS and the bar. */
bool tui_col__sort_key(const struct tui_col *c, struct sort_key *key);

/* Title and --sort name of a TopDown node; NULL out of range. */
const char *tui_td_title(enum tui_td td);
const char *tui_td_long_name(enum tui_td td);

/* A TopDown node's fraction of *r* (NAN when not valid or not computed). */
double tui_td_value(const struct td_result *r, enum tui_td td);

/*
 * Colour of a TopDown fraction, as perf stat's: Frontend Bound above 20%,
 * Bad Speculation above 10% and Backend Bound above 20% red, Retiring
 * above 70% green. Level 2 nodes and NaN get none.
 */
enum tui_hl tui_td_hl(enum tui_td td, double frac);

/*
 * Text of one cell, at most c->width characters (longer text is cut),
 * not padded. *user* is the USER column's text.
 */
void tui_cell(const struct tui_col *c, const struct interval *iv, const struct row *r,
	      const char *user, char *buf, size_t size);

/*
 * A stacked level-1 bar of *width* cells into *buf* (width + 1 bytes):
 * R retiring, B bad speculation, F frontend, K backend, in that order,
 * each given its share of cells by largest remainder so that the cells
 * add up; what the fractions leave (they sum to less than 1, e.g. AMD's
 * SMT contention) is blank. A result that is not valid gives blanks.
 */
void tui_bar(char *buf, int width, const struct td_result *td);

/* The TopDown node a bar letter stands for, -1 for another character. */
int tui_bar_td(char c);

/*
 * How many bytes of *s* go on a line of *width* cells: all of it when it
 * fits, else up to the last space that fits (a word longer than the line
 * is cut at the width).
 */
size_t tui_wrap(const char *s, int width);

/* "12.3" for a fraction 0.123, "-" for NaN. */
const char *tui_pct(char *buf, size_t size, double frac);

/* USER text: the name cut to *width* with a trailing '+' when longer. */
void tui_user_fit(char *buf, size_t size, const char *name, int width);

#define TUI_LINE_LEN 512

/* A header line of whole fields: one that does not fit is left out, never cut. */
struct tui_line {
	char text[TUI_LINE_LEN];
	int len;
	int width;
};

void tui_line__init(struct tui_line *l, int width);

/*
 * Append *sep* (unless the line is empty) and the formatted field when
 * both fit the width. Returns the column the field starts at, or -1 when
 * it was left out (the line is unchanged; a shorter field may still fit).
 */
int tui_line__add(struct tui_line *l, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Room for the bottom key bar: not on tiny terminals. */
bool tui_keybar_shown(int lines, int cols);

#endif /* __TDTOP_TUI_DRAW_H */
