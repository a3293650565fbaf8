// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop report: a recording replayed through the same rows, TopDown math
 * and outputs as live mode, or browsed in the interactive view; and
 * --diff, two recordings compared per command name or cgroup.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "record/diff.h"
#include "record/recmeta.h"
#include "record/record.h"
#include "tui/tui.h"
#include "util/errmsg.h"

struct replay {
	struct rec_header h;
	struct rec_reader *rd;
	struct cgroup_tree tree;	/* from the recording's cgroup lines */
	struct pipeline pipe;
	struct view view;
	int level;
	char warning[256];	/* e.g. a truncated last interval */
};

static int replay__open(struct replay *r, const char *path, const struct options *o, char *err,
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
		return errmsg(err, errlen, -EINVAL,
			      "the recording has no cgroups (record with --by cgroup)");
	}
	r->view.pids = o->pids;
	r->view.nr_pids = o->nr_pids;
	r->view.top = o->top;
	r->view.sort.kind = SORT_CPU;
	if (o->sort && sort_key__parse(o->sort, r->pipe.names, r->pipe.nr_events, &r->view.sort))
		return errmsg(err, errlen, -EINVAL, "unknown sort key '%s' for this recording",
			      o->sort);
	return 0;
}

static void replay__close(struct replay *r)
{
	rec_reader__close(r->rd);
	r->rd = NULL;
}

/* 1 with a sample, 0 at the end (a warning kept), -1 on malformed input. */
static int replay__next(struct replay *r, struct sample *s, char *err, size_t errlen)
{
	int ret = rec_reader__next(r->rd, s, r->warning, sizeof(r->warning));

	return ret < 0 ? errmsg(err, errlen, ret, "%s", r->warning) : ret;
}

/* Every interval to stdout, as batch mode prints it. 0 or -errno. */
static int replay__print(struct replay *r, const struct options *o, char *err, size_t errlen)
{
	struct output *out = output__new(o->format, stdout);
	struct sample s = {};
	int ret;

	if (!out)
		return errmsg(err, errlen, -ENOMEM, "out of memory");
	while ((ret = replay__next(r, &s, err, errlen)) > 0) {
		struct interval iv;
		int gone;

		if (pipeline__build(&r->pipe, &s, &r->view, r->level, &iv)) {
			ret = errmsg(err, errlen, -ENOMEM, "out of memory");
			break;
		}
		gone = output__interval(out, &iv);
		interval__free_rows(&iv);
		if (gone) {
			ret = 0;	/* the reader of our output went away: done */
			break;
		}
	}
	sample__free(&s);
	output__free(out);
	return ret;
}

static int screen_fetch(void *arg, struct sample *out, char *err, size_t errlen)
{
	int n = replay__next(arg, out, err, errlen);

	return n < 0 ? TUI_FETCH_ERROR : n == 0 ? TUI_FETCH_END : TUI_FETCH_OK;
}

static int replay__show(struct replay *r, const struct options *o, char *err, size_t errlen)
{
	struct tui_source src = { .fetch = screen_fetch, .pipe = &r->pipe, .arg = r };
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
		.cmdline = cmd_tui_overrides(o),
	};

	snprintf(title, sizeof(title), "recording: %s, %s", r->h.cpu_model, r->pipe.method);
	return cmd_tui_run(&src, &t, err, errlen) ? -1 : 0;
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

	if (replay__open(&r, path, o, err, errlen))
		goto out;
	r.view.top = 0;
	if (r.view.by == BY_THREAD)
		r.view.by = BY_PROCESS;
	for (;;) {
		struct interval iv;
		int n = replay__next(&r, &s, err, errlen);

		if (n <= 0) {
			ret = n;
			break;
		}
		if (aggregate(&s, &r.view, r.pipe.nr_events, r.pipe.names, &iv)) {
			ret = errmsg(err, errlen, -ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < iv.nr_rows; i++)
			if (diff_table__add(t, diff_key(&iv.rows[i]), which, &iv.rows[i]))
				n = -1;
		interval__free_rows(&iv);
		if (n < 0) {
			ret = errmsg(err, errlen, -ENOMEM, "out of memory");
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
	replay__close(&r);
	sample__free(&s);
	return ret;
}

static int report_diff(const struct options *o, char *err, size_t errlen)
{
	struct diff_table t = {};
	int ret;

	ret = diff_side(&t, 0, o->files[0], o, err, errlen);
	if (!ret)
		ret = diff_side(&t, 1, o->files[1], o, err, errlen);
	/* a closed pipe ends the report quietly, as in replay__print() */
	if (!ret && diff_table__print(&t, o->format, o->level, stdout) && errno != EPIPE)
		ret = errmsg(err, errlen, -1, "failed to write the comparison: %s",
			     strerror(errno));
	diff_table__free(&t);
	return ret;
}

static int report_replay(const struct options *o, char *err, size_t errlen)
{
	struct replay r;
	int ret;

	ret = replay__open(&r, o->files[0], o, err, errlen);
	if (!ret)
		ret = options_interactive(o) ? replay__show(&r, o, err, errlen)
					     : replay__print(&r, o, err, errlen);
	if (!ret && r.warning[0])
		fprintf(stderr, "tdtop: %s: %s\n", o->files[0], r.warning);
	replay__close(&r);
	return ret;
}

/* Every failure of a report is a runtime one: the command line was read. */
int cmd_report(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	/* a closed pipe shows up as a write error: ends the report quietly */
	signal(SIGPIPE, SIG_IGN);
	if (o->diff ? report_diff(o, err, errlen) : report_replay(o, err, errlen))
		return EXIT_RUNTIME;
	return EXIT_OK;
}
