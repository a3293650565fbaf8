// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sysfs PMU access: type, format/ bit layouts, events/ aliases and CPU
 * lists, all read under a caller-given root and checked before use, since
 * fixture trees and odd kernels are parsed with the same code.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/macros.h"
#include "util/errmsg.h"
#include "util/fileio.h"
#include "util/grow.h"
#include "util/strutil.h"
#include "pmu/pmu.h"

#define DEVICES_DIR "bus/event_source/devices"
#define SMALL_FILE_LEN 512
/* "0,2,4,...,4094" is the longest sensible list for MAX_CPUS. */
#define CPULIST_FILE_LEN (MAX_CPUS * 6)
/* Directory listings beyond this are not real sysfs. */
#define MAX_DIR_ENTRIES 65536

static const char *const field_names[NR_PMU_FIELDS] = { "config", "config1", "config2" };


bool pmu_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= PMU_NAME_LEN || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = name[i];

		if (!isalnum(c) && c != '_' && c != '-' && c != '.')
			return false;
	}
	return true;
}

bool pmu_is_core_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom") ||
	       !strcmp(name, "cpu_lowpower") || !strncmp(name, "armv8_", 6);
}

/* Parse decimal digits at *s*, at most *max*; advances *s*. */
static int parse_dec(const char **s, __u64 max, __u64 *val)
{
	const char *p = *s;
	__u64 v = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = *p - '0';

		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*s = p;
	*val = v;
	return 0;
}

int pmu_parse_u64(const char *s, __u64 *val)
{
	const char *p = s;
	__u64 v = 0;

	if ((p[0] == '0') && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return -EINVAL;
		for (; isxdigit((unsigned char)*p); p++) {
			unsigned int d = isdigit((unsigned char)*p)
						 ? *p - '0'
						 : tolower((unsigned char)*p) - 'a' + 10;

			if (v >> 60)
				return -ERANGE;
			v = v << 4 | d;
		}
	} else {
		int ret = parse_dec(&p, UINT64_MAX, &v);

		if (ret)
			return ret;
	}
	if (*p)
		return -EINVAL;
	*val = v;
	return 0;
}

int pmu_format__parse(const char *s, struct pmu_format *f, char *err, size_t errlen)
{
	const char *colon = strchr(s, ':');
	const char *p;
	int field = -1;
	__u64 mask = 0;

	if (!colon)
		return errmsg(err, errlen, -EINVAL, "bad format '%s': no ':'", s);
	for (int i = 0; i < NR_PMU_FIELDS; i++) {
		size_t n = strlen(field_names[i]);

		if ((size_t)(colon - s) == n && !strncmp(s, field_names[i], n))
			field = i;
	}
	if (field < 0)
		return errmsg(err, errlen, -EINVAL,
			      "bad format '%s': field is not config, config1 or config2", s);

	for (p = colon + 1;;) {
		__u64 lo, hi;
		int ret = parse_dec(&p, 1000, &lo);

		if (ret == -EINVAL)
			return errmsg(err, errlen, ret, "bad format '%s': expected a bit number",
				      s);
		hi = lo;
		if (!ret && *p == '-') {
			p++;
			ret = parse_dec(&p, 1000, &hi);
			if (ret == -EINVAL)
				return errmsg(err, errlen, ret,
					      "bad format '%s': expected a bit number", s);
		}
		if (ret || lo > 63 || hi > 63)
			return errmsg(err, errlen, -ERANGE, "bad format '%s': bits must be 0-63",
				      s);
		if (lo > hi)
			return errmsg(err, errlen, -EINVAL,
				      "bad format '%s': range %llu-%llu is reversed", s,
				      (unsigned long long)lo, (unsigned long long)hi);
		for (__u64 b = lo; b <= hi; b++)
			mask |= 1ULL << b;
		if (!*p)
			break;
		if (*p != ',')
			return errmsg(err, errlen, -EINVAL, "bad format '%s': junk at '%s'", s, p);
		p++;
	}
	f->field = field;
	f->mask = mask;
	return 0;
}

int pmu_format__width(const struct pmu_format *f)
{
	return __builtin_popcountll(f->mask);
}

