// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's pure half: counters accumulated over handmade intervals,
 * exact exposition text in both formats, label escaping, content
 * negotiation, listen addresses and the exporter's options.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include "rows/metrics.h"
#include "exporter/listen.h"
#include "exporter/negotiate.h"
#include "exporter/render.h"
#include "exporter/labels.h"
#include "test.h"

/* ---- handmade intervals ---- */

#define NGINX "/system.slice/nginx.service"
#define CID "3f2a1b9c8d7e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90"
#define POD "/kubepods.slice/kubepods-burstable.slice/" \
	"kubepods-burstable-pod1234abcd_5678_90ef_1234_567890abcdef.slice"
#define CTR POD "/cri-containerd-" CID ".scope"

static const char *const ev_names[] = { "cycles", "page-faults", "topdown-retiring" };

static void td_none(struct td_result *td)
{
	td->valid = false;
	td->slots = NAN;
	for (int i = 0; i < nr_td_fields; i++)
		*(double *)((char *)td + td_fields[i].offset) = NAN;
}

static void td_level1(struct td_result *td, double slots, double ret, double bad, double fe,
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

static struct row cg_row(const char *path, __u64 cpu_ns, __u64 cycles, __u64 faults)
{
	struct row r = { .kind = ROW_CGROUP, .cgroup = (char *)path, .cpu_ns = cpu_ns };

	r.ipc = NAN;
	r.ev[0] = (struct delta){ cycles, 1000, 1000 };
	r.ev[1] = (struct delta){ faults, 1000, 1000 };
	r.ev[2] = (struct delta){ 77, 1000, 1000 };
	td_none(&r.td);
	return r;
}

static struct row proc_row(int pid, const char *comm, __u64 cpu_ns, bool exited)
{
	struct row r = { .kind = ROW_PROCESS, .pid = pid, .tid = pid, .cpu_ns = cpu_ns };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	r.exited = exited;
	r.ipc = NAN;
	r.ev[1] = (struct delta){ 10, 1000, 1000 };
	td_none(&r.td);
	return r;
}

static void iv_init(struct interval *iv, struct row *rows, size_t n)
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

static void opts_init(struct prom_opts *o, enum group_by by)
{
	memset(o, 0, sizeof(*o));
	o->by = by;
	o->version = "1.2.3";
	o->method = "none";
	o->event_kind[0] = PROM_EV_CYCLES;
	o->event_kind[1] = PROM_EV_GENERIC;
	o->event_kind[2] = PROM_EV_SKIP;
}

/* The rendering of *s* (malloc'ed), or NULL. */
static char *render(const struct prom_store *s, bool om)
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
static double value_of(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, n))
			return strtod(p + n, NULL);
	return NAN;
}

/* ---- accumulation ---- */

TEST(prom_counters_accumulate_per_cgroup)
{
	struct row r1[] = { cg_row("/", 3000000000ULL, 900, 4),
			    cg_row(NGINX, 1000000000ULL, 300, 2) };
	struct row r2[] = { cg_row("/", 500000000ULL, 100, 1) };
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_CGROUP);
	s = prom_store__new(&o);
	CHECK(s);
	if (!s)
		return;
	iv_init(&iv, r1, 2);
	CHECK_INT(prom_store__add(s, &iv), 0);
	iv_init(&iv, r2, 1);
	/* multiplexed: counted half the time, so scaled by 2 */
	r2[0].ev[0].running = 500;
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__nr_series(s), 2);
	t = render(s, false);
	CHECK(t);
	if (t) {
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{cgroup=\"/\"} "), 3.5, 1e-12);
		/* no row in the second interval: the cgroup's counter stays */
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{cgroup=\"" NGINX
				       "\",unit=\"nginx.service\"} "), 1.0, 1e-12);
		CHECK_NEAR(value_of(t, "tdtop_cycles_total{cgroup=\"/\"} "), 1100, 1e-9);
		CHECK_NEAR(value_of(t, "tdtop_events_total{cgroup=\"/\",event=\"page-faults\"} "),
			   5, 1e-9);
		CHECK_NEAR(value_of(t, "tdtop_intervals_total "), 2, 0);
		/* the TopDown input is not exported, and nothing was TopDown */
		CHECK(!strstr(t, "topdown-retiring"));
		CHECK(!strstr(t, "tdtop_slots_total"));
		CHECK(!strstr(t, "tdtop_instructions_total"));
	}
	free(t);
	prom_store__free(s);
}

