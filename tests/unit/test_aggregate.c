// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Rows from task deltas: process rollup, thread rows, filter, sort, top. */
#include <errno.h>
#include <stdlib.h>
#include "rows/aggregate.h"
#include "rows/metrics.h"
#include "rows/pipeline.h"
#include "fixture.h"
#include "test.h"

static const char *const names[] = { "cpu-clock", "context-switches" };

static void task(struct sample *s, __u32 tid, __u32 pid, __u64 leader_start, const char *comm,
		 const char *pcomm, __u64 cpu_ns, __u64 cs, bool exited)
{
	struct task_delta *t = sample__add(s);

	t->tid = tid;
	t->pid = pid;
	t->start_ns = tid;
	t->leader_start_ns = leader_start;
	snprintf(t->comm, TASK_COMM_LEN, "%s", comm);
	snprintf(t->pcomm, TASK_COMM_LEN, "%s", pcomm);
	t->cpu_ns = cpu_ns;
	t->ev[0] = (struct delta){ cpu_ns, cpu_ns, cpu_ns };
	t->ev[1] = (struct delta){ cs, cpu_ns, cpu_ns };
	t->exited = exited;
}

static void fixture(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	s->ts = 100;
	s->interval_s = 1;
	s->ncpus = 2;
	s->total.cpu_ns = 2000000000;
	s->dropped = 3;
	task(s, 10, 10, 1, "web", "web", 100, 5, false);
	task(s, 11, 10, 1, "web-worker", "web", 300, 1, false);
	task(s, 20, 20, 2, "db", "db", 250, 9, false);
	/* pid 10 reused by another process (other leader start) */
	task(s, 12, 10, 7, "new", "new", 50, 2, false);
	task(s, 31, 30, 3, "batch-w", "batch", 40, 0, true);
}

static const struct row *row_of(const struct interval *iv, int pid, const char *comm)
{
	for (size_t i = 0; i < iv->nr_rows; i++)
		if (iv->rows[i].pid == pid && !strcmp(iv->rows[i].comm, comm))
			return &iv->rows[i];
	return NULL;
}

TEST(aggregate_process_rollup)
{
	struct view v = { .by = BY_PROCESS, .sort = { SORT_CPU, -1 } };
	struct sample s;
	struct interval iv;
	const struct row *r;

	fixture(&s);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	interval__sort(&iv, &v);
	CHECK_INT(iv.nr_rows, 4);
	CHECK_U64(iv.total_cpu_ns, 2000000000);
	CHECK_U64(iv.dropped, 3);
	r = row_of(&iv, 10, "web");
	CHECK(r != NULL);
	if (r) {
		CHECK_U64(r->cpu_ns, 400);
		CHECK_U64(r->ev[1].count, 6);
		CHECK_INT(r->nr_threads, 2);
		CHECK_INT(r->kind, ROW_PROCESS);
		CHECK(!r->exited);
	}
	/* a recycled PID is its own row */
	r = row_of(&iv, 10, "new");
	CHECK(r && r->cpu_ns == 50);
	/* leader not charged: named by pcomm, ended with its last thread */
	r = row_of(&iv, 30, "batch");
	CHECK(r && r->exited);
	/* sorted by CPU, descending */
	CHECK_U64(iv.rows[0].cpu_ns, 400);
	CHECK_U64(iv.rows[1].cpu_ns, 250);
	interval__free_rows(&iv);
	sample__free(&s);
}

TEST(aggregate_threads_filter_sort_top)
{
	struct view v = { .by = BY_THREAD, .top = 2 };
	int pids[] = { 10 };
	struct sample s;
	struct interval iv;

	fixture(&s);
	CHECK_INT(sort_key__parse("context-switches", names, 2, &v.sort), 0);
	v.pids = pids;
	v.nr_pids = 1;
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	interval__sort(&iv, &v);
	CHECK_INT(iv.nr_rows, 2);	/* 3 threads of pid 10, cut to 2 */
	CHECK_INT(iv.rows[0].tid, 10);	/* 5 switches */
	CHECK_INT(iv.rows[1].tid, 12);	/* 2 switches */
	CHECK_STR(iv.rows[0].comm, "web");
	CHECK_INT(iv.rows[0].kind, ROW_THREAD);
	interval__free_rows(&iv);
	sample__free(&s);
}

