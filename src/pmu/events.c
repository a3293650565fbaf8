// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * -e parsing: perf-style names (software, generic hardware, raw rNNNN,
 * pmu/.../ from sysfs, vendor names through libpfm4) and their modifiers
 * into event_spec entries, and --list-events.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/macros.h"
#include "util/errmsg.h"
#include "pmu/events.h"
#include "pmu/pfm.h"
#include "pmu/pmu.h"

#define MSG_LEN 256

/* Sorted by name: --list-events prints them in this order. */
static const struct named_event sw_events[] = {
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK },
	{ "cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK },
};

static const struct named_event hw_events[] = {
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES },
	{ "branches", "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cycles", "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "stalled-cycles-backend", NULL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "stalled-cycles-frontend", NULL, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
};


const struct named_event *events_software(size_t *n)
{
	*n = ARRAY_SIZE(sw_events);
	return sw_events;
}

const struct named_event *events_hardware(size_t *n)
{
	*n = ARRAY_SIZE(hw_events);
	return hw_events;
}

static void spec_init(struct event_spec *e, const char *name, __u32 type)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->type = type;
	e->scale = 1.0;
}

static const struct named_event *find_named(const struct named_event *tab, size_t n,
					    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].name, name) || (tab[i].alias && !strcmp(tab[i].alias, name)))
			return &tab[i];
	return NULL;
}

/* "r" and 1-16 hex digits: the core PMU's config, as perf spells it. */
static int parse_raw(const char *name, struct event_spec *e, char *err, size_t errlen)
{
	size_t n = strlen(name);
	__u64 v = 0;

	if (n < 2 || name[0] != 'r')
		return 1;
	for (size_t i = 1; i < n; i++)
		if (!isxdigit((unsigned char)name[i]))
			return 1;
	for (size_t i = 1; i < n; i++) {
		char c = tolower((unsigned char)name[i]);

		if (v >> 60)
			return errmsg(err, errlen, -1, "raw event '%s' does not fit in 64 bits",
				      name);
		v = v << 4 | (__u64)(isdigit((unsigned char)c) ? c - '0' : c - 'a' + 10);
	}
	spec_init(e, name, PERF_TYPE_RAW);
	e->config = v;
	return 0;
}

/* For "foo" that is an alias on some PMU: "cpu/foo/", else "". */
static void pmu_hint(const char *root, const char *name, char *buf, size_t len)
{
	char **pmus;

	buf[0] = '\0';
	if (!pmu_name_valid(name))
		return;
	pmus = pmu_list(root);
	for (char **p = pmus; p && *p; p++) {
		if (pmu_has_alias(root, *p, name)) {
			snprintf(buf, len, "%s/%s/", *p, name);
			break;
		}
	}
	pmu_names_free(pmus);
}

/*
 * Expand an alias of *pmu* into *cfg*. "name=?" terms in it must be given
 * by the user (perf's rule), so they are checked against *user* here and
 * filled in when the user's terms are applied afterwards.
 */
static int apply_alias(const char *root, const char *pmu, const char *alias,
		       const struct pmu_term *user, int nr_user, __u64 cfg[NR_PMU_FIELDS],
		       char *err, size_t errlen)
{
	struct pmu_term terms[PMU_MAX_TERMS];
	char str[PMU_ALIAS_LEN];
	char msg[MSG_LEN];
	int nr;

	if (pmu_read_alias(root, pmu, alias, str, sizeof(str), msg, sizeof(msg)))
		return errmsg(err, errlen, -1, "%s", msg);
	nr = pmu_terms_parse(str, terms, PMU_MAX_TERMS, msg, sizeof(msg));
	if (nr < 0)
		return errmsg(err, errlen, -1, "bad sysfs alias %s/%s/ '%s': %s", pmu, alias, str,
			      msg);
	for (int i = 0; i < nr; i++) {
		bool given = false;

		if (!terms[i].placeholder)
			continue;
		for (int j = 0; j < nr_user; j++)
			given |= user[j].has_val && !strcmp(user[j].name, terms[i].name);
		if (!given)
			return errmsg(err, errlen, -1,
				      "%s/%s/ needs a value for '%s' ('%s'); write %s/%s,%s=N/",
				      pmu, alias, terms[i].name, str, pmu, alias, terms[i].name);
		/* Drop it: the user's term sets the field. */
		memmove(&terms[i], &terms[i + 1], (nr - i - 1) * sizeof(terms[0]));
		nr--;
		i--;
	}
	if (pmu_terms_apply(root, pmu, terms, nr, cfg, msg, sizeof(msg)))
		return errmsg(err, errlen, -1, "sysfs alias %s/%s/ '%s': %s", pmu, alias, str, msg);
	return 0;
}

