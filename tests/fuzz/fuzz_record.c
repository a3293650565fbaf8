// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes through the recording reader (plain or
 * gzip, from memory). Beyond not crashing, what the reader accepts must
 * satisfy the format's limits and survive a write and a second read
 * unchanged, the cgroup paths each interval's tasks had included.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rows/aggregate.h"
#include "record/record.h"
#include "../unit/sample_eq.h"

/* Enough to exercise every path without slow inputs dominating. */
#define MAX_KEPT 32

/* The cgroups one interval's tasks were in, with their paths then. */
struct named {
	size_t nr;
	__u64 *ids;
	char **paths;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_record: broken promise: %s\n", what);
		abort();
	}
}

static bool has_nul(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static void check_sample(const struct sample *s, int nr_events)
{
	require(isfinite(s->ts) && s->ts >= 0, "ts");
	require(isfinite(s->interval_s) && s->interval_s >= 0, "interval_s");
	require(s->ncpus >= 1 && s->ncpus <= MAX_CPUS, "ncpus");
	require(s->nr <= REC_MAX_TASKS, "task count");
	for (size_t i = 0; i < s->nr; i++) {
		const struct task_delta *t = &s->tasks[i];

		require(t->tid >= 1 && t->tid <= REC_PID_MAX, "tid");
		require(t->pid >= 1 && t->pid <= REC_PID_MAX, "pid");
		require(has_nul(t->comm, TASK_COMM_LEN) && has_nul(t->pcomm, TASK_COMM_LEN), "comm");
		for (int e = nr_events; e < MAX_EVENTS; e++)
			require(!t->ev[e].count && !t->ev[e].enabled && !t->ev[e].running,
				"events past the header's");
	}
}

static bool message_form(const char *msg)
{
	return !strncmp(msg, "line ", 5) || !strncmp(msg, "failed to ", 10);
}

static bool event_eq(const struct rec_event *a, const struct rec_event *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->pmu, b->pmu) && a->type == b->type &&
	       a->config == b->config && a->config1 == b->config1 && a->config2 == b->config2 &&
	       !memcmp(&a->scale, &b->scale, sizeof(a->scale)) && !strcmp(a->unit, b->unit) &&
	       a->leader == b->leader && a->pinned == b->pinned && !strcmp(a->role, b->role);
}

static bool header_eq(const struct rec_header *a, const struct rec_header *b)
{
	if (strcmp(a->tdtop_version, b->tdtop_version) ||
	    strcmp(a->kernel_release, b->kernel_release) || strcmp(a->cpu_model, b->cpu_model) ||
	    a->ncpus != b->ncpus || strcmp(a->topdown_method, b->topdown_method) ||
	    a->nr_events != b->nr_events || a->nr_pmus != b->nr_pmus ||
	    memcmp(&a->delay_s, &b->delay_s, sizeof(a->delay_s)) ||
	    strcmp(a->group_by, b->group_by) || strcmp(a->cgroup, b->cgroup) ||
	    a->cgroup_depth != b->cgroup_depth ||
	    a->max_tasks != b->max_tasks || a->nr_pids != b->nr_pids ||
	    memcmp(a->pids, b->pids, sizeof(a->pids)))
		return false;
	for (int i = 0; i < a->nr_events; i++)
		if (!event_eq(&a->events[i], &b->events[i]))
			return false;
	for (int i = 0; i < a->nr_pmus; i++) {
		const struct rec_pmu *x = &a->pmus[i], *y = &b->pmus[i];

		if (strcmp(x->name, y->name) || strcmp(x->method, y->method) ||
		    x->ev_lo != y->ev_lo || x->ev_hi != y->ev_hi ||
		    x->slot_width != y->slot_width || x->arm_n2_erratum != y->arm_n2_erratum)
			return false;
	}
	return true;
}

static bool named_has(const struct named *nm, __u64 id)
{
	for (size_t i = 0; i < nm->nr; i++)
		if (nm->ids[i] == id)
			return true;
	return false;
}

/* *path* is a valid cgroup path, and each ancestor's path is a prefix of it. */
static void check_cgroup(const struct rec_reader *r, const struct cgroup_tree *t, __u64 id,
			 const char *path)
{
	__u64 up[MAX_CGROUP_DEPTH];
	size_t len = strlen(path), last = len;
	int n = t->ancestors(t->ctx, id, up, MAX_CGROUP_DEPTH);

	require(path[0] == '/' && len <= REC_MAX_CGROUP_PATH && !strstr(path, "//") &&
		(len == 1 || path[len - 1] != '/'), "cgroup path form");
	require(n >= 0 && n <= MAX_CGROUP_DEPTH, "ancestors of a named cgroup");
	for (int i = 0; i < n; i++) {
		const char *p = rec_reader__cgroup_path(r, up[i]);
		size_t plen = p ? strlen(p) : 0;

		require(p && plen < last && !memcmp(p, path, plen) &&
			(path[plen] == '/' || plen == 1), "ancestors are prefixes, nearest first");
		last = plen;
	}
}