TEST(prom_counters_are_monotonic)
{
	struct prom_opts o;
	struct prom_store *s;
	double last_cpu = 0, last_td = 0, last_ev = 0;

	opts_init(&o, BY_CGROUP);
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	for (int i = 0; i < 20; i++) {
		struct row r = cg_row("/a", (__u64)(i % 3) * 1000000, i % 2 ? 0 : 50, i);
		struct interval iv;
		double cpu, td, ev;
		char *t;

		/* a negative fraction (rounding in a formula) must not decrease a counter */
		td_level1(&r.td, 2000 + i, i % 4 ? 0.25 : -0.01, 0.25, 0.25, 0.25);
		if (i == 7)
			r.ev[1] = (struct delta){ 0, 1000, 0 };	/* never ran: NAN, skipped */
		iv_init(&iv, &r, 1);
		iv.topdown = true;
		CHECK_INT(prom_store__add(s, &iv), 0);
		t = render(s, i % 2);
		if (!t) {
			CHECK(t);
			break;
		}
		cpu = value_of(t, "tdtop_cpu_seconds_total{cgroup=\"/a\"} ");
		td = value_of(t, "tdtop_topdown_slots_total{cgroup=\"/a\",category=\"retiring\"} ");
		ev = value_of(t, "tdtop_events_total{cgroup=\"/a\",event=\"page-faults\"} ");
		CHECK(cpu >= last_cpu);
		/* the category shows once it had a valid value: from the second interval */
		if (isnan(td))
			CHECK_INT(i, 0);
		else
			CHECK(td >= last_td);
		CHECK(ev >= last_ev);
		last_cpu = cpu;
		last_td = isnan(td) ? last_td : td;
		last_ev = ev;
		free(t);
	}
	/* 0.25 of every interval's slots but the negative ones (i % 4 == 0) */
	{
		double want = 0;

		for (int i = 0; i < 20; i++)
			if (i % 4)
				want += 0.25 * (2000 + i);
		CHECK_NEAR(last_td, want, 1e-6);
		CHECK_NEAR(last_ev, 190 - 7, 1e-9);
	}
	prom_store__free(s);
}

TEST(prom_exited_process_dropped_after_report)
{
	struct row r1[] = { proc_row(100, "busy", 2000000000ULL, false),
			    proc_row(200, "short", 1000000000ULL, true) };
	struct row r2[] = { proc_row(100, "busy", 1000000000ULL, false) };
	struct row r3[] = { proc_row(200, "again", 1000000, false) };
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_PROCESS);
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	iv_init(&iv, r1, 2);
	CHECK_INT(prom_store__add(s, &iv), 0);
	t = render(s, false);
	/* the exit is reported with the final values */
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"200\",comm=\"short\"} "), 1, 0);
	free(t);
	iv_init(&iv, r2, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__nr_series(s), 1);
	t = render(s, false);
	CHECK(t && !strstr(t, "pid=\"200\""));
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"100\",comm=\"busy\"} "), 3, 0);
	free(t);
	/* a new process with a recycled PID starts from zero */
	iv_init(&iv, r3, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	t = render(s, false);
	CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"200\",comm=\"again\"} "), 0.001,
		   1e-12);
	free(t);
	prom_store__free(s);
}

TEST(prom_series_ttl_and_renamed_process)
{
	struct row a = cg_row("/gone", 1000000, 1, 1), b = cg_row("/stays", 1000000, 1, 1);
	struct row both[] = { a, b };
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_CGROUP);
	o.series_ttl_s = 2.0;
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	iv_init(&iv, both, 2);
	CHECK_INT(prom_store__add(s, &iv), 0);
	/* 0.5 s intervals: /gone idle for 2 s is kept, for 2.5 s forgotten */
	for (int i = 0; i < 4; i++) {
		iv_init(&iv, &b, 1);
		CHECK_INT(prom_store__add(s, &iv), 0);
	}
	CHECK_INT(prom_store__nr_series(s), 2);
	iv_init(&iv, &b, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__nr_series(s), 1);
	t = render(s, false);
	CHECK(t && !strstr(t, "/gone") && strstr(t, "/stays"));
	CHECK_NEAR(value_of(t, "tdtop_series "), 1, 0);
	free(t);
	prom_store__free(s);

	/* exec changes the name: same series, new label */
	{
		struct row p1 = proc_row(5, "sh", 1000000, false), p2 = proc_row(5, "make", 1000000,
										   false);

		opts_init(&o, BY_PROCESS);
		s = prom_store__new(&o);
		if (!s)
			return;
		iv_init(&iv, &p1, 1);
		prom_store__add(s, &iv);
		iv_init(&iv, &p2, 1);
		prom_store__add(s, &iv);
		t = render(s, false);
		CHECK(t && !strstr(t, "comm=\"sh\""));
		CHECK_NEAR(value_of(t, "tdtop_cpu_seconds_total{pid=\"5\",comm=\"make\"} "), 0.002,
			   1e-12);
		free(t);
		prom_store__free(s);
	}
}

