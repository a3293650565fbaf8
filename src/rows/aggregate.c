// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One interval's task deltas grouped into rows: by process, thread or
 * cgroup (a cgroup row includes its descendants), filtered and sorted.
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/macros.h"
#include "rows/aggregate.h"
#include "rows/metrics.h"
#include "util/grow.h"

int sort_key__parse(const char *s, const char *const *names, int nr_names, struct sort_key *key)
{
	static const struct {
		const char *name;
		enum sort_kind kind;
	} fixed[] = { { "cpu", SORT_CPU }, { "cpu_pct", SORT_CPU }, { "pid", SORT_PID },
		      { "comm", SORT_COMM } };

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		if (!strcmp(s, fixed[i].name)) {
			key->kind = fixed[i].kind;
			key->event = -1;
			return 0;
		}
	}
	/* event names first: an event called "slots" means its count */
	for (int i = 0; i < nr_names; i++) {
		if (!strcmp(s, names[i])) {
			key->kind = SORT_EVENT;
			key->event = i;
			return 0;
		}
	}
	key->kind = SORT_TD;
	if (!strcmp(s, "slots")) {
		key->field = TD_SORT_SLOTS;
		return 0;
	}
	if (!strcmp(s, "ipc")) {
		key->field = TD_SORT_IPC;
		return 0;
	}
	for (int i = 0; i < nr_td_fields; i++) {
		if (!strcmp(s, td_fields[i].key) || !strcmp(s, td_fields[i].sort)) {
			key->field = i;
			return 0;
		}
	}
	return -1;
}

const char *sort_key__name(const struct sort_key *k, const char *const *names, int nr_names)
{
	switch (k->kind) {
	case SORT_CPU:
		return "cpu";
	case SORT_PID:
		return "pid";
	case SORT_COMM:
		return "comm";
	case SORT_EVENT:
		if (k->event >= 0 && k->event < nr_names && names && names[k->event])
			return names[k->event];
		return "?";
	case SORT_TD:
		if (k->field == TD_SORT_IPC)
			return "ipc";
		if (k->field == TD_SORT_SLOTS)
			return "slots";
		if (k->field >= 0 && k->field < nr_td_fields)
			return td_fields[k->field].sort;
		return "?";
	}
	return "?";
}

static bool pid_wanted(const struct view *v, __u32 pid)
{
	if (!v->nr_pids)
		return true;
	for (size_t i = 0; i < v->nr_pids; i++)
		if ((__u32)v->pids[i] == pid)
			return true;
	return false;
}

/* Is cgroup *id* *anc* or below it? */
static bool cgroup_within(const struct cgroup_tree *cg, __u64 id, __u64 anc)
{
	__u64 up[MAX_CGROUP_DEPTH];
	int n;

	if (id == anc)
		return true;
	n = cg->ancestors(cg->ctx, id, up, MAX_CGROUP_DEPTH);
	for (int i = 0; i < n; i++)
		if (up[i] == anc)
			return true;
	return false;
}

static bool task_wanted(const struct view *v, const struct task_delta *t)
{
	if (!pid_wanted(v, t->pid))
		return false;
	return !v->within || !v->cg || cgroup_within(v->cg, t->cgroup_id, v->within);
}

static char *cgroup_path_dup(const struct view *v, __u64 id)
{
	const char *p;
	char buf[48];

	if (!v->cg)
		return NULL;
	p = v->cg->path(v->cg->ctx, id);
	if (!p) {
		/* created and removed between two walks of the tree */
		snprintf(buf, sizeof(buf), "cgroup %llu", (unsigned long long)id);
		p = buf;
	}
	return strdup(p);
}

/* The name filter applies to what the row shows: thread or process name. */
static bool comm_wanted(void *view, const struct row *r)
{
	const struct view *v = view;

	return !v->comm || strstr(r->comm, v->comm);
}

static void bucket_to_model(struct delta *dst, __u64 *cpu_ns, const struct bucket_delta *b)
{
	memcpy(dst, b->ev, sizeof(b->ev));
	*cpu_ns = b->cpu_ns;
}

