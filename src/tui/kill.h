/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* F9's signal to the process the confirmation named, and to no other. */
#ifndef __TDTOP_TUI_KILL_H
#define __TDTOP_TUI_KILL_H

#include <stddef.h>

/*
 * Send *sig* to process *pid* if its task *tid* (the row's: pid itself
 * for a process row) is still called *comm*, as on screen. The process is
 * pinned (a pidfd) before the name is read, so a PID reused meanwhile
 * gets nothing. PID 1 and tdtop itself are refused. 0, or -errno with a
 * message in *err*.
 */
int tui_kill(int pid, int tid, const char *comm, int sig, char *err, size_t errlen);

#endif /* __TDTOP_TUI_KILL_H */