TEST(prom_top_n_by_recent_cpu)
{
	struct row rows[5];
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_PROCESS);
	o.top = 2;
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	/* pid 1 was busiest long ago, 3 and 4 are busy now */
	rows[0] = proc_row(1, "old", 100000000000ULL, false);
	iv_init(&iv, rows, 1);
	iv.interval_s = 600;
	CHECK_INT(prom_store__add(s, &iv), 0);
	for (int i = 0; i < 4; i++)
		rows[i] = proc_row(i + 2, "p", (__u64)(i + 1) * 1000000000ULL, false);
	iv_init(&iv, rows, 4);
	iv.interval_s = 600;
	CHECK_INT(prom_store__add(s, &iv), 0);
	CHECK_INT(prom_store__nr_series(s), 5);
	t = render(s, false);
	CHECK(t && strstr(t, "pid=\"5\"") && strstr(t, "pid=\"4\""));
	CHECK(t && !strstr(t, "pid=\"1\"") && !strstr(t, "pid=\"2\"") && !strstr(t, "pid=\"3\""));
	/* hidden series still count: pid 1 keeps its total for when it shows again */
	CHECK_NEAR(value_of(t, "tdtop_series "), 5, 0);
	free(t);
	prom_store__free(s);
}

TEST(prom_store_rejects_bad_input)
{
	struct row r = cg_row("/", 1, 1, 1);
	static const char *const other[] = { "cycles", "instructions", "topdown-retiring" };
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;

	opts_init(&o, BY_THREAD);
	CHECK(!prom_store__new(&o));
	opts_init(&o, BY_CGROUP);
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	iv_init(&iv, &r, 1);
	CHECK_INT(prom_store__add(s, &iv), 0);
	iv.event_names = other;
	CHECK_INT(prom_store__add(s, &iv), -EINVAL);
	iv.event_names = ev_names;
	iv.nr_events = 2;
	CHECK_INT(prom_store__add(s, &iv), -EINVAL);
	/* rows of the other kind are ignored */
	{
		struct row p = proc_row(9, "x", 1, false);

		iv_init(&iv, &p, 1);
		CHECK_INT(prom_store__add(s, &iv), 0);
		CHECK_INT(prom_store__nr_series(s), 1);
	}
	prom_store__free(s);
	prom_store__free(NULL);
}

TEST(prom_kinds_from_td_roles)
{
	int roles[] = { TD_SLOTS, TD_RETIRING, TD_CYCLES, TD_INSTRUCTIONS, TD_NO_ROLE };
	enum prom_event_kind k[5];

	prom_event_kinds_from_roles(roles, 5, k);
	CHECK_INT(k[0], PROM_EV_SKIP);
	CHECK_INT(k[1], PROM_EV_SKIP);
	CHECK_INT(k[2], PROM_EV_CYCLES);
	CHECK_INT(k[3], PROM_EV_INSTRUCTIONS);
	CHECK_INT(k[4], PROM_EV_GENERIC);
}

/* ---- exact exposition ---- */

static struct prom_store *handmade_store(void)
{
	static struct row rows[3];
	struct interval iv;
	struct prom_opts o;
	struct prom_store *s;

	rows[0] = cg_row("/", 2000000000ULL, 5000, 8);
	rows[1] = cg_row("/a\"b\\c\nd", 250000000ULL, 0, 1);
	rows[2] = cg_row(CTR, 1500000000ULL, 4000, 6);
	td_level1(&rows[0].td, 20000, 0.5, 0.125, 0.25, 0.125);
	rows[0].td.smt_contention = 0.0625;
	opts_init(&o, BY_CGROUP);
	s = prom_store__new(&o);
	if (!s)
		return NULL;
	iv_init(&iv, rows, 3);
	iv.topdown = true;
	iv.idle_cpu_ns = 250000000;
	iv.dropped = 3;
	iv.switches = 1000;
	iv.bpf_ns_per_switch = 150;
	iv.self_cpu_pct = 2.5;
	if (prom_store__add(s, &iv)) {
		prom_store__free(s);
		return NULL;
	}
	return s;
}

