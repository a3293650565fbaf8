// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Sample to shown interval: aggregation, metrics and sorting in one call. */
#include <math.h>
#include <string.h>
#include "rows/metrics.h"
#include "rows/pipeline.h"

void pipeline__init(struct pipeline *p, const struct event_list *el)
{
	memset(p, 0, sizeof(*p));
	p->nr_events = el->nr;
	for (int i = 0; i < el->nr && i < MAX_EVENTS; i++) {
		p->names[i] = el->ev[i].name;
		p->scale[i] = el->ev[i].scale > 0 ? el->ev[i].scale : 1.0;
		p->cfg.role[i] = TD_NO_ROLE;
	}
	for (int i = el->nr; i < MAX_EVENTS; i++)
		p->cfg.role[i] = TD_NO_ROLE;
	p->method = "none";
}

/*
 * A group that was enabled but never on the PMU, or whose reads failed
 * (a pinned group returns EBUSY when it cannot be scheduled): its
 * counters are held by someone else.
 */
static bool topdown_stalled(const struct pipeline *p, const struct interval *iv)
{
	for (int i = 0; i < p->cfg.nr_parts; i++) {
		const struct delta *lead = &iv->totals[p->cfg.parts[i].ev_lo];

		if (p->cfg.parts[i].ev_lo >= p->cfg.parts[i].ev_hi)
			continue;
		if ((lead->enabled && !lead->running) || (iv->read_errors && !lead->count))
			return true;
	}
	return false;
}

int pipeline__build(const struct pipeline *p, const struct sample *s, const struct view *v,
		    int level, struct interval *iv)
{
	int ret = aggregate(s, v, p->nr_events, p->names, iv);

	if (ret)
		return ret;
	iv->method = p->method;
	iv->notice = p->notice;
	if (p->topdown && topdown_stalled(p, iv))
		iv->notice = "the TopDown counters did not count in this interval: another user "
			     "(the NMI watchdog, perf, a second tdtop) may hold them";
	iv->topdown = p->topdown;
	iv->cgroups = v->cg != NULL;
	iv->level = level;
	iv->bpf_ns_per_switch = NAN;
	iv->self_cpu_pct = NAN;
	metrics_fill(iv, &p->cfg, p->scale);
	interval__sort(iv, v);
	return 0;
}