TEST(aggregate_sort_keys)
{
	struct sort_key k;

	CHECK_INT(sort_key__parse("cpu", names, 2, &k), 0);
	CHECK_INT(k.kind, SORT_CPU);
	CHECK_INT(sort_key__parse("comm", names, 2, &k), 0);
	CHECK_INT(k.kind, SORT_COMM);
	CHECK_INT(sort_key__parse("cpu-clock", names, 2, &k), 0);
	CHECK_INT(k.kind, SORT_EVENT);
	CHECK_INT(k.event, 0);
	CHECK_INT(sort_key__parse("backend", names, 2, &k), 0);
	CHECK_INT(k.kind, SORT_TD);
	CHECK_STR(td_fields[k.field].key, "backend_bound");
	CHECK_INT(sort_key__parse("cpu_pct", names, 2, &k), 0);
	CHECK_INT(k.kind, SORT_CPU);
	CHECK_INT(sort_key__parse("ipc", names, 2, &k), 0);
	CHECK_INT(k.field, TD_SORT_IPC);
	CHECK_INT(sort_key__parse("bogus", names, 2, &k), -1);
	CHECK_INT(sort_key__parse("", names, 2, &k), -1);
}

/* Every TopDown field by its JSON name and by its short alias. */
TEST(aggregate_sort_keys_json_names_and_aliases)
{
	struct sort_key k;

	for (int i = 0; i < nr_td_fields; i++) {
		CHECK_INT(sort_key__parse(td_fields[i].key, names, 2, &k), 0);
		CHECK_INT(k.kind, SORT_TD);
		CHECK_INT(k.field, i);
		CHECK_INT(sort_key__parse(td_fields[i].sort, names, 2, &k), 0);
		CHECK_INT(k.kind, SORT_TD);
		CHECK_INT(k.field, i);
	}
	CHECK_INT(sort_key__parse("bad_speculation", names, 2, &k), 0);
	CHECK_STR(td_fields[k.field].sort, "bad-spec");
	CHECK_INT(sort_key__parse("heavy_operations", names, 2, &k), 0);
	CHECK_STR(td_fields[k.field].sort, "heavy-ops");
	/* names are case-sensitive, as in JSON */
	CHECK_INT(sort_key__parse("BAD_SPECULATION", names, 2, &k), -1);
}

TEST(aggregate_comm_filter_and_td_sort)
{
	struct view v = { .by = BY_THREAD, .comm = "web" };
	struct sample s;
	struct interval iv;

	fixture(&s);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 2);	/* web, web-worker */
	iv.rows[0].td.backend_bound = NAN;
	iv.rows[1].td.backend_bound = 0.4;
	CHECK_INT(sort_key__parse("backend", names, 2, &v.sort), 0);
	interval__sort(&iv, &v);
	CHECK_NEAR(iv.rows[0].td.backend_bound, 0.4, 0);	/* NaN last */
	interval__free_rows(&iv);
	sample__free(&s);
}


static void cg_fixture(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	s->interval_s = 1;
	task(s, 10, 10, 1, "nginx", "nginx", 100, 1, false);
	s->tasks[0].cgroup_id = 3;
	task(s, 11, 10, 1, "nginx", "nginx", 50, 1, false);
	s->tasks[1].cgroup_id = 3;
	task(s, 20, 20, 2, "bash", "bash", 7, 1, false);
	s->tasks[2].cgroup_id = 4;
	task(s, 30, 30, 3, "sd", "sd", 3, 1, false);
	s->tasks[3].cgroup_id = 2;
	task(s, 40, 40, 4, "ghost", "ghost", 9, 1, false);
	s->tasks[4].cgroup_id = 99;	/* unknown to the tree */
}

static const struct row *cg_row(const struct interval *iv, __u64 id)
{
	for (size_t i = 0; i < iv->nr_rows; i++)
		if (iv->rows[i].cgroup_id == id)
			return &iv->rows[i];
	return NULL;
}

TEST(aggregate_cgroup_rollup)
{
	struct view v = { .by = BY_CGROUP, .cg = &fixture_cgroup_tree };
	struct sample s;
	struct interval iv;
	const struct row *r;

	cg_fixture(&s);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 5);	/* 1, 2, 3, 4 and the unknown 99 */
	r = cg_row(&iv, 3);
	CHECK(r && r->cpu_ns == 150 && r->nr_threads == 2 && r->depth == 2);
	CHECK(r && r->kind == ROW_CGROUP && r->cgroup &&
	      !strcmp(r->cgroup, "/system.slice/nginx.service"));
	r = cg_row(&iv, 2);
	CHECK(r && r->cpu_ns == 153 && r->depth == 1);	/* own 3 + nginx 150 */
	r = cg_row(&iv, 1);
	CHECK(r && r->cpu_ns == 160);	/* everything known; 99 has no ancestors */
	r = cg_row(&iv, 99);
	CHECK(r && r->cpu_ns == 9 && r->cgroup && !strcmp(r->cgroup, "cgroup 99"));
	interval__free_rows(&iv);
	sample__free(&s);
}

