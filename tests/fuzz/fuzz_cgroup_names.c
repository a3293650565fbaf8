// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes as a cgroup path through the name
 * recogniser (units, containers, pods) and the row name built from it, in
 * buffers of every size. Labels must have their documented shapes; names
 * must be printable ASCII (or well-formed UTF-8 when allowed) and cut
 * like snprintf().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/names.h"

#define NAME_MAX_LEN 8192

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_cgroup_names: broken promise: %s\n", what);
		abort();
	}
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static bool all_of(const char *s, const char *set)
{
	return s[strspn(s, set)] == '\0';
}

static bool one_of(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, set[i]))
			return true;
	return false;
}

static void check_label(const char *path, const struct cgroup_label *l)
{
	static const char *const runtimes[] = { "", "docker", "containerd", "cri-o", "podman" };
	static const char *const qos[] = { "", "guaranteed", "burstable", "besteffort" };
	static const char *const units[] = { ".service", ".scope", ".slice", ".socket",
					     ".mount", ".swap" };
	size_t n;

	require(terminated(l->unit, sizeof(l->unit)) &&
			terminated(l->container, sizeof(l->container)) &&
			terminated(l->runtime, sizeof(l->runtime)) &&
			terminated(l->pod_uid, sizeof(l->pod_uid)) &&
			terminated(l->qos, sizeof(l->qos)),
		"fields terminated");
	require(!l->container[0] ||
			(strlen(l->container) == 12 && all_of(l->container, "0123456789abcdef")),
		"container is 12 hex digits");
	require(one_of(l->runtime, runtimes, 5) && one_of(l->qos, qos, 4), "runtime and qos");
	require(!l->runtime[0] || l->container[0], "a runtime belongs to a container");
	require(!l->conmon || l->container[0], "conmon belongs to a container");
	/* a UUID, or 32 hex digits for a static pod */
	if (l->pod_uid[0] && strlen(l->pod_uid) == 32) {
		require(all_of(l->pod_uid, "0123456789abcdef"), "static pod uid shape");
	} else if (l->pod_uid[0]) {
		require(strlen(l->pod_uid) == 36, "pod uid length");
		for (int i = 0; i < 36; i++)
			require((i == 8 || i == 13 || i == 18 || i == 23) ? l->pod_uid[i] == '-'
									   : l->pod_uid[i] != '-',
				"pod uid shape");
	}
	if (l->unit[0]) {
		bool suffix = false;

		n = strlen(l->unit);
		for (size_t i = 0; i < 6; i++) {
			size_t k = strlen(units[i]);

			suffix |= n > k && !strcmp(l->unit + n - k, units[i]);
		}
		require(suffix, "unit has a unit suffix");
		require(path && strstr(path, l->unit), "unit comes from the path");
	}
}

/* Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF)
 * without ASCII control characters. */
static bool utf8_ok(const unsigned char *s)
{
	while (*s) {
		unsigned char c = *s;
		int k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
							  : (c & 0xf8) == 0xf0 ? 4 : 0;
		unsigned int cp;

		if (!k || (k == 2 && c < 0xc2) || (k == 4 && c > 0xf4))
			return false;
		cp = k == 1 ? c : c & (0x7f >> k);
		for (int i = 1; i < k; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
		    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		if (k == 1 && (c < 0x20 || c == 0x7f))
			return false;
		s += k;
	}
	return true;
}

static void check_name(const char *path, unsigned int flags, size_t cut)
{
	static char full[NAME_MAX_LEN], part[NAME_MAX_LEN];
	int n = cgroup_display_name(path, flags, full, sizeof(full));

	require(n > 0, "a name is never empty");
	require(cgroup_display_name(path, flags, NULL, 0) == n, "length without a buffer");
	if ((size_t)n >= sizeof(full))
		return;
	require(strlen(full) == (size_t)n, "returned length");
	if (flags & CGROUP_NAME_UTF8) {
		require(utf8_ok((const unsigned char *)full), "well-formed UTF-8");
	} else {
		for (int i = 0; i < n; i++)
			require(full[i] >= 0x20 && full[i] < 0x7f, "printable ASCII");
	}
	if (cut > sizeof(part))
		cut = sizeof(part);
	memset(part, 'x', sizeof(part));
	require(cgroup_display_name(path, flags, part, cut) == n, "same length when cut");
	if (cut) {
		size_t keep = (size_t)n < cut - 1 ? (size_t)n : cut - 1;

		require(strlen(part) == keep && !memcmp(part, full, keep), "cut like snprintf");
	}
	require(cut == sizeof(part) || part[cut] == 'x', "nothing written past the buffer");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cgroup_label l;
	char *path;
	size_t cut;

	if (!size)
		return 0;
	/* byte 0: where to cut the name */
	cut = data[0];
	path = malloc(size);
	if (!path)
		return 0;
	memcpy(path, data + 1, size - 1);
	path[size - 1] = '\0';
	memset(&l, 'x', sizeof(l));
	cgroup_name_recognise(path, &l);
	check_label(path, &l);
	check_name(path, 0, cut);
	check_name(path, CGROUP_NAME_UTF8, cut);
	cgroup_name_recognise(NULL, &l);
	require(!l.unit[0] && !l.container[0] && !l.pod_uid[0], "NULL gives nothing");
	require(cgroup_display_name(NULL, 0, NULL, 0) > 0, "NULL still has a name");
	free(path);
	return 0;
}
