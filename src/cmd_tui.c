// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop on a terminal: the live session shown in the interactive view. */
#include <stdio.h>
#include "commands.h"
#include "startup.h"
#include "tui/rc.h"
#include "tui/tui.h"

unsigned int cmd_tui_overrides(const struct options *o)
{
	return (o->sort ? TUI_RC_SORT : 0) | (o->delay_given ? TUI_RC_DELAY : 0) |
	       (o->level_given ? TUI_RC_LEVEL : 0);
}

static int screen_fetch(void *arg, struct sample *out, char *err, size_t errlen)
{
	char note[CGROUP_PATH_MAX + 128];
	struct session *s = arg;
	int ret;

	/* the interval shown last was the last report of removed cgroups */
	session__drop_gone_cgroups(s);
	ret = live__next(&s->live, out, err, errlen);
	targets__refresh(&s->targets);
	/* stderr would tear the screen: the header's path is the cgroup followed */
	session__follow_cgroup(s, note, sizeof(note));

	return ret < 0 ? TUI_FETCH_ERROR : ret == 1 ? TUI_FETCH_BASELINE : TUI_FETCH_OK;
}

static double screen_self_cost(void *arg, double *bpf_ns)
{
	struct session *s = arg;

	*bpf_ns = s->live.bpf_ns_per_switch;
	return s->live.self_cpu_pct;
}

/* The notice is in the screen's header, not on stderr. */
int cmd_tui_run(const struct tui_source *src, const struct tui_opts *t, char *err,
		size_t errlen)
{
	char note[TUI_NOTE_LEN];
	int ret = tui_run(src, t, err, errlen, note, sizeof(note));

	if (note[0])
		fprintf(stderr, "tdtop: %s\n", note);
	return ret;
}

static int screen_show(struct session *s, const struct options *o, char *err, size_t errlen)
{
	const struct startup *st = &s->st;
	struct tui_source src = {
		.fetch = screen_fetch,
		.pipe = &st->pipe,
		.self_cost = screen_self_cost,
		.arg = s,
		.live = true,
	};
	struct tui_opts t = {
		.delay_s = o->delay_s,
		.iterations = o->iterations,
		.view = s->view,
		.level = st->level,
		.level2_available = st->pipe.topdown && st->level >= 2,
		.level2_why = st->pipe.topdown && st->disc.cfg.max_level < 2
				      ? "this CPU has no TopDown level 2"
				      : "start tdtop with --level 2",
		/* the kernel charges per cgroup only when asked at start: view.cg is its tree */
		.cgroups_available = s->cg.on,
		.title = st->title,
		.names = st->pipe.names,
		.nr_events = st->pipe.nr_events,
		.topdown = st->pipe.topdown,
		.color = true,
		.cmdline = cmd_tui_overrides(o),
		.note = s->sort_note,
	};

	session_drop_privileges(o->verbose);
	return cmd_tui_run(&src, &t, err, errlen) ? EXIT_RUNTIME : EXIT_OK;
}

int cmd_tui(const struct options *opts, const char *sysfs, char *err, size_t errlen)
{
	struct options o = *opts;
	int saved = o.level_given ? 0 : tui_rc__saved_level();
	struct session s;
	int ret;

	/* the counters of a saved level are opened from the start */
	if (saved)
		o.level = saved;
	ret = session__open(&s, &o, sysfs, err, errlen);
	if (!ret)
		ret = session__start(&s, &o, sysfs, err, errlen);
	if (!ret)
		ret = screen_show(&s, &o, err, errlen);
	session__close(&s);
	return ret;
}
