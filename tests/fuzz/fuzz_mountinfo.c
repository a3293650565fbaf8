// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes as /proc/self/mountinfo text for finding the
 * cgroup2 mount, into output buffers of every size. Only documented
 * results may come back, and a found mount point must fit its buffer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/cgroupfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_mountinfo: broken promise: %s\n", what);
		abort();
	}
}

static int find(const char *text, size_t outlen, char *out)
{
	char msg[256];
	int ret;

	memset(out, 'x', outlen);
	ret = cgroup2_mount_from_mountinfo(text, out, outlen);
	require(ret == 0 || ret == CGROUP_EV1ONLY || ret == CGROUP_ENOMOUNT ||
			ret == -ENAMETOOLONG,
		"documented result");
	if (!ret)
		require(memchr(out, '\0', outlen) && strlen(out) > 0, "mount point fits");
	cgroup2_mount_strerror(ret, msg, sizeof(msg));
	require(msg[0] && !strchr(msg, '\n'), "one-line message");
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* text, never a path: every real mountinfo holds a newline */
	char *text = malloc(size + 2), *big = malloc(CGROUP_PATH_MAX), *small;
	size_t outlen = size ? (size_t)data[0] + 1 : 1, n;
	int ret;

	small = malloc(outlen);
	if (!text || !big || !small)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	n = strlen(text);
	text[n] = '\n';
	text[n + 1] = '\0';
	ret = find(text, CGROUP_PATH_MAX, big);
	/* a smaller buffer can only lose the mount to -ENAMETOOLONG or a
	 * shorter one, never find one where the larger found none */
	if (find(text, outlen, small) == 0)
		require(ret == 0, "a small buffer finds no mount a large one missed");
	require(cgroup2_mount_from_mountinfo(text, big, 0) == -EINVAL, "zero-sized buffer");
out:
	free(text);
	free(big);
	free(small);
	return 0;
}