static void row_add(struct row *r, const struct task_delta *t)
{
	r->cpu_ns += t->cpu_ns;
	for (int i = 0; i < MAX_EVENTS; i++) {
		r->ev[i].count += t->ev[i].count;
		r->ev[i].enabled += t->ev[i].enabled;
		r->ev[i].running += t->ev[i].running;
	}
	r->nr_threads++;
}

static void row_init(struct row *r, enum row_kind kind, const struct task_delta *t)
{
	memset(r, 0, sizeof(*r));
	r->ipc = NAN;
	r->kind = kind;
	r->pid = t->pid;
	r->tid = kind == ROW_THREAD ? (int)t->tid : (int)t->pid;
	memcpy(r->comm, kind == ROW_THREAD ? t->comm : t->pcomm, TASK_COMM_LEN);
	memcpy(r->user, t->user, sizeof(r->user));
	r->uid = t->uid;
	r->exited = t->exited;
	r->cgroup_id = t->cgroup_id;
}

/* Threads of one process run: same pid and the same leader start time. */
static int task_group_cmp(const void *a, const void *b)
{
	const struct task_delta *x = *(const struct task_delta *const *)a;
	const struct task_delta *y = *(const struct task_delta *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->leader_start_ns != y->leader_start_ns)
		return x->leader_start_ns < y->leader_start_ns ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int cmp_u64_desc(__u64 a, __u64 b)
{
	return (a < b) - (a > b);
}

/* NaN sorts last whatever the direction. */
static int cmp_double_desc(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a < b) - (a > b);
}

static double td_sort_value(const struct row *r, int field)
{
	if (field == TD_SORT_SLOTS)
		return r->td.slots;
	if (field == TD_SORT_IPC)
		return r->ipc;
	return td_field_value(&r->td, field);
}

static int row_cmp(const void *a, const void *b, void *key)
{
	const struct sort_key *sort_by = key;
	const struct row *x = a, *y = b;
	int c = 0;

	switch (sort_by->kind) {
	case SORT_CPU:
		c = cmp_u64_desc(x->cpu_ns, y->cpu_ns);
		break;
	case SORT_PID:
		break;
	case SORT_COMM:
		if (x->kind == ROW_CGROUP)
			c = strcmp(x->cgroup ? x->cgroup : "", y->cgroup ? y->cgroup : "");
		else
			c = strncmp(x->comm, y->comm, TASK_COMM_LEN);
		break;
	case SORT_EVENT:
		c = cmp_double_desc(delta__scaled(&x->ev[sort_by->event]),
				    delta__scaled(&y->ev[sort_by->event]));
		break;
	case SORT_TD:
		c = cmp_double_desc(td_sort_value(x, sort_by->field),
				    td_sort_value(y, sort_by->field));
		break;
	}
	if (!c)
		c = (x->pid > y->pid) - (x->pid < y->pid);
	if (!c)
		c = (x->tid > y->tid) - (x->tid < y->tid);
	if (!c)
		c = (x->cgroup_id > y->cgroup_id) - (x->cgroup_id < y->cgroup_id);
	return c;
}

static bool same_process(const struct task_delta *a, const struct task_delta *b)
{
	return a->pid == b->pid && a->leader_start_ns == b->leader_start_ns;
}

/*
 * A process ends with its leader; when the leader has not run since tdtop
 * started, with the last of the threads charged in the interval.
 */
static void process_rows(const struct task_delta **tasks, size_t n, struct row *rows,
			 size_t *nr_rows)
{
	size_t start = 0;

	qsort(tasks, n, sizeof(*tasks), task_group_cmp);
	while (start < n) {
		struct row *r = &rows[(*nr_rows)++];
		bool leader_seen = false, all_exited = true;
		size_t end = start;

		row_init(r, ROW_PROCESS, tasks[start]);
		for (; end < n && same_process(tasks[start], tasks[end]); end++) {
			const struct task_delta *t = tasks[end];

			row_add(r, t);
			all_exited &= t->exited;
			if (t->tid == t->pid) {
				leader_seen = true;
				memcpy(r->comm, t->comm, TASK_COMM_LEN);
				memcpy(r->user, t->user, sizeof(r->user));
				r->uid = t->uid;
				r->exited = t->exited;
			}
		}
		if (!leader_seen)
			r->exited = all_exited;
		start = end;
	}
}

