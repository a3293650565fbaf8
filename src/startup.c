// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The live session the measuring commands share: checks, cgroups,
 * signals, privileges, what to count, and the interval loop. The
 * functions named session__* return exit codes: here each failure is
 * known to be the user's or the machine's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "measure/privs.h"
#include "startup.h"
#include "util/clock.h"
#include "util/errmsg.h"

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
		return -errno;
	/* a closed pipe shows up as a write error: ends the run quietly */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

void session_drop_privileges(bool verbose)
{
	int ret = privs_drop();

	if (ret && verbose)
		fprintf(stderr, "tdtop: could not drop capabilities: %s\n", strerror(-ret));
}

/* Sleep until *deadline* (CLOCK_MONOTONIC ns) or a signal; skip ahead when late. */
static void wait_until(__u64 *deadline, double delay_s)
{
	struct timespec ts;
	__u64 now;

	*deadline += (__u64)(delay_s * 1e9);
	now = mono_ns();
	if (now > *deadline)
		*deadline = now;
	ts.tv_sec = (time_t)(*deadline / 1000000000ULL);
	ts.tv_nsec = (long)(*deadline % 1000000000ULL);
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* An id not seen yet makes the cache walk the tree (rate-limited). */
static int tree_ancestors(void *ctx, __u64 id, __u64 *out, int max)
{
	struct cgroup_cache *c = ctx;

	if (!cgroup_cache__lookup(c, id, mono_s()))
		return -1;
	return cgroup_cache__ancestors(c, id, (unsigned long long *)out, max);
}

static const char *tree_path(void *ctx, __u64 id)
{
	const struct cgroup_entry *e = cgroup_cache__lookup(ctx, id, mono_s());

	return e ? e->path : NULL;
}

/*
 * Find the cgroup2 mount and resolve -c when cgroups matter for *o*.
 * A -c path that is not a cgroup is a usage error, no cgroup v2 a
 * runtime one.
 */
static int cgroups__open(struct cgroups *cg, const struct options *o, char *err, size_t errlen)
{
	char mount[CGROUP_PATH_MAX], abs[CGROUP_PATH_MAX];
	unsigned long long id;
	int ret;

	memset(cg, 0, sizeof(*cg));
	if (o->by != BY_CGROUP && !o->cgroup)
		return EXIT_OK;
	ret = cgroup2_mount_from_mountinfo(NULL, mount, sizeof(mount));
	if (ret) {
		cgroup2_mount_strerror(ret, err, errlen);
		return EXIT_RUNTIME;
	}
	if (o->cgroup) {
		if (cgroup_resolve_path(mount, o->cgroup, abs, sizeof(abs), &id, err, errlen))
			return EXIT_USAGE;
		cg->selected = id;
		cg->user_path = o->cgroup;
		cg->abs = strdup(abs);
		if (!cg->abs)
			return errmsg(err, errlen, EXIT_RUNTIME, "out of memory");
	}
	ret = cgroup_cache__init(&cg->cache, mount, NULL);
	if (!ret)
		ret = cgroup_cache__refresh(&cg->cache, mono_s());
	if (ret < 0) {
		cgroup_cache__free(&cg->cache);
		free(cg->abs);
		cg->abs = NULL;
		return errmsg(err, errlen, EXIT_RUNTIME, "failed to read the cgroup tree at %s: %s",
			      mount, strerror(-ret));
	}
	cg->tree.ancestors = tree_ancestors;
	cg->tree.path = tree_path;
	cg->tree.ctx = &cg->cache;
	cg->on = true;
	return EXIT_OK;
}

static void cgroups__close(struct cgroups *cg)
{
	if (cg->on)
		cgroup_cache__free(&cg->cache);
	free(cg->abs);
	memset(cg, 0, sizeof(*cg));
}

static void set_method(struct startup *st, const struct td_config *cfg)
{
	size_t len = 0;

	st->method[0] = '\0';
	for (int p = 0; p < cfg->nr_parts; p++)
		len += snprintf(st->method + len, len < sizeof(st->method) ? sizeof(st->method) - len : 0,
				"%s%s", p ? "+" : "", td_method_name(cfg->parts[p].method));
	if (!cfg->nr_parts)
		snprintf(st->method, sizeof(st->method), "none");
}

static int open_live(struct startup *st, const struct options *o, const struct td_config *parts,
		     struct live *live, char *err, size_t errlen)
{
	char note[256];
	struct collector_opts copts = {
		.events = &st->events,
		.sysfs = st->sysfs,
		.parts = parts,
		.max_tasks = o->max_tasks,
		.helper_reads = o->helper_reads,
		.by_cgroup = st->by_cgroup,
		.verbose = o->verbose,
		.note = note,
		.notelen = sizeof(note),
	};
	int ret = live__open(live, &copts, err, errlen);

	if (o->verbose && note[0])
		fprintf(stderr, "tdtop: %s\n", note);
	return ret;
}

/* IPC without TopDown: give cycles and instructions their roles. */
static void ipc_roles(struct pipeline *p)
{
	for (int i = 0; i < p->nr_events; i++) {
		if (!strcmp(p->names[i], "cycles"))
			p->cfg.role[i] = TD_CYCLES;
		else if (!strcmp(p->names[i], "instructions"))
			p->cfg.role[i] = TD_INSTRUCTIONS;
	}
}

/* The events of st->events, parsed by the caller. -errno from live__open(). */
static int open_events(struct startup *st, const struct options *o, struct live *live,
		       char *err, size_t errlen)
{
	pipeline__init(&st->pipe, &st->events);
	ipc_roles(&st->pipe);
	return open_live(st, o, NULL, live, err, errlen);
}

/* A fallback list of events: parsed and opened, or -errno. */
static int open_fallback(struct startup *st, const struct options *o, const char *sysfs,
			 const char *list, struct live *live, char *err, size_t errlen)
{
	int ret = event_list__parse(sysfs, list, &st->events, err, errlen);

	return ret ? ret : open_events(st, o, live, err, errlen);
}

/* TopDown as discovered; on failure *why* says what stood in the way. */
static int open_topdown(struct startup *st, const struct options *o, struct live *live,
			char *why, size_t whylen)
{
	struct td_discovery *d = &st->disc;
	char err[512];
	int ret;

	if (!d->cfg.nr_parts) {
		snprintf(why, whylen, "%s", d->reason);
		return -ENOENT;
	}
	if (d->cfg.per_core_only && !o->allow_smt) {
		snprintf(why, whylen,
			 "SMT is on and this CPU's TopDown events count whole cores, so per-task "
			 "values would be wrong (--allow-smt shows them anyway)");
		return -EINVAL;
	}
	st->events = d->events;
	ret = open_live(st, o, &d->cfg, live, err, sizeof(err));
	if (ret) {
		td_discovery__open_failure_reason(d, -ret, why, whylen);
		return ret;
	}
	pipeline__init(&st->pipe, &st->events);
	st->pipe.cfg = d->cfg;
	td_discovery__scales(d, st->pipe.scale);
	st->pipe.topdown = true;
	st->level = o->level < d->cfg.max_level ? o->level : d->cfg.max_level;
	set_method(st, &d->cfg);
	if (o->level > st->level)
		snprintf(st->notice, sizeof(st->notice), "level 2 is not available on this CPU");
	if (d->cfg.per_core_only)
		snprintf(st->notice, sizeof(st->notice),
			 "SMT is on: these TopDown events count whole cores, per-task values are "
			 "approximate");
	return 0;
}

/* Parse -e or discover TopDown, then open the first choice that works. */
static int startup__open(struct startup *st, const struct options *o, const char *sysfs,
			 bool by_cgroup, struct live *live, char *err, size_t errlen)
{
	const char *fallback = FALLBACK_HW_EVENTS;
	char why[TD_REASON_LEN];

	memset(st, 0, sizeof(*st));
	st->by_cgroup = by_cgroup;
	st->sysfs = sysfs;
	st->level = 1;
	snprintf(st->method, sizeof(st->method), "none");
	if (o->events) {
		if (event_list__parse(sysfs, o->events, &st->events, err, errlen))
			return EXIT_USAGE;
		if (open_events(st, o, live, err, errlen))
			return EXIT_RUNTIME;
		snprintf(st->title, sizeof(st->title), "events: %s", o->events);
		goto done;
	}

	if (td_discover(sysfs, o->level, &st->disc, err, errlen))
		return EXIT_RUNTIME;
	if (!open_topdown(st, o, live, why, sizeof(why))) {
		snprintf(st->title, sizeof(st->title), "%s, TopDown %s", st->disc.cpu_model,
			 st->method);
		goto done;
	}
	if (o->strict)
		return errmsg(err, errlen, EXIT_RUNTIME, "TopDown is not available: %s", why);
	/* IPC from hardware counters, else software events */
	if (open_fallback(st, o, sysfs, fallback, live, err, errlen)) {
		fallback = DEFAULT_EVENTS;
		if (open_fallback(st, o, sysfs, fallback, live, err, errlen))
			return EXIT_RUNTIME;
	}
	snprintf(st->notice, sizeof(st->notice), "TopDown unavailable: %s; counting %s instead",
		 why, fallback);
	snprintf(st->title, sizeof(st->title), "%s, no TopDown: %s", st->disc.cpu_model, fallback);
done:
	st->pipe.method = st->method;
	st->pipe.notice = st->notice[0] ? st->notice : NULL;
	return EXIT_OK;
}

static int check_pids(const struct options *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->nr_pids; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/proc/%d", o->pids[i]);
		if (access(path, F_OK))
			return errmsg(err, errlen, -ESRCH, "no process with PID %d", o->pids[i]);
	}
	return 0;
}

