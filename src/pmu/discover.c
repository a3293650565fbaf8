// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TopDown discovery: classify each core PMU in sysfs (Intel PERF_METRICS,
 * Intel generic-counter, Intel E-core, AMD Zen 4/5, Arm STALL_SLOT), decide
 * the level, and build the event groups through events_parse().
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "pmu/discover.h"

#define MSG_LEN 256
#define WHY_LEN 200

/*
 * General-purpose counters per logical CPU, which sysfs does not expose:
 * AMD Zen 4/5 have 6 (PERF_CTL0-5), Neoverse N1/N2/V1/V2 have 6 besides
 * the cycle counter. The NMI watchdog, when on, holds one of them (AMD) or
 * the cycle counter (Arm), which then pushes cpu_cycles onto a general one.
 */
#define AMD_GP_COUNTERS 6
#define ARM_GP_COUNTERS 6

/* What classify() found out about one core PMU. */
struct plan {
	char pmu[PMU_NAME_LEN];
	enum td_method method;
	bool l2;			/* its level-2 events exist */
	unsigned int width;		/* slot width where the method needs one */
	const char *uarch;		/* "Gracemont", "Zen 4", ... for --list */
	bool arm_n2_erratum;
	bool ht_variant;		/* pre-Ice Lake events in their any=1 form */
	char why[WHY_LEN];		/* METHOD_NONE: why not; else level-2 caveat */
};

static void vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (len)
		vsnprintf(buf, len, fmt, ap);
}

static void fmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vfmt(buf, len, f, ap);
	va_end(ap);
}

static void note(struct td_discovery *d, const char *f, ...) __attribute__((format(printf, 2, 3)));

static void note(struct td_discovery *d, const char *f, ...)
{
	va_list ap;

	if (d->nr_notes >= TD_MAX_NOTES)
		return;
	va_start(ap, f);
	vfmt(d->notes[d->nr_notes++], TD_NOTE_LEN, f, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* cpuinfo, SMT and the NMI watchdog                                   */
/* ------------------------------------------------------------------ */

/* "key\t\t: value" into its trimmed key and value; false if no colon. */
static bool split_line(char *line, char **key, char **val)
{
	char *colon = strchr(line, ':');
	char *end;

	if (!colon)
		return false;
	*colon = '\0';
	end = colon;
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*val = colon + 1;
	while (isspace((unsigned char)**val))
		(*val)++;
	end = *val + strlen(*val);
	while (end > *val && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*key = line;
	return true;
}

/* cpuinfo numbers: decimal on x86, "0x41" on Arm; -1 when malformed. */
static long parse_num(const char *s)
{
	__u64 v;

	if (pmu_parse_u64(s, &v) || v > INT_MAX)
		return -1;
	return (long)v;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static void cpuinfo_field(struct td_cpuinfo *c, const char *key, const char *val)
{
	long v = parse_num(val);

	if (!strcmp(key, "vendor_id"))
		snprintf(c->vendor, sizeof(c->vendor), "%s", val);
	else if (!strcmp(key, "model name"))
		snprintf(c->model_name, sizeof(c->model_name), "%s", val);
	else if (!strcmp(key, "cpu family"))
		c->family = (int)v;
	else if (!strcmp(key, "model"))
		c->model = (int)v;
	else if (!strcmp(key, "stepping"))
		c->stepping = (int)v;
	else if (!strcmp(key, "flags"))
		c->hypervisor = has_word(val, "hypervisor");
	else if (v < 0)
		return;
	else if (!strcmp(key, "CPU implementer"))
		c->arm_implementer = (unsigned int)v;
	else if (!strcmp(key, "CPU variant"))
		c->arm_variant = (unsigned int)v;
	else if (!strcmp(key, "CPU part"))
		c->arm_part = (unsigned int)v;
	else if (!strcmp(key, "CPU revision"))
		c->arm_revision = (unsigned int)v;
	else
		return;
	if (!strncmp(key, "CPU ", 4))
		c->arm = true;
}

static const char *arm_part_name(unsigned int impl, unsigned int part)
{
	static const struct {
		unsigned int part;
		const char *name;
	} parts[] = {
		{ 0xd0c, "Neoverse N1" }, { 0xd40, "Neoverse V1" }, { 0xd49, "Neoverse N2" },
		{ 0xd4f, "Neoverse V2" }, { 0xd8e, "Neoverse N3" }, { 0xd84, "Neoverse V3" },
	};

	if (impl != 0x41)
		return NULL;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].part == part)
			return parts[i].name;
	return NULL;
}

/*
 * The first processor block of cpuinfo: all CPUs of one type report the
 * same model, and on hybrid parts the PMUs tell the core types apart.
 */
static void read_cpuinfo(const char *path, struct td_cpuinfo *c)
{
	char *line = NULL;
	size_t cap = 0;
	bool seen = false;
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->family = c->model = c->stepping = -1;
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		char *key, *val;

		if (line[0] == '\n' && seen)
			break;
		if (!split_line(line, &key, &val))
			continue;
		seen = true;
		cpuinfo_field(c, key, val);
	}
	free(line);
	fclose(f);
	if (!c->model_name[0] && c->arm) {
		const char *name = arm_part_name(c->arm_implementer, c->arm_part);

		if (name)
			snprintf(c->model_name, sizeof(c->model_name), "Arm %s", name);
		else
			snprintf(c->model_name, sizeof(c->model_name),
				 "Arm implementer 0x%02x part 0x%03x", c->arm_implementer,
				 c->arm_part);
	}
}

/* A whole small file, trailing whitespace removed; 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

/* 0 or 1 from a sysfs/procfs flag file, -1 when missing or not a flag. */
static int read_flag(const char *path)
{
	char buf[16];

	if (read_small(path, buf, sizeof(buf)))
		return -1;
	if (!strcmp(buf, "0"))
		return 0;
	if (!strcmp(buf, "1"))
		return 1;
	return -1;
}

static bool is_real_root(const char *root)
{
	return !strcmp(root, "/sys");
}

static void read_system_state(struct td_discovery *d)
{
	const char *root = d->sysfs_root;
	char path[PATH_MAX];
	int smt;

	if (is_real_root(root))
		snprintf(path, sizeof(path), "/proc/cpuinfo");
	else
		snprintf(path, sizeof(path), "%s/cpuinfo", root);
	read_cpuinfo(path, &d->cpu);
	snprintf(d->cpu_model, sizeof(d->cpu_model), "%s",
		 d->cpu.model_name[0] ? d->cpu.model_name : "unknown CPU");

	snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active", root);
	smt = read_flag(path);
	d->smt_known = smt >= 0;
	d->smt_on = smt == 1;

	if (is_real_root(root))
		snprintf(path, sizeof(path), "/proc/sys/kernel/nmi_watchdog");
	else
		snprintf(path, sizeof(path), "%s/nmi_watchdog", root);
	d->nmi_watchdog = read_flag(path);
}

/* ------------------------------------------------------------------ */
/* sysfs helpers                                                       */
/* ------------------------------------------------------------------ */

/* The config an alias resolves to, through the same parser as -e. */
static int alias_config(const struct td_discovery *d, const char *pmu, const char *name,
			__u64 *config)
{
	char spec[2 * PMU_NAME_LEN + 4];
	struct event_list tmp;

	snprintf(spec, sizeof(spec), "%s/%s/", pmu, name);
	if (events_parse(d->sysfs_root, spec, &tmp, NULL, 0))
		return -1;
	*config = tmp.ev[0].config;
	return 0;
}

/* Does the alias set term *term* to *val* (e.g. any=1)? */
static bool alias_has_term(const struct td_discovery *d, const char *pmu, const char *name,
			   const char *term, __u64 val)
{
	struct pmu_term terms[PMU_MAX_TERMS];
	char str[PMU_ALIAS_LEN];
	int nr;

	if (pmu_read_alias(d->sysfs_root, pmu, name, str, sizeof(str), NULL, 0))
		return false;
	nr = pmu_terms_parse(str, terms, PMU_MAX_TERMS, NULL, 0);
	for (int i = 0; i < nr; i++)
		if (!strcmp(terms[i].name, term) && terms[i].val == val)
			return true;
	return false;
}

static bool is_arm_pmu(const char *name)
{
	return !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6);
}