TEST(aggregate_cgroup_within_and_depth)
{
	struct view v = { .by = BY_CGROUP, .cg = &fixture_cgroup_tree, .within = 2, .cgroup_depth = 1 };
	struct sample s;
	struct interval iv;

	cg_fixture(&s);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 2);	/* 2 and its child 3; nothing above 2 */
	CHECK(cg_row(&iv, 1) == NULL && cg_row(&iv, 4) == NULL);
	CHECK(cg_row(&iv, 2) && cg_row(&iv, 2)->cpu_ns == 153);
	interval__free_rows(&iv);

	v.cgroup_depth = 0;
	v.by = BY_PROCESS;	/* --cgroup also filters process rows */
	v.within = 2;
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 2);	/* nginx (pid 10) and sd (pid 30) */
	CHECK(row_of(&iv, 10, "nginx") && row_of(&iv, 10, "nginx")->cgroup_id == 3);
	CHECK(row_of(&iv, 10, "nginx")->cgroup &&
	      !strcmp(row_of(&iv, 10, "nginx")->cgroup, "/system.slice/nginx.service"));
	interval__free_rows(&iv);

	v.cgroup_depth = 1;
	v.within = 0;
	v.by = BY_CGROUP;
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK(cg_row(&iv, 3) == NULL);	/* depth 2 hidden */
	CHECK(cg_row(&iv, 2) && cg_row(&iv, 2)->cpu_ns == 153);	/* still includes it */
	interval__free_rows(&iv);
	sample__free(&s);
}

TEST(aggregate_empty_sample)
{
	struct view v = { .by = BY_PROCESS };
	struct sample s = {};
	struct interval iv;

	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 0);
	interval__free_rows(&iv);
	v.by = BY_CGROUP;
	v.cg = &fixture_cgroup_tree;
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK_INT(iv.nr_rows, 0);
	interval__free_rows(&iv);
}

TEST(pipeline_notices_topdown_counters_held_elsewhere)
{
	struct event_list el = { .nr = 2 };
	struct view v = { .by = BY_PROCESS };
	struct pipeline p;
	struct sample s;
	struct interval iv;

	snprintf(el.ev[0].name, sizeof(el.ev[0].name), "slots");
	snprintf(el.ev[1].name, sizeof(el.ev[1].name), "topdown-retiring");
	pipeline__init(&p, &el);
	p.topdown = true;
	p.cfg.nr_parts = 1;
	p.cfg.parts[0] = (struct td_part){ .method = TD_PERF_METRICS, .ev_lo = 0, .ev_hi = 2 };
	p.cfg.role[0] = TD_SLOTS;
	p.cfg.role[1] = TD_RETIRING;
	fixture(&s);
	s.total.ev[0] = (struct delta){ 5000, 1000, 1000 };
	CHECK_INT(pipeline__build(&p, &s, &v, 1, &iv), 0);
	CHECK(iv.notice == NULL);
	interval__free_rows(&iv);
	s.total.ev[0] = (struct delta){ 0, 1000, 0 };	/* enabled, never running */
	CHECK_INT(pipeline__build(&p, &s, &v, 1, &iv), 0);
	CHECK(iv.notice && strstr(iv.notice, "did not count"));
	interval__free_rows(&iv);
	sample__free(&s);
}

/* -s KEY on *p*, grouped *by*: 0 or -EINVAL with the message in *err*. */
static int check_sort(const struct pipeline *p, const char *key, enum group_by by, char *err,
		      size_t errlen)
{
	struct sort_key k;

	err[0] = '\0';
	if (sort_key__parse(key, p->names, p->nr_events, &k))
		return 1;
	return pipeline__check_sort(p, key, &k, by, err, errlen);
}