/* Mistakes in -e are usage errors, reported before privileges matter. */
static int check_events(const char *sysfs, const struct options *o, char *err, size_t errlen)
{
	struct event_list el;

	return o->events ? event_list__parse(sysfs, o->events, &el, err, errlen) : 0;
}

/* A sort key may name an event by an alias (cs for context-switches). */
static int parse_sort(const char *sysfs, const char *key, const struct pipeline *p,
		      struct sort_key *out)
{
	struct event_list el;
	char err[256];

	if (!sort_key__parse(key, p->names, p->nr_events, out))
		return 0;
	if (event_list__parse(sysfs, key, &el, err, sizeof(err)) || el.nr != 1)
		return -EINVAL;
	return sort_key__parse(el.ev[0].name, p->names, p->nr_events, out);
}

int session__open(struct session *s, const struct options *o, const char *sysfs, char *err,
		  size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (check_events(sysfs, o, err, errlen) || check_pids(o, err, errlen))
		return EXIT_USAGE;
	ret = cgroups__open(&s->cg, o, err, errlen);
	if (ret)
		return ret;
	s->view.by = o->by;
	s->view.cg = s->cg.on ? &s->cg.tree : NULL;
	s->view.within = s->cg.selected;
	s->view.cgroup_depth = o->cgroup_depth;
	s->view.pids = o->pids;
	s->view.nr_pids = o->nr_pids;
	if (o->nr_pids) {
		if (targets__init(&s->targets, "/proc", o->pids, o->nr_pids))
			return errmsg(err, errlen, EXIT_RUNTIME, "out of memory");
		s->view.absent = &s->targets.absent;
	}
	s->view.top = o->top;
	s->view.sort.kind = SORT_CPU;
	return EXIT_OK;
}