int pmu_format__apply(const struct pmu_format *f, const char *term, __u64 val,
		     __u64 cfg[NR_PMU_FIELDS], char *err, size_t errlen)
{
	int width = pmu_format__width(f);
	__u64 out = 0;
	int vbit = 0;

	if (f->field < 0 || f->field >= NR_PMU_FIELDS || !width)
		return errmsg(err, errlen, -EINVAL, "term '%s' has an empty format", term);
	if (width < 64 && val >> width)
		return errmsg(err, errlen, -ERANGE,
			      "value %#llx does not fit term '%s' (%d bits, max %#llx)",
			      (unsigned long long)val, term, width,
			      (unsigned long long)((1ULL << width) - 1));
	for (int b = 0; b < 64; b++) {
		if (!(f->mask >> b & 1))
			continue;
		if (val >> vbit & 1)
			out |= 1ULL << b;
		vbit++;
	}
	cfg[f->field] = (cfg[f->field] & ~f->mask) | out;
	return 0;
}

static bool term_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* One "name[=value]" of *len* bytes at *s*. */
static int term_parse(const char *s, size_t len, struct pmu_term *t, char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', len);
	size_t nlen = eq ? (size_t)(eq - s) : len;
	char val[32];
	size_t vlen;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!nlen)
		return errmsg(err, errlen, -EINVAL, "term '%.*s' has no name", (int)len, s);
	if (nlen >= PMU_NAME_LEN)
		return errmsg(err, errlen, -EINVAL, "term name '%.*s...' is too long", 16, s);
	for (size_t i = 0; i < nlen; i++)
		if (!term_char(s[i]))
			return errmsg(err, errlen, -EINVAL, "bad character in term '%.*s'",
				      (int)len, s);
	if (s[0] == '.')
		return errmsg(err, errlen, -EINVAL, "bad term name '%.*s'", (int)nlen, s);
	memcpy(t->name, s, nlen);
	t->name[nlen] = '\0';
	if (!eq) {
		t->val = 1;
		return 0;
	}

	vlen = len - nlen - 1;
	if (!vlen)
		return errmsg(err, errlen, -EINVAL, "term '%s=' has no value", t->name);
	if (vlen >= sizeof(val))
		return errmsg(err, errlen, -ERANGE, "value of term '%s' is too long", t->name);
	memcpy(val, eq + 1, vlen);
	val[vlen] = '\0';
	t->has_val = true;
	if (!strcmp(val, "?")) {
		t->placeholder = true;
		return 0;
	}
	ret = pmu_parse_u64(val, &t->val);
	if (ret == -ERANGE)
		return errmsg(err, errlen, ret, "value '%s' of term '%s' does not fit in 64 bits",
			      val, t->name);
	if (ret)
		return errmsg(err, errlen, ret, "bad value '%s' for term '%s'", val, t->name);
	return 0;
}

int pmu_terms_parse(const char *s, struct pmu_term *terms, int max, char *err, size_t errlen)
{
	int nr = 0;

	if (!*s)
		return errmsg(err, errlen, -EINVAL, "no terms");
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		int ret;

		if (!len)
			return errmsg(err, errlen, -EINVAL, "empty term");
		if (nr == max)
			return errmsg(err, errlen, -E2BIG, "too many terms (at most %d)", max);
		ret = term_parse(s, len, &terms[nr], err, errlen);
		if (ret)
			return ret;
		nr++;
		if (!comma)
			return nr;
		s = comma + 1;
	}
}

static void cpus_set(struct pmu_cpus *cpus, int cpu)
{
	if (!pmu_cpus__has(cpus, cpu)) {
		cpus->bits[cpu / 64] |= 1ULL << (cpu % 64);
		cpus->nr++;
	}
}

int pmu_cpus__parse(const char *s, struct pmu_cpus *cpus, char *err, size_t errlen)
{
	const char *p = s;
	size_t len = strlen(s);

	memset(cpus, 0, sizeof(*cpus));
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!len)
		return 0;

	for (;;) {
		__u64 lo, hi;
		int ret = parse_dec(&p, UINT64_MAX, &lo);

		hi = lo;
		if (!ret && *p == '-') {
			p++;
			ret = parse_dec(&p, UINT64_MAX, &hi);
		}
		if (ret == -EINVAL)
			return errmsg(err, errlen, ret,
				      "bad CPU list '%.*s': expected a CPU number", (int)len, s);
		if (ret || lo >= MAX_CPUS || hi >= MAX_CPUS)
			return errmsg(err, errlen, -ERANGE,
				      "bad CPU list '%.*s': CPUs must be below %d", (int)len, s,
				      MAX_CPUS);
		if (lo > hi)
			return errmsg(err, errlen, -EINVAL,
				      "bad CPU list '%.*s': range %llu-%llu is reversed", (int)len,
				      s, (unsigned long long)lo, (unsigned long long)hi);
		for (__u64 c = lo; c <= hi; c++)
			cpus_set(cpus, (int)c);
		if ((size_t)(p - s) == len)
			return 0;
		if (*p != ',')
			return errmsg(err, errlen, -EINVAL, "bad CPU list '%.*s': junk at '%.*s'",
				      (int)len, s, (int)(len - (p - s)), p);
		p++;
	}
}

