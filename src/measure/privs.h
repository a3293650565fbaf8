/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Privileges: checking for what loading needs, and giving up the rest
 * once the BPF program is loaded and the counters are open.
 */
#ifndef __TDTOP_PRIVS_H
#define __TDTOP_PRIVS_H

#include <stdbool.h>

/* Root, or CAP_BPF + CAP_PERFMON (CAP_SYS_ADMIN covers both). */
bool privs_enough(void);

/*
 * Keep only CAP_PERFMON (to reopen the counters of a CPU that comes back
 * online) and CAP_SYS_ADMIN (to sample the kernel's BPF statistics), where
 * held; drop every other capability and forbid regaining any. Returns 0 or
 * -errno.
 */
int privs_drop(void);

#endif /* __TDTOP_PRIVS_H */
