/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The owner of each task of a live sample, for recordings: the uid of
 * /proc/TID (as ps and the interactive view read it) and the user's name,
 * looked up once per task and kept while the task keeps running.
 */
#ifndef __TDTOP_OWNERS_H
#define __TDTOP_OWNERS_H

#include "rows/sample.h"

struct owners;

/* Tasks are looked up under *proc* ("/proc"). NULL on ENOMEM. */
struct owners *owners__new(const char *proc);

/*
 * Fill uid and user of every task of *s*. A task gone before it could be
 * looked up keeps user "" (unknown). 0, or -ENOMEM (the tasks not looked
 * up yet stay unknown).
 */
int owners__fill(struct owners *o, struct sample *s);

/* Accepts NULL. */
void owners__free(struct owners *o);

#endif /* __TDTOP_OWNERS_H */