/* Order of the parts: the big core first, as the hybrid event ranges are. */
static int pmu_rank(const char *name)
{
	if (!strcmp(name, "cpu"))
		return 0;
	if (!strcmp(name, "cpu_core"))
		return 1;
	if (!strcmp(name, "cpu_atom"))
		return 2;
	if (!strcmp(name, "cpu_lowpower"))
		return 3;
	if (is_arm_pmu(name))
		return 4;
	return -1;
}

/* Core PMUs in part order, remembered in d->pmus. */
static int find_core_pmus(struct td_discovery *d, char **names)
{
	for (int rank = 0; rank <= 4; rank++) {
		for (char **p = names; *p; p++) {
			struct td_pmu_info *pi;
			struct pmu_cpus cpus;
			int ret;

			if (pmu_rank(*p) != rank || d->nr_pmus == TD_MAX_PMUS)
				continue;
			pi = &d->pmus[d->nr_pmus];
			memset(pi, 0, sizeof(*pi));
			snprintf(pi->name, sizeof(pi->name), "%s", *p);
			if (pmu_read_type(d->sysfs_root, *p, &pi->type, NULL, 0))
				continue;	/* not a usable PMU directory */
			ret = pmu_read_cpus(d->sysfs_root, *p, &cpus, NULL, 0);
			pi->all_cpus = ret != 0;
			if (!ret)
				pmu_cpus__format(&cpus, pi->cpus, sizeof(pi->cpus));
			d->nr_pmus++;
		}
	}
	return d->nr_pmus;
}

/* ------------------------------------------------------------------ */
/* Classification                                                      */
/* ------------------------------------------------------------------ */