#define CTR_LABELS "cgroup=\"" CTR "\",unit=\"cri-containerd-" CID ".scope\"," \
	"container_id=\"3f2a1b9c8d7e\",pod_uid=\"1234abcd-5678-90ef-1234-567890abcdef\""
#define ODD_LABELS "cgroup=\"/a\\\"b\\\\c\\nd\""

static const char want_text[] =
	"# HELP tdtop_build_info tdtop's version and TopDown method (none without TopDown); "
	"always 1.\n"
	"# TYPE tdtop_build_info gauge\n"
	"tdtop_build_info{version=\"1.2.3\",method=\"perf_metrics\"} 1\n"
	"# HELP tdtop_cpu_seconds_total On-CPU time of the series' tasks (a cgroup's includes "
	"its descendants).\n"
	"# TYPE tdtop_cpu_seconds_total counter\n"
	"tdtop_cpu_seconds_total{cgroup=\"/\"} 2\n"
	"tdtop_cpu_seconds_total{" ODD_LABELS "} 0.25\n"
	"tdtop_cpu_seconds_total{" CTR_LABELS "} 1.5\n"
	"# HELP tdtop_slots_total Pipeline issue slots of the series' tasks, in intervals with "
	"a TopDown breakdown.\n"
	"# TYPE tdtop_slots_total counter\n"
	"tdtop_slots_total{cgroup=\"/\"} 20000\n"
	"# HELP tdtop_topdown_slots_total Issue slots by TopDown category (fraction times "
	"slots); divide its rate by tdtop_slots_total's.\n"
	"# TYPE tdtop_topdown_slots_total counter\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"retiring\"} 10000\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"bad_speculation\"} 2500\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"frontend_bound\"} 5000\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"backend_bound\"} 2500\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"smt_contention\"} 1250\n"
	"# HELP tdtop_cycles_total Core cycles of the series' tasks.\n"
	"# TYPE tdtop_cycles_total counter\n"
	"tdtop_cycles_total{cgroup=\"/\"} 5000\n"
	"tdtop_cycles_total{" ODD_LABELS "} 0\n"
	"tdtop_cycles_total{" CTR_LABELS "} 4000\n"
	"# HELP tdtop_events_total Counts of the other events counted, scaled for "
	"multiplexing.\n"
	"# TYPE tdtop_events_total counter\n"
	"tdtop_events_total{cgroup=\"/\",event=\"page-faults\"} 8\n"
	"tdtop_events_total{" ODD_LABELS ",event=\"page-faults\"} 1\n"
	"tdtop_events_total{" CTR_LABELS ",event=\"page-faults\"} 6\n"
	"# HELP tdtop_intervals_total Intervals measured.\n"
	"# TYPE tdtop_intervals_total counter\n"
	"tdtop_intervals_total 1\n"
	"# HELP tdtop_interval_seconds Length of the last interval.\n"
	"# TYPE tdtop_interval_seconds gauge\n"
	"tdtop_interval_seconds 0.5\n"
	"# HELP tdtop_idle_cpu_seconds_total Time the CPUs were idle.\n"
	"# TYPE tdtop_idle_cpu_seconds_total counter\n"
	"tdtop_idle_cpu_seconds_total 0.25\n"
	"# HELP tdtop_dropped_slices_total Time slices charged to no task because the kernel "
	"task table was full.\n"
	"# TYPE tdtop_dropped_slices_total counter\n"
	"tdtop_dropped_slices_total 3\n"
	"# HELP tdtop_read_errors_total Counter reads that failed.\n"
	"# TYPE tdtop_read_errors_total counter\n"
	"tdtop_read_errors_total 0\n"
	"# HELP tdtop_context_switches_total Context switches handled by tdtop's BPF program.\n"
	"# TYPE tdtop_context_switches_total counter\n"
	"tdtop_context_switches_total 1000\n"
	"# HELP tdtop_bpf_seconds_per_switch Run time of tdtop's BPF program per context switch, "
	"last interval.\n"
	"# TYPE tdtop_bpf_seconds_per_switch gauge\n"
	"tdtop_bpf_seconds_per_switch 1.5e-07\n"
	"# HELP tdtop_self_cpu_percent tdtop's own CPU use in percent of one CPU, last "
	"interval.\n"
	"# TYPE tdtop_self_cpu_percent gauge\n"
	"tdtop_self_cpu_percent 2.5\n"
	"# HELP tdtop_self_cpu_seconds_total tdtop's own CPU time.\n"
	"# TYPE tdtop_self_cpu_seconds_total counter\n"
	"tdtop_self_cpu_seconds_total 0.0125\n"
	"# HELP tdtop_series Cgroup or process series tracked.\n"
	"# TYPE tdtop_series gauge\n"
	"tdtop_series 3\n"
	"# HELP tdtop_series_overflow_total Rows not tracked because the series limit was "
	"reached.\n"
	"# TYPE tdtop_series_overflow_total counter\n"
	"tdtop_series_overflow_total 0\n";

