// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tdtop record: the raw per-task deltas of every interval to a file, so
 * that a report can rebuild any view. Filters only shape the header:
 * everything is kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "measure/owners.h"
#include "record/recmeta.h"
#include "record/record.h"
#include "startup.h"
#include "util/clock.h"
#include "util/errmsg.h"
#include "util/strutil.h"

struct record {
	const struct options *o;
	int fd;			/* the output until the recorder takes it, or -1 */
	bool created;		/* by us: removed when nothing could be recorded */
	bool regular;		/* a regular file: truncated when the header goes out */
	bool progress;		/* stderr is a terminal: show the intervals so far */
	struct recorder *rec;
	struct owners *owners;	/* who each task belongs to; NULL when /proc cannot say */
	__u64 start_ns;		/* CLOCK_MONOTONIC when recording began */
	long intervals;
	size_t rows;
};

/*
 * Open the output before anything is loaded, so that an unwritable path
 * fails at once. An existing regular file is refused without --force,
 * and with it kept as it is until the header is written.
 */
static int record__create(struct record *r, char *err, size_t errlen)
{
	const char *path = r->o->record_path;
	struct stat st;

	if (!strcmp(path, "-")) {
		r->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	} else {
		r->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		r->created = r->fd >= 0;
		if (r->fd < 0 && errno == EEXIST)
			r->fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (r->fd < 0)
		return errmsg(err, errlen, EXIT_RUNTIME, "failed to open %s: %s", path,
			      strerror(errno));
	r->regular = !fstat(r->fd, &st) && S_ISREG(st.st_mode);
	if (r->regular && !r->created && !r->o->force)
		return errmsg(err, errlen, EXIT_RUNTIME,
			      "%s exists: give --force to overwrite it, or another -o FILE", path);
	r->progress = isatty(STDERR_FILENO);
	return EXIT_OK;
}

/* Where it records, and the intervals so far on the same line. */
static void record__progress(const struct record *r)
{
	if (!r->progress)
		return;
	fprintf(stderr, "\rtdtop: recording to %s, Ctrl-C to stop", r->o->record_path);
	if (r->intervals)
		fprintf(stderr, ": %ld interval%s, %zu task rows", r->intervals,
			r->intervals == 1 ? "" : "s", r->rows);
}

/* The machine, the events and the command line, for the report. */
static int header_fill(struct rec_header *h, const struct session *s, const struct options *o)
{
	rec_header__init_host(h, "/proc/cpuinfo");
	h->ncpus = collector__ncpus(s->live.col);
	if (rec_header__from_pipeline(h, &s->st.pipe, &s->st.events))
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

	if (r->owners && owners__fill(r->owners, &s->sample))
		return errmsg(err, errlen, -ENOMEM, "out of memory");
	/* names first: a replay shows cgroup rows with their paths; a refused
	 * cgroup (a path beyond the format's limits) is left unnamed */
	if (s->cg.on && recorder__write_cgroups(r->rec, &s->sample, &s->cg.tree, err, errlen) < 0)
		return -1;
	if (recorder__write(r->rec, &s->sample, err, errlen))
		return -1;
	r->rows += s->sample.nr;
	r->intervals++;
	record__progress(r);
	/* the line ends before anything else is said */
	if (r->progress && s->last) {
		fputc('\n', stderr);
		r->progress = false;
	}
	return duration_s > 0 && (mono_ns() - r->start_ns) / 1e9 >= duration_s - 1e-3;
}

static int record__run(struct record *r, struct session *s, char *err, size_t errlen)
{
	const char *path = r->o->record_path;
	struct rec_header h;
	int fd = r->fd, ret;

	if (header_fill(&h, s, r->o))
		return errmsg(err, errlen, EXIT_RUNTIME,
			      "failed to describe the events in the recording header");
	/* /proc names tasks by the ids the kernel charges only in the initial PID namespace */
	if (s->live.init_pid_ns) {
		r->owners = owners__new("/proc");
		if (!r->owners)
			return errmsg(err, errlen, EXIT_RUNTIME, "out of memory");
	}
	/* --force: what was there goes only now */
	if (r->regular && !r->created && ftruncate(fd, 0))
		return errmsg(err, errlen, EXIT_RUNTIME, "failed to truncate %s: %s", path,
			      strerror(errno));
	r->fd = -1;
	r->rec = recorder__open_fd(fd, path, &h, ends_with(path, strlen(path), ".gz"), err,
				   errlen);
	if (!r->rec)
		return EXIT_RUNTIME;
	r->start_ns = mono_ns();
	record__progress(r);
	ret = session__run(s, r->o, record__each, r, err, errlen);
	if (r->progress)
		fputc('\n', stderr);
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
	struct record r = { .o = o, .fd = -1 };
	struct session s;
	int ret;

	ret = session__open(&s, o, sysfs, err, errlen);
	if (!ret)
		ret = record__create(&r, err, errlen);
	if (!ret)
		ret = session__start(&s, o, sysfs, err, errlen);
	if (!ret) {
		session__print_notice(&s);
		ret = record__run(&r, &s, err, errlen);
	}
	/* nothing recorded: leave no empty file behind */
	if (ret != EXIT_OK && r.created && !r.rec)
		unlink(o->record_path);
	if (r.fd >= 0)
		close(r.fd);
	owners__free(r.owners);
	session__close(&s);
	return ret;
}
