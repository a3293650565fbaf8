// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Handmade intervals and rendered text for the exporter's store and renderer tests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rows/metrics.h"
#include "exporter/render.h"
#include "exporter_fixture.h"
#include "test.h"

const char *const ev_names[] = { "cycles", "page-faults", "topdown-retiring" };

static void td_none(struct td_result *td)
{
	td->valid = false;
	td->slots = NAN;
	for (int i = 0; i < nr_td_fields; i++)
		*(double *)((char *)td + td_fields[i].offset) = NAN;
}

void td_level1(struct td_result *td, double slots, double ret, double bad, double fe,
		      double be)
{
	td_none(td);
	td->valid = true;
	td->slots = slots;
	td->retiring = ret;
	td->bad_speculation = bad;
	td->frontend_bound = fe;
	td->backend_bound = be;
}

struct row cg_row(const char *path, __u64 cpu_ns, __u64 cycles, __u64 faults)
{
	struct row r = { .kind = ROW_CGROUP, .cgroup = (char *)path, .cpu_ns = cpu_ns };

	r.ipc = NAN;
	r.ev[0] = (struct delta){ cycles, 1000, 1000 };
	r.ev[1] = (struct delta){ faults, 1000, 1000 };
	r.ev[2] = (struct delta){ 77, 1000, 1000 };
	td_none(&r.td);
	return r;
}

struct row proc_row(int pid, const char *comm, __u64 cpu_ns, bool exited)
{
	struct row r = { .kind = ROW_PROCESS, .pid = pid, .tid = pid, .cpu_ns = cpu_ns };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	r.exited = exited;
	r.ipc = NAN;
	r.ev[1] = (struct delta){ 10, 1000, 1000 };
	td_none(&r.td);
	return r;
}

void iv_init(struct interval *iv, struct row *rows, size_t n)
{
	memset(iv, 0, sizeof(*iv));
	iv->ts = 1700000000.0;
	iv->interval_s = 0.5;
	iv->ncpus = 2;
	iv->nr_events = 3;
	iv->event_names = ev_names;
	iv->method = "perf_metrics";
	iv->level = 1;
	iv->bpf_ns_per_switch = NAN;
	iv->self_cpu_pct = NAN;
	iv->rows = rows;
	iv->nr_rows = n;
}

void opts_init(struct prom_opts *o, enum group_by by)
{
	memset(o, 0, sizeof(*o));
	o->by = by;
	o->version = "1.2.3";
	o->method = "none";
	o->event_kind[0] = PROM_EV_CYCLES;
	o->event_kind[1] = PROM_EV_GENERIC;
	o->event_kind[2] = PROM_EV_SKIP;
}

struct prom_store *store_new(enum group_by by, size_t top, double ttl_s)
{
	struct prom_opts o;
	struct prom_store *s;

	opts_init(&o, by);
	o.top = top;
	o.series_ttl_s = ttl_s;
	s = prom_store__new(&o);
	CHECK(s);
	return s;
}

int add_rows(struct prom_store *s, struct row *rows, size_t n)
{
	struct interval iv;

	iv_init(&iv, rows, n);
	return prom_store__add(s, &iv);
}

/* The rendering of *s* (malloc'ed), or NULL. */
char *render(const struct prom_store *s, bool om)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (prom_store__render(s, om, f))
		fputs("RENDER FAILED", f);
	fclose(f);
	return buf;
}

/* The value of the sample line starting with *prefix* ("name{labels} "), NAN if absent. */
double value_of(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, n))
			return strtod(p + n, NULL);
	return NAN;
}