static const char want_om[] =
	"# TYPE tdtop_build_info gauge\n"
	"# HELP tdtop_build_info tdtop's version and TopDown method (none without TopDown); "
	"always 1.\n"
	"tdtop_build_info{version=\"1.2.3\",method=\"perf_metrics\"} 1\n"
	"# TYPE tdtop_cpu_seconds counter\n"
	"# UNIT tdtop_cpu_seconds seconds\n"
	"# HELP tdtop_cpu_seconds On-CPU time of the series' tasks (a cgroup's includes "
	"its descendants).\n"
	"tdtop_cpu_seconds_total{cgroup=\"/\"} 2\n"
	"tdtop_cpu_seconds_total{" ODD_LABELS "} 0.25\n"
	"tdtop_cpu_seconds_total{" CTR_LABELS "} 1.5\n"
	"# TYPE tdtop_slots counter\n"
	"# HELP tdtop_slots Pipeline issue slots of the series' tasks, in intervals with "
	"a TopDown breakdown.\n"
	"tdtop_slots_total{cgroup=\"/\"} 20000\n"
	"# TYPE tdtop_topdown_slots counter\n"
	"# HELP tdtop_topdown_slots Issue slots by TopDown category (fraction times "
	"slots); divide its rate by tdtop_slots_total's.\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"retiring\"} 10000\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"bad_speculation\"} 2500\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"frontend_bound\"} 5000\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"backend_bound\"} 2500\n"
	"tdtop_topdown_slots_total{cgroup=\"/\",category=\"smt_contention\"} 1250\n"
	"# TYPE tdtop_cycles counter\n"
	"# HELP tdtop_cycles Core cycles of the series' tasks.\n"
	"tdtop_cycles_total{cgroup=\"/\"} 5000\n"
	"tdtop_cycles_total{" ODD_LABELS "} 0\n"
	"tdtop_cycles_total{" CTR_LABELS "} 4000\n"
	"# TYPE tdtop_events counter\n"
	"# HELP tdtop_events Counts of the other events counted, scaled for "
	"multiplexing.\n"
	"tdtop_events_total{cgroup=\"/\",event=\"page-faults\"} 8\n"
	"tdtop_events_total{" ODD_LABELS ",event=\"page-faults\"} 1\n"
	"tdtop_events_total{" CTR_LABELS ",event=\"page-faults\"} 6\n"
	"# TYPE tdtop_intervals counter\n"
	"# HELP tdtop_intervals Intervals measured.\n"
	"tdtop_intervals_total 1\n"
	"# TYPE tdtop_interval_seconds gauge\n"
	"# UNIT tdtop_interval_seconds seconds\n"
	"# HELP tdtop_interval_seconds Length of the last interval.\n"
	"tdtop_interval_seconds 0.5\n"
	"# TYPE tdtop_idle_cpu_seconds counter\n"
	"# UNIT tdtop_idle_cpu_seconds seconds\n"
	"# HELP tdtop_idle_cpu_seconds Time the CPUs were idle.\n"
	"tdtop_idle_cpu_seconds_total 0.25\n"
	"# TYPE tdtop_dropped_slices counter\n"
	"# HELP tdtop_dropped_slices Time slices charged to no task because the kernel "
	"task table was full.\n"
	"tdtop_dropped_slices_total 3\n"
	"# TYPE tdtop_read_errors counter\n"
	"# HELP tdtop_read_errors Counter reads that failed.\n"
	"tdtop_read_errors_total 0\n"
	"# TYPE tdtop_context_switches counter\n"
	"# HELP tdtop_context_switches Context switches handled by tdtop's BPF program.\n"
	"tdtop_context_switches_total 1000\n"
	"# TYPE tdtop_bpf_seconds_per_switch gauge\n"
	"# HELP tdtop_bpf_seconds_per_switch Run time of tdtop's BPF program per context "
	"switch, last interval.\n"
	"tdtop_bpf_seconds_per_switch 1.5e-07\n"
	"# TYPE tdtop_self_cpu_percent gauge\n"
	"# HELP tdtop_self_cpu_percent tdtop's own CPU use in percent of one CPU, last "
	"interval.\n"
	"tdtop_self_cpu_percent 2.5\n"
	"# TYPE tdtop_self_cpu_seconds counter\n"
	"# UNIT tdtop_self_cpu_seconds seconds\n"
	"# HELP tdtop_self_cpu_seconds tdtop's own CPU time.\n"
	"tdtop_self_cpu_seconds_total 0.0125\n"
	"# TYPE tdtop_series gauge\n"
	"# HELP tdtop_series Cgroup or process series tracked.\n"
	"tdtop_series 3\n"
	"# TYPE tdtop_series_overflow counter\n"
	"# HELP tdtop_series_overflow Rows not tracked because the series limit was "
	"reached.\n"
	"tdtop_series_overflow_total 0\n";