/* Check and remember the cgroups of *s*'s tasks as the reader names them now. */
static void note_cgroups(struct rec_reader *r, const struct sample *s, struct named *nm)
{
	struct cgroup_tree t;

	rec_reader__cgroup_tree(r, &t);
	memset(nm, 0, sizeof(*nm));
	for (size_t i = 0; i < s->nr; i++) {
		__u64 id = s->tasks[i].cgroup_id;
		const char *path = rec_reader__cgroup_path(r, id);

		if (!path) {
			require(t.ancestors(t.ctx, id, (__u64[1]){ 0 }, 1) == -1,
				"an unnamed cgroup has no ancestors");
			continue;
		}
		require(id != 0, "cgroup 0 is never named");
		if (named_has(nm, id))
			continue;
		check_cgroup(r, &t, id, path);
		nm->ids = realloc(nm->ids, (nm->nr + 1) * sizeof(*nm->ids));
		nm->paths = realloc(nm->paths, (nm->nr + 1) * sizeof(*nm->paths));
		require(nm->ids && nm->paths, "memory");
		nm->ids[nm->nr] = id;
		nm->paths[nm->nr] = strdup(path);
		require(nm->paths[nm->nr] != NULL, "memory");
		nm->nr++;
	}
}

static void named_free(struct named *nm)
{
	for (size_t i = 0; i < nm->nr; i++)
		free(nm->paths[i]);
	free(nm->ids);
	free(nm->paths);
}

/* Write what was read to a memfd and read it back: it must be the same. */
static void round_trip(const struct rec_header *h, const struct sample *kept,
		       const struct named *names, int n, bool gzip)
{
	static char path[64];
	struct rec_header back;
	struct sample s = { 0 };
	struct recorder *w;
	struct rec_reader *r;
	char err[512], msg[512];
	int got = 0, ret;

	if (!path[0]) {
		int fd = memfd_create("fuzz_record", 0);

		require(fd >= 0, "memfd");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	w = recorder__open(path, h, gzip, err, sizeof(err));
	require(w != NULL, "a header that was read can be written");
	for (int i = 0; i < n; i++) {
		for (size_t c = 0; c < names[i].nr; c++)
			require(!recorder__write_cgroup(w, names[i].ids[c], names[i].paths[c], err,
							sizeof(err)),
				"a cgroup that was read can be written");
		require(!recorder__write(w, &kept[i], err, sizeof(err)),
			"a sample that was read can be written");
	}
	require(!recorder__close(w, err, sizeof(err)), "close");

	r = rec_reader__open(path, &back, err, sizeof(err));
	require(r != NULL, "what was written reads back");
	require(header_eq(h, &back), "header round trip");
	while ((ret = rec_reader__next(r, &s, msg, sizeof(msg))) == 1) {
		require(got < n && sample_eq(&kept[got], &s), "sample round trip");
		for (size_t c = 0; c < names[got].nr; c++) {
			const char *p = rec_reader__cgroup_path(r, names[got].ids[c]);

			require(p && !strcmp(p, names[got].paths[c]), "cgroup round trip");
		}
		got++;
	}
	require(ret == 0 && got == n && !msg[0], "complete round trip");
	rec_reader__close(r);
	sample__free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample kept[MAX_KEPT] = { { 0 } }, s = { 0 };
	struct named names[MAX_KEPT] = { { 0 } };
	char err[512] = "", msg[512] = "", again[512];
	struct rec_header h;
	struct rec_reader *r;
	int n = 0, ret;

	r = rec_reader__open_mem(data, size, &h, err, sizeof(err));
	if (!r) {
		require(message_form(err), "open error message");
		return 0;
	}
	require(!rec_header__check(&h, err, sizeof(err)), "header within limits");
	while ((ret = rec_reader__next(r, &s, msg, sizeof(msg))) == 1) {
		check_sample(&s, h.nr_events);
		if (n == MAX_KEPT)
			break;
		note_cgroups(r, &s, &names[n]);
		/* keep it: swap the buffers instead of copying tasks */
		kept[n] = s;
		memset(&s, 0, sizeof(s));
		n++;
	}
	if (ret == 0)
		require(!msg[0] || !strncmp(msg, "truncated at line ", 18), "end message");
	if (ret < 0) {
		require(message_form(msg), "error message");
		require(rec_reader__next(r, &s, again, sizeof(again)) == -1 && !strcmp(again, msg),
			"errors stick");
		require(s.nr == 0, "no partial interval after an error");
	}
	rec_reader__close(r);
	round_trip(&h, kept, names, n, size % 2);
	for (int i = 0; i < n; i++) {
		sample__free(&kept[i]);
		named_free(&names[i]);
	}
	sample__free(&s);
	return 0;
}