/* A bare word of a core PMU's pmu/.../ that format/ does not define
 * ("config" and friends are terms without a file): a name for libpfm4. */
static bool is_vendor_word(const char *root, const char *pmu, const char *word)
{
	struct pmu_format f;

	return pmu_is_core_name(pmu) && strncmp(word, "config", 6) &&
	       pmu_read_format(root, pmu, word, &f, NULL, 0) == -ENOENT;
}

/* pmu/body/ with body "alias", "term=val,...", or "alias,term=val,...";
 * a vendor event name (cpu_core/inst_retired.any/) stands for the alias. */
static int parse_pmu_event(const char *root, const char *name, struct event_spec *e, char *err,
			   size_t errlen)
{
	struct pmu_term terms[PMU_MAX_TERMS];
	const struct pmu_term *alias = NULL, *vendor = NULL;
	char pmu[PMU_NAME_LEN], body[EVENT_NAME_LEN];
	const char *s1 = strchr(name, '/');
	const char *s2 = strchr(s1 + 1, '/');
	__u64 cfg[NR_PMU_FIELDS] = { 0 };
	char msg[MSG_LEN], vmsg[MSG_LEN];
	bool vendor_ok = false;
	__u32 type;
	int nr;

	if (s1 == name || (size_t)(s1 - name) >= sizeof(pmu))
		return errmsg(err, errlen, -1, "bad PMU name in '%s'", name);
	memcpy(pmu, name, s1 - name);
	pmu[s1 - name] = '\0';
	if (!pmu_name_valid(pmu))
		return errmsg(err, errlen, -1, "bad PMU name '%s' in '%s'", pmu, name);
	if (!s2)
		return errmsg(err, errlen, -1, "missing closing '/' in '%s'", name);
	if (strchr(s2 + 1, '/'))
		return errmsg(err, errlen, -1, "unexpected '/' in '%s'", name);
	if (s2 == s1 + 1)
		return errmsg(err, errlen, -1, "no event or terms between the slashes in '%s'",
			      name);
	memcpy(body, s1 + 1, s2 - s1 - 1);
	body[s2 - s1 - 1] = '\0';

	if (!pmu_exists(root, pmu))
		return errmsg(err, errlen, -1, "unknown PMU '%s' in '%s' (see tdtop --list-events)",
			      pmu, name);
	if (pmu_read_type(root, pmu, &type, msg, sizeof(msg)))
		return errmsg(err, errlen, -1, "%s", msg);

	nr = pmu_terms_parse(body, terms, PMU_MAX_TERMS, msg, sizeof(msg));
	if (nr < 0)
		return errmsg(err, errlen, -1, "bad event '%s': %s", name, msg);

	/*
	 * A bare word naming an events/ file is the alias; perf's rule too.
	 * A bare word that is no format term may be a vendor event instead.
	 */
	for (int i = 0; i < nr; i++) {
		if (terms[i].has_val)
			continue;
		if (pmu_has_alias(root, pmu, terms[i].name)) {
			if (alias)
				return errmsg(err, errlen, -1,
					      "'%s' names two events: '%s' and '%s'", name,
					      alias->name, terms[i].name);
			alias = &terms[i];
		} else if (!vendor && is_vendor_word(root, pmu, terms[i].name)) {
			vendor = &terms[i];
		}
	}
	if (alias)
		vendor = NULL;

	spec_init(e, name, type);
	if (vendor) {
		struct pfm_encoding enc;
		int ret = pfm_event__encode_for(vendor->name, pmu, type, &enc, vmsg, sizeof(vmsg));

		if (ret && ret != -ENOENT)
			return errmsg(err, errlen, -1, "bad event '%s': %s", name, vmsg);
		if (!ret) {
			cfg[PMU_CONFIG] = enc.config;
			cfg[PMU_CONFIG1] = enc.config1;
			cfg[PMU_CONFIG2] = enc.config2;
			vendor_ok = true;
		}
	}
	if (alias) {
		if (apply_alias(root, pmu, alias->name, terms, nr, cfg, err, errlen))
			return -1;
		if (pmu_read_scale(root, pmu, alias->name, &e->scale, msg, sizeof(msg)) ||
		    pmu_read_unit(root, pmu, alias->name, e->unit, sizeof(e->unit), msg,
				  sizeof(msg)))
			return errmsg(err, errlen, -1, "%s", msg);
	}
	for (int i = 0; i < nr; i++) {
		if (&terms[i] == alias || (&terms[i] == vendor && vendor_ok))
			continue;
		/* a word libpfm4 does not know either: the term's error says so */
		if (pmu_terms_apply(root, pmu, &terms[i], 1, cfg, msg, sizeof(msg)))
			return errmsg(err, errlen, -1, "bad event '%s': %s%s%s", name, msg,
				      &terms[i] == vendor ? "; as a vendor event: " : "",
				      &terms[i] == vendor ? vmsg : "");
	}
	e->config = cfg[PMU_CONFIG];
	e->config1 = cfg[PMU_CONFIG1];
	e->config2 = cfg[PMU_CONFIG2];
	return 0;
}