static const char *const l1_metrics[] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
};
static const char *const l2_metrics[] = {
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};
static const char *const generic_required[] = {
	"topdown-total-slots", "topdown-slots-retired", "topdown-fetch-bubbles",
};
static const char *const atom_required[] = {
	"topdown-retiring", "topdown-fe-bound", "topdown-be-bound",
};
static const char *const arm_required[] = {
	"cpu_cycles", "stall_slot", "stall_slot_frontend", "stall_slot_backend",
	"op_spec", "op_retired",
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static bool is_intel(const struct td_discovery *d)
{
	return !strcmp(d->cpu.vendor, "GenuineIntel");
}

/*
 * Slot width of an Intel E-core, as perf's per-model metric files give
 * tma_info_core_slots: Skymont's fe-bound event (TOPDOWN_FE_BOUND.ALL,
 * 0x9c) marks an 8-wide core; otherwise the model decides.
 */
static unsigned int atom_width(const struct td_discovery *d, const char *pmu, __u64 fe_config,
			       const char **uarch)
{
	if ((fe_config & 0xff) == 0x9c) {
		*uarch = "Skymont";
		return 8;
	}
	if (!strcmp(pmu, "cpu_lowpower")) {
		*uarch = "Crestmont";	/* Arrow Lake-H low-power island */
		return 6;
	}
	if (!is_intel(d) || d->cpu.family != 6)
		return 0;
	switch (d->cpu.model) {
	case 0x97: case 0x9a:	/* Alder Lake */
	case 0xb7: case 0xba: case 0xbf:	/* Raptor Lake */
	case 0xbe:		/* Alder Lake-N */
		*uarch = "Gracemont";
		return 5;
	case 0xaa: case 0xac:	/* Meteor Lake */
	case 0xaf:		/* Sierra Forest */
	case 0xb6:		/* Grand Ridge */
		*uarch = "Crestmont";
		return 6;
	case 0xbd:		/* Lunar Lake */
	case 0xc5: case 0xc6:	/* Arrow Lake */
		*uarch = "Skymont";
		return 8;
	}
	return 0;
}

static void classify_intel(const struct td_discovery *d, struct plan *p)
{
	char missing[WHY_LEN];
	__u64 cfg = 0;

	if (pmu_has_alias(d->sysfs_root, p->pmu, "slots")) {
		if (!pmu_has_aliases(d->sysfs_root, p->pmu, l1_metrics, N(l1_metrics), missing, sizeof(missing))) {
			fmt(p->why, sizeof(p->why), "PMU '%s' lists slots but not %s", p->pmu,
			    missing);
			return;
		}
		p->method = TD_PERF_METRICS;
		p->l2 = pmu_has_aliases(d->sysfs_root, p->pmu, l2_metrics, N(l2_metrics), missing,
				    sizeof(missing));
		if (!p->l2)
			fmt(p->why, sizeof(p->why),
			    "PMU '%s' has no %s: PERF_METRICS holds only the 4 level-1 "
			    "metrics here (Ice Lake, Tiger Lake)", p->pmu, missing);
		return;
	}
	if (pmu_has_aliases(d->sysfs_root, p->pmu, generic_required, N(generic_required), missing,
			sizeof(missing))) {
		p->method = TD_INTEL_GENERIC;
		p->ht_variant = alias_has_term(d, p->pmu, "topdown-total-slots", "any", 1);
		fmt(p->why, sizeof(p->why),
		    "pre-Ice Lake TopDown events have no level 2 in sysfs");
		return;
	}
	if (pmu_has_alias(d->sysfs_root, p->pmu, "topdown-retiring")) {
		if (!pmu_has_aliases(d->sysfs_root, p->pmu, atom_required, N(atom_required), missing,
				 sizeof(missing))) {
			fmt(p->why, sizeof(p->why), "PMU '%s' lists topdown-retiring but not %s",
			    p->pmu, missing);
			return;
		}
		if (alias_config(d, p->pmu, "topdown-fe-bound", &cfg)) {
			fmt(p->why, sizeof(p->why), "PMU '%s': topdown-fe-bound does not parse",
			    p->pmu);
			return;
		}
		p->width = atom_width(d, p->pmu, cfg, &p->uarch);
		if (!p->width) {
			fmt(p->why, sizeof(p->why),
			    "PMU '%s' has E-core TopDown events but the slot width of %s "
			    "(family %d model 0x%x) is not known", p->pmu, d->cpu_model,
			    d->cpu.family, (unsigned int)d->cpu.model);
			return;
		}
		p->method = TD_INTEL_ATOM;
		fmt(p->why, sizeof(p->why),
		    "E-core (%s) level-2 events are not in sysfs", p->pmu);
		return;
	}
	fmt(p->why, sizeof(p->why),
	    "PMU '%s' lists no TopDown events (no slots or topdown-* in its events/)", p->pmu);
}

/* AMD's core PMU: its event field reaches the extended select bits 32-35. */
static bool is_amd_pmu(const struct td_discovery *d, const char *pmu)
{
	struct pmu_format f;

	if (!strcmp(d->cpu.vendor, "AuthenticAMD") || !strcmp(d->cpu.vendor, "HygonGenuine"))
		return true;
	if (d->cpu.vendor[0])
		return false;
	return !pmu_read_format(d->sysfs_root, pmu, "event", &f, NULL, 0) &&
	       f.field == PMU_CONFIG && (f.mask >> 32) == 0xf;
}

/*
 * perf's x86 mapfile.csv: family 0x19 models 0x00-0x0f, 0x20-0x2f and
 * 0x40-0x5f are Zen 3 (amdzen3, no pipeline metrics), the other family
 * 0x19 models Zen 4 (amdzen4), family 0x1a Zen 5 (amdzen5).
 */
static void classify_amd(const struct td_discovery *d, struct plan *p)
{
	int fam = d->cpu.family, model = d->cpu.model;
	struct pmu_format f;

	if (fam < 0 || model < 0) {
		fmt(p->why, sizeof(p->why),
		    "AMD CPU of unknown family/model (no cpuinfo): cannot tell Zen 4/5 apart");
		return;
	}
	if (fam == 0x19 && !(model <= 0x0f || (model >= 0x20 && model <= 0x2f) ||
			     (model >= 0x40 && model <= 0x5f))) {
		p->width = 6;
		p->uarch = "Zen 4";
	} else if (fam == 0x1a) {
		p->width = 8;
		p->uarch = "Zen 5";
	} else {
		fmt(p->why, sizeof(p->why),
		    "AMD family 0x%x model 0x%x: perf defines the PipelineL1 TopDown "
		    "metrics only for Zen 4 and Zen 5", (unsigned int)fam, (unsigned int)model);
		return;
	}
	if (pmu_read_format(d->sysfs_root, p->pmu, "event", &f, NULL, 0) ||
	    pmu_read_format(d->sysfs_root, p->pmu, "umask", &f, NULL, 0)) {
		fmt(p->why, sizeof(p->why), "PMU '%s' has no event/umask format", p->pmu);
		return;
	}
	p->method = TD_AMD_ZEN;
	fmt(p->why, sizeof(p->why),
	    "AMD level 2 needs 6 more events than the %d counters hold", AMD_GP_COUNTERS);
}

/* caps/slots, written as "0x%08x" by arm_pmuv3.c; 0 when absent. */
static unsigned int arm_slots(const struct td_discovery *d, const char *pmu)
{
	char path[PATH_MAX], buf[32];
	__u64 v;

	if (!pmu_name_valid(pmu))
		return 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/caps/slots", d->sysfs_root,
		 pmu);
	if (read_small(path, buf, sizeof(buf)) || pmu_parse_u64(buf, &v) || v > 255)
		return 0;
	return (unsigned int)v;
}

/*
 * perf's neoverse-n2-v2 metrics subtract cpu_cycles from the stall slot
 * counts unless strcmp_cpuid_str(0x410fd493) (N2 r0p3 or later) or the
 * core is not an N2: the erratum is N2 r0p0-r0p2.
 */
