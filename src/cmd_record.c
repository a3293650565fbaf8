// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop record: the raw per-task deltas of every interval to a file, so
 * that a report can rebuild any view. Filters only shape the header:
 * everything is kept.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "record/recmeta.h"
#include "record/record.h"
#include "startup.h"
#include "util/clock.h"
#include "util/errmsg.h"
#include "util/strutil.h"

struct record {
	const struct options *o;
	struct recorder *rec;
	__u64 start_ns;		/* CLOCK_MONOTONIC when recording began */
	long intervals;
	size_t rows;
};

/* The machine, the events and the command line, for the report. */
static int header_fill(struct rec_header *h, const struct session *s, const struct options *o)
{
	rec_header__init_host(h, "/proc/cpuinfo");
	h->ncpus = collector__ncpus(s->live.col);
	if (recmeta_from_pipeline(h, &s->st.pipe, &s->st.events))
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

/* One interval appended; 1 once --duration has passed. */
static int record__each(struct session *s, void *arg, char *err, size_t errlen)
{
	struct record *r = arg;
	double duration_s = r->o->duration_s;

	/* names first: a replay shows cgroup rows with their paths; a refused
	 * cgroup (a path beyond the format's limits) is left unnamed */
	if (s->cg.on && recorder__write_cgroups(r->rec, &s->sample, &s->cg.tree, err, errlen) < 0)
		return -1;
	if (recorder__write(r->rec, &s->sample, err, errlen))
		return -1;
	r->rows += s->sample.nr;
	r->intervals++;
	return duration_s > 0 && (mono_ns() - r->start_ns) / 1e9 >= duration_s - 1e-3;
}

static int record__run(struct record *r, struct session *s, char *err, size_t errlen)
{
	const char *path = r->o->record_path;
	struct rec_header h;
	int ret;

	if (header_fill(&h, s, r->o))
		return errmsg(err, errlen, EXIT_RUNTIME,
			      "failed to describe the events in the recording header");
	r->rec = recorder__open(path, &h, ends_with(path, strlen(path), ".gz"), err, errlen);
	if (!r->rec)
		return EXIT_RUNTIME;
	r->start_ns = mono_ns();
	ret = session__run(s, r->o, record__each, r, err, errlen);
	if (ret == EXIT_OK && recorder__close(r->rec, err, errlen))
		ret = EXIT_RUNTIME;
	else if (ret != EXIT_OK)
		recorder__close(r->rec, NULL, 0);
	if (ret == EXIT_OK)
		fprintf(stderr, "tdtop: recorded %ld intervals, %zu task rows to %s\n",
			r->intervals, r->rows, path);
	return ret;
}

int cmd_record(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct record r = { .o = o };
	struct session s;
	int ret;

	ret = session__open(&s, o, sysfs, err, errlen);
	if (!ret)
		ret = session__start(&s, o, sysfs, err, errlen);
	if (!ret) {
		session__print_notice(&s);
		ret = record__run(&r, &s, err, errlen);
	}
	session__close(&s);
	return ret;
}