/* Whether a sysfs PMU has perf type *type*. */
static bool have_pmu_type(const char *root, __u32 type)
{
	char **pmus = pmu_list(root);
	bool found = false;

	for (char **p = pmus; p && *p && !found; p++) {
		__u32 t;

		found = !pmu_read_type(root, *p, &t, NULL, 0) && t == type;
	}
	pmu_names_free(pmus);
	return found;
}

/*
 * A vendor name through libpfm4: 0 with *e* set, 1 when it does not know
 * the name, -1 when it does but the kernel has no PMU to count it on.
 * *err* says why for 1 and -1.
 */
static int vendor_event(const char *root, const char *name, struct event_spec *e, char *err,
			size_t errlen)
{
	struct pfm_encoding enc;
	int ret = pfm_event__encode(name, &enc, err, errlen);

	if (ret == -ENOENT)
		return 1;
	if (ret)
		return -1;
	if (enc.type == PERF_TYPE_RAW && !pmu_have_core(root))
		return errmsg(err, errlen, -1,
			      "'%s' is an event of libpfm4's PMU '%s', but the kernel has no CPU "
			      "PMU here (none under %s/bus/event_source/devices)",
			      name, enc.pmu, root);
	if (enc.type >= PERF_TYPE_MAX && !have_pmu_type(root, enc.type))
		return errmsg(err, errlen, -1,
			      "'%s' is an event of libpfm4's PMU '%s', but no PMU under "
			      "%s/bus/event_source/devices has its type %u",
			      name, enc.pmu, root, enc.type);
	spec_init(e, name, enc.type);
	e->config = enc.config;
	e->config1 = enc.config1;
	e->config2 = enc.config2;
	return 0;
}

static int resolve(const char *root, const char *name, struct event_spec *e, char *err,
		   size_t errlen)
{
	const struct named_event *n;
	char hint[EVENT_NAME_LEN + PMU_NAME_LEN + 4];
	char why[MSG_LEN];
	int ret;

	if (strchr(name, '/'))
		return parse_pmu_event(root, name, e, err, errlen);
	n = find_named(sw_events, ARRAY_SIZE(sw_events), name);
	if (n) {
		spec_init(e, n->name, PERF_TYPE_SOFTWARE);
		e->config = n->config;
		return 0;
	}
	n = find_named(hw_events, ARRAY_SIZE(hw_events), name);
	if (n) {
		spec_init(e, n->name, PERF_TYPE_HARDWARE);
		e->config = n->config;
		return 0;
	}
	ret = parse_raw(name, e, err, errlen);
	if (ret <= 0)
		return ret;
	ret = vendor_event(root, name, e, why, sizeof(why));
	if (ret < 0)
		return errmsg(err, errlen, -1, "%s", why);
	if (!ret)
		return 0;
	pmu_hint(root, name, hint, sizeof(hint));
	if (hint[0])
		return errmsg(err, errlen, -1, "unknown event '%s' (did you mean %s?)", name, hint);
	return errmsg(err, errlen, -1, "unknown event '%s': %s (see tdtop --list-events)", name,
		      why);
}

/* *name* with its modifiers: the event, named as resolve() names it with
 * the modifiers after it as typed ("cs:u" is "context-switches:u"). */
