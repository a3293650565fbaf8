// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Between a recording's header and the pipeline: the events, TopDown parts
 * and roles written when recording, and read back so a replay computes
 * TopDown the way the live run did.
 */
#include <stdio.h>
#include <string.h>
#include "util/macros.h"
#include "pmu/discover.h"
#include "record/recmeta.h"
#include "util/errmsg.h"

int rec_header__from_pipeline(struct rec_header *h, const struct pipeline *p,
			  const struct event_list *el)
{
	const struct td_config *cfg = &p->cfg;

	if (rec_header__set_events(h, el))
		return -1;
	for (int i = 0; i < el->nr; i++)
		if (cfg->role[i] != TD_NO_ROLE)
			snprintf(h->events[i].role, sizeof(h->events[i].role), "%s",
				 td_role_name(cfg->role[i]));
	h->nr_pmus = 0;
	if (!p->topdown)
		return 0;
	snprintf(h->topdown_method, sizeof(h->topdown_method), "%s", p->method);
	for (int i = 0; i < cfg->nr_parts && i < REC_MAX_PMUS; i++) {
		const struct td_part *part = &cfg->parts[i];
		struct rec_pmu *rp = &h->pmus[h->nr_pmus++];

		snprintf(rp->name, sizeof(rp->name), "%s", part->pmu);
		snprintf(rp->method, sizeof(rp->method), "%s", td_method_name(part->method));
		rp->ev_lo = part->ev_lo;
		rp->ev_hi = part->ev_hi;
		rp->slot_width = part->slot_width;
		rp->arm_n2_erratum = part->arm_n2_erratum;
		for (int e = part->ev_lo; e < part->ev_hi; e++)
			snprintf(h->events[e].pmu, sizeof(h->events[e].pmu), "%s", part->pmu);
	}
	return 0;
}

/* Level 2 needs a level-2 count somewhere (AMD and Arm derive it too). */
static int level_available(const struct td_config *cfg)
{
	static const int l2[] = { TD_HEAVY_OPS, TD_BR_MISPREDICT, TD_FETCH_LAT, TD_MEM_BOUND,
				  TD_AMD_BRN_MISP, TD_AMD_NOT_COMPLETE, TD_AMD_UCODE_OPS };

	for (int i = 0; i < MAX_EVENTS; i++)
		for (size_t k = 0; k < ARRAY_SIZE(l2); k++)
			if (cfg->role[i] == l2[k])
				return 2;
	return 1;
}

int rec_header__to_pipeline(const struct rec_header *h, struct pipeline *p, int *max_level,
			char *err, size_t errlen)
{
	struct td_config *cfg = &p->cfg;

	memset(p, 0, sizeof(*p));
	p->nr_events = h->nr_events;
	for (int i = 0; i < MAX_EVENTS; i++) {
		cfg->role[i] = TD_NO_ROLE;
		if (i >= h->nr_events)
			continue;
		p->names[i] = h->events[i].name;
		p->scale[i] = h->events[i].scale;
		if (h->events[i].role[0]) {
			cfg->role[i] = td_role_from_name(h->events[i].role);
			if (cfg->role[i] == TD_NO_ROLE)
				return errmsg(err, errlen, -1, "unknown TopDown role '%s' of event '%s'",
					      h->events[i].role, h->events[i].name);
		}
	}
	for (int i = 0; i < h->nr_pmus && i < MAX_TD_PARTS; i++) {
		const struct rec_pmu *rp = &h->pmus[i];
		struct td_part *part = &cfg->parts[cfg->nr_parts++];

		if (td_method_from_name(rp->method, &part->method))
			return errmsg(err, errlen, -1, "unknown TopDown method '%s'", rp->method);
		snprintf(part->pmu, sizeof(part->pmu), "%s", rp->name);
		part->ev_lo = rp->ev_lo;
		part->ev_hi = rp->ev_hi;
		part->slot_width = rp->slot_width;
		part->arm_n2_erratum = rp->arm_n2_erratum;
		part->all_cpus = true;
	}
	p->topdown = cfg->nr_parts > 0;
	cfg->max_level = level_available(cfg);
	*max_level = cfg->max_level;
	p->method = p->topdown ? h->topdown_method : "none";
	return 0;
}