TEST(pipeline_sort_key_without_values_is_refused)
{
	struct event_list el = { .nr = 2 };
	struct pipeline p;
	char err[512];

	snprintf(el.ev[0].name, sizeof(el.ev[0].name), "cpu-clock");
	snprintf(el.ev[1].name, sizeof(el.ev[1].name), "context-switches");
	pipeline__init(&p, &el);
	/* no TopDown: its fields and slots have no values, nor IPC without its events */
	CHECK_INT(check_sort(&p, "backend", BY_PROCESS, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "sort key 'backend' has no values here: TopDown is not measured "
		       "(available: cpu, pid, comm, cpu-clock, context-switches)");
	CHECK_INT(check_sort(&p, "slots", BY_THREAD, err, sizeof(err)), -EINVAL);
	CHECK_INT(check_sort(&p, "ipc", BY_PROCESS, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "IPC needs cycles and instructions") != NULL);
	CHECK_INT(check_sort(&p, "cs", BY_PROCESS, err, sizeof(err)), 1);	/* unknown here */
	CHECK_INT(check_sort(&p, "context-switches", BY_PROCESS, err, sizeof(err)), 0);
	CHECK_INT(check_sort(&p, "pid", BY_PROCESS, err, sizeof(err)), 0);
	/* cgroup rows have no PID */
	CHECK_INT(check_sort(&p, "pid", BY_CGROUP, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "sort key 'pid' has no values here: cgroup rows have no PID "
		       "(available: cpu, comm, cpu-clock, context-switches)");
	CHECK_INT(check_sort(&p, "comm", BY_CGROUP, err, sizeof(err)), 0);
}

TEST(pipeline_sort_key_of_topdown_levels)
{
	struct event_list el = { .nr = 4 };
	struct pipeline p;
	char err[512];

	snprintf(el.ev[0].name, sizeof(el.ev[0].name), "slots");
	snprintf(el.ev[1].name, sizeof(el.ev[1].name), "topdown-retiring");
	snprintf(el.ev[2].name, sizeof(el.ev[2].name), "cycles");
	snprintf(el.ev[3].name, sizeof(el.ev[3].name), "instructions");
	pipeline__init(&p, &el);
	p.topdown = true;
	p.cfg.nr_parts = 1;
	p.cfg.max_level = 1;
	p.cfg.parts[0] = (struct td_part){ .method = TD_PERF_METRICS, .ev_lo = 0, .ev_hi = 2 };
	p.cfg.role[2] = TD_CYCLES;
	p.cfg.role[3] = TD_INSTRUCTIONS;
	CHECK_INT(check_sort(&p, "backend", BY_PROCESS, err, sizeof(err)), 0);
	CHECK_INT(check_sort(&p, "ipc", BY_PROCESS, err, sizeof(err)), 0);
	/* "slots" is the event's count here: an event name comes first */
	CHECK_INT(check_sort(&p, "slots", BY_PROCESS, err, sizeof(err)), 0);
	CHECK_INT(check_sort(&p, "memory-bound", BY_PROCESS, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, ": TopDown level 2 is not measured (-l 2 measures it where the CPU "
		      "has it) (available: cpu, pid, comm, retiring, bad-spec, frontend, backend, "
		      "ipc, slots, topdown-retiring, cycles, instructions)") != NULL);
	CHECK_INT(check_sort(&p, "smt-contention", BY_PROCESS, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "only AMD Zen measures SMT contention") != NULL);
	p.cfg.max_level = 2;
	CHECK_INT(check_sort(&p, "memory-bound", BY_PROCESS, err, sizeof(err)), 0);
	p.cfg.parts[0].method = TD_AMD_ZEN;
	CHECK_INT(check_sort(&p, "smt-contention", BY_PROCESS, err, sizeof(err)), 0);
}

static const char *idle_comm(void *ctx, int pid)
{
	return pid == 77 ? "idle-target" : NULL;
}

TEST(aggregate_absent_targets_get_zero_rows)
{
	const struct absent_rows absent = { .comm = idle_comm };
	const int pids[] = { 20, 77, 88 };
	struct view v = { .by = BY_PROCESS, .pids = pids, .nr_pids = 3, .absent = &absent,
			  .sort = { SORT_CPU, -1 } };
	struct sample s;
	struct interval iv;
	const struct row *r;

	fixture(&s);
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	interval__sort(&iv, &v);
	/* 20 ran, 77 lives but did not run, 88 is gone */
	CHECK_INT(iv.nr_rows, 2);
	CHECK_INT(iv.rows[0].pid, 20);
	r = row_of(&iv, 77, "idle-target");
	CHECK(r != NULL);
	if (r) {
		CHECK_INT(r->kind, ROW_PROCESS);
		CHECK_U64(r->cpu_ns, 0);
		CHECK_INT(r->nr_threads, 0);
		CHECK(!r->exited && isnan(r->ipc));
	}
	interval__free_rows(&iv);
	/* by thread: the target's main thread */
	v.by = BY_THREAD;
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	r = row_of(&iv, 77, "idle-target");
	CHECK(r != NULL && r->kind == ROW_THREAD && r->tid == 77);
	interval__free_rows(&iv);
	/* the name filter applies to them too */
	v.comm = "web";
	CHECK_INT(interval__aggregate(&s, &v, 2, names, &iv), 0);
	CHECK(row_of(&iv, 77, "idle-target") == NULL);
	interval__free_rows(&iv);
	sample__free(&s);
}
