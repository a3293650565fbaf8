/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interactive view's settings file, htop's way: sort key and order,
 * the optional columns, TopDown level, delay and tree, saved on quit in
 * $XDG_CONFIG_HOME/tdtop/tdtoprc (~/.config/tdtop/tdtoprc) and restored
 * at start; the command line overrides what it names.
 */
#ifndef __TDTOP_TUI_RC_H
#define __TDTOP_TUI_RC_H

#include <stdbool.h>
#include <stddef.h>
#include "tui/keys.h"
#include "tui/view.h"

/* Settings a file holds, and (tui_opts.cmdline) those the command line chose. */
enum {
	TUI_RC_SORT = 1 << 0,
	TUI_RC_REVERSE = 1 << 1,
	TUI_RC_COLUMNS = 1 << 2,
	TUI_RC_LEVEL = 1 << 3,
	TUI_RC_DELAY = 1 << 4,
	TUI_RC_TREE = 1 << 5,
};

#define TUI_RC_MAX_SIZE 16384	/* a larger file is not tdtop's */
#define TUI_RC_SORT_LEN 64
#define TUI_RC_TEXT_LEN 512	/* what tui_rc__format() writes fits */

struct tui_rc {
	unsigned int has;	/* TUI_RC_* bits: the settings present */
	char sort[TUI_RC_SORT_LEN]; /* a --sort name */
	bool reverse;
	unsigned int hidden;	/* TUI_HIDE() bits: the file lists the columns shown */
	int level;
	double delay_s;
	bool tree;
};

/*
 * Parse the file's *len* bytes: lines KEY=VALUE, blank lines and lines
 * starting with '#'. Keys a newer tdtop may write are skipped; a line
 * that is not KEY=VALUE, a value out of range, an unknown column name, a
 * NUL byte or more than TUI_RC_MAX_SIZE bytes make the file damaged:
 * -1 with "line N: why" in *err*, and *rc* holds nothing.
 */
int tui_rc__parse(struct tui_rc *rc, const char *text, size_t len, char *err, size_t errlen);

/* The file's text for *rc* into *buf*; its length (truncated past *size*, as snprintf). */
int tui_rc__format(const struct tui_rc *rc, char *buf, size_t size);

/*
 * The file's path: $XDG_CONFIG_HOME/tdtop/tdtoprc when that is an
 * absolute path, else under $HOME/.config (or the user's home in the
 * password database). 0, or -1 when there is no home.
 */
int tui_rc__path(char *buf, size_t size);

/*
 * Read *path* (a regular file) into *rc*: 0, 1 when there is none (rc
 * holds nothing), -1 when it is damaged or unreadable, with a message in
 * *err* that names the file.
 */
int tui_rc__load(struct tui_rc *rc, const char *path, char *err, size_t errlen);

/*
 * Write *rc* to *path* at once or not at all: a new file in the same
 * directory, renamed over the old one. The directory is created (0700)
 * when missing and must not be a symbolic link; a symbolic link at
 * *path* is replaced, never followed. 0, or -1 with a message.
 */
int tui_rc__save(const struct tui_rc *rc, const char *path, char *err, size_t errlen);

/*
 * Settings of *rc* into *o*, except those o->cmdline names. A sort key
 * that names no column of this run is left out, as is a level this run
 * cannot show.
 */
void tui_rc__apply(const struct tui_rc *rc, struct tui_opts *o);

/* What the state shows, as the file holds it (every setting present). */
void tui_rc__from_state(struct tui_rc *rc, const struct tui_state *st);

/* The TUI_RC_* bits of the settings in which *a* and *b* differ (presence included). */
unsigned int tui_rc__diff(const struct tui_rc *a, const struct tui_rc *b);

/* Copy the settings *bits* names from *src* into *dst*. */
void tui_rc__take(struct tui_rc *dst, const struct tui_rc *src, unsigned int bits);

/*
 * The saved level for a start without -l, so that the counters for it
 * are opened: 1 or 2, or 0 when none is saved or the file is damaged
 * (the interactive view says why when it starts).
 */
int tui_rc__saved_level(void);

#endif /* __TDTOP_TUI_RC_H */
