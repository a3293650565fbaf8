/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The rows as the interactive view orders them after the build: the other
 * way round, filtered by path or owner, as a tree, cut to --top. The
 * functions free the cgroup paths of the rows they leave out.
 */
#ifndef __TDTOP_TUI_ORDER_H
#define __TDTOP_TUI_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include "rows/aggregate.h"
#include "rows/model.h"

/*
 * Rows sorted by *key* put the other way round; those without a value for
 * it (NaN) stay last, as in either order.
 */
void tui_rows_reverse(struct row *rows, size_t nr, const struct sort_key *key);

/* Cgroup rows whose path contains *filter* ("" or NULL: all); returns how many. */
size_t tui_cgroup_filter(struct row *rows, size_t nr, const char *filter);

/*
 * Cgroup rows in tree order, in place: each right after its nearest
 * ancestor among the rows, siblings (and the rows without an ancestor)
 * in the order given. 0, or -1 when out of memory (the order is kept).
 */
int tui_cgroup_tree(struct row *rows, size_t nr);

/*
 * Process rows *procs* with, right after each, its thread rows from
 * *threads* (in their order) when it has more than one: a new array in
 * *out* (free the old one). The rows taken from *threads* give up their
 * cgroup path (it is set to NULL there); the caller still frees *threads*.
 * 0, or -1 when out of memory (nothing changes).
 */
int tui_process_tree(const struct row *procs, size_t nr_procs, struct row *threads,
		     size_t nr_threads, struct row **out, size_t *nr_out);

#endif /* __TDTOP_TUI_ORDER_H */