static int resolve_modified(const char *root, const char *name, struct event_spec *e,
			    char *err, size_t errlen)
{
	char base[EVENT_NAME_LEN];
	size_t len = strlen(name);
	const char *mods = event_mods__find(name, &len);
	unsigned int exclude = 0;
	size_t n;

	if (mods && event_mods__parse(mods, name, &exclude, err, errlen))
		return -1;
	memcpy(base, name, len);
	base[len] = '\0';
	if (resolve(root, base, e, err, errlen))
		return -1;
	e->exclude = exclude;
	n = strlen(e->name);
	if (n + strlen(name + len) >= sizeof(e->name))
		return errmsg(err, errlen, -1, "event '%s%s' is too long (at most %d characters)",
			      e->name, name + len, EVENT_NAME_LEN - 1);
	memcpy(e->name + n, name + len, strlen(name + len) + 1);
	return 0;
}

static int check_duplicate(const struct event_list *out, const struct event_spec *e, char *err,
			   size_t errlen)
{
	for (int i = 0; i < out->nr; i++) {
		const struct event_spec *o = &out->ev[i];

		if (!strcmp(o->name, e->name))
			return errmsg(err, errlen, -1, "event '%s' is listed twice", e->name);
		if (o->type == e->type && o->config == e->config && o->config1 == e->config1 &&
		    o->config2 == e->config2 && o->exclude == e->exclude)
			return errmsg(err, errlen, -1, "events '%s' and '%s' are the same event",
				      o->name, e->name);
	}
	return 0;
}

/* The next element of *list* from **pos: up to a comma outside pmu/.../. */
static void next_element(const char **pos, const char **start, size_t *len)
{
	const char *p = *pos;
	int slashes = 0;

	*start = p;
	for (; *p; p++) {
		if (*p == '/')
			slashes++;
		else if (*p == ',' && slashes % 2 == 0)
			break;
	}
	*len = p - *start;
	*pos = *p ? p + 1 : NULL;
}

static void trim(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

int event_list__parse(const char *sysfs_root, const char *list, struct event_list *out, char *err,
		 size_t errlen)
{
	const char *pos = list;
	int idx = 0;

	memset(out, 0, sizeof(*out));
	if (!list)
		return errmsg(err, errlen, -1, "empty event list");
	{
		const char *s = list;
		size_t n = strlen(list);

		trim(&s, &n);
		if (!n)
			return errmsg(err, errlen, -1, "empty event list");
	}

	while (pos) {
		char name[EVENT_NAME_LEN];
		struct event_spec e;
		const char *s;
		size_t n;

		next_element(&pos, &s, &n);
		idx++;
		trim(&s, &n);
		if (!n)
			return errmsg(err, errlen, -1, "empty event (element %d) in list '%.64s'",
				      idx, list);
		if (n >= sizeof(name))
			return errmsg(err, errlen, -1,
				      "event '%.24s...' is too long (at most %d characters)", s,
				      EVENT_NAME_LEN - 1);
		memcpy(name, s, n);
		name[n] = '\0';
		if (out->nr == MAX_EVENTS)
			return errmsg(err, errlen, -1, "too many events: at most %d can be counted",
				      MAX_EVENTS);
		if (resolve_modified(sysfs_root, name, &e, err, errlen))
			return -1;
		if (check_duplicate(out, &e, err, errlen))
			return -1;
		e.leader = out->nr;
		e.pinned = false;
		out->ev[out->nr++] = e;
	}
	return 0;
}

bool event_spec__counts_in_place(const struct event_spec *e)
{
	if (e->type != PERF_TYPE_SOFTWARE)
		return false;
	switch (e->config) {
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
	case PERF_COUNT_SW_CPU_MIGRATIONS:
		return true;
	default:
		return false;
	}
}

bool event_spec__is_cpu_clock(const struct event_spec *e)
{
	return e->type == PERF_TYPE_SOFTWARE && e->config == PERF_COUNT_SW_CPU_CLOCK;
}

void event_spec__to_attr(const struct event_spec *e, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = e->type;
	attr->config = e->config;
	attr->config1 = e->config1;
	attr->config2 = e->config2;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->pinned = e->pinned;
	attr->exclude_user = !!(e->exclude & EXCL_USER);
	attr->exclude_kernel = !!(e->exclude & EXCL_KERNEL);
	attr->exclude_hv = !!(e->exclude & EXCL_HV);
	attr->exclude_host = !!(e->exclude & EXCL_HOST);
	attr->exclude_guest = !!(e->exclude & EXCL_GUEST);
}

static void print_named(FILE *out, const struct named_event *tab, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (tab[i].alias)
			fprintf(out, "  %-32s (alias: %s)\n", tab[i].name, tab[i].alias);
		else
			fprintf(out, "  %s\n", tab[i].name);
	}
}

