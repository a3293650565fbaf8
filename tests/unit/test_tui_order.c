// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Row order after the build: reversed, filtered, cgroup and process trees, --top. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "tui/order.h"

/* Cgroup rows with copies of *paths*, ids 1, 2, ... */
static void cg_rows(struct row *rows, const char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].kind = ROW_CGROUP;
		rows[i].cgroup_id = i + 1;
		rows[i].cgroup = paths[i] ? strdup(paths[i]) : NULL;
	}
}

static const char *joined(const struct row *rows, size_t n)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? " " : "",
				rows[i].cgroup ? rows[i].cgroup : "NULL");
	return buf;
}

static void free_rows(struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].cgroup);
}

TEST(tui_cgroup_tree_keeps_sibling_order)
{
	static const char *const paths[] = { "/b", "/a-b", "/a/b", "/", "/a", NULL, "/a/b/c" };
	static const char *const by_cpu[] = { "/a/b/c", "/a/b", "/a", "/b", "/" };
	struct row rows[7];

	/* sorted by name: the tree shows each child right after its parent */
	cg_rows(rows, (const char *const[]){ NULL, "/", "/a", "/a-b", "/a/b", "/a/b/c", "/b" }, 7);
	CHECK_INT(tui_cgroup_tree(rows, 7), 0);
	CHECK_STR(joined(rows, 7), "NULL / /a /a/b /a/b/c /a-b /b");
	free_rows(rows, 7);

	/* in the order given: rows without an ancestor first as they come, children after */
	cg_rows(rows, paths, 7);
	CHECK_INT(tui_cgroup_tree(rows, 7), 0);
	CHECK_STR(joined(rows, 7), "/ /b /a-b /a /a/b /a/b/c NULL");
	free_rows(rows, 7);

	/* by CPU, the busiest child first below each parent */
	cg_rows(rows, by_cpu, 5);
	CHECK_INT(tui_cgroup_tree(rows, 5), 0);
	CHECK_STR(joined(rows, 5), "/ /a /a/b /a/b/c /b");
	free_rows(rows, 5);

	/* a filtered-out parent: the nearest ancestor shown adopts the row */
	cg_rows(rows, (const char *const[]){ "/x/y/z", "/q", "/x" }, 3);
	CHECK_INT(tui_cgroup_tree(rows, 3), 0);
	CHECK_STR(joined(rows, 3), "/q /x /x/y/z");
	free_rows(rows, 3);
	CHECK_INT(tui_cgroup_tree(rows, 0), 0);
}

TEST(tui_cgroup_filter_and_top)
{
	static const char *const paths[] = { "/b", "/a-b", "/a/b", "/", "/a", NULL, "/a/b/c" };
	struct row rows[7];
	size_t n;

	/* the filter matches the path; rows without one never match */
	cg_rows(rows, paths, 7);
	n = tui_cgroup_filter(rows, 7, "a/b");
	CHECK_STR(joined(rows, n), "/a/b /a/b/c");
	free_rows(rows, n);

	cg_rows(rows, paths, 7);
	n = tui_cgroup_filter(rows, 7, "a");
	n = rows__top(rows, n, 2);
	CHECK_STR(joined(rows, n), "/a-b /a/b");
	free_rows(rows, n);

	cg_rows(rows, paths, 7);
	CHECK_INT(tui_cgroup_filter(rows, 7, ""), 7);
	CHECK_INT(rows__top(rows, 7, 0), 7);
	CHECK_INT(tui_cgroup_filter(rows, 7, "nothing"), 0);
	CHECK_INT(tui_cgroup_filter(rows, 0, NULL), 0);
}

/* Process or thread rows: pids[i], tids[i] (0: the pid), cpu 100 - i. */
static void task_rows(struct row *rows, enum row_kind kind, const int *pids, const int *tids,
		      size_t n)
{
	for (size_t i = 0; i < n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].kind = kind;
		rows[i].pid = pids[i];
		rows[i].tid = tids && tids[i] ? tids[i] : pids[i];
		rows[i].cpu_ns = 100 - i;
		rows[i].ipc = NAN;
	}
}

static const char *ids(const struct row *rows, size_t n)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s%d", i ? " " : "",
				rows[i].kind == ROW_THREAD ? "t" : "", rows[i].tid);
	return buf;
}

TEST(tui_rows_reverse_keeps_nan_last)
{
	struct sort_key cpu = { .kind = SORT_CPU, .event = -1 }, ipc;
	struct row rows[5];

	task_rows(rows, ROW_PROCESS, (const int[]){ 1, 2, 3, 4, 5 }, NULL, 5);
	tui_rows_reverse(rows, 5, &cpu);
	CHECK_STR(ids(rows, 5), "5 4 3 2 1");
	/* sorted by IPC: the rows without one stay at the end */
	CHECK_INT(sort_key__parse("ipc", NULL, 0, &ipc), 0);
	task_rows(rows, ROW_PROCESS, (const int[]){ 1, 2, 3, 4, 5 }, NULL, 5);
	rows[0].ipc = 2;
	rows[1].ipc = 1.5;
	rows[2].ipc = 1;
	tui_rows_reverse(rows, 5, &ipc);
	CHECK_STR(ids(rows, 5), "3 2 1 4 5");
	tui_rows_reverse(rows, 0, &ipc);
	tui_rows_reverse(rows, 1, &cpu);
	CHECK_STR(ids(rows, 1), "3");
}

static bool even_pid(void *arg, const struct row *r)
{
	(*(int *)arg)++;
	return r->pid % 2 == 0;
}

TEST(rows_filter_keeps_order)
{
	struct row rows[5];
	int calls = 0;
	size_t n;

	task_rows(rows, ROW_PROCESS, (const int[]){ 4, 1, 2, 3, 6 }, NULL, 5);
	rows[1].cgroup = strdup("/freed");
	n = rows__filter(rows, 5, even_pid, &calls);
	CHECK_INT(calls, 5);
	CHECK_STR(ids(rows, n), "4 2 6");
}

TEST(tui_process_tree_threads_below)
{
	struct row procs[3], threads[6], *out = NULL;
	size_t n = 0;

	task_rows(procs, ROW_PROCESS, (const int[]){ 30, 10, 20 }, NULL, 3);
	/* the thread build's order: 10's second thread is the busier */
	task_rows(threads, ROW_THREAD, (const int[]){ 20, 10, 30, 10, 30, 99 },
		  (const int[]){ 0, 11, 0, 0, 31, 0 }, 6);
	threads[1].cgroup = strdup("/moved");
	CHECK_INT(tui_process_tree(procs, 3, threads, 6, &out, &n), 0);
	/* one thread is its process: only 30 and 10 get theirs; 99 has no process row */
	CHECK_STR(ids(out, n), "30 t30 t31 10 t11 t10 20");
	CHECK(threads[1].cgroup == NULL);
	CHECK_STR(out[4].cgroup, "/moved");
	free(out[4].cgroup);
	free(out);

	/* a PID seen twice (reused within the interval) gets its threads once */
	procs[1].pid = procs[1].tid = 30;
	CHECK_INT(tui_process_tree(procs, 3, threads, 6, &out, &n), 0);
	CHECK_STR(ids(out, n), "30 t30 t31 30 20");
	free(out);
	CHECK_INT(tui_process_tree(procs, 0, threads, 0, &out, &n), 0);
	CHECK_INT(n, 0);
	free(out);
}
