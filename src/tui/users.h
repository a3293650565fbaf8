/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The owners of the processes on screen: the USER column, the u menu and
 * its filter. Cached by PID, looked up again after a while (setuid, PID
 * reuse).
 */
#ifndef __TDTOP_TUI_USERS_H
#define __TDTOP_TUI_USERS_H

#include <stdbool.h>
#include <sys/types.h>
#include "rows/model.h"

struct tui_users;

/* NULL when out of memory. */
struct tui_users *tui_users__new(void);
void tui_users__free(struct tui_users *u);

/* The owner of process *pid* at interval *now*; false once /proc/PID is gone. */
bool tui_users__uid(struct tui_users *u, int pid, long now, uid_t *uid);

/* The user name of *uid*, or the number when it has none. */
const char *tui_users__name(struct tui_users *u, uid_t uid);

/* The owner's name of process *pid*; "?" once /proc/PID is gone. */
const char *tui_users__of(struct tui_users *u, int pid, long now);

/*
 * The owner of a task or row of process *pid*: live (*live*), what /proc
 * says now; replayed, the *user* and *uid* recorded with it, never what
 * this machine says of the PID. False when it is not known.
 */
bool tui_users__owner(struct tui_users *u, int pid, const char *user, __u32 uid, bool live,
		      long now, uid_t *out);

/* USER of row *r*: as tui_users__owner() says, "-" when a recording has none. */
const char *tui_users__row(struct tui_users *u, const struct row *r, bool live, long now);

/* A PID is reused after its process exits: forget what it was. */
void tui_users__forget(struct tui_users *u, int pid);

#endif /* __TDTOP_TUI_USERS_H */
