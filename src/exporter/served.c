// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What scrapes are served: the collector's thread renders each interval
 * once into an immutable, refcounted object; scrapes only take a reference,
 * and the first that asks for gzip compresses a format for all that follow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "util/clock.h"
#include "exporter/render.h"
#include "exporter/served.h"

static int render_to(const struct prom_store *st, bool om, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = prom_store__render(st, om, f);
	if (fclose(f) || ret) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

struct served *served__render(const struct prom_store *st)
{
	struct served *s = calloc(1, sizeof(*s));
	double t0 = mono_s();

	if (!s)
		return NULL;
	s->refs = 1;
	pthread_mutex_init(&s->gz_lock, NULL);
	for (int om = 0; om < 2; om++) {
		if (render_to(st, om, &s->body[om], &s->len[om])) {
			served__put(s);
			return NULL;
		}
	}
	s->published = mono_s();
	s->render_s = s->published - t0;
	return s;
}

struct served *served__get(struct served *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_ACQ_REL);
	return s;
}

void served__put(struct served *s)
{
	if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (int om = 0; om < 2; om++) {
		free(s->body[om]);
		gz_body__free(&s->gz[om]);
	}
	pthread_mutex_destroy(&s->gz_lock);
	free(s);
}

const struct gz_body *served__gzip(struct served *s, bool openmetrics)
{
	struct gz_body *gz = &s->gz[openmetrics];
	bool made;

	pthread_mutex_lock(&s->gz_lock);
	/* a failure is tried again by the next scrape */
	if (!s->gz_made[openmetrics])
		s->gz_made[openmetrics] = !gz_body__deflate(gz, s->body[openmetrics],
							    s->len[openmetrics]);
	made = s->gz_made[openmetrics];
	pthread_mutex_unlock(&s->gz_lock);
	return made ? gz : NULL;
}