void pmu_cpus__format(const struct pmu_cpus *cpus, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < MAX_CPUS; c++) {
		int e = c;

		if (!pmu_cpus__has(cpus, c))
			continue;
		while (e + 1 < MAX_CPUS && pmu_cpus__has(cpus, e + 1))
			e++;
		if (used < len) {
			if (e == c)
				used += snprintf(buf + used, len - used, "%s%d", used ? "," : "",
						 c);
			else
				used += snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
						 c, e);
		}
		c = e;
	}
}

/* <root>/bus/event_source/devices/<pmu>[/<sub>][/<name><suffix>] */
static int pmu_path(char *buf, size_t len, const char *root, const char *pmu, const char *sub,
		    const char *name, const char *suffix, char *err, size_t errlen)
{
	int n;

	if (!pmu_name_valid(pmu))
		return errmsg(err, errlen, -EINVAL, "bad PMU name '%s'", pmu);
	if (name && !pmu_name_valid(name))
		return errmsg(err, errlen, -EINVAL, "bad name '%s' for PMU '%s'", name, pmu);
	n = snprintf(buf, len, "%s/" DEVICES_DIR "/%s%s%s%s%s%s", root, pmu, sub ? "/" : "",
		     sub ? sub : "", name ? "/" : "", name ? name : "", suffix ? suffix : "");
	if (n < 0 || (size_t)n >= len)
		return errmsg(err, errlen, -ENAMETOOLONG, "sysfs path under '%s' is too long",
			      root);
	return 0;
}

/* read_small_file() with the failure said in *err*: a file that does not fit
 * is an error rather than silently cut, and so is a NUL byte. */
static int read_file(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	ssize_t n = read_small_file(path, buf, len);

	if (n == -E2BIG)
		return errmsg(err, errlen, -E2BIG, "failed to read %s: longer than %zu bytes", path,
			      len - 1);
	if (n == -EILSEQ)
		return errmsg(err, errlen, -EINVAL, "failed to read %s: binary content", path);
	if (n < 0)
		return errmsg(err, errlen, (int)n, "failed to read %s: %s", path,
			      strerror((int)-n));
	return 0;
}

/* The content must be one line of printable characters. */
static int check_printable(const char *path, const char *s, char *err, size_t errlen)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			return errmsg(err, errlen, -EINVAL,
				      "bad content in %s: unprintable character", path);
	return 0;
}

static int read_pmu_file(const char *root, const char *pmu, const char *sub, const char *name,
			 const char *suffix, char *buf, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	ret = pmu_path(path, sizeof(path), root, pmu, sub, name, suffix, err, errlen);
	if (ret)
		return ret;
	ret = read_file(path, buf, len, err, errlen);
	if (ret)
		return ret;
	return check_printable(path, buf, err, errlen);
}

bool pmu_exists(const char *root, const char *pmu)
{
	char path[PATH_MAX];

	if (pmu_path(path, sizeof(path), root, pmu, NULL, NULL, NULL, NULL, 0))
		return false;
	return access(path, F_OK) == 0;
}

int pmu_read_type(const char *root, const char *pmu, __u32 *type, char *err, size_t errlen)
{
	char buf[32];
	const char *p = buf;
	__u64 v;
	int ret;

	ret = read_pmu_file(root, pmu, NULL, "type", NULL, buf, sizeof(buf), err, errlen);
	if (ret)
		return ret;
	ret = parse_dec(&p, UINT32_MAX, &v);
	if (ret || *p)
		return errmsg(err, errlen, ret == -ERANGE ? ret : -EINVAL,
			      "bad type '%s' for PMU '%s'", buf, pmu);
	*type = (__u32)v;
	return 0;
}

int pmu_read_format(const char *root, const char *pmu, const char *term, struct pmu_format *f,
		    char *err, size_t errlen)
{
	char buf[SMALL_FILE_LEN];
	char msg[160];
	int ret;

	ret = read_pmu_file(root, pmu, "format", term, NULL, buf, sizeof(buf), err, errlen);
	if (ret)
		return ret;
	ret = pmu_format__parse(buf, f, msg, sizeof(msg));
	if (ret)
		return errmsg(err, errlen, ret, "PMU '%s' term '%s': %s", pmu, term, msg);
	return 0;
}

