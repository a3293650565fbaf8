// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop: per-task counter attribution for every task on the machine.
 * main() validates the command line, sets up the collector and runs the
 * interval loop: snapshot -> deltas -> rows -> output.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "rows/aggregate.h"
#include "measure/live.h"
#include "pmu/discover.h"
#include "exporter/exporter.h"
#include "pmu/events.h"
#include "options.h"
#include "output/output.h"
#include "rows/pipeline.h"
#include "measure/privs.h"
#include "record/recmeta.h"
#include "record/record.h"
#include "report.h"
#include "startup.h"
#include "tui/tui.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static int install_signals(void)
{
	/*
	 * SA_RESTART: a write blocked on a full pipe resumes instead of failing
	 * with EINTR, which would make stdio drop what it had buffered. The
	 * interval sleep (clock_nanosleep) still wakes: the kernel never
	 * restarts sleeps.
	 */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL))
		return -1;
	/* a closed pipe shows up as a write error: ends the run quietly */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int check_pids(const struct options *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->nr_pids; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/proc/%d", o->pids[i]);
		if (access(path, F_OK)) {
			snprintf(err, errlen, "no process with PID %d", o->pids[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Loaded, counting, and the output opened: what is left to do needs far
 * less than what got here.
 */
static void drop_privileges(const struct options *o)
{
	int ret = privs_drop();

	if (ret && o->verbose)
		fprintf(stderr, "tdtop: could not drop capabilities: %s\n", strerror(-ret));
}

/* Sleep until *deadline* (CLOCK_MONOTONIC) or a signal; skip ahead when late. */
static void wait_until(struct timespec *deadline, double delay_s)
{
	struct timespec now;
	long long step = (long long)(delay_s * 1e9);

	deadline->tv_sec += step / 1000000000LL;
	deadline->tv_nsec += step % 1000000000LL;
	if (deadline->tv_nsec >= 1000000000L) {
		deadline->tv_sec++;
		deadline->tv_nsec -= 1000000000L;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > deadline->tv_sec ||
	    (now.tv_sec == deadline->tv_sec && now.tv_nsec > deadline->tv_nsec))
		*deadline = now;
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
}

struct run {
	struct startup st;
	struct cgroups cg;
	struct exporter *ex;	/* exporter mode: intervals go to /metrics */
	struct live live;
	struct sample sample;
	struct output *out;
	struct view view;
};

/* One interval: measure, build rows, print. -1: the reader went away. */
static int step(struct run *r, char *err, size_t errlen)
{
	struct interval iv;
	int ret;

	ret = live__next(&r->live, &r->sample, err, errlen);
	if (ret)
		return ret < 0 ? EXIT_RUNTIME : EXIT_OK;
	if (pipeline_build(&r->st.pipe, &r->sample, &r->view, r->st.level, &iv)) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	iv.bpf_ns_per_switch = r->live.bpf_ns_per_switch;
	iv.self_cpu_pct = r->live.self_cpu_pct;
	ret = r->ex ? exporter__publish(r->ex, &iv) : output__interval(r->out, &iv);
	interval__free_rows(&iv);
	if (r->ex && ret) {
		snprintf(err, errlen, "failed to publish metrics: %s", strerror(-ret));
		return EXIT_RUNTIME;
	}
	/* removed cgroups have had their last report */
	if (r->cg.on)
		cgroup_cache__drop_gone(&r->cg.cache);
	return ret ? -1 : EXIT_OK;
}

static int run_batch(struct run *r, const struct options *o, char *err, size_t errlen)
{
	struct timespec deadline;
	long done = 0;
	int ret;

	drop_privileges(o);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	ret = step(r, err, errlen);	/* the baseline */
	while (ret == EXIT_OK && !stop) {
		wait_until(&deadline, o->delay_s);
		/* an interrupted interval is still reported: no data lost */
		ret = step(r, err, errlen);
		if (o->iterations && ++done >= o->iterations)
			break;
	}
	return ret < 0 ? EXIT_OK : ret;
}

static int tui_fetch(void *arg, struct sample *out, char *err, size_t errlen)
{
	struct run *r = arg;
	int ret;

	/* the interval shown last was the last report of removed cgroups */
	if (r->cg.on)
		cgroup_cache__drop_gone(&r->cg.cache);
	ret = live__next(&r->live, out, err, errlen);

	return ret < 0 ? TUI_FETCH_ERROR : ret == 1 ? TUI_FETCH_BASELINE : TUI_FETCH_OK;
}

static int tui_build(void *arg, const struct sample *s, const struct view *v, int level,
		     struct interval *iv)
{
	struct run *r = arg;

	return pipeline_build(&r->st.pipe, s, v, level, iv) ? -1 : 0;
}

static double tui_self_cost(void *arg, double *bpf_ns)
{
	struct run *r = arg;

	*bpf_ns = r->live.bpf_ns_per_switch;
	return r->live.self_cpu_pct;
}

static int run_tui(struct run *r, const struct options *o, char *err, size_t errlen)
{
	struct tui_source src = {
		.fetch = tui_fetch,
		.build = tui_build,
		.self_cost = tui_self_cost,
		.arg = r,
		.live = true,
	};
	struct tui_opts t = {
		.delay_s = o->delay_s,
		.iterations = o->iterations,
		.view = r->view,
		.level = r->st.level,
		.level2_available = r->st.pipe.topdown && r->st.level >= 2,
		.level2_why = r->st.pipe.topdown && r->st.disc.cfg.max_level < 2
				      ? "this CPU has no TopDown level 2"
				      : "start tdtop with --level 2",
		/* the kernel charges per cgroup only when asked at start: view.cg is its tree */
		.cgroups_available = r->cg.on,
		.title = r->st.title,
		.names = r->st.pipe.names,
		.nr_events = r->st.pipe.nr_events,
		.topdown = r->st.pipe.topdown,
		.color = true,
	};

	drop_privileges(o);
	return tui_run(&src, &t, err, errlen);
}

/* The screen when a person is looking; batch output for pipes and files. */
static bool interactive(const struct options *o)
{
	return !o->batch && o->format == OUTPUT_TEXT && isatty(STDOUT_FILENO) &&
	       isatty(STDIN_FILENO);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int record_header(struct run *r, const struct options *o, struct rec_header *h)
{
	rec_header__init_host(h, "/proc/cpuinfo");
	h->ncpus = collector__ncpus(r->live.col);
	if (recmeta_from_pipeline(h, &r->st.pipe, &r->st.events))
		return -1;
	h->delay_s = o->delay_s;
	snprintf(h->group_by, sizeof(h->group_by), "%s",
		 o->by == BY_CGROUP ? "cgroup" : o->by == BY_THREAD ? "thread" : "process");
	snprintf(h->cgroup, sizeof(h->cgroup), "%s", o->cgroup ? o->cgroup : "");
	h->cgroup_depth = o->cgroup_depth;
	h->max_tasks = o->max_tasks;
	h->nr_pids = (int)o->nr_pids;
	memcpy(h->pids, o->pids, o->nr_pids * sizeof(o->pids[0]));
	return 0;
}

/*
 * tdtop record: the raw per-task deltas of every interval, so a report
 * can rebuild any view. Filters only shape the header: everything is kept.
 */
static int run_record(struct run *r, const struct options *o, char *err, size_t errlen)
{
	struct timespec deadline, start;
	struct rec_header h;
	struct recorder *rec;
	long done = 0;
	size_t rows = 0;
	int ret;

	if (record_header(r, o, &h)) {
		snprintf(err, errlen, "failed to describe the events in the recording header");
		return EXIT_RUNTIME;
	}
	rec = recorder__open(o->record_path, &h, ends_with(o->record_path, ".gz"), err, errlen);
	if (!rec)
		return EXIT_RUNTIME;
	drop_privileges(o);
	clock_gettime(CLOCK_MONOTONIC, &start);
	deadline = start;
	ret = live__next(&r->live, &r->sample, err, errlen);	/* the baseline */
	while (ret >= 0 && !stop) {
		struct timespec now;

		wait_until(&deadline, o->delay_s);
		ret = live__next(&r->live, &r->sample, err, errlen);
		if (ret)
			break;
		/* names first: a replay shows cgroup rows with their paths */
		if (r->cg.on)
			recorder__write_cgroups(rec, &r->sample, &r->cg.tree, err, errlen);
		if (recorder__write(rec, &r->sample, err, errlen)) {
			ret = -1;
			break;
		}
		rows += r->sample.nr;
		done++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((o->iterations && done >= o->iterations) ||
		    (o->duration_s > 0 &&
		     (now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 >=
			     o->duration_s - 1e-3))
			break;
	}
	if (ret >= 0 && recorder__close(rec, err, errlen))
		ret = -1;
	else if (ret < 0)
		recorder__close(rec, NULL, 0);
	if (ret < 0)
		return EXIT_RUNTIME;
	fprintf(stderr, "tdtop: recorded %ld intervals, %zu task rows to %s\n", done, rows,
		o->record_path);
	return EXIT_OK;
}

/* tdtop exporter: the batch loop, publishing each interval to /metrics. */
static int run_exporter(struct run *r, const struct options *o, struct exporter_opts *eo,
			char *err, size_t errlen)
{
	char url[128];

	if (r->st.notice[0])
		fprintf(stderr, "tdtop: %s\n", r->st.notice);
	eo->prom.version = TDTOP_VERSION;
	eo->prom.method = r->st.method;
	eo->log = stderr;
	prom_event_kinds(r->st.pipe.cfg.role, r->st.pipe.names, r->st.pipe.nr_events,
			 eo->prom.event_kind);
	r->ex = exporter__start(eo, err, errlen);
	if (!r->ex)
		return EXIT_RUNTIME;
	exporter_opts__describe(eo, url, sizeof(url));
	fprintf(stderr, "tdtop: serving metrics on %s\n", url);
	return run_batch(r, o, err, errlen);
}

/* A sort key may name an event by an alias (cs for context-switches). */
static int parse_sort(const char *sysfs, const char *key, const struct pipeline *p,
		      struct sort_key *out)
{
	struct event_list el;
	char err[256];

	if (!sort_key_parse(key, p->names, p->nr_events, out))
		return 0;
	if (events_parse(sysfs, key, &el, err, sizeof(err)) || el.nr != 1)
		return -1;
	return sort_key_parse(el.ev[0].name, p->names, p->nr_events, out);
}

/* Mistakes in -e are usage errors, reported before privileges matter. */
static int check_events(const char *sysfs, const struct options *o, char *err, size_t errlen)
{
	struct event_list el;

	return o->events ? events_parse(sysfs, o->events, &el, err, errlen) : 0;
}

static int list_topdown(const char *sysfs, const struct options *o, char *err, size_t errlen)
{
	struct td_discovery d;

	if (td_discover(sysfs, o->level, &d, err, errlen))
		return EXIT_RUNTIME;
	td_discovery_print(&d, stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	const char *sysfs = getenv("TDTOP_SYSFS") ? getenv("TDTOP_SYSFS") : "/sys";
	struct exporter_opts eo = {};
	struct run r = {};
	struct options o;
	char err[512] = "";
	int ret = EXIT_USAGE;

	if (options_parse(argc, argv, &o, err, sizeof(err)))
		goto out;
	if (o.help) {
		options_usage(stdout, o.cmd);
		return EXIT_OK;
	}
	if (o.version) {
		printf("tdtop %s\n", TDTOP_VERSION);
		return EXIT_OK;
	}
	if (o.list_events) {
		events_print_list(sysfs, stdout);
		return EXIT_OK;
	}
	if (o.list) {
		ret = list_topdown(sysfs, &o, err, sizeof(err));
		goto out;
	}
	if (o.cmd == CMD_REPORT) {
		signal(SIGPIPE, SIG_IGN);
		ret = report_run(&o, interactive(&o), err, sizeof(err));
		goto out;
	}
	if (check_events(sysfs, &o, err, sizeof(err)) || check_pids(&o, err, sizeof(err)))
		goto out;
	ret = cgroups_open(&r.cg, &o, err, sizeof(err));
	if (ret)
		goto out;
	if (o.cmd == CMD_EXPORTER &&
	    exporter_opts__parse(&eo, &(struct exporter_args){ o.listen, o.web_config, o.by,
							       o.by_comm, o.top, o.delay_s },
				 err, sizeof(err))) {
		ret = EXIT_USAGE;
		goto out;
	}
	ret = EXIT_USAGE;
	r.view.by = o.by;
	r.view.cg = r.cg.on ? &r.cg.tree : NULL;
	r.view.within = r.cg.selected;
	r.view.cgroup_depth = o.cgroup_depth;
	r.view.pids = o.pids;
	r.view.nr_pids = o.nr_pids;
	/* the exporter applies its own top-N to the series it keeps */
	r.view.top = o.cmd == CMD_EXPORTER ? 0 : o.top;
	r.view.sort.kind = SORT_CPU;

	ret = EXIT_RUNTIME;
	if (!privs_enough()) {
		snprintf(err, sizeof(err),
			 "needs root, or the CAP_BPF and CAP_PERFMON capabilities");
		goto out;
	}
	if (install_signals()) {
		snprintf(err, sizeof(err), "failed to install signal handlers: %s",
			 strerror(errno));
		goto out;
	}
	ret = startup_open(&r.st, &o, sysfs, r.cg.on, &r.live, err, sizeof(err));
	if (ret)
		goto out;
	if (o.sort && parse_sort(sysfs, o.sort, &r.st.pipe, &r.view.sort)) {
		snprintf(err, sizeof(err),
			 "unknown sort key '%s' (want cpu, pid, comm, a TopDown field or an event)",
			 o.sort);
		ret = EXIT_USAGE;
		goto out;
	}
	if (o.cmd == CMD_RECORD) {
		if (r.st.notice[0])
			fprintf(stderr, "tdtop: %s\n", r.st.notice);
		ret = run_record(&r, &o, err, sizeof(err));
		goto out;
	}
	if (o.cmd == CMD_EXPORTER) {
		ret = run_exporter(&r, &o, &eo, err, sizeof(err));
		goto out;
	}
	if (interactive(&o)) {
		/* the notice is in the screen's header */
		ret = run_tui(&r, &o, err, sizeof(err));
		goto out;
	}
	if (r.st.notice[0])
		fprintf(stderr, "tdtop: %s\n", r.st.notice);
	ret = EXIT_RUNTIME;
	r.out = output__new(o.format, stdout);
	if (!r.out) {
		snprintf(err, sizeof(err), "out of memory");
		goto out;
	}
	ret = run_batch(&r, &o, err, sizeof(err));
out:
	if (ret != EXIT_OK && err[0])
		fprintf(stderr, "tdtop: %s\n", err);
	exporter__stop(r.ex);
	exporter_opts__free(&eo);
	live__close(&r.live);
	cgroups_close(&r.cg);
	output__free(r.out);
	sample__free(&r.sample);
	return ret;
}
