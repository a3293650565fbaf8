// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop exporter: the interval loop of batch mode, each interval published at /metrics. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "exporter/exporter.h"
#include "startup.h"
#include "util/errmsg.h"
#include "util/sdnotify.h"

struct serving {
	struct exporter *ex;
	struct sd_notify sd;
	bool ready;
};

/*
 * Ready once the first interval is served, and each interval after it
 * feeds the watchdog: a stuck collector stops feeding it while the server
 * would still answer.
 */
static void tell_published(struct serving *sv)
{
	bool dog = sv->sd.watchdog_us;

	if (!sv->ready)
		sd_notify__send(&sv->sd, dog ? "READY=1\nWATCHDOG=1" : "READY=1");
	else if (dog)
		sd_notify__send(&sv->sd, "WATCHDOG=1");
	sv->ready = true;
}

static int exporter_emit(void *arg, const struct interval *iv, char *err, size_t errlen)
{
	struct serving *sv = arg;
	int ret = exporter__publish(sv->ex, iv);

	if (ret)
		return errmsg(err, errlen, ret, "failed to publish metrics: %s", strerror(-ret));
	tell_published(sv);
	return 0;
}

/* The watchdog is fed once an interval: it must allow two of them. */
static void check_watchdog(const struct sd_notify *sd, double delay_s)
{
	if (sd->watchdog_us && 2 * delay_s * 1e6 > sd->watchdog_us)
		fprintf(stderr, "tdtop: warning: -d %g is more than half of the watchdog's %gs: "
			"raise WatchdogSec= or lower -d\n", delay_s, sd->watchdog_us / 1e6);
}

static int exporter_serve(struct session *s, const struct options *o, struct exporter_opts *eo,
			  char *err, size_t errlen)
{
	struct serving sv = {};
	char url[128];
	int ret;

	ret = sd_notify__open(&sv.sd, err, errlen);
	if (ret)
		return EXIT_RUNTIME;
	check_watchdog(&sv.sd, o->delay_s);
	session__print_notice(s);
	eo->prom.version = TDTOP_VERSION;
	eo->prom.method = s->st.method;
	eo->log = stderr;
	prom_event_kinds(s->st.pipe.cfg.role, s->st.pipe.names, s->st.pipe.nr_events,
			 eo->prom.event_kind);
	sv.ex = exporter__start(eo, err, errlen);
	if (!sv.ex) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	exporter_opts__describe(eo, url, sizeof(url));
	fprintf(stderr, "tdtop: serving metrics on %s\n", url);
	ret = session__run_rows(s, o, exporter_emit, &sv, err, errlen);
	sd_notify__send(&sv.sd, "STOPPING=1");
	exporter__stop(sv.ex);
out:
	sd_notify__close(&sv.sd);
	return ret;
}

int cmd_exporter(const struct options *o, const char *sysfs, char *err, size_t errlen)
{
	struct exporter_opts eo = {};
	struct session s;
	int ret;

	ret = session__open(&s, o, sysfs, err, errlen);
	if (ret)
		goto out;
	if (exporter_opts__parse(&eo, &(struct exporter_args){ o->listen, o->web_config, o->by,
							       o->by_comm, o->top, o->delay_s },
				 err, errlen)) {
		ret = EXIT_USAGE;
		goto out;
	}
	/* the exporter applies its own top-N to the series it keeps */
	s.view.top = 0;
	ret = session__start(&s, o, sysfs, err, errlen);
	if (!ret)
		ret = exporter_serve(&s, o, &eo, err, errlen);
out:
	session__close(&s);
	exporter_opts__free(&eo);
	return ret;
}
