// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes as a user's -c PATH, resolved under a small
 * cgroup-like tree made at start (cgroup.procs files, a directory and a
 * file that are not cgroups, symlinks inside and out). A resolved path
 * must be normal, inside the mount, a cgroup, and carry its inode as id;
 * a refused one a documented code and a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup/cgroupfs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char base[PATH_MAX];	/* holds mnt/ and outside/ */
static char mnt[PATH_MAX];	/* the pretend cgroup2 mount */
static char real_mnt[PATH_MAX];

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_cgroup_path: broken promise: %s\n", what);
		abort();
	}
}

static void make(const char *rel, char kind, const char *target)
{
	char path[PATH_MAX];
	int ok, fd;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	switch (kind) {
	case 'd':
		ok = !mkdir(path, 0755);
		break;
	case 'f':
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		ok = fd >= 0 && !close(fd);
		break;
	default:
		ok = !symlink(target, path);
		break;
	}
	if (!ok) {
		perror(path);
		exit(2);
	}
}

static void remove_tree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd))
		fprintf(stderr, "fuzz_cgroup_path: could not remove %s\n", base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(base, sizeof(base), "%s/fuzz-cgroup.XXXXXX", tmp);
	if (!mkdtemp(base)) {
		perror(base);
		exit(2);
	}
	atexit(remove_tree);
	make("mnt", 'd', NULL);
	make("mnt/cgroup.procs", 'f', NULL);
	make("mnt/a", 'd', NULL);
	make("mnt/a/cgroup.procs", 'f', NULL);
	make("mnt/a/b", 'd', NULL);
	make("mnt/a/b/cgroup.procs", 'f', NULL);
	make("mnt/a/b/c d", 'd', NULL);
	make("mnt/a/b/c d/cgroup.procs", 'f', NULL);
	make("mnt/system.slice", 'd', NULL);
	make("mnt/system.slice/cgroup.procs", 'f', NULL);
	make("mnt/plain", 'd', NULL);		/* no cgroup.procs */
	make("mnt/file", 'f', NULL);
	make("outside", 'd', NULL);
	make("outside/cgroup.procs", 'f', NULL);
	make("mnt/a/out", 'l', "../../outside");
	make("mnt/in", 'l', "a/b");
	make("mnt/self", 'l', ".");
	make("mnt/loop", 'l', "loop");
	snprintf(mnt, sizeof(mnt), "%s/mnt", base);
	require(realpath(mnt, real_mnt) != NULL, "realpath of the tree");
	return 0;
}

/* No empty, "." or ".." components and no trailing '/'. */
static bool normal(const char *p)
{
	if (p[0] != '/')
		return false;
	if (!strcmp(p, "/"))
		return true;
	return !strstr(p, "//") && !strstr(p, "/./") && !strstr(p, "/../") &&
	       p[strlen(p) - 1] != '/' && !(strlen(p) >= 2 && !strcmp(p + strlen(p) - 2, "/."));
}

static void check_resolved(const char *mount, const char *abs, size_t len,
			   unsigned long long id)
{
	char procs[PATH_MAX + 16], real[PATH_MAX];
	struct stat st;
	size_t n = strlen(mount);

	while (n > 1 && mount[n - 1] == '/')
		n--;
	require(strlen(abs) < len, "fits its buffer");
	require(normal(abs), "normalised");
	if (n > 1)
		require(!strncmp(abs, mount, n) && (abs[n] == '/' || !abs[n]), "under the mount");
	require(!stat(abs, &st) && S_ISDIR(st.st_mode) && st.st_ino == id, "id is the inode");
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", abs);
	require(!access(procs, F_OK), "a cgroup");
	if (n > 1)
		require(realpath(abs, real) && !strncmp(real, real_mnt, strlen(real_mnt)),
			"really inside the mount");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path, *abs, err[512] = "";
	unsigned long long id = 0;
	const char *mount;
	char slashes[PATH_MAX + 8];
	size_t len;
	int ret, depth;

	if (size < 2)
		return 0;
	/* byte 0: the output size; byte 1: how the mount is spelled */
	len = data[0] < 8 ? (size_t)data[0] : CGROUP_PATH_MAX;
	switch (data[1] % 4) {
	case 0:
		mount = mnt;
		break;
	case 1:
		snprintf(slashes, sizeof(slashes), "%s///", mnt);
		mount = slashes;
		break;
	case 2:
		mount = "/";	/* every path is relative to the real root */
		break;
	default:
		mount = "relative/mount";
		break;
	}
	path = malloc(size - 1);
	abs = malloc(len ? len : 1);
	if (!path || !abs)
		goto out;
	memcpy(path, data + 2, size - 2);
	path[size - 2] = '\0';

	ret = cgroup_resolve_path(mount, path, abs, len, &id, err, sizeof(err));
	if (!ret) {
		check_resolved(mount, abs, len, id);
	} else {
		require(ret < 0, "negative errno");
		require(!strncmp(err, "failed to resolve cgroup '", 26), "message form");
		require(!strchr(err, '\n') || strchr(path, '\n'), "one-line message");
	}
	depth = cgroup_path_depth(path);
	require(depth >= 0 && (size_t)depth <= (size - 2 + 1) / 2, "depth");
out:
	free(path);
	free(abs);
	return 0;
}
