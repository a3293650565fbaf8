// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* tdtop exporter: the interval loop of batch mode, each interval published at /metrics. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "exporter/exporter.h"
#include "startup.h"
#include "util/errmsg.h"

static int exporter_emit(void *ex, const struct interval *iv, char *err, size_t errlen)
{
	int ret = exporter__publish(ex, iv);

	return ret ? errmsg(err, errlen, ret, "failed to publish metrics: %s", strerror(-ret)) : 0;
}

static int exporter_serve(struct session *s, const struct options *o, struct exporter_opts *eo,
			  char *err, size_t errlen)
{
	struct exporter *ex;
	char url[128];
	int ret;

	session__print_notice(s);
	eo->prom.version = TDTOP_VERSION;
	eo->prom.method = s->st.method;
	eo->log = stderr;
	prom_event_kinds(s->st.pipe.cfg.role, s->st.pipe.names, s->st.pipe.nr_events,
			 eo->prom.event_kind);
	ex = exporter__start(eo, err, errlen);
	if (!ex)
		return EXIT_RUNTIME;
	exporter_opts__describe(eo, url, sizeof(url));
	fprintf(stderr, "tdtop: serving metrics on %s\n", url);
	ret = session__run_rows(s, o, exporter_emit, ex, err, errlen);
	exporter__stop(ex);
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
