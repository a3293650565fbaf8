// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the system says about the CPU TopDown is discovered for: the first
 * processor of /proc/cpuinfo (vendor, family/model, Arm part, hypervisor
 * flag), whether SMT is active, and whether the NMI watchdog holds a counter.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/fileio.h"
#include "pmu/discover_internal.h"

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

const char *td_cpuinfo__arm_part(const struct td_cpuinfo *c)
{
	static const struct {
		unsigned int part;
		const char *name;
	} parts[] = {
		{ 0xd0c, "Neoverse N1" }, { 0xd40, "Neoverse V1" }, { 0xd49, "Neoverse N2" },
		{ 0xd4f, "Neoverse V2" }, { 0xd8e, "Neoverse N3" }, { 0xd84, "Neoverse V3" },
	};

	if (!c->arm || c->arm_implementer != 0x41)
		return NULL;
	for (int i = 0; i < (int)ARRAY_SIZE(parts); i++)
		if (parts[i].part == c->arm_part)
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
		const char *name = td_cpuinfo__arm_part(c);

		if (name)
			snprintf(c->model_name, sizeof(c->model_name), "Arm %s", name);
		else
			snprintf(c->model_name, sizeof(c->model_name),
				 "Arm implementer 0x%02x part 0x%03x", c->arm_implementer,
				 c->arm_part);
	}
}

/* 0 or 1 from a sysfs/procfs flag file, -1 when missing or not a flag. */
static int read_flag(const char *path)
{
	char buf[16];

	if (read_small_file(path, buf, sizeof(buf)) < 0)
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

void td_discovery__read_system(struct td_discovery *d)
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
