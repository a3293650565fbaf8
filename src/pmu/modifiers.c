// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf's event modifiers (cycles:u, cpu/cycles/k): finding them in a name
 * and turning them into the attr's exclude bits, by perf's rules.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "util/errmsg.h"
#include "pmu/events.h"

#define TAKEN "u, k, h, G, H"
/* perf's other modifiers: sampling, grouping and scheduling, not counting */
#define PERF_ONLY "SDIWebRX"

const char *event_mods__find(const char *name, size_t *base_len)
{
	const char *s1 = strchr(name, '/');
	const char *colon, *mods;

	if (s1) {
		const char *s2 = strchr(s1 + 1, '/');

		/* a third '/' is an error the PMU parser names */
		if (!s2 || !s2[1] || strchr(s2 + 1, '/'))
			return NULL;
		*base_len = s2 + 1 - name;
		return s2[1] == ':' ? s2 + 2 : s2 + 1;
	}
	colon = strrchr(name, ':');
	if (!colon || (colon > name && colon[-1] == ':'))
		return NULL;
	mods = colon + 1;
	for (const char *c = mods; *c; c++)
		if (!isalpha((unsigned char)*c))
			return NULL;
	*base_len = colon - name;
	return mods;
}

int event_mods__parse(const char *mods, const char *event, unsigned int *exclude, char *err,
		      size_t errlen)
{
	bool u = false, k = false, h = false, guest = false, host = false;

	if (!*mods)
		return errmsg(err, errlen, -EINVAL, "no modifiers after the event in '%s'", event);
	for (const char *c = mods; *c; c++) {
		switch (*c) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		case 'G':
			guest = true;
			break;
		case 'H':
			host = true;
			break;
		case 'p':
		case 'P':
			return errmsg(err, errlen, -EINVAL,
				      "modifier '%c' in '%s' asks for precise sampling, which does "
				      "not apply to counting",
				      *c, event);
		default:
			if (strchr(PERF_ONLY, *c))
				return errmsg(err, errlen, -EINVAL,
					      "perf's modifier '%c' in '%s' is not supported "
					      "(tdtop takes " TAKEN ")",
					      *c, event);
			return errmsg(err, errlen, -EINVAL,
				      "unknown modifier '%c' in '%s' (tdtop takes " TAKEN
				      "%s)",
				      *c, event,
				      mods[1] ? "; a unit mask is written event.umask" : "");
		}
	}
	*exclude = 0;
	if (u || k || h)
		*exclude |= (u ? 0 : EXCL_USER) | (k ? 0 : EXCL_KERNEL) | (h ? 0 : EXCL_HV);
	if (guest || host)
		*exclude |= (guest ? 0 : EXCL_GUEST) | (host ? 0 : EXCL_HOST);
	return 0;
}