static bool arm_n2_erratum(const struct td_cpuinfo *c)
{
	return c->arm && c->arm_implementer == 0x41 && c->arm_part == 0xd49 &&
	       (c->arm_variant << 4 | c->arm_revision) < 0x03;
}

static void classify_arm(const struct td_discovery *d, struct plan *p)
{
	char missing[WHY_LEN];

	if (!pmu_has_aliases(d->sysfs_root, p->pmu, arm_required, N(arm_required), missing, sizeof(missing))) {
		fmt(p->why, sizeof(p->why),
		    "PMU '%s' has no %s (Armv8.4 STALL_SLOT events; KVM guests do not get them)",
		    p->pmu, missing);
		return;
	}
	p->width = arm_slots(d, p->pmu);
	if (!p->width) {
		fmt(p->why, sizeof(p->why),
		    "PMU '%s' has no caps/slots (PMMIR_EL1.SLOTS), so the slot width is unknown",
		    p->pmu);
		return;
	}
	p->method = TD_ARM;
	p->arm_n2_erratum = arm_n2_erratum(&d->cpu);
	p->uarch = arm_part_name(d->cpu.arm_implementer, d->cpu.arm_part);
	fmt(p->why, sizeof(p->why), "the Arm STALL_SLOT metrics have no level 2");
}

static void classify(const struct td_discovery *d, struct plan *p)
{
	p->method = TD_METHOD_NONE;
	if (is_arm_pmu(p->pmu))
		classify_arm(d, p);
	else if (!strcmp(p->pmu, "cpu") && is_amd_pmu(d, p->pmu))
		classify_amd(d, p);
	else
		classify_intel(d, p);
}

/* ------------------------------------------------------------------ */
/* Building the events                                                 */
/* ------------------------------------------------------------------ */

#define LEADS (-1)	/* add_event(): the event leads its own group */

/*
 * Append pmu/body/ through events_parse(). *leader* is an event index or
 * LEADS. Returns the new index, or -1 with *why* set (-E2BIG style full
 * lists are reported through *full*).
 */
static int add_event(struct td_discovery *d, const char *pmu, const char *body, int role,
		     int leader, bool pin, const char *label, bool *full, char *why, size_t wlen)
{
	char spec[EVENT_NAME_LEN + 8], msg[MSG_LEN];
	struct event_list *el = &d->events;
	struct event_list tmp;
	int idx = el->nr;

	if (idx >= MAX_EVENTS) {
		*full = true;
		fmt(why, wlen, "more than %d events", MAX_EVENTS);
		return -1;
	}
	snprintf(spec, sizeof(spec), "%s/%s/", pmu, body);
	if (events_parse(d->sysfs_root, spec, &tmp, msg, sizeof(msg))) {
		fmt(why, wlen, "%s", msg);
		return -1;
	}
	el->ev[idx] = tmp.ev[0];
	el->ev[idx].leader = leader == LEADS ? idx : leader;
	el->ev[idx].pinned = pin;
	d->cfg.role[idx] = role;
	if (pmu_read_alias(d->sysfs_root, pmu, body, d->src[idx], TD_SRC_LEN, NULL, 0))
		snprintf(d->src[idx], TD_SRC_LEN, "%s", body);
	snprintf(d->label[idx], EVENT_NAME_LEN, "%s", label ? label : "");
	el->nr++;
	return idx;
}

/* Forget events [from, nr): a part that could not be built completely. */
static void rollback(struct td_discovery *d, int from)
{
	for (int i = from; i < d->events.nr; i++) {
		memset(&d->events.ev[i], 0, sizeof(d->events.ev[i]));
		d->cfg.role[i] = TD_NO_ROLE;
		d->src[i][0] = d->label[i][0] = '\0';
	}
	d->events.nr = from;
}

/* One group: a pinned leader and its members, all or nothing. */
struct ev_def {
	const char *body;	/* alias or terms */
	int role;
	const char *label;	/* perf's name for raw terms */
};

struct build {
	struct td_discovery *d;
	const struct plan *p;
	int level;
	bool with_ipc;
	bool full;		/* MAX_EVENTS reached */
	char why[WHY_LEN];
};

static int add_group(struct build *b, const struct ev_def *defs, int n)
{
	int leader = -1;

	for (int i = 0; i < n; i++) {
		int idx = add_event(b->d, b->p->pmu, defs[i].body, defs[i].role,
				    i ? leader : LEADS, i == 0, defs[i].label, &b->full, b->why,
				    sizeof(b->why));

		if (idx < 0)
			return -1;
		if (!i)
			leader = idx;
	}
	return 0;
}

/* A free-running event that is not part of any group. */
static int add_solo(struct build *b, const char *body, int role)
{
	return add_event(b->d, b->p->pmu, body, role, LEADS, false, NULL, &b->full, b->why,
			 sizeof(b->why)) < 0 ? -1 : 0;
}

/*
 * Ice Lake and later: slots leads (the kernel requires it, and pinning
 * turns "not on the PMU" into -EBUSY instead of a stale value), then only
 * the metrics the formulas use, since each read of any of them makes the
 * kernel update and reset the whole group.
 */
static int build_perf_metrics(struct build *b)
{
	static const struct ev_def l1[] = {
		{ "slots", TD_SLOTS, NULL },
		{ "topdown-retiring", TD_RETIRING, NULL },
		{ "topdown-bad-spec", TD_BAD_SPEC, NULL },
		{ "topdown-fe-bound", TD_FE_BOUND, NULL },
		{ "topdown-be-bound", TD_BE_BOUND, NULL },
		{ "topdown-heavy-ops", TD_HEAVY_OPS, NULL },
		{ "topdown-br-mispredict", TD_BR_MISPREDICT, NULL },
		{ "topdown-fetch-lat", TD_FETCH_LAT, NULL },
		{ "topdown-mem-bound", TD_MEM_BOUND, NULL },
	};

	if (add_group(b, l1, b->level >= 2 ? 9 : 5))
		return -1;
	/* IPC from the free fixed counters 0 and 1, outside the group */
	if (b->with_ipc && (add_solo(b, "cpu-cycles", TD_CYCLES) ||
			    add_solo(b, "instructions", TD_INSTRUCTIONS)))
		return -1;
	return 0;
}