TEST(prom_render_text_exact)
{
	struct prom_store *s = handmade_store();
	char *t;

	CHECK(s);
	if (!s)
		return;
	t = render(s, false);
	CHECK_STR(t, want_text);
	free(t);
	prom_store__free(s);
}

/* OpenMetrics: counter families without _total, UNIT for seconds, # EOF from the trailer. */
TEST(prom_render_openmetrics_exact)
{
	struct prom_store *s = handmade_store();
	char *t, *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(s);
	if (!s)
		return;
	t = render(s, true);
	CHECK_STR(t, want_om);
	CHECK(t && !strstr(t, "# EOF"));
	/* same samples as the text format, line for line */
	{
		char *text = render(s, false);
		int n_text = 0, n_om = 0;

		for (char *p = text; p && *p; p = strchr(p, '\n') + 1)
			n_text += *p != '#';
		for (char *p = t; p && *p; p = strchr(p, '\n') + 1)
			n_om += *p != '#';
		CHECK_INT(n_om, n_text);
		CHECK(n_text > 20);
		free(text);
	}
	free(t);

	f = open_memstream(&buf, &len);
	if (f) {
		CHECK_INT(prom_render_trailer(f, true, true, 0.000125), 0);
		fclose(f);
		CHECK_STR(buf, "# TYPE tdtop_up gauge\n"
			  "# HELP tdtop_up 1 while intervals are measured on time, 0 when the "
			  "served values are stale.\n"
			  "tdtop_up 1\n"
			  "# TYPE tdtop_scrape_duration_seconds gauge\n"
			  "# UNIT tdtop_scrape_duration_seconds seconds\n"
			  "# HELP tdtop_scrape_duration_seconds Time taken to turn the last "
			  "interval into the values served.\n"
			  "tdtop_scrape_duration_seconds 0.000125\n"
			  "# EOF\n");
		free(buf);
	}
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (f) {
		prom_render_trailer(f, false, false, 0.5);
		fclose(f);
		CHECK(buf && strstr(buf, "\ntdtop_up 0\n") && !strstr(buf, "EOF") &&
		      !strstr(buf, "UNIT"));
		free(buf);
	}
	prom_store__free(s);
}

TEST(prom_render_empty_store)
{
	struct prom_opts o;
	struct prom_store *s;
	char *t;

	opts_init(&o, BY_PROCESS);
	o.version = "9\"9";
	s = prom_store__new(&o);
	if (!s) {
		CHECK(s);
		return;
	}
	t = render(s, false);
	CHECK(t && strstr(t, "tdtop_build_info{version=\"9\\\"9\",method=\"none\"} 1\n"));
	CHECK(t && strstr(t, "\ntdtop_intervals_total 0\n"));
	/* no series yet: no empty families, no unknown gauges */
	CHECK(t && !strstr(t, "tdtop_cpu_seconds_total"));
	CHECK(t && !strstr(t, "tdtop_bpf_seconds_per_switch"));
	free(t);
	prom_store__free(s);

	/* a method given at start (both parts of a hybrid) stays; "none" follows the intervals */
	{
		struct row r = cg_row("/", 1, 1, 1);
		struct interval iv;

		opts_init(&o, BY_CGROUP);
		o.method = "perf_metrics+intel_atom";
		s = prom_store__new(&o);
		if (!s)
			return;
		iv_init(&iv, &r, 1);
		CHECK_INT(prom_store__add(s, &iv), 0);
		t = render(s, true);
		CHECK(t && strstr(t, "method=\"perf_metrics+intel_atom\"} 1\n"));
		free(t);
		prom_store__free(s);
	}
}

