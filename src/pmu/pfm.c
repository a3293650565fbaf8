// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libpfm4 behind pfm.h: vendor event names to attr fields, the names of
 * this CPU's core PMUs and their events, and why a name is not known.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
/* before libpfm4's copy of it, which then steps aside */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include "util/errmsg.h"
#include "pmu/pfm.h"

/*
 * Every privilege level: what an event counts is up to perf's modifiers,
 * so anything libpfm4 excludes was asked for in its own syntax.
 */
#define ALL_LEVELS (PFM_PLM0 | PFM_PLM3 | PFM_PLMH)

/* libpfm4 starts once; a second call returns the first one's result. */
static int start(char *err, size_t errlen)
{
	int ret = pfm_initialize();

	if (ret != PFM_SUCCESS)
		return errmsg(err, errlen, -ENOTSUP, "libpfm4 does not start: %s",
			      pfm_strerror(ret));
	return 0;
}

static bool pmu_info(int pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info((pfm_pmu_t)pmu, info) == PFM_SUCCESS;
}

static bool is_cpu_pmu(const pfm_pmu_info_t *info)
{
	return info->is_present && info->type == PFM_PMU_TYPE_CORE;
}

/* "icl" or "adl_glc,adl_grt": this CPU's core PMUs, "" for none. */
static void cpu_pmu_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info;
		int w;

		if (!pmu_info(p, &info) || !is_cpu_pmu(&info))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? "," : "", info.name);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += w;
	}
}

/* The libpfm4 PMU called *name* (*len* bytes), or -1. */
static int find_pmu(const char *name, size_t len, pfm_pmu_info_t *info)
{
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++)
		if (pmu_info(p, info) && strlen(info->name) == len &&
		    !strncasecmp(info->name, name, len))
			return p;
	return -1;
}

/* Why libpfm4 found no event *name*: which PMU it searched, or lacks. */
static int not_found(const char *name, char *err, size_t errlen)
{
	const char *qual = strstr(name, "::");
	pfm_pmu_info_t info;
	char cpu[128];

	cpu_pmu_names(cpu, sizeof(cpu));
	if (!qual)
		return errmsg(err, errlen, -ENOENT, "not a known event on this CPU (%s%s)",
			      cpu[0] ? "libpfm4 PMU: " : "libpfm4 detects no CPU PMU",
			      cpu);
	if (find_pmu(name, qual - name, &info) < 0)
		return errmsg(err, errlen, -ENOENT, "libpfm4 has no PMU '%.*s'",
			      (int)(qual - name), name);
	if (!info.is_present)
		return errmsg(err, errlen, -ENOENT, "libpfm4's PMU '%s' is not this CPU's (%s%s)",
			      info.name, cpu[0] ? "which has " : "none detected", cpu);
	return errmsg(err, errlen, -ENOENT, "PMU '%s' has no event '%s'", info.name, qual + 2);
}

int pfm_event__encode(const char *name, struct pfm_encoding *enc, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ev;
	pfm_pmu_info_t info;
	int ret = start(err, errlen);

	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, ALL_LEVELS, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return not_found(name, err, errlen);
	if (ret != PFM_SUCCESS)
		return errmsg(err, errlen, -ENOENT, "not a known event on this CPU (libpfm4: %s)",
			      pfm_strerror(ret));

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &ev) != PFM_SUCCESS ||
	    !pmu_info(ev.pmu, &info))
		return errmsg(err, errlen, -EINVAL, "libpfm4 does not describe its event '%s'",
			      name);
	/* An uncore count is the socket's: it cannot be charged to a task. */
	if (info.type != PFM_PMU_TYPE_CORE && info.type != PFM_PMU_TYPE_OS_GENERIC)
		return errmsg(err, errlen, -ENOTSUP,
			      "'%s' is an event of libpfm4's %s PMU '%s'; tdtop counts per task "
			      "and takes core events only",
			      name, info.type == PFM_PMU_TYPE_UNCORE ? "uncore" : "non-core",
			      info.name);
	if (attr.exclude_user || attr.exclude_kernel || attr.exclude_hv || attr.exclude_host)
		return errmsg(err, errlen, -EINVAL,
			      "'%s': give privilege levels as perf's modifiers (e.g. ':u', ':k'), "
			      "not libpfm4's attributes",
			      name);
	if (attr.precise_ip)
		return errmsg(err, errlen, -EINVAL,
			      "'%s': precise sampling does not apply to counting", name);

	memset(enc, 0, sizeof(*enc));
	enc->type = attr.type;
	enc->config = attr.config;
	enc->config1 = attr.config1;
	enc->config2 = attr.config2;
	snprintf(enc->pmu, sizeof(enc->pmu), "%s", info.name);
	return 0;
}

