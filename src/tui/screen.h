/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the interactive view's loop (tui.c) and its curses drawing
 * (screen.c) share: the run-time state and the drawing entry points.
 */
#ifndef __TDTOP_TUI_SCREEN_H
#define __TDTOP_TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/model.h"
#include "rows/sample.h"
#include "tui/view.h"
#include "tui/keys.h"

/* Process owners for the USER column, cached by PID. */
struct tui_users;

/* One run of tui_run(): the source, the key state and what is on screen. */
struct tui {
	bool hangup;			/* the terminal went away */
	const struct tui_source *src;
	const struct tui_opts *o;
	struct tui_state st;
	struct sample smp[2];
	int shown;		/* sample on screen, -1 before the first */
	bool fresh;		/* the other sample is newer (fetched while paused) */
	struct interval iv;
	bool have_iv;
	struct interval det_proc, det_threads;
	bool have_det;
	bool eof;
	long fetched;
	double self_cpu, self_ns;
	double next_fetch;	/* CLOCK_MONOTONIC seconds */
	double last_fetch;
	bool color;
	struct tui_users *users;
	char *err;
	size_t errlen;
};

/* NULL when out of memory. */
struct tui_users *tui_users__new(void);
void tui_users__free(struct tui_users *u);

/* Define the colour pairs; only after start_color(). */
void tui_screen_colors(void);

/* Draw what t->st.mode shows and refresh the terminal. */
void tui__draw(struct tui *t);

#endif /* __TDTOP_TUI_SCREEN_H */
