/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tdtop report: a recording replayed through the same rows, TopDown math
 * and outputs as live mode, or browsed in the interactive view; and
 * --diff, two recordings compared per command name or cgroup.
 */
#ifndef __TDTOP_REPORT_H
#define __TDTOP_REPORT_H

#include <stddef.h>
#include "options.h"

/* Returns an exit code; a message in *err* when it is not EXIT_OK. */
int report_run(const struct options *o, bool interactive, char *err, size_t errlen);

#endif /* __TDTOP_REPORT_H */
