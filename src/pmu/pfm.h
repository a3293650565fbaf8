/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Vendor event names ("inst_retired.any", "icl::mem_load_retired.l3_miss")
 * through libpfm4, which knows each CPU model's event tables. Only pfm.c
 * includes libpfm4: the rest of pmu/ sees the encoded attr fields.
 */
/* Internal to pmu/. */
#ifndef __TDTOP_PFM_H
#define __TDTOP_PFM_H

#include <stddef.h>
#include <linux/types.h>
#include "pmu/pmu.h"

struct pfm_encoding {
	__u32 type;			/* perf_event_attr.type */
	__u64 config;
	__u64 config1;
	__u64 config2;
	char pmu[PMU_NAME_LEN];		/* libpfm4's name of the PMU ("icl") */
};

/*
 * Encode *name* for a core PMU of this CPU, or for the libpfm4 PMU it
 * names ("icl::..."). Privilege levels are not libpfm4's business here:
 * they come from perf's modifiers, so its u=, k= and precise= attributes
 * are refused. Returns 0; -ENOENT when the name is not a known event on
 * this CPU; -EINVAL or -ENOTSUP for other refusals; *err* says why.
 */
int pfm_event__encode(const char *name, struct pfm_encoding *enc, char *err, size_t errlen);

/*
 * The same for the sysfs PMU *pmu* of perf type *type* (pmu/name/ in -e):
 * the first of this CPU's libpfm4 PMUs that encodes *name* with that type.
 */
int pfm_event__encode_for(const char *name, const char *pmu, __u32 type,
			  struct pfm_encoding *enc, char *err, size_t errlen);

/* This CPU's core PMUs as libpfm4 names them ("icl", or two on hybrid
 * CPUs), NULL-terminated, free with pmu_names_free(); NULL on ENOMEM or
 * when libpfm4 cannot start. None detected: an empty list. */
char **pfm_pmus__list(void);

/* The events of one of them as "event.umask", lower case, sorted; NULL
 * on ENOMEM or for a PMU libpfm4 does not have. */
char **pfm_pmu__events(const char *pmu);

#endif /* __TDTOP_PFM_H */