/*
 * Sandy Bridge to Cascade Lake: one group of the sysfs topdown-* events.
 * Slots-issued only feeds bad speculation together with recovery bubbles
 * (Silvermont has neither, and its issued and retired events are the same).
 */
static int build_intel_generic(struct build *b)
{
	struct td_discovery *d = b->d;
	struct ev_def defs[5] = {
		{ "topdown-total-slots", TD_TOTAL_SLOTS, NULL },
		{ "topdown-slots-retired", TD_SLOTS_RETIRED, NULL },
		{ "topdown-fetch-bubbles", TD_FETCH_BUBBLES, NULL },
	};
	int n = 3;

	if (pmu_has_alias(d->sysfs_root, b->p->pmu, "topdown-slots-issued") &&
	    pmu_has_alias(d->sysfs_root, b->p->pmu, "topdown-recovery-bubbles")) {
		defs[n++] = (struct ev_def){ "topdown-slots-issued", TD_SLOTS_ISSUED, NULL };
		defs[n++] = (struct ev_def){ "topdown-recovery-bubbles", TD_RECOVERY_BUBBLES,
					     NULL };
	}
	if (add_group(b, defs, n))
		return -1;
	if (!b->with_ipc)
		return 0;
	/*
	 * With HT the core's 8 general counters are split 4 per thread and the
	 * group takes all 4 (total slots sits on fixed counter 1), so cycles
	 * would never be scheduled; instructions has fixed counter 0.
	 */
	if (!b->p->ht_variant && add_solo(b, "cpu-cycles", TD_CYCLES))
		return -1;
	return add_solo(b, "instructions", TD_INSTRUCTIONS);
}

/* Intel E-cores: slots are slot_width * cycles, so cycles lead the group. */
static int build_atom(struct build *b)
{
	static const struct ev_def defs[] = {
		{ "cpu-cycles", TD_CYCLES, NULL },
		{ "topdown-retiring", TD_RETIRING, NULL },
		{ "topdown-fe-bound", TD_FE_BOUND, NULL },
		{ "topdown-be-bound", TD_BE_BOUND, NULL },
	};

	if (add_group(b, defs, N(defs)))
		return -1;
	return b->with_ipc ? add_solo(b, "instructions", TD_INSTRUCTIONS) : 0;
}

/*
 * AMD Zen 4/5 PipelineL1 (perf's amdzen4/amdzen5 pipeline.json) as raw
 * encodings through the PMU's format/ (event 0x1a0 needs config:32-35).
 * All six fit the six counters only when nothing else holds one.
 */
static int build_amd(struct build *b)
{
	struct td_discovery *d = b->d;
	struct ev_def defs[6] = {
		{ "event=0x76", TD_CYCLES, "ls_not_halted_cyc" },
		{ "event=0xaa,umask=0x7", TD_AMD_DISPATCHED, "de_src_op_disp.all" },
		{ "event=0xc1", TD_AMD_RETIRED_OPS, "ex_ret_ops" },
		{ "event=0x1a0,umask=0x1", TD_AMD_NO_OPS_FE,
		  "de_no_dispatch_per_slot.no_ops_from_frontend" },
		{ "event=0x1a0,umask=0x1e", TD_AMD_BE_STALLS,
		  "de_no_dispatch_per_slot.backend_stalls" },
	};
	int free_ctrs = AMD_GP_COUNTERS - (d->nmi_watchdog == 1);
	int n = 5;

	if (free_ctrs < n) {
		fmt(b->why, sizeof(b->why), "only %d of the %d counters are free", free_ctrs,
		    AMD_GP_COUNTERS);
		return -1;
	}
	if (d->smt_on && free_ctrs > n)
		defs[n++] = (struct ev_def){ "event=0x1a0,umask=0x60", TD_AMD_SMT_CONTENTION,
					     "de_no_dispatch_per_slot.smt_contention" };
	if (add_group(b, defs, n))
		return -1;
	if (d->smt_on && n == 5)
		note(d, "de_no_dispatch_per_slot.smt_contention dropped: the NMI watchdog holds "
			"one of the %d counters (sysctl kernel.nmi_watchdog=0 frees it)",
		     AMD_GP_COUNTERS);
	else if (!d->smt_on)
		note(d, "SMT is off: smt_contention is not counted (no sibling thread)");
	if (!b->with_ipc)
		return 0;
	if (n + 1 > free_ctrs) {
		note(d, "IPC not counted: the TopDown group takes all %d free counters",
		     free_ctrs);
		return 0;
	}
	return add_solo(b, "instructions", TD_INSTRUCTIONS);
}

/* Arm SBSA TopDown: cpu_cycles on the cycle counter leads five stall/op events. */
static int build_arm(struct build *b)
{
	static const struct ev_def defs[] = {
		{ "cpu_cycles", TD_CYCLES, NULL },
		{ "stall_slot", TD_ARM_STALL_SLOT, NULL },
		{ "stall_slot_frontend", TD_ARM_STALL_SLOT_FE, NULL },
		{ "stall_slot_backend", TD_ARM_STALL_SLOT_BE, NULL },
		{ "op_spec", TD_ARM_OP_SPEC, NULL },
		{ "op_retired", TD_ARM_OP_RETIRED, NULL },
	};
	struct td_discovery *d = b->d;
	/* the watchdog takes the cycle counter: cpu_cycles moves to a general one */
	int used = 5 + (d->nmi_watchdog == 1);

	if (add_group(b, defs, N(defs)))
		return -1;
	if (!b->with_ipc)
		return 0;
	if (used + 1 > ARM_GP_COUNTERS || !pmu_has_alias(d->sysfs_root, b->p->pmu, "inst_retired")) {
		note(d, "IPC not counted on %s: no general counter left for inst_retired",
		     b->p->pmu);
		return 0;
	}
	return add_solo(b, "inst_retired", TD_INSTRUCTIONS);
}