/* ---- escaping and negotiation ---- */

static const char *esc(const char *s, size_t size)
{
	static char buf[256];

	prom_escape_label(buf, size, s);
	return buf;
}

TEST(prom_escape_label_values)
{
	CHECK_STR(esc("plain", 256), "plain");
	CHECK_STR(esc("a\\b\"c\nd", 256), "a\\\\b\\\"c\\nd");
	CHECK_STR(esc("tab\there", 256), "tab\there");
	CHECK_STR(esc("caf\xc3\xa9", 256), "caf\xc3\xa9");
	/* ill-formed UTF-8: one U+FFFD per maximal subpart */
	CHECK_STR(esc("a\xff" "b", 256), "a\xef\xbf\xbd" "b");
	CHECK_STR(esc("\xe2\x82", 256), "\xef\xbf\xbd");
	CHECK_STR(esc("\xc0\xaf", 256), "\xef\xbf\xbd\xef\xbf\xbd");
	/* the needed length, like snprintf */
	CHECK_INT(prom_escape_label(NULL, 0, "a\"b"), 4);
	CHECK_INT(prom_escape_label(NULL, 0, "\xff"), 3);
	/* never a cut escape */
	CHECK_STR(esc("ab\"c", 4), "ab");
	CHECK_STR(esc("ab\"c", 5), "ab\\\"");
	CHECK_STR(esc("a\xff", 3), "a");
	CHECK_STR(esc("x", 1), "");
}

