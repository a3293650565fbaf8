// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading an interval's counters: multiplexing scale, shares and names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rows/model.h"
#include "util/format.h"

double delta__scaled(const struct delta *d)
{
	if (d->running == d->enabled)
		return (double)d->count;
	if (!d->running)
		return d->count ? (double)d->count : NAN;
	return (double)d->count * ((double)d->enabled / (double)d->running);
}

double delta__running_share(const struct delta *d)
{
	if (!d->enabled || d->running >= d->enabled)
		return 1.0;
	return (double)d->running / (double)d->enabled;
}

int delta__format(const struct delta *d, char *buf, size_t size)
{
	int len;

	if (!size)
		return 0;
	/* Unscaled counts above 2^53 would lose digits through a double. */
	if (d->running == d->enabled) {
		len = snprintf(buf, size, "%llu", (unsigned long long)d->count);
		if (len < 0 || (size_t)len >= size) {
			buf[0] = '\0';
			return 0;
		}
		return len;
	}
	return fmt_double(buf, size, round(delta__scaled(d)));
}

const char *row__type(const struct row *r)
{
	switch (r->kind) {
	case ROW_THREAD:
		return "thread";
	case ROW_CGROUP:
		return "cgroup";
	default:
		return "process";
	}
}

size_t rows__filter(struct row *rows, size_t nr, bool (*keep)(void *arg, const struct row *r),
		    void *arg)
{
	size_t kept = 0;

	for (size_t i = 0; i < nr; i++) {
		if (keep(arg, &rows[i]))
			rows[kept++] = rows[i];
		else
			free(rows[i].cgroup);
	}
	return kept;
}

size_t rows__top(struct row *rows, size_t nr, size_t top)
{
	while (top && nr > top)
		free(rows[--nr].cgroup);
	return nr;
}

int interval__nr_events(const struct interval *iv)
{
	if (iv->nr_events < 0)
		return 0;
	return iv->nr_events > MAX_EVENTS ? MAX_EVENTS : iv->nr_events;
}

const char *interval__event_name(const struct interval *iv, int i, char *buf, size_t size)
{
	if (iv->event_names && iv->event_names[i])
		return iv->event_names[i];
	snprintf(buf, size, "event%d", i);
	return buf;
}

double interval__cpu_pct(const struct interval *iv, __u64 cpu_ns)
{
	if (!(iv->interval_s > 0) || !isfinite(iv->interval_s))
		return NAN;
	return (double)cpu_ns / (iv->interval_s * 1e9) * 100.0;
}

double interval__busy_pct(const struct interval *iv)
{
	__u64 busy_ns = iv->total_cpu_ns > iv->idle_cpu_ns ? iv->total_cpu_ns - iv->idle_cpu_ns : 0;

	if (iv->ncpus <= 0)
		return NAN;
	return interval__cpu_pct(iv, busy_ns) / iv->ncpus;
}

double interval__min_running_share(const struct interval *iv)
{
	int nr = interval__nr_events(iv);
	double min = 1.0;

	for (int i = 0; i < nr; i++) {
		double s = delta__running_share(&iv->totals[i]);

		if (s < min)
			min = s;
	}
	return min;
}