static int build_part(struct build *b)
{
	struct td_discovery *d = b->d;
	struct td_part *part = &d->cfg.parts[d->cfg.nr_parts];
	int start = d->events.nr, ret;

	memset(part, 0, sizeof(*part));
	if (pmu_read_cpus(d->sysfs_root, b->p->pmu, &part->cpus, NULL, 0)) {
		memset(&part->cpus, 0, sizeof(part->cpus));
		part->all_cpus = true;
	}
	switch (b->p->method) {
	case TD_PERF_METRICS:
		ret = build_perf_metrics(b);
		break;
	case TD_INTEL_GENERIC:
		ret = build_intel_generic(b);
		break;
	case TD_INTEL_ATOM:
		ret = build_atom(b);
		break;
	case TD_AMD_ZEN:
		ret = build_amd(b);
		break;
	case TD_ARM:
		ret = build_arm(b);
		break;
	default:
		ret = -1;
		break;
	}
	if (ret) {
		rollback(d, start);
		return -1;
	}
	part->method = b->p->method;
	snprintf(part->pmu, sizeof(part->pmu), "%s", b->p->pmu);
	part->ev_lo = start;
	part->ev_hi = d->events.nr;
	part->slot_width = b->p->width;
	part->arm_n2_erratum = b->p->arm_n2_erratum;
	snprintf(d->uarch[d->cfg.nr_parts], sizeof(d->uarch[0]), "%s",
		 b->p->uarch ? b->p->uarch : "");
	d->cfg.nr_parts++;
	return 0;
}

static void reset_events(struct td_discovery *d, int nr_notes)
{
	memset(&d->events, 0, sizeof(d->events));
	memset(d->cfg.parts, 0, sizeof(d->cfg.parts));
	d->cfg.nr_parts = 0;
	memset(d->uarch, 0, sizeof(d->uarch));
	for (int i = 0; i < MAX_EVENTS; i++) {
		d->cfg.role[i] = TD_NO_ROLE;
		d->src[i][0] = d->label[i][0] = '\0';
	}
	d->nr_notes = nr_notes;
}

/* One pass over the plans; true when a part did not fit MAX_EVENTS. */
static bool build_parts(struct td_discovery *d, struct plan *plans, int n, int level,
			bool with_ipc)
{
	bool full = false;

	for (int i = 0; i < n; i++) {
		struct build b = { .d = d, .p = &plans[i], .level = level, .with_ipc = with_ipc };

		if (plans[i].method == TD_METHOD_NONE)
			continue;
		if (d->cfg.nr_parts == MAX_TD_PARTS) {
			note(d, "%s: no TopDown: at most %d core types are measured", plans[i].pmu,
			     MAX_TD_PARTS);
			continue;
		}
		if (!build_part(&b))
			continue;
		full |= b.full;
		if (b.full)
			note(d, "%s: no TopDown: the events of all core types exceed the %d "
				"counters read per CPU", plans[i].pmu, MAX_EVENTS);
		else
			note(d, "%s: %s not usable: %s", plans[i].pmu,
			     td_method_name(plans[i].method), b.why);
	}
	return full;
}

/*
 * Build every usable plan's part. When they do not all fit MAX_EVENTS
 * (three core types), build again without the IPC events. A part that
 * cannot be built is reported and the others are kept.
 */
static void build_all(struct td_discovery *d, struct plan *plans, int n, int level)
{
	int nr_notes = d->nr_notes;

	reset_events(d, nr_notes);
	if (!build_parts(d, plans, n, level, true))
		return;
	reset_events(d, nr_notes);
	note(d, "IPC not counted: the TopDown events of all core types need the %d event slots",
	     MAX_EVENTS);
	build_parts(d, plans, n, level, false);
}

/* "a; b" of the reasons no core PMU has a usable method. */
static void join_whys(struct td_discovery *d, const struct plan *plans, int n)
{
	size_t used = 0;

	d->reason[0] = '\0';
	for (int i = 0; i < n && used < sizeof(d->reason); i++)
		used += snprintf(d->reason + used, sizeof(d->reason) - used, "%s%s",
				 used ? "; " : "", plans[i].why);
}

/*
 * Before Ice Lake the total-slots and recovery-bubbles events count the
 * whole core when the kernel chose their HT form (any=1, .scale 2), and
 * it does so whenever SMT was possible at boot.
 */
static void check_per_core(struct td_discovery *d, const struct plan *plans, int n)
{
	for (int i = 0; i < n; i++) {
		if (plans[i].method != TD_INTEL_GENERIC)
			continue;
		if (plans[i].ht_variant && !d->smt_known)
			d->smt_on = true;
		if (d->smt_on) {
			d->cfg.per_core_only = true;
			snprintf(d->per_core_reason, sizeof(d->per_core_reason),
				 "SMT is on: pre-Ice Lake TopDown counts whole cores, per-task "
				 "values are not valid");
		} else if (plans[i].ht_variant) {
			d->cfg.per_core_only = true;
			snprintf(d->per_core_reason, sizeof(d->per_core_reason),
				 "SMT is off now but was possible at boot: the kernel gave "
				 "topdown-total-slots its whole-core form (any=1, scale 2), so "
				 "per-task values are not valid");
		}
		if (plans[i].ht_variant && d->nmi_watchdog == 1)
			note(d, "the NMI watchdog holds fixed counter 1: with HT the 5 topdown "
				"events need 5 of 4 general counters and cannot be scheduled "
				"(sysctl kernel.nmi_watchdog=0)");
	}
}