int pmu_read_alias(const char *root, const char *pmu, const char *event, char *buf, size_t buflen,
		   char *err, size_t errlen)
{
	return read_pmu_file(root, pmu, "events", event, NULL, buf, buflen, err, errlen);
}

bool pmu_has_alias(const char *root, const char *pmu, const char *event)
{
	char buf[8];
	int ret = pmu_read_alias(root, pmu, event, buf, sizeof(buf), NULL, 0);

	/* a value too long for buf still proves the file is there */
	return !ret || ret == -E2BIG;
}

bool pmu_has_aliases(const char *root, const char *pmu, const char *const *events, int n,
		     char *missing, size_t len)
{
	size_t used = 0;

	missing[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (pmu_has_alias(root, pmu, events[i]))
			continue;
		if (used < len)
			used += snprintf(missing + used, len - used, "%s%s", used ? ", " : "",
					 events[i]);
	}
	return !missing[0];
}

static locale_t c_locale(void)
{
	static locale_t loc;

	if (!loc)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

int pmu_read_scale(const char *root, const char *pmu, const char *event, double *scale, char *err,
		   size_t errlen)
{
	char buf[64];
	locale_t loc = c_locale();
	char *end;
	double v;
	int ret;

	ret = read_pmu_file(root, pmu, "events", event, ".scale", buf, sizeof(buf), err, errlen);
	if (ret == -ENOENT) {
		*scale = 1.0;
		return 0;
	}
	if (ret)
		return ret;
	/* The user's locale may use a decimal comma; sysfs never does. */
	errno = 0;
	v = loc ? strtod_l(buf, &end, loc) : strtod(buf, &end);
	if (end == buf || *end || errno || !isfinite(v) || v <= 0)
		return errmsg(err, errlen, -EINVAL, "bad scale '%s' for %s/%s/", buf, pmu, event);
	*scale = v;
	return 0;
}

int pmu_read_unit(const char *root, const char *pmu, const char *event, char *unit, size_t unitlen,
		  char *err, size_t errlen)
{
	char buf[64];
	int ret;

	ret = read_pmu_file(root, pmu, "events", event, ".unit", buf, sizeof(buf), err, errlen);
	if (ret == -ENOENT) {
		if (unitlen)
			unit[0] = '\0';
		return 0;
	}
	if (ret)
		return ret;
	if (strlen(buf) >= unitlen)
		return errmsg(err, errlen, -E2BIG, "unit '%s' of %s/%s/ is too long (max %zu)", buf,
			      pmu, event, unitlen ? unitlen - 1 : 0);
	strcpy(unit, buf);
	return 0;
}

void pmu_describe_event(const char *root, const char *pmu, const char *event,
			struct pmu_event_desc *d)
{
	memset(d, 0, sizeof(*d));
	d->readable = !pmu_read_alias(root, pmu, event, d->encoding, sizeof(d->encoding), NULL, 0);
	if (!d->readable)
		d->encoding[0] = '\0';
	if (pmu_read_scale(root, pmu, event, &d->scale, NULL, 0))
		d->scale = 1.0;
	if (pmu_read_unit(root, pmu, event, d->unit, sizeof(d->unit), NULL, 0))
		d->unit[0] = '\0';
}

int pmu_read_cpus(const char *root, const char *pmu, struct pmu_cpus *cpus, char *err,
		  size_t errlen)
{
	static const char *const files[] = { "cpus", "cpumask" };
	char path[PATH_MAX];
	char msg[160];
	char *buf;
	int ret = -ENOENT;

	buf = malloc(CPULIST_FILE_LEN);
	if (!buf)
		return errmsg(err, errlen, -ENOMEM,
			      "failed to read CPUs of PMU '%s': out of memory", pmu);
	for (size_t i = 0; i < ARRAY_SIZE(files) && ret == -ENOENT; i++) {
		ret = read_pmu_file(root, pmu, NULL, files[i], NULL, buf, CPULIST_FILE_LEN, err,
				    errlen);
		if (ret)
			continue;
		ret = pmu_cpus__parse(buf, cpus, msg, sizeof(msg));
		if (ret) {
			pmu_path(path, sizeof(path), root, pmu, NULL, files[i], NULL, NULL, 0);
			errmsg(err, errlen, ret, "%s: %s", path, msg);
		}
	}
	if (ret == -ENOENT)
		errmsg(err, errlen, ret, "PMU '%s' has no cpus or cpumask file", pmu);
	free(buf);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void pmu_names_free(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

/* Files that describe an event rather than being one (no name starts with
 * '.', so none is a bare suffix). */
static bool is_companion(const char *name)
{
	static const char *const suffixes[] = { ".scale", ".unit", ".snapshot", ".per-pkg" };
	size_t n = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, n, suffixes[i]))
			return true;
	return false;
}

int pmu_names__add(struct pmu_names *l, const char *name)
{
	/* room for this name and the NULL after the last */
	if (GROW(l->names, l->cap, l->nr + 2, 32))
		return -ENOMEM;
	l->names[l->nr] = strdup(name);
	if (!l->names[l->nr])
		return -ENOMEM;
	l->nr++;
	l->names[l->nr] = NULL;
	return 0;
}

char **pmu_names__finish(struct pmu_names *l, bool ok)
{
	char **names = l->names;
	size_t nr = l->nr;

	memset(l, 0, sizeof(*l));
	if (!ok) {
		pmu_names_free(names);
		return NULL;
	}
	if (!names)
		return calloc(1, sizeof(*names));
	qsort(names, nr, sizeof(*names), cmp_names);
	return names;
}

static char **list_dir(const char *path, bool skip_companions)
{
	struct pmu_names l = { 0 };
	struct dirent *de;
	bool ok = true;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return NULL;
	while (ok && (de = readdir(dir))) {
		if (!pmu_name_valid(de->d_name))
			continue;
		if (skip_companions && is_companion(de->d_name))
			continue;
		if (l.nr + 1 >= MAX_DIR_ENTRIES)
			break;
		ok = !pmu_names__add(&l, de->d_name);
	}
	closedir(dir);
	return pmu_names__finish(&l, ok);
}

char **pmu_list(const char *root)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/" DEVICES_DIR, root);

	if (n < 0 || (size_t)n >= sizeof(path))
		return NULL;
	return list_dir(path, false);
}

