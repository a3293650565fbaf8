// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "startup.h"

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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

int cgroups_open(struct cgroups *cg, const struct options *o, char *err, size_t errlen)
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
	}
	ret = cgroup_cache__init(&cg->cache, mount, NULL);
	if (!ret)
		ret = cgroup_cache__refresh(&cg->cache, mono_s());
	if (ret < 0) {
		snprintf(err, errlen, "failed to read the cgroup tree at %s: %s", mount,
			 strerror(-ret));
		cgroup_cache__free(&cg->cache);
		return EXIT_RUNTIME;
	}
	cg->tree.ancestors = tree_ancestors;
	cg->tree.path = tree_path;
	cg->tree.ctx = &cg->cache;
	cg->on = true;
	return EXIT_OK;
}

void cgroups_close(struct cgroups *cg)
{
	if (cg->on)
		cgroup_cache__free(&cg->cache);
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
	struct collector_opts copts = {
		.events = &st->events,
		.parts = parts,
		.max_tasks = o->max_tasks,
		.helper_reads = o->helper_reads,
		.by_cgroup = st->by_cgroup,
		.verbose = o->verbose,
	};

	return live__open(live, &copts, err, errlen);
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

/* 1 when the list does not parse (a usage error), else open_live()'s result. */
static int open_events(struct startup *st, const struct options *o, const char *sysfs,
		       const char *list, struct live *live, char *err, size_t errlen)
{
	if (events_parse(sysfs, list, &st->events, err, errlen))
		return 1;
	pipeline__init(&st->pipe, &st->events);
	ipc_roles(&st->pipe);
	return open_live(st, o, NULL, live, err, errlen);
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
		td_open_failure_reason(d, -ret, why, whylen);
		return ret;
	}
	pipeline__init(&st->pipe, &st->events);
	st->pipe.cfg = d->cfg;
	td_discovery_scales(d, st->pipe.scale);
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

int startup_open(struct startup *st, const struct options *o, const char *sysfs,
		 bool by_cgroup, struct live *live, char *err, size_t errlen)
{
	const char *fallback = FALLBACK_HW_EVENTS;
	char why[TD_REASON_LEN];
	int ret;

	memset(st, 0, sizeof(*st));
	st->by_cgroup = by_cgroup;
	st->level = 1;
	snprintf(st->method, sizeof(st->method), "none");
	if (o->events) {
		ret = open_events(st, o, sysfs, o->events, live, err, errlen);
		if (ret)
			return ret > 0 ? EXIT_USAGE : EXIT_RUNTIME;
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
	if (o->strict) {
		snprintf(err, errlen, "TopDown is not available: %s", why);
		return EXIT_RUNTIME;
	}
	/* IPC from hardware counters, else software events */
	if (open_events(st, o, sysfs, fallback, live, err, errlen)) {
		fallback = DEFAULT_EVENTS;
		if (open_events(st, o, sysfs, fallback, live, err, errlen))
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