/* On hybrid CPUs, say which core type is left without TopDown. */
static void note_uncovered(struct td_discovery *d, const struct plan *plans, int n)
{
	for (int i = 0; i < n; i++) {
		bool built = false;

		for (int p = 0; p < d->cfg.nr_parts; p++)
			built |= !strcmp(d->cfg.parts[p].pmu, plans[i].pmu);
		if (built || plans[i].method != TD_METHOD_NONE)
			continue;
		note(d, "CPUs of %s have no TopDown: %s", plans[i].pmu, plans[i].why);
	}
}

int td_discover(const char *sysfs_root, int want_level, struct td_discovery *d, char *err,
		size_t errlen)
{
	struct plan plans[TD_MAX_PMUS];
	int n, usable = 0, level = want_level;
	char **names;

	if (!d || !sysfs_root || !sysfs_root[0]) {
		fmt(err, errlen, "failed to discover TopDown: no sysfs root given");
		return -1;
	}
	if (want_level != 1 && want_level != 2) {
		fmt(err, errlen, "failed to discover TopDown: bad level %d (want 1 or 2)",
		    want_level);
		return -1;
	}
	if (strlen(sysfs_root) >= sizeof(d->sysfs_root)) {
		fmt(err, errlen, "failed to discover TopDown: sysfs root '%.40s...' is too long",
		    sysfs_root);
		return -1;
	}
	memset(d, 0, sizeof(*d));
	snprintf(d->sysfs_root, sizeof(d->sysfs_root), "%s", sysfs_root);
	d->want_level = want_level;
	reset_events(d, 0);
	read_system_state(d);

	names = pmu_list(sysfs_root);
	if (!names) {
		fmt(d->reason, sizeof(d->reason),
		    "cannot read %s/bus/event_source/devices: no perf events in this kernel?",
		    sysfs_root);
		return 0;
	}
	n = find_core_pmus(d, names);
	pmu_names_free(names);
	if (!n) {
		fmt(d->reason, sizeof(d->reason),
		    "no hardware PMU: no cpu, cpu_core or armv8_* PMU in "
		    "bus/event_source/devices (a VM without vPMU?)");
		return 0;
	}

	d->levels_available = 2;
	for (int i = 0; i < n; i++) {
		memset(&plans[i], 0, sizeof(plans[i]));
		snprintf(plans[i].pmu, sizeof(plans[i].pmu), "%s", d->pmus[i].name);
		classify(d, &plans[i]);
		if (plans[i].method == TD_METHOD_NONE)
			continue;
		usable++;
		if (!plans[i].l2 && d->levels_available == 2) {
			d->levels_available = 1;
			if (want_level == 2)
				note(d, "level 2 not available: %s", plans[i].why);
		}
	}
	if (!usable) {
		d->levels_available = 0;
		join_whys(d, plans, n);
		return 0;
	}
	if (level > d->levels_available)
		level = d->levels_available;

	build_all(d, plans, n, level);
	if (!d->cfg.nr_parts) {
		fmt(d->reason, sizeof(d->reason), "%s",
		    d->nr_notes ? d->notes[d->nr_notes - 1] : "no TopDown event group could be built");
		return 0;
	}
	d->cfg.max_level = level;
	note_uncovered(d, plans, n);
	check_per_core(d, plans, n);
	if (d->cpu.hypervisor && d->cfg.parts[0].method == TD_PERF_METRICS)
		note(d, "running under a hypervisor: the slots/topdown-* events are listed, but "
			"most vPMUs do not virtualise PERF_METRICS; opening them may fail");
	return 0;
}

void td_discovery_scales(const struct td_discovery *d, double scale[MAX_EVENTS])
{
	for (int i = 0; i < MAX_EVENTS; i++)
		scale[i] = i < d->events.nr && d->events.ev[i].scale > 0 ? d->events.ev[i].scale
									 : 1.0;
}

/* ------------------------------------------------------------------ */
/* --list                                                              */
/* ------------------------------------------------------------------ */

static void print_cpu(const struct td_discovery *d, FILE *f)
{
	const struct td_cpuinfo *c = &d->cpu;

	fprintf(f, "CPU:          %s", d->cpu_model);
	if (c->vendor[0])
		fprintf(f, " (%s family 0x%x model 0x%x stepping %d)", c->vendor,
			(unsigned int)c->family, (unsigned int)c->model, c->stepping);
	else if (c->arm)
		fprintf(f, " (implementer 0x%02x part 0x%03x r%up%u)", c->arm_implementer,
			c->arm_part, c->arm_variant, c->arm_revision);
	fprintf(f, "%s\n", c->hypervisor ? ", in a virtual machine" : "");
}

static void print_pmus(const struct td_discovery *d, FILE *f)
{
	fprintf(f, "Core PMUs:   ");
	if (!d->nr_pmus)
		fprintf(f, " none");
	for (int i = 0; i < d->nr_pmus; i++) {
		const struct td_pmu_info *p = &d->pmus[i];

		fprintf(f, "%s %s (type %u, CPUs %s)", i ? "," : "", p->name, p->type,
			p->all_cpus ? "all" : p->cpus);
	}
	fputc('\n', f);
	fprintf(f, "SMT:          %s\n",
		!d->smt_known ? (d->smt_on ? "on (from the any=1 event variants)"
					   : "unknown (no devices/system/cpu/smt/active)")
			      : d->smt_on ? "on" : "off");
	fprintf(f, "NMI watchdog: %s\n",
		d->nmi_watchdog == 1 ? "on (it holds a counter)"
				     : d->nmi_watchdog == 0 ? "off" : "unknown");
}

