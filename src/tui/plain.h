/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Plain mode, for terminals that cannot place the cursor (TERM=dumb,
 * Emacs' shell, a serial console): the same screen drawn into curses'
 * memory only and printed as lines of text, and keys taken from the
 * lines typed.
 */
#ifndef __TDTOP_TUI_PLAIN_H
#define __TDTOP_TUI_PLAIN_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Whether the terminal on stdout lacks cursor addressing (or its type
 * is unknown); *why* says which, for the note plain mode starts with.
 */
bool tui_plain_needed(char *why, size_t size);

/* A screen of the terminal's size that draws nowhere; NULL on failure. */
SCREEN *tui_plain_open(void);
void tui_plain_close(SCREEN *scr);

/* The screen's size follows the terminal's (there is no SIGWINCH redraw). */
void tui_plain_resize(void);

/* The screen as text lines, without trailing blanks or blank lines, then a blank line. */
void tui_plain_print(FILE *f);

/* The bytes typed, kept until they are taken as keys. */
struct tui_plain_input {
	unsigned char buf[256];
	size_t len, pos;
	bool in_line;		/* bytes since the last newline */
};

/* Read what is there on *fd*; -1 at the end of input (Ctrl-D) or on an error. */
int tui_plain_read(struct tui_plain_input *in, int fd);

/*
 * The next key, or ERR when none is left. A line's newline is Enter only
 * when the line was empty or *prompt* (a prompt takes the line's text);
 * else it just ends the keys typed. ESC [ A..D are the arrows.
 */
int tui_plain_key(struct tui_plain_input *in, bool prompt);

#endif /* __TDTOP_TUI_PLAIN_H */