int session__start(struct session *s, const struct options *o, const char *sysfs, char *err,
		   size_t errlen)
{
	int ret;

	if (!privs_enough())
		return errmsg(err, errlen, EXIT_RUNTIME,
			      "needs root, or the CAP_BPF and CAP_PERFMON capabilities");
	ret = install_signals();
	if (ret)
		return errmsg(err, errlen, EXIT_RUNTIME, "failed to install signal handlers: %s",
			      strerror(-ret));
	ret = startup__open(&s->st, o, sysfs, s->cg.on, &s->live, err, errlen);
	if (ret)
		return ret;
	if (!o->sort)
		return EXIT_OK;
	if (parse_sort(sysfs, o->sort, &s->st.pipe, &s->view.sort))
		return errmsg(err, errlen, EXIT_USAGE,
			      "unknown sort key '%s' (want cpu, pid, comm, a TopDown field or an event)",
			      o->sort);
	if (!pipeline__check_sort(&s->st.pipe, o->sort, &s->view.sort, o->by, err, errlen))
		return EXIT_OK;
	if (o->cmd != CMD_TOP || !options_interactive(o))
		return EXIT_USAGE;
	snprintf(s->sort_note, sizeof(s->sort_note), "-s %s: %s; sorted by cpu", o->sort,
		 pipeline__sort_missing(&s->st.pipe, &s->view.sort, o->by));
	s->view.sort = (struct sort_key){ .kind = SORT_CPU, .event = -1 };
	return EXIT_OK;
}