static void slots_text(const struct td_discovery *d, int pi, char *buf, size_t len)
{
	const struct td_part *p = &d->cfg.parts[pi];
	const char *uarch = d->uarch[pi][0] ? d->uarch[pi] : "?";

	switch (p->method) {
	case TD_PERF_METRICS:
		fmt(buf, len, "slots from fixed counter 3, fractions from PERF_METRICS");
		break;
	case TD_INTEL_GENERIC:
		fmt(buf, len, "slots = topdown-total-slots x %g (its sysfs .scale)",
		    p->ev_lo < d->events.nr ? d->events.ev[p->ev_lo].scale : 1.0);
		break;
	case TD_INTEL_ATOM:
		fmt(buf, len, "slot width %u (%s): slots = %u x cycles", p->slot_width, uarch,
		    p->slot_width);
		break;
	case TD_AMD_ZEN:
		fmt(buf, len, "slot width %u (%s): %u dispatch slots per cycle", p->slot_width,
		    uarch, p->slot_width);
		break;
	case TD_ARM:
		fmt(buf, len, "slot width %u (caps/slots)%s", p->slot_width,
		    p->arm_n2_erratum ? ", Neoverse N2 r0p0-r0p2 erratum: cpu_cycles "
					"subtracted from the stall slots" : "");
		break;
	default:
		fmt(buf, len, "-");
		break;
	}
}

static void print_event(const struct td_discovery *d, int i, FILE *f)
{
	const struct event_spec *e = &d->events.ev[i];
	char group[40];

	if (e->leader == i)
		fmt(group, sizeof(group), "%s", e->pinned ? "leader, pinned" : "alone");
	else
		fmt(group, sizeof(group), "member of %d", e->leader);
	/* a raw encoding is shown by perf's name; its terms follow in the last column */
	fprintf(f, "  %2d  %-16s %-30s %-4u 0x%-11llx 0x%-5llx %-15s %s", i,
		td_role_name(d->cfg.role[i]), d->label[i][0] ? d->label[i] : e->name, e->type,
		(unsigned long long)e->config, (unsigned long long)e->config1, group, d->src[i]);
	if (e->scale != 1.0)
		fprintf(f, " (scale %g)", e->scale);
	fputc('\n', f);
}

static void print_part(const struct td_discovery *d, int pi, FILE *f)
{
	const struct td_part *p = &d->cfg.parts[pi];
	char cpus[64], slots[160];

	if (p->all_cpus)
		fmt(cpus, sizeof(cpus), "all");
	else
		pmu_cpus__format(&p->cpus, cpus, sizeof(cpus));
	slots_text(d, pi, slots, sizeof(slots));
	fprintf(f, "\nPart %d: %s on %s, CPUs %s, events %d-%d\n", pi, td_method_name(p->method),
		p->pmu, cpus, p->ev_lo, p->ev_hi - 1);
	fprintf(f, "  %s\n", slots);
	fprintf(f, "  %2s  %-16s %-30s %-4s %-13s %-7s %-15s %s\n", "#", "role", "event", "type",
		"config", "config1", "group", "sysfs string / terms");
	for (int i = p->ev_lo; i < p->ev_hi && i < d->events.nr; i++)
		print_event(d, i, f);
}

void td_discovery_print(const struct td_discovery *d, FILE *f)
{
	print_cpu(d, f);
	fprintf(f, "sysfs:        %s\n", d->sysfs_root);
	print_pmus(d, f);
	if (!d->cfg.nr_parts) {
		fprintf(f, "TopDown:      unavailable: %s\n", d->reason);
	} else {
		fprintf(f, "TopDown:      ");
		for (int p = 0; p < d->cfg.nr_parts; p++)
			fprintf(f, "%s%s", p ? " + " : "", td_method_name(d->cfg.parts[p].method));
		fprintf(f, ", level %d (levels available: %s)\n", d->cfg.max_level,
			d->levels_available >= 2 ? "1, 2" : "1");
		if (d->cfg.per_core_only)
			fprintf(f, "Per core only: %s\n", d->per_core_reason);
		for (int p = 0; p < d->cfg.nr_parts; p++)
			print_part(d, p, f);
	}
	if (d->nr_notes)
		fprintf(f, "\nNotes:\n");
	for (int i = 0; i < d->nr_notes; i++)
		fprintf(f, "  - %s\n", d->notes[i]);
}

/* ------------------------------------------------------------------ */
/* Failures found only when opening                                    */
/* ------------------------------------------------------------------ */

const char *td_open_failure_reason(const struct td_discovery *d, int errnum, char *buf,
				   size_t len)
{
	enum td_method m = d && d->cfg.nr_parts ? d->cfg.parts[0].method : TD_METHOD_NONE;
	bool vm = d && d->cpu.hypervisor;
	const char *name = td_method_name(m);

	switch (errnum) {
	case EINVAL:
	case EOPNOTSUPP:
	case ENOENT:
		if (m == TD_PERF_METRICS && vm)
			fmt(buf, len, "this VM lists slots and topdown-* events but the kernel "
				      "refused them (%s): the vPMU does not virtualise "
				      "PERF_METRICS", strerror(errnum));
		else if (m == TD_PERF_METRICS)
			fmt(buf, len, "the kernel refused the slots/topdown-* group (%s): "
				      "PERF_METRICS is not enumerated on this CPU", strerror(errnum));
		else if (m == TD_ARM && vm)
			fmt(buf, len, "the kernel refused the STALL_SLOT events (%s): KVM hides "
				      "them from guests", strerror(errnum));
		else
			fmt(buf, len, "the kernel refused the %s TopDown events (%s)%s", name,
			    strerror(errnum), vm ? ": the vPMU of this VM does not provide them"
						 : "");
		break;
	case EBUSY:
	case ENOSPC:
		fmt(buf, len, "the %s TopDown group cannot get its counters (%s): another user "
			      "holds them, e.g. the NMI watchdog (sysctl kernel.nmi_watchdog=0) "
			      "or a pinned perf session", name, strerror(errnum));
		break;
	case EACCES:
	case EPERM:
		fmt(buf, len, "not allowed to open CPU-wide counters (%s): needs root or "
			      "CAP_PERFMON, or kernel.perf_event_paranoid <= 0", strerror(errnum));
		break;
	case ENODEV:
		fmt(buf, len, "the PMU of the %s TopDown events is gone (%s)", name,
		    strerror(errnum));
		break;
	default:
		fmt(buf, len, "opening the %s TopDown events failed: %s", name, strerror(errnum));
		break;
	}
	return buf;
}