static char **list_sub(const char *root, const char *pmu, const char *sub, bool skip)
{
	char path[PATH_MAX];

	if (pmu_path(path, sizeof(path), root, pmu, sub, NULL, NULL, NULL, 0))
		return NULL;
	return list_dir(path, skip);
}

char **pmu_list_events(const char *root, const char *pmu)
{
	return list_sub(root, pmu, "events", true);
}

char **pmu_list_formats(const char *root, const char *pmu)
{
	return list_sub(root, pmu, "format", false);
}

bool pmu_have_core(const char *root)
{
	char **names = pmu_list(root);
	bool found = false;

	for (char **p = names; p && *p && !found; p++)
		found = pmu_is_core_name(*p);
	pmu_names_free(names);
	return found;
}

/* "a,b,c" of the PMU's format terms, for an unknown-term message. */
static void format_names(const char *root, const char *pmu, char *buf, size_t len)
{
	char **names = pmu_list_formats(root, pmu);
	size_t n = 0;

	buf[0] = '\0';
	for (char **p = names; p && *p; p++) {
		int w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", *p);

		if (w < 0 || (size_t)w >= len - n) {
			buf[n] = '\0';
			break;
		}
		n += w;
	}
	pmu_names_free(names);
}

static int whole_field(const char *name)
{
	for (int i = 0; i < NR_PMU_FIELDS; i++)
		if (!strcmp(name, field_names[i]))
			return i;
	return -1;
}

int pmu_terms_apply(const char *root, const char *pmu, const struct pmu_term *terms, int nr,
		    __u64 cfg[NR_PMU_FIELDS], char *err, size_t errlen)
{
	for (int i = 0; i < nr; i++) {
		const struct pmu_term *t = &terms[i];
		struct pmu_format f;
		int ret, field;

		if (t->placeholder)
			return errmsg(err, errlen, -EINVAL,
				      "term '%s' of PMU '%s' needs a value ('%s=?')", t->name, pmu,
				      t->name);
		ret = pmu_read_format(root, pmu, t->name, &f, err, errlen);
		if (ret == -ENOENT && (field = whole_field(t->name)) >= 0) {
			cfg[field] = t->val;
			continue;
		}
		if (ret == -ENOENT) {
			char valid[200];

			format_names(root, pmu, valid, sizeof(valid));
			return errmsg(err, errlen, -ENOENT, "unknown term '%s' for PMU '%s' (%s%s)",
				      t->name, pmu, valid[0] ? "valid: " : "it has no format terms",
				      valid);
		}
		if (ret)
			return ret;
		ret = pmu_format__apply(&f, t->name, t->val, cfg, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
