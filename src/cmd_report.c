// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop report: a recording replayed through the same rows, TopDown math
 * and outputs as live mode, or browsed in the interactive view; and
 * --diff, two recordings compared per command name or cgroup.
 */
#include <errno.h>
#include <math.h>
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
	struct sample first;		/* read by replay__open(), not yet handed out */
	bool have_first;
	char warning[256];	/* e.g. a truncated last interval */
	char sort_note[160];	/* the screen's word on a -s without values, or "" */
};

/* 1 with a sample, 0 at the end (a warning kept), -1 on malformed input. */
static int replay__next(struct replay *r, struct sample *s, char *err, size_t errlen)
{
	int ret;

	if (r->have_first) {
		struct sample tmp = *s;

		*s = r->first;
		r->first = tmp;
		r->have_first = false;
		return 1;
	}
	ret = rec_reader__next(r->rd, s, r->warning, sizeof(r->warning));
	return ret < 0 ? errmsg(err, errlen, ret, "%s", r->warning) : ret;
}

/*
 * -s for this recording: unknown, or without values here, it is a usage
 * error (-EINVAL), but for the screen, which sorts by CPU and says why.
 */
static int replay__sort(struct replay *r, const struct options *o, bool screen, char *err,
			size_t errlen)
{
	r->view.sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	if (!o->sort)
		return 0;
	if (sort_key__parse(o->sort, r->pipe.names, r->pipe.nr_events, &r->view.sort))
		return errmsg(err, errlen, -EINVAL, "unknown sort key '%s' for this recording",
			      o->sort);
	if (o->diff && r->view.sort.kind == SORT_PID)
		return errmsg(err, errlen, -EINVAL,
			      "sort key 'pid' has no values in a diff: it compares command names "
			      "(or cgroups), not PIDs");
	if (!pipeline__check_sort(&r->pipe, o->sort, &r->view.sort, r->view.by, err, errlen))
		return 0;
	if (!screen)
		return -EINVAL;
	snprintf(r->sort_note, sizeof(r->sort_note), "-s %s: %s; sorted by cpu", o->sort,
		 pipeline__sort_missing(&r->pipe, &r->view.sort, r->view.by));
	r->view.sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	return 0;
}

/*
 * Open the recording and read its first interval: one without any
 * complete interval is an error. -EINVAL when the command line asks for
 * what the recording cannot give, -1 for a bad recording.
 */
static int replay__open(struct replay *r, const char *path, const struct options *o,
			bool screen, char *err, size_t errlen)
{
	int max_level, ret;

	memset(r, 0, sizeof(*r));
	r->rd = rec_reader__open(path, &r->h, err, errlen);
	if (!r->rd)
		return -1;
	if (rec_header__to_pipeline(&r->h, &r->pipe, &max_level, err, errlen))
		return -1;
	r->level = o->level < max_level ? o->level : max_level;
	/* a diff sums processes: threads are compared by their process's name */
	r->view.by = o->diff && o->by == BY_THREAD ? BY_PROCESS : o->by;
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
	r->view.top = o->diff ? 0 : o->top;
	ret = replay__sort(r, o, screen, err, errlen);
	if (ret)
		return ret;
	ret = rec_reader__next(r->rd, &r->first, r->warning, sizeof(r->warning));
	if (ret < 0)
		return errmsg(err, errlen, -1, "%s", r->warning);
	if (!ret)
		return errmsg(err, errlen, -1, "no complete interval%s%s", r->warning[0] ? ": " : "",
			      r->warning[0] ? r->warning : " (the recording holds only its header)");
	r->have_first = true;
	return 0;
}

static void replay__close(struct replay *r)
{
	rec_reader__close(r->rd);
	r->rd = NULL;
	sample__free(&r->first);
}

/* *err* names the recording it is about. */
static void name_file(char *err, size_t errlen, const char *path)
{
	char msg[512];

	if (!err[0] || strstr(err, path))
		return;
	snprintf(msg, sizeof(msg), "%s: %s", path, err);
	snprintf(err, errlen, "%s", msg);
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
		.note = r->sort_note,
	};

	snprintf(title, sizeof(title), "recording: %s, %s", r->h.cpu_model, r->pipe.method);
	return cmd_tui_run(&src, &t, err, errlen) ? -1 : 0;
}

/* What a diff compares across runs: PIDs differ, command names do not. */
static const char *diff_key(const struct row *r)
{
	return r->kind == ROW_CGROUP ? (r->cgroup ? r->cgroup : "?") : r->comm;
}

