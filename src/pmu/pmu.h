/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading PMUs from sysfs (<root>/bus/event_source/devices/<pmu>/): type,
 * format/ bit layouts, events/ aliases with their .scale and .unit, CPU
 * lists. The root is a parameter so fixture trees stand in for /sys.
 */
#ifndef __TDTOP_PMU_H
#define __TDTOP_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "tdtop_abi.h"

#define PMU_NAME_LEN 64		/* PMU, event and term names */
#define PMU_ALIAS_LEN 256	/* an events/<name> string */
#define PMU_MAX_TERMS 16	/* terms in one alias or pmu/.../ body */

/* Which perf_event_attr field a format term lives in. */
enum pmu_field {
	PMU_CONFIG,
	PMU_CONFIG1,
	PMU_CONFIG2,
	NR_PMU_FIELDS,
};

/* A format/<term> file: the bits of one config field the term's value is
 * spread over, lowest value bit into the lowest mask bit (perf's rule). */
struct pmu_format {
	enum pmu_field field;
	__u64 mask;
};

/* One "name=value" (or bare "name") of an alias or of a pmu/.../ body. */
struct pmu_term {
	char name[PMU_NAME_LEN];
	__u64 val;
	bool has_val;		/* "name=value" rather than bare "name" */
	bool placeholder;	/* "name=?": the user must supply the value */
};

/* A set of CPU numbers below MAX_CPUS. */
struct pmu_cpus {
	__u64 bits[MAX_CPUS / 64];
	int nr;			/* CPUs in the set */
};

/*
 * Pure parsers. Each returns 0, or a negative errno with a one-line
 * message in *err*: -EINVAL junk, -ERANGE number out of range, -E2BIG
 * too many items.
 */

/* "config:0-7", "config1:0-15", "config:8-15,32-35", "config:21". */
int pmu_format__parse(const char *s, struct pmu_format *f, char *err, size_t errlen);

/* Bits a format holds (1..64). */
int pmu_format__width(const struct pmu_format *f);

/* Clear the format's bits in *cfg* and scatter *val* into them; -ERANGE
 * when *val* does not fit. *term* only names it in the message. */
int pmu_format__apply(const struct pmu_format *f, const char *term, __u64 val,
		     __u64 cfg[NR_PMU_FIELDS], char *err, size_t errlen);

/* "0x3c" (hex) or "60" (decimal), the whole string, at most 64 bits. */
int pmu_parse_u64(const char *s, __u64 *val);

/* "event=0x3c,umask=0x0,any=1" into up to *max* terms; returns the count
 * or a negative errno. A bare "any" has has_val false and val 1. */
int pmu_terms_parse(const char *s, struct pmu_term *terms, int max, char *err, size_t errlen);

/* "0-3,8,10-11" (a trailing newline is fine, "" is the empty set). */
int pmu_cpus__parse(const char *s, struct pmu_cpus *cpus, char *err, size_t errlen);

static inline bool pmu_cpus__has(const struct pmu_cpus *cpus, int cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS && (cpus->bits[cpu / 64] >> (cpu % 64)) & 1;
}

/* "0-15,32": the set as sysfs writes CPU lists ("" when empty), cut to fit *len*. */
void pmu_cpus__format(const struct pmu_cpus *cpus, char *buf, size_t len);

/* A name that is safe as one path component: [A-Za-z0-9_.-], not
 * starting with '.', shorter than PMU_NAME_LEN. */
bool pmu_name_valid(const char *name);

/* cpu, cpu_core, cpu_atom and the Arm PMUv3 drivers (armv8_*) count the
 * generic hardware events. */
bool pmu_is_core_name(const char *name);

/*
 * sysfs readers; *root* is "/sys" or a fixture tree. They return 0, or
 * -ENOENT when the file (or PMU) does not exist, or another negative
 * errno for unreadable or malformed content; *err* says which.
 */
bool pmu_exists(const char *root, const char *pmu);
int pmu_read_type(const char *root, const char *pmu, __u32 *type, char *err, size_t errlen);
int pmu_read_format(const char *root, const char *pmu, const char *term, struct pmu_format *f,
		    char *err, size_t errlen);

/* events/<event> into *buf*, trailing whitespace removed. */
int pmu_read_alias(const char *root, const char *pmu, const char *event, char *buf,
		   size_t buflen, char *err, size_t errlen);

/* Whether events/<event> exists (and is readable). */
bool pmu_has_alias(const char *root, const char *pmu, const char *event);

/* Whether the PMU has all *n* *events*; the missing ones as "a, b" in *missing*. */
bool pmu_has_aliases(const char *root, const char *pmu, const char *const *events, int n,
		     char *missing, size_t len);

/* events/<event>.scale; 1.0 when the file does not exist. */
int pmu_read_scale(const char *root, const char *pmu, const char *event, double *scale,
		   char *err, size_t errlen);

/* events/<event>.unit; "" when the file does not exist. */
int pmu_read_unit(const char *root, const char *pmu, const char *event, char *unit,
		  size_t unitlen, char *err, size_t errlen);

/* What --list-events shows of a sysfs event. */
struct pmu_event_desc {
	char encoding[PMU_ALIAS_LEN];	/* events/<event>, "" when unreadable */
	bool readable;			/* events/<event> could be read */
	double scale;			/* events/<event>.scale, else 1.0 */
	char unit[16];			/* events/<event>.unit, else "" */
};

/* Never fails: what cannot be read is left at its default. */
void pmu_describe_event(const char *root, const char *pmu, const char *event,
			struct pmu_event_desc *d);

/* The PMU's "cpus" file (hybrid PMUs) or else its "cpumask" (uncore);
 * -ENOENT when it has neither, i.e. it is not tied to a CPU subset. */
int pmu_read_cpus(const char *root, const char *pmu, struct pmu_cpus *cpus, char *err,
		  size_t errlen);

/* Resolve *terms* through the PMU's format/ into *cfg* (which is not
 * cleared first, so later terms override earlier ones). "config",
 * "config1" and "config2" set a whole field unless format/ defines them. */
int pmu_terms_apply(const char *root, const char *pmu, const struct pmu_term *terms, int nr,
		    __u64 cfg[NR_PMU_FIELDS], char *err, size_t errlen);

/* Sorted, NULL-terminated name lists (free with pmu_names_free()); NULL
 * when the directory cannot be read. pmu_list_events() leaves out the
 * .scale/.unit/... companions of the events. */
char **pmu_list(const char *root);
char **pmu_list_events(const char *root, const char *pmu);
char **pmu_list_formats(const char *root, const char *pmu);
void pmu_names_free(char **names);

/* Building such a list: add names, then finish (sorted; NULL when *ok* is
 * false or memory ran out, which frees what was added). */
struct pmu_names {
	char **names;
	size_t nr;
	size_t cap;
};

int pmu_names__add(struct pmu_names *l, const char *name);
char **pmu_names__finish(struct pmu_names *l, bool ok);

/* Any core PMU (see pmu_is_core_name()) under *root*. */
bool pmu_have_core(const char *root);

#endif /* __TDTOP_PMU_H */
