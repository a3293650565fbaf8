// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's exposition: exact text in both formats, the live
 * trailer, and what an empty store writes.
 */
#include <stdlib.h>
#include "exporter/render.h"
#include "exporter_fixture.h"
#include "test.h"

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

#define CTR_LABELS "cgroup=\"" CTR "\",systemd_unit=\"cri-containerd-" CID ".scope\"," \
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
	"# TYPE tdtop_build info\n"
	"# HELP tdtop_build tdtop's version and TopDown method (none without TopDown); "
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
			  "# TYPE tdtop_render_duration_seconds gauge\n"
			  "# UNIT tdtop_render_duration_seconds seconds\n"
			  "# HELP tdtop_render_duration_seconds Time taken to render the last "
			  "interval in both formats.\n"
			  "tdtop_render_duration_seconds 0.000125\n"
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