struct cg_charge {
	__u64 id;
	int depth;		/* below the root */
	const struct task_delta *t;
};

struct cg_charges {
	struct cg_charge *ch;
	size_t nr, cap;
};

static int cg_charge_cmp(const void *a, const void *b)
{
	const struct cg_charge *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The depth of a cgroup: the number of its ancestors. */
static int cgroup_depth(const struct cgroup_tree *cg, __u64 id)
{
	__u64 up[MAX_CGROUP_DEPTH];
	int n = cg->ancestors(cg->ctx, id, up, MAX_CGROUP_DEPTH);

	return n < 0 ? 0 : n;
}

/*
 * Charge *t* to its cgroup and every ancestor up to *within*, leaving out
 * those deeper than v->cgroup_depth below *base*, the depth of *within*.
 */
static int charge_task(const struct view *v, const struct task_delta *t, int base,
		       struct cg_charges *c)
{
	__u64 ids[MAX_CGROUP_DEPTH + 1];
	int k = v->cg->ancestors(v->cg->ctx, t->cgroup_id, ids + 1, MAX_CGROUP_DEPTH);
	int depth = k < 0 ? 0 : k;

	ids[0] = t->cgroup_id;
	for (int j = 0; j <= (k < 0 ? 0 : k); j++, depth--) {
		if (v->cgroup_depth && depth - base > v->cgroup_depth)
			continue;
		if (GROW(c->ch, c->cap, c->nr + 1, 256))
			return -ENOMEM;
		c->ch[c->nr++] = (struct cg_charge){ ids[j], depth, t };
		if (v->within && ids[j] == v->within)
			break;	/* nothing above the selection */
	}
	return 0;
}

/* One row per cgroup from charges sorted by cgroup; NULL on ENOMEM. */
static struct row *charged_rows(const struct view *v, const struct cg_charges *c,
				size_t *nr_rows)
{
	struct row *rows = calloc(c->nr ? c->nr : 1, sizeof(*rows));
	size_t nr = 0;

	if (!rows)
		return NULL;
	for (size_t i = 0; i < c->nr; i++) {
		const struct cg_charge *ch = &c->ch[i];

		if (!i || ch->id != c->ch[i - 1].id) {
			struct row *r = &rows[nr++];

			r->kind = ROW_CGROUP;
			r->ipc = NAN;
			r->cgroup_id = ch->id;
			r->depth = ch->depth;
			r->cgroup = cgroup_path_dup(v, ch->id);
		}
		row_add(&rows[nr - 1], ch->t);
	}
	*nr_rows = nr;
	return rows;
}

/*
 * One row per cgroup: each task is charged to its cgroup and to every
 * ancestor up to *within*, so a parent includes its descendants.
 */
static int cgroup_rows(const struct view *v, const struct task_delta **tasks, size_t n,
		       struct row **rowsp, size_t *nr_rows)
{
	int base = v->within ? cgroup_depth(v->cg, v->within) : 0;
	struct cg_charges c = { 0 };
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		ret = charge_task(v, tasks[i], base, &c);
		if (ret)
			goto cleanup;
	}
	if (c.nr)
		qsort(c.ch, c.nr, sizeof(*c.ch), cg_charge_cmp);
	*rowsp = charged_rows(v, &c, nr_rows);
	if (!*rowsp)
		ret = -ENOMEM;
cleanup:
	free(c.ch);
	return ret;
}

/* Group the wanted tasks into rows; rows must hold n entries. */
static size_t group_tasks(const struct view *v, const struct task_delta **tasks, size_t n,
			  struct row *rows)
{
	size_t nr_rows = 0;

	if (v->by == BY_THREAD) {
		for (; nr_rows < n; nr_rows++) {
			row_init(&rows[nr_rows], ROW_THREAD, tasks[nr_rows]);
			row_add(&rows[nr_rows], tasks[nr_rows]);
		}
	} else {
		process_rows(tasks, n, rows, &nr_rows);
	}
	for (size_t i = 0; i < nr_rows; i++)
		if (v->cg)
			rows[i].cgroup = cgroup_path_dup(v, rows[i].cgroup_id);
	return nr_rows;
}

