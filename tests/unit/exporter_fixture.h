/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Handmade intervals and rendered text for the exporter's store and renderer tests. */
#ifndef __TDTOP_EXPORTER_FIXTURE_H
#define __TDTOP_EXPORTER_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include "exporter/store.h"

#define NGINX "/system.slice/nginx.service"
#define CID "3f2a1b9c8d7e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90"
#define POD "/kubepods.slice/kubepods-burstable.slice/" \
	"kubepods-burstable-pod1234abcd_5678_90ef_1234_567890abcdef.slice"
#define CTR POD "/cri-containerd-" CID ".scope"

/* The events of every handmade interval: cycles, page-faults, topdown-retiring. */
extern const char *const ev_names[];

/* A valid level-1 breakdown of *slots* issue slots. */
void td_level1(struct td_result *td, double slots, double ret, double bad, double fe,
	       double be);
/* Rows without TopDown: a cgroup with cycles and page faults, a process with faults. */
struct row cg_row(const char *path, __u64 cpu_ns, __u64 cycles, __u64 faults);
struct row proc_row(int pid, const char *comm, __u64 cpu_ns, bool exited);
/* A 0.5 s interval at level 1 over *rows*, counting ev_names. */
void iv_init(struct interval *iv, struct row *rows, size_t n);
/* Options for ev_names: cycles, one generic event, one TopDown input. */
void opts_init(struct prom_opts *o, enum group_by by);
/* A store with opts_init()'s options and this --top and TTL; NULL, a failed check. */
struct prom_store *store_new(enum group_by by, size_t top, double ttl_s);
/* An iv_init() interval over *rows* added to *s*: prom_store__add()'s result. */
int add_rows(struct prom_store *s, struct row *rows, size_t n);
/* The text format (or OpenMetrics) rendering of *s*, malloc'ed, or NULL. */
char *render(const struct prom_store *s, bool om);
/* The value of the sample line starting with *prefix* ("name{labels} "), NAN if absent. */
double value_of(const char *text, const char *prefix);

#endif /* __TDTOP_EXPORTER_FIXTURE_H */