void session__close(struct session *s)
{
	live__close(&s->live);
	cgroups__close(&s->cg);
	targets__free(&s->targets);
	sample__free(&s->sample);
}

void session__print_notice(const struct session *s)
{
	if (s->st.notice[0])
		fprintf(stderr, "tdtop: %s\n", s->st.notice);
}

void session__drop_gone_cgroups(struct session *s)
{
	if (s->cg.on)
		cgroup_cache__drop_gone(&s->cg.cache);
}

bool session__follow_cgroup(struct session *s, char *msg, size_t len)
{
	struct cgroups *cg = &s->cg;
	struct stat st;
	__u64 was;

	if (!cg->abs)
		return false;
	/* on cgroupfs the inode number is the id the kernel charges by */
	if (stat(cg->abs, &st) || !S_ISDIR(st.st_mode)) {
		if (cg->missing)
			return false;
		cg->missing = true;
		snprintf(msg, len, "cgroup %s was removed; rows stay empty until the path is a cgroup again",
			 cg->user_path);
		return true;
	}
	cg->missing = false;
	if (st.st_ino == cg->selected)
		return false;
	was = cg->selected;
	cg->selected = st.st_ino;
	s->view.within = st.st_ino;
	/* the new id and its subtree are unknown to the cache yet */
	cgroup_cache__refresh(&cg->cache, mono_s());
	snprintf(msg, len, "cgroup %s was created again (id %llu, was %llu); following it",
		 cg->user_path, (unsigned long long)st.st_ino,
		 (unsigned long long)was);
	return true;
}

/*
 * Every -p process had exited an interval ago: the charges of its last
 * moments are in, this interval is the last.
 */
static bool targets_done(struct session *s)
{
	bool gone = targets__all_gone(&s->targets);
	bool done = gone && s->targets_gone;

	s->targets_gone = gone;
	return done;
}

static void print_targets_end(const struct targets *t)
{
	if (t->nr == 1)
		fprintf(stderr, "tdtop: process %d has exited\n", t->t[0].pid);
	else
		fprintf(stderr, "tdtop: all %zu processes of -p have exited\n", t->nr);
}

int session__run(struct session *s, const struct options *o, session_each_fn each, void *arg,
		 char *err, size_t errlen)
{
	char note[CGROUP_PATH_MAX + 128];
	__u64 deadline;
	long done = 0;
	int ret;

	session_drop_privileges(o->verbose);
	deadline = mono_ns();
	ret = live__next(&s->live, &s->sample, err, errlen);	/* the baseline */
	while (ret >= 0 && !stop) {
		wait_until(&deadline, o->delay_s);
		/* an interrupted interval is still handed over: no data lost */
		ret = live__next(&s->live, &s->sample, err, errlen);
		if (!ret && session__follow_cgroup(s, note, sizeof(note)))
			fprintf(stderr, "tdtop: %s\n", note);
		if (!ret) {
			targets__refresh(&s->targets);
			s->last = targets_done(s);
			ret = each(s, arg, err, errlen);
		}
		if (!ret && s->last)
			print_targets_end(&s->targets);
		if (ret || (o->iterations && ++done >= o->iterations) || s->last)
			break;
	}
	return ret < 0 ? EXIT_RUNTIME : EXIT_OK;
}

struct rows_sink {
	session_emit_fn emit;
	void *arg;
};

static int rows_each(struct session *s, void *arg, char *err, size_t errlen)
{
	const struct rows_sink *sink = arg;
	struct interval iv;
	int ret;

	if (pipeline__build(&s->st.pipe, &s->sample, &s->view, s->st.level, &iv))
		return errmsg(err, errlen, -ENOMEM, "out of memory");
	iv.bpf_ns_per_switch = s->live.bpf_ns_per_switch;
	iv.self_cpu_pct = s->live.self_cpu_pct;
	ret = sink->emit(sink->arg, &iv, err, errlen);
	interval__free_rows(&iv);
	session__drop_gone_cgroups(s);
	return ret;
}

int session__run_rows(struct session *s, const struct options *o, session_emit_fn emit,
		      void *arg, char *err, size_t errlen)
{
	struct rows_sink sink = { .emit = emit, .arg = arg };

	return session__run(s, o, rows_each, &sink, err, errlen);
}