static bool has_pid_row(const struct row *rows, size_t n, int pid)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == pid)
			return true;
	return false;
}

/* A zero row for each -p process that did not run but lives; rows has room. */
static size_t absent_rows(const struct view *v, struct row *rows, size_t n)
{
	size_t nr = n;

	for (size_t i = 0; v->absent && i < v->nr_pids; i++) {
		const char *comm;
		struct row *r;

		if (has_pid_row(rows, n, v->pids[i]))
			continue;
		comm = v->absent->comm(v->absent->ctx, v->pids[i]);
		if (!comm)
			continue;
		r = &rows[nr++];
		memset(r, 0, sizeof(*r));
		r->kind = v->by == BY_THREAD ? ROW_THREAD : ROW_PROCESS;
		r->pid = r->tid = v->pids[i];
		snprintf(r->comm, sizeof(r->comm), "%s", comm);
		r->ipc = NAN;
	}
	return nr;
}

/* Process or thread rows, the -p processes that did not run, the name filter applied. */
static int task_rows(const struct view *v, const struct task_delta **tasks, size_t n,
		     struct row **rowsp, size_t *nr_rows)
{
	size_t room = n + (v->absent ? v->nr_pids : 0);
	struct row *rows = calloc(room ? room : 1, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	*nr_rows = rows__filter(rows, absent_rows(v, rows, group_tasks(v, tasks, n, rows)),
				comm_wanted, (void *)v);
	*rowsp = rows;
	return 0;
}

/* The interval's own fields: what the sample measured, no rows yet. */
static void interval_from_sample(struct interval *iv, const struct sample *s, int nr_events,
				 const char *const *names)
{
	memset(iv, 0, sizeof(*iv));
	iv->ts = s->ts;
	iv->interval_s = s->interval_s;
	iv->ncpus = s->ncpus;
	iv->nr_events = nr_events;
	iv->event_names = names;
	bucket_to_model(iv->totals, &iv->total_cpu_ns, &s->total);
	bucket_to_model(iv->idle, &iv->idle_cpu_ns, &s->idle);
	bucket_to_model(iv->lost, &iv->lost_cpu_ns, &s->lost);
	iv->dropped = s->dropped;
	iv->read_errors = s->read_errors;
	iv->switches = s->switches;
}

static enum row_kind view_row_kind(const struct view *v)
{
	if (v->by == BY_CGROUP && v->cg)
		return ROW_CGROUP;
	return v->by == BY_THREAD ? ROW_THREAD : ROW_PROCESS;
}

int interval__aggregate(const struct sample *s, const struct view *v, int nr_events,
	      const char *const *names, struct interval *iv)
{
	const struct task_delta **tasks;
	size_t n = 0;
	int ret;

	interval_from_sample(iv, s, nr_events, names);
	iv->row_kind = view_row_kind(v);
	tasks = malloc((s->nr ? s->nr : 1) * sizeof(*tasks));
	if (!tasks)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr; i++)
		if (task_wanted(v, &s->tasks[i]))
			tasks[n++] = &s->tasks[i];
	if (v->by == BY_CGROUP && v->cg)
		ret = cgroup_rows(v, tasks, n, &iv->rows, &iv->nr_rows);
	else
		ret = task_rows(v, tasks, n, &iv->rows, &iv->nr_rows);
	free(tasks);
	return ret;
}

void interval__sort(struct interval *iv, const struct view *v)
{
	qsort_r(iv->rows, iv->nr_rows, sizeof(*iv->rows), row_cmp, (void *)&v->sort);
	iv->nr_rows = rows__top(iv->rows, iv->nr_rows, v->top);
}

void interval__free_rows(struct interval *iv)
{
	for (size_t i = 0; iv->rows && i < iv->nr_rows; i++)
		free(iv->rows[i].cgroup);
	free(iv->rows);
	iv->rows = NULL;
	iv->nr_rows = 0;
}
