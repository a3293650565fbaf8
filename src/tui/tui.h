/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The interactive top-like view (ncurses). It pulls intervals through two
 * callbacks, so the same screen shows live data and a replayed recording.
 */
#ifndef __TDTOP_TUI_H
#define __TDTOP_TUI_H

#include <stddef.h>
#include "tui/view.h"

/* Room for tui_run()'s note: a message and a path. */
#define TUI_NOTE_LEN 4352

/*
 * Run the interactive view until q, a signal (SIGINT, SIGTERM, SIGHUP),
 * o->iterations intervals or an error. stdin and stdout must be a
 * terminal; o->view.by may be cgroups only when o->cgroups_available.
 * While the screen is up, stderr goes to a temporary file whose content
 * is written to stderr after the terminal is restored.
 *
 * Pause (space) freezes the screen. A live source is still fetched every
 * delay, so the kernel's task table keeps being drained and exited tasks
 * retired; the newest interval shows as soon as the user resumes. A
 * recording is not read while paused (n steps one interval).
 *
 * 0, or -errno (or -1) with a one-line message in *err*. Either way
 * *note* says why the settings file was not read or not saved, or is "":
 * the caller tells the user, the screen being closed by then.
 */
int tui_run(const struct tui_source *src, const struct tui_opts *o, char *err, size_t errlen,
	    char *note, size_t notelen);

#endif /* __TDTOP_TUI_H */