static void print_pmu_events(const char *root, const char *pmu, FILE *out)
{
	char **events = pmu_list_events(root, pmu);

	for (char **ev = events; ev && *ev; ev++) {
		char name[2 * PMU_NAME_LEN + 4];
		struct pmu_event_desc d;

		snprintf(name, sizeof(name), "%s/%s/", pmu, *ev);
		pmu_describe_event(root, pmu, *ev, &d);
		fprintf(out, "  %-32s %s", name, d.readable ? d.encoding : "(unreadable)");
		if (d.scale != 1.0)
			fprintf(out, "  (scale %g)", d.scale);
		if (d.unit[0])
			fprintf(out, "  (unit %s)", d.unit);
		fputc('\n', out);
	}
	pmu_names_free(events);
}

static void print_pmu_terms(const char *root, const char *pmu, FILE *out)
{
	char **terms = pmu_list_formats(root, pmu);

	if (terms && terms[0]) {
		char name[PMU_NAME_LEN + 2];

		snprintf(name, sizeof(name), "%s/", pmu);
		fprintf(out, "  %-32s", name);
		for (char **t = terms; *t; t++)
			fprintf(out, "%s%s", t == terms ? " " : ",", *t);
		fputc('\n', out);
	}
	pmu_names_free(terms);
}

/* libpfm4's names for this CPU's core PMUs, when the kernel has one. */
static void print_vendor(const char *root, FILE *out)
{
	char **pmus = pfm_pmus__list();
	bool core = pmu_have_core(root);

	fprintf(out, "\nVendor events (libpfm4; also as pmu/name/, e.g. cpu/inst_retired.any/):\n");
	if (!pmus)
		fprintf(out, "  (libpfm4 does not start)\n");
	else if (!pmus[0])
		fprintf(out, "  (libpfm4 detects no CPU PMU)\n");
	for (char **p = pmus; p && *p; p++) {
		char **events;

		if (!core) {
			fprintf(out,
				"  (libpfm4 knows this CPU as %s, but the kernel has no CPU PMU)\n",
				*p);
			continue;
		}
		events = pfm_pmu__events(*p);
		for (char **ev = events; ev && *ev; ev++) {
			if (pmus[1])
				fprintf(out, "  %s::%s\n", *p, *ev);
			else
				fprintf(out, "  %s\n", *ev);
		}
		pmu_names_free(events);
	}
	pmu_names_free(pmus);
}

void events_print_list(const char *sysfs_root, FILE *out)
{
	char **pmus = pmu_list(sysfs_root);

	fprintf(out, "Software events:\n");
	print_named(out, sw_events, ARRAY_SIZE(sw_events));

	fprintf(out, "\nHardware events:\n");
	if (pmu_have_core(sysfs_root)) {
		print_named(out, hw_events, ARRAY_SIZE(hw_events));
		fprintf(out, "  %-32s raw config of the core PMU, in hex\n", "rNNNN");
	} else {
		fprintf(out, "  (no hardware PMU found)\n");
	}
	print_vendor(sysfs_root, out);

	fprintf(out, "\nPMU events (%s/bus/event_source/devices):\n", sysfs_root);
	if (!pmus)
		fprintf(out, "  (none: cannot read the PMU directory)\n");
	for (char **p = pmus; p && *p; p++)
		print_pmu_events(sysfs_root, *p, out);

	fprintf(out, "\nPMU terms, for pmu/term=value,.../:\n");
	for (char **p = pmus; p && *p; p++)
		print_pmu_terms(sysfs_root, *p, out);
	pmu_names_free(pmus);

	fprintf(out, "\nModifiers, after any event as name:MODS or pmu/.../MODS (perf's):\n"
		     "  u user, k kernel, h hypervisor: naming some leaves out the others\n"
		     "  G guest, H host: likewise (e.g. cycles:u, cs:k, cpu/cycles/uk)\n");
}
