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
#include "tui/plain.h"
#include "tui/users.h"

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
	bool plain;		/* no cursor addressing: each screen printed as text */
	char plain_why[96];
	struct tui_plain_input input;	/* plain mode: the bytes typed */
	struct tui_users *users;
	char *err;
	size_t errlen;
};

/* The header's TopDown bar, and the detail view's, at most this wide. */
#define TUI_HEADER_BAR_MAX 40

/* Draw what t->st.mode shows and refresh the terminal (not in plain mode). */
void tui__draw(struct tui *t);

/* heading.c: the title line, the lines below it, and the status line; each returns the next line. */
int tui__draw_title(struct tui *t, int y);
int tui__draw_header(struct tui *t, int y);
/* *keybar*: the key bar is shown, the status line needs no "h help". */
void tui__draw_status(struct tui *t, int y, bool keybar);

#endif /* __TDTOP_TUI_SCREEN_H */
