/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Label sets of the exposition formats: escaping, and each kind of series' labels. */
#ifndef __TDTOP_LABELS_H
#define __TDTOP_LABELS_H

#include <stddef.h>

/*
 * Escape *s* as a label value: '\\', '"' and newline backslashed, and each
 * ill-formed UTF-8 subpart replaced by U+FFFD (Prometheus rejects a scrape
 * holding invalid UTF-8). Writes at most *size* - 1 bytes plus a NUL,
 * never cutting an escape, and returns the length the whole result needs.
 */
size_t prom_escape_label(char *buf, size_t size, const char *s);

/*
 * Label pairs without braces, malloc'ed; NULL on ENOMEM. A cgroup gets its
 * path and what the path tells (systemd unit, container id, pod uid); a
 * process its PID and comm (TASK_COMM_LEN bytes, not always terminated),
 * or only the comm for a pid < 0 (a series of every process of that name);
 * an event its name.
 */
char *prom_cgroup_labels(const char *path);
char *prom_process_labels(int pid, const char *comm);
char *prom_event_label(const char *name);

#endif /* __TDTOP_LABELS_H */