TEST(prom_accept_negotiation)
{
	/* what Prometheus 2.x sends */
	CHECK(prom_wants_openmetrics("application/openmetrics-text;version=1.0.0,"
				     "application/openmetrics-text;version=0.0.1;q=0.75,"
				     "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	CHECK(prom_wants_openmetrics("application/openmetrics-text"));
	CHECK(prom_wants_openmetrics("Application/OpenMetrics-Text ; Version=1.0.0 ; q=1"));
	CHECK(prom_wants_openmetrics("text/plain;q=0.5, application/openmetrics-text;q=0.6"));
	CHECK(!prom_wants_openmetrics(NULL));
	CHECK(!prom_wants_openmetrics(""));
	CHECK(!prom_wants_openmetrics("*/*"));
	CHECK(!prom_wants_openmetrics("text/plain;version=0.0.4"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=0.5,text/plain"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=0"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;version=2.0.0"));
	/* malformed ranges are ignored, not guessed */
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=abc"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;q=1.5"));
	CHECK(!prom_wants_openmetrics("application/openmetrics-text;junk"));
	CHECK(!prom_wants_openmetrics(",,,;;;===,"));
	CHECK(prom_wants_openmetrics(" , application/openmetrics-text , "));
}

/* ---- listen addresses and options ---- */

TEST(listen_addr_good)
{
	static const struct {
		const char *in, *text;
		int family;
	} cases[] = {
		{ "127.0.0.1:9717", "127.0.0.1:9717", AF_INET },
		{ "127.0.0.1", "127.0.0.1:9717", AF_INET },
		{ "0.0.0.0:80", "0.0.0.0:80", AF_INET },
		{ "10.1.2.3:65535", "10.1.2.3:65535", AF_INET },
		{ "[::1]:9717", "[::1]:9717", AF_INET6 },
		{ "[::1]", "[::1]:9717", AF_INET6 },
		{ "[::]:1", "[::]:1", AF_INET6 },
		{ "[2001:DB8:0:0::1]:9100", "[2001:db8::1]:9100", AF_INET6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct listen_addr a;
		char err[256] = "";

		CHECK_INT(listen_addr__parse(&a, cases[i].in, err, sizeof(err)), 0);
		CHECK_STR(a.text, cases[i].text);
		CHECK_INT(a.ss.ss_family, cases[i].family);
		CHECK_INT(a.len, cases[i].family == AF_INET ? sizeof(struct sockaddr_in)
							    : sizeof(struct sockaddr_in6));
	}
	{
		struct listen_addr a;
		char err[64];

		listen_addr__parse(&a, "192.168.0.7:1234", err, sizeof(err));
		CHECK_INT(ntohs(((struct sockaddr_in *)&a.ss)->sin_port), 1234);
		CHECK_U64(ntohl(((struct sockaddr_in *)&a.ss)->sin_addr.s_addr), 0xc0a80007);
	}
}

TEST(listen_addr_bad)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "", "empty listen address" },
		{ ":9717", "missing address" },
		{ "[]:9717", "missing address" },
		{ "localhost:9717", "invalid IPv4 address 'localhost'" },
		{ "127.0.0.1:0", "invalid port '0'" },
		{ "127.0.0.1:65536", "invalid port '65536'" },
		{ "127.0.0.1:", "invalid port ''" },
		{ "127.0.0.1:80x", "invalid port '80x'" },
		{ "127.0.0.1:+80", "invalid port '+80'" },
		{ "127.0.0.1: 80", "invalid port ' 80'" },
		{ "127.0.0.1:-1", "invalid port '-1'" },
		{ "127.0.0.1:99999999999999999999", "invalid port" },
		{ "::1:9717", "IPv6 addresses go in brackets" },
		{ "::1", "IPv6 addresses go in brackets" },
		{ "[::1", "no closing ']'" },
		{ "[::1]9717", "want [ADDR]:PORT" },
		{ "[127.0.0.1]:80", "invalid IPv6 address '127.0.0.1'" },
		{ "[fe80::1%eth0]:80", "zone ids are not supported" },
		{ "1.2.3.4.5:80", "invalid IPv4 address" },
		{ "256.1.1.1:80", "invalid IPv4 address" },
		{ "0x7f.0.0.1:80", "invalid IPv4 address" },
		{ "127.0.0.11111111111111111111111111111111111111111111111111111:80", "too long" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct listen_addr a;
		char err[256] = "";

		CHECK_INT(listen_addr__parse(&a, cases[i].in, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			test_fail(__FILE__, __LINE__, "'%s': error '%s' lacks '%s'", cases[i].in,
				  err, cases[i].msg);
	}
	/* a tiny error buffer is never overrun */
	{
		struct listen_addr a;
		char err[8];

		CHECK_INT(listen_addr__parse(&a, "nonsense", err, sizeof(err)), -EINVAL);
		CHECK(strlen(err) < sizeof(err));
	}
}

TEST(exporter_opts_from_command_line)
{
	struct exporter_opts eo;
	char err[256] = "";

	CHECK_INT(exporter_opts__parse(&eo, NULL, BY_CGROUP, 0, 0.5, err, sizeof(err)), 0);
	CHECK_STR(eo.listen.text, "127.0.0.1:9717");
	CHECK_INT(eo.prom.by, BY_CGROUP);
	CHECK_INT(eo.prom.top, 0);
	CHECK_NEAR(eo.prom.series_ttl_s, EXPORTER_DEFAULT_TTL_S, 0);
	CHECK_NEAR(eo.interval_s, 0.5, 0);

	CHECK_INT(exporter_opts__parse(&eo, "[::1]:9999", BY_PROCESS, 0, 1, err, sizeof(err)), 0);
	CHECK_STR(eo.listen.text, "[::1]:9999");
	CHECK_INT(eo.prom.by, BY_PROCESS);
	CHECK_INT(eo.prom.top, EXPORTER_DEFAULT_TOP);
	CHECK_INT(exporter_opts__parse(&eo, NULL, BY_PROCESS, 7, 1, err, sizeof(err)), 0);
	CHECK_INT(eo.prom.top, 7);

	CHECK_INT(exporter_opts__parse(&eo, "localhost:80", BY_PROCESS, 7, 1, err, sizeof(err)),
		  -EINVAL);
	CHECK(strstr(err, "invalid IPv4 address 'localhost'"));
	CHECK_INT(exporter_opts__parse(&eo, NULL, BY_THREAD, 0, 1, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "no per-thread series"));
	CHECK_INT(exporter_opts__parse(&eo, NULL, BY_PROCESS, PROM_MAX_SERIES + 1, 1, err,
				       sizeof(err)), -EINVAL);
	CHECK(strstr(err, "invalid --top"));
}