int pfm_event__encode_for(const char *name, const char *pmu, __u32 type,
			  struct pfm_encoding *enc, char *err, size_t errlen)
{
	char other[PMU_NAME_LEN] = "";
	int ret = start(err, errlen);

	if (ret)
		return ret;
	for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		char qualified[2 * PMU_NAME_LEN + 4];
		pfm_pmu_info_t info;

		if (!pmu_info(p, &info) || !is_cpu_pmu(&info))
			continue;
		snprintf(qualified, sizeof(qualified), "%s::%s", info.name, name);
		ret = pfm_event__encode(qualified, enc, err, errlen);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		if (enc->type == type)
			return 0;
		snprintf(other, sizeof(other), "%s", info.name);
	}
	if (other[0])
		return errmsg(err, errlen, -ENOENT,
			      "'%s' is an event of libpfm4's PMU '%s', which is not %s", name,
			      other, pmu);
	return not_found(name, err, errlen);
}

char **pfm_pmus__list(void)
{
	struct pmu_names l = { 0 };
	bool ok = true;

	if (start(NULL, 0))
		return NULL;
	for (int p = PFM_PMU_NONE; ok && p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info;

		if (pmu_info(p, &info) && is_cpu_pmu(&info))
			ok = !pmu_names__add(&l, info.name);
	}
	return pmu_names__finish(&l, ok);
}

/* Add "event" or "event.umask", in lower case as perf spells them. */
static int add_lower(struct pmu_names *l, const char *event, const char *umask)
{
	char name[256];
	int n = snprintf(name, sizeof(name), "%s%s%s", event, umask ? "." : "", umask ? umask : "");

	if (n < 0 || (size_t)n >= sizeof(name))
		return 0;	/* no table has such names; skip rather than cut one */
	for (char *c = name; *c; c++)
		*c = tolower((unsigned char)*c);
	return pmu_names__add(l, name);
}

/* One event's names: one per unit mask, or the bare name when it has none. */
static int add_event(struct pmu_names *l, int idx)
{
	pfm_event_info_t ev;
	int umasks = 0;

	memset(&ev, 0, sizeof(ev));
	ev.size = sizeof(ev);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ev) != PFM_SUCCESS)
		return 0;
	for (int a = 0; a < ev.nattrs; a++) {
		pfm_event_attr_info_t attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &attr) != PFM_SUCCESS ||
		    attr.type != PFM_ATTR_UMASK)
			continue;
		umasks++;
		if (add_lower(l, ev.name, attr.name))
			return -ENOMEM;
	}
	return umasks ? 0 : add_lower(l, ev.name, NULL);
}

char **pfm_pmu__events(const char *pmu)
{
	struct pmu_names l = { 0 };
	pfm_pmu_info_t info;
	bool ok = true;

	if (start(NULL, 0) || find_pmu(pmu, strlen(pmu), &info) < 0)
		return NULL;
	for (int idx = info.first_event; ok && idx != -1; idx = pfm_get_event_next(idx))
		ok = !add_event(&l, idx);
	return pmu_names__finish(&l, ok);
}