/* The -s key of side *which*; both sides must mean the same by it. */
static int diff_sort(struct diff_table *t, int which, const struct sort_key *k, char *err,
		     size_t errlen)
{
	if (which && (k->kind != t->sort.kind || (k->kind == SORT_TD && k->field != t->sort.field)))
		return errmsg(err, errlen, -EINVAL,
			      "sort key means an event in one recording and not in the other");
	t->sort = *k;
	t->run[which].sort_event = k->kind == SORT_EVENT ? k->event : -1;
	return 0;
}

/* Sum a whole recording into side *which* of *t*. */
static int diff_side(struct diff_table *t, int which, const char *path,
		     const struct options *o, char *err, size_t errlen)
{
	double duration_s = 0;
	struct sample s = {};
	struct replay r;
	int ret;

	ret = replay__open(&r, path, o, false, err, errlen);
	if (!ret)
		ret = diff_sort(t, which, &r.view.sort, err, errlen);
	while (!ret) {
		struct interval iv;
		int n = replay__next(&r, &s, err, errlen);

		if (n <= 0) {
			ret = n;
			break;
		}
		duration_s += s.interval_s;
		if (interval__aggregate(&s, &r.view, r.pipe.nr_events, r.pipe.names, &iv)) {
			ret = errmsg(err, errlen, -ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < iv.nr_rows; i++)
			if (diff_table__add(t, diff_key(&iv.rows[i]), which, &iv.rows[i]))
				n = -1;
		interval__free_rows(&iv);
		if (n < 0)
			ret = errmsg(err, errlen, -ENOMEM, "out of memory");
	}
	if (!ret) {
		diff_table__finish(t, which, &r.pipe, duration_s);
		t->topdown = which ? t->topdown && r.pipe.topdown : r.pipe.topdown;
		if (r.warning[0])
			fprintf(stderr, "tdtop: %s: %s\n", path, r.warning);
	}
	name_file(err, errlen, path);
	replay__close(&r);
	sample__free(&s);
	return ret;
}

/* What makes the two recordings compare less directly than they look. */
static void diff_notes(const struct diff_table *t, const struct options *o)
{
	double a = t->run[0].duration_s, b = t->run[1].duration_s;

	if (fabs(a - b) > 0.05 * fmax(a, b))
		fprintf(stderr, "tdtop: the recordings last %.1f s and %.1f s: compared per second\n",
			a, b);
	if (strcmp(t->run[0].method, t->run[1].method))
		fprintf(stderr, "tdtop: %s was measured with TopDown method %s, %s with %s%s\n",
			o->files[0], t->run[0].method, o->files[1], t->run[1].method,
			t->topdown ? "" : ": TopDown is not compared");
}

static int report_diff(const struct options *o, char *err, size_t errlen)
{
	struct diff_table t = {};
	int ret;

	ret = diff_side(&t, 0, o->files[0], o, err, errlen);
	if (!ret)
		ret = diff_side(&t, 1, o->files[1], o, err, errlen);
	if (!ret)
		diff_notes(&t, o);
	/* a closed pipe ends the report quietly, as in replay__print() */
	if (!ret && diff_table__print(&t, o->format, o->level, stdout) && errno != EPIPE)
		ret = errmsg(err, errlen, -1, "failed to write the comparison: %s",
			     strerror(errno));
	diff_table__free(&t);
	return ret;
}

static int report_replay(const struct options *o, char *err, size_t errlen)
{
	bool screen = options_interactive(o);
	struct replay r;
	int ret;

	ret = replay__open(&r, o->files[0], o, screen, err, errlen);
	if (!ret)
		ret = screen ? replay__show(&r, o, err, errlen) : replay__print(&r, o, err, errlen);
	if (!ret && r.warning[0])
		fprintf(stderr, "tdtop: %s: %s\n", o->files[0], r.warning);
	name_file(err, errlen, o->files[0]);
	replay__close(&r);
	return ret;
}

/*
 * A command line the recording cannot answer (-s without values, --by
 * cgroup without cgroups) is a usage error; every other failure a
 * runtime one.
 */
int cmd_report(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	int ret;

	/* a closed pipe shows up as a write error: ends the report quietly */
	signal(SIGPIPE, SIG_IGN);
	ret = o->diff ? report_diff(o, err, errlen) : report_replay(o, err, errlen);
	if (ret == -EINVAL)
		return EXIT_USAGE;
	return ret ? EXIT_RUNTIME : EXIT_OK;
}
