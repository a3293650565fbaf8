/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a recording says about how it was measured, both ways: from the
 * live setup into its header, and from a header back to the pipeline a
 * replay runs, so replayed rows get the same TopDown math as live ones.
 */
#ifndef __TDTOP_RECMETA_H
#define __TDTOP_RECMETA_H

#include "rows/pipeline.h"
#include "record/record.h"

/*
 * Fill the events of *el*, and the TopDown parts and roles of *p*, into
 * *h*; an event of a TopDown part is named with its part's PMU. -1 when
 * something does not fit.
 */
int rec_header__from_pipeline(struct rec_header *h, const struct pipeline *p,
			  const struct event_list *el);

/*
 * The pipeline for replaying *h*; its names point into *h*, which must
 * outlive it. *max_level* is the TopDown level the recording can show.
 */
int rec_header__to_pipeline(const struct rec_header *h, struct pipeline *p, int *max_level,
			char *err, size_t errlen);

#endif /* __TDTOP_RECMETA_H */
