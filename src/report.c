// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>
#include "record/diff.h"
#include "record/recmeta.h"
#include "record/record.h"
#include "report.h"
#include "tui/tui.h"

struct replay {
	struct rec_header h;
	struct rec_reader *rd;
	struct cgroup_tree tree;	/* from the recording's cgroup lines */
	struct pipeline pipe;
	struct view view;
	int level;
	char warning[256];	/* e.g. a truncated last interval */
};

static int replay_open(struct replay *r, const char *path, const struct options *o, char *err,
		       size_t errlen)
{
	int max_level;

	memset(r, 0, sizeof(*r));
	r->rd = rec_reader__open(path, &r->h, err, errlen);
	if (!r->rd)
		return -1;
	if (recmeta_to_pipeline(&r->h, &r->pipe, &max_level, err, errlen))
		return -1;
	r->level = o->level < max_level ? o->level : max_level;
	r->view.by = o->by;
	/* tasks carry cgroup ids only when recorded in cgroup mode */
	if (!strcmp(r->h.group_by, "cgroup") || r->h.cgroup[0]) {
		rec_reader__cgroup_tree(r->rd, &r->tree);
		r->view.cg = &r->tree;
	} else if (o->by == BY_CGROUP) {
		snprintf(err, errlen, "the recording has no cgroups (record with --by cgroup)");
		return -1;
	}
	r->view.pids = o->pids;
	r->view.nr_pids = o->nr_pids;
	r->view.top = o->top;
	r->view.sort.kind = SORT_CPU;
	if (o->sort && sort_key__parse(o->sort, r->pipe.names, r->pipe.nr_events, &r->view.sort)) {
		snprintf(err, errlen, "unknown sort key '%s' for this recording", o->sort);
		return -1;
	}
	return 0;
}

static void replay_close(struct replay *r)
{
	rec_reader__close(r->rd);
	r->rd = NULL;
}

/* 1 with a sample, 0 at the end (a warning kept), -1 on malformed input. */
static int replay_next(struct replay *r, struct sample *s, char *err, size_t errlen)
{
	int ret = rec_reader__next(r->rd, s, r->warning, sizeof(r->warning));

	if (ret < 0)
		snprintf(err, errlen, "%s", r->warning);
	return ret;
}

static int replay_batch(struct replay *r, const struct options *o, char *err, size_t errlen)
{
	struct output *out = output__new(o->format, stdout);
	struct sample s = {};
	int ret = EXIT_OK;

	if (!out) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	for (;;) {
		struct interval iv;
		int n = replay_next(r, &s, err, errlen);

		if (n <= 0) {
			ret = n < 0 ? EXIT_RUNTIME : EXIT_OK;
			break;
		}
		if (pipeline__build(&r->pipe, &s, &r->view, r->level, &iv)) {
			snprintf(err, errlen, "out of memory");
			ret = EXIT_RUNTIME;
			break;
		}
		n = output__interval(out, &iv);
		interval__free_rows(&iv);
		if (n)
			break;	/* the reader of our output went away */
	}
	sample__free(&s);
	output__free(out);
	return ret;
}

static int tui_fetch(void *arg, struct sample *out, char *err, size_t errlen)
{
	int n = replay_next(arg, out, err, errlen);

	return n < 0 ? TUI_FETCH_ERROR : n == 0 ? TUI_FETCH_END : TUI_FETCH_OK;
}

static int tui_build(void *arg, const struct sample *s, const struct view *v, int level,
		     struct interval *iv)
{
	struct replay *r = arg;

	return pipeline__build(&r->pipe, s, v, level, iv) ? -1 : 0;
}

static int replay_tui(struct replay *r, const struct options *o, char *err, size_t errlen)
{
	struct tui_source src = { .fetch = tui_fetch, .build = tui_build, .arg = r };
	char title[sizeof(r->h.cpu_model) + 64];
	struct tui_opts t = {
		.delay_s = o->delay_s,
		.view = r->view,
		.level = r->level,
		.level2_available = r->pipe.topdown && r->pipe.cfg.max_level >= 2,
		.level2_why = "the recording has no level-2 counts",
		/* tasks carry cgroup ids only when recorded with --by cgroup or -c */
		.cgroups_available = r->view.cg != NULL,
		.cgroups_why = "the recording has no cgroups (record with --by cgroup)",
		.title = title,
		.names = r->pipe.names,
		.nr_events = r->pipe.nr_events,
		.topdown = r->pipe.topdown,
		.color = true,
	};

	snprintf(title, sizeof(title), "recording: %s, %s", r->h.cpu_model, r->pipe.method);
	return tui_run(&src, &t, err, errlen);
}

/* What a diff compares across runs: PIDs differ, command names do not. */
static const char *diff_key(const struct row *r)
{
	return r->kind == ROW_CGROUP ? (r->cgroup ? r->cgroup : "?") : r->comm;
}

/* Sum a whole recording into side *which* of *t*. */
static int diff_side(struct diff_table *t, int which, const char *path,
		     const struct options *o, char *err, size_t errlen)
{
	struct sample s = {};
	struct replay r;
	int ret = -1;

	if (replay_open(&r, path, o, err, errlen))
		goto out;
	r.view.top = 0;
	if (r.view.by == BY_THREAD)
		r.view.by = BY_PROCESS;
	for (;;) {
		struct interval iv;
		int n = replay_next(&r, &s, err, errlen);

		if (n <= 0) {
			ret = n;
			break;
		}
		if (aggregate(&s, &r.view, r.pipe.nr_events, r.pipe.names, &iv)) {
			snprintf(err, errlen, "out of memory");
			break;
		}
		for (size_t i = 0; i < iv.nr_rows; i++)
			if (diff_table__add(t, diff_key(&iv.rows[i]), which, &iv.rows[i]))
				n = -1;
		interval__free_rows(&iv);
		if (n < 0) {
			snprintf(err, errlen, "out of memory");
			break;
		}
	}
	if (!ret) {
		diff_table__finish(t, which, &r.pipe);
		t->topdown = which ? t->topdown && r.pipe.topdown : r.pipe.topdown;
		if (r.warning[0])
			fprintf(stderr, "tdtop: %s: %s\n", path, r.warning);
	}
out:
	if (ret && err[0] && !strstr(err, path)) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s: %s", path, err);
		snprintf(err, errlen, "%s", msg);
	}
	replay_close(&r);
	sample__free(&s);
	return ret;
}

static int report_diff(const struct options *o, char *err, size_t errlen)
{
	struct diff_table t = {};
	int ret = EXIT_RUNTIME;

	if (!diff_side(&t, 0, o->files[0], o, err, errlen) &&
	    !diff_side(&t, 1, o->files[1], o, err, errlen)) {
		diff_table__print(&t, o->format, o->level, stdout);
		ret = EXIT_OK;
	}
	diff_table__free(&t);
	return ret;
}

int report_run(const struct options *o, bool interactive, char *err, size_t errlen)
{
	struct replay r;
	int ret;

	if (o->diff)
		return report_diff(o, err, errlen);
	if (replay_open(&r, o->files[0], o, err, errlen)) {
		replay_close(&r);
		return EXIT_RUNTIME;
	}
	ret = interactive ? replay_tui(&r, o, err, errlen) : replay_batch(&r, o, err, errlen);
	if (r.warning[0] && ret == EXIT_OK)
		fprintf(stderr, "tdtop: %s: %s\n", o->files[0], r.warning);
	replay_close(&r);
	return ret;
}
