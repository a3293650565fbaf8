// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Builds and removes the scratch trees the unit tests read as sysfs or cgroupfs,
 * and the other scratch state they share. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rows/aggregate.h"
#include "fixture.h"
#include "test.h"

char *fixture_new(const char *name)
{
	char *root;

	if (asprintf(&root, "/tmp/tdtop-%s-XXXXXX", name) < 0) {
		test_fail(__FILE__, __LINE__, "out of memory");
		return NULL;
	}
	if (!mkdtemp(root)) {
		test_fail(__FILE__, __LINE__, "mkdtemp %s: %s", root, strerror(errno));
		free(root);
		return NULL;
	}
	return root;
}

/* <root>/<rel> into *path*; false (and a failure) when it does not fit. */
static bool fixture_path(char *path, const char *root, const char *rel)
{
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(path, PATH_MAX, "%s/%s", root, rel);
	if (n < 0 || n >= PATH_MAX) {
		test_fail(__FILE__, __LINE__, "path under %s is too long", root);
		return false;
	}
	return true;
}

/* Make every directory of *path* from the one after *root* on, up to the last '/'. */
static void make_parents(char *path, const char *root)
{
	for (char *p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			test_fail(__FILE__, __LINE__, "mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
}

void fixture_put_len(const char *root, const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	if (!root || !fixture_path(path, root, rel))
		return;
	make_parents(path, root);
	f = fopen(path, "w");
	if (!f) {
		test_fail(__FILE__, __LINE__, "cannot create %s: %s", path, strerror(errno));
		return;
	}
	if (fwrite(data, 1, len, f) != len)
		test_fail(__FILE__, __LINE__, "cannot write %s", path);
	fclose(f);
}

void fixture_put(const char *root, const char *rel, const char *data)
{
	fixture_put_len(root, rel, data, strlen(data));
}

void fixture_put_files(const char *root, const char *dir, const struct fixture_file *files)
{
	char rel[PATH_MAX];

	size_t n = strlen(dir);
	const char *sep = n && dir[n - 1] == '/' ? "" : "/";

	for (; files->rel; files++) {
		snprintf(rel, sizeof(rel), "%s%s%s", dir, sep, files->rel);
		fixture_put(root, rel, files->data);
	}
}

void fixture_mkdir(const char *root, const char *rel)
{
	char path[PATH_MAX];
	size_t n;

	if (!root || !fixture_path(path, root, rel))
		return;
	n = strlen(path);
	if (n + 1 < sizeof(path) && path[n - 1] != '/')
		strcat(path, "/");
	make_parents(path, root);
}

void fixture_link(const char *root, const char *rel, const char *target)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (!root || !fixture_path(path, root, rel))
		return;
	make_parents(path, root);
	if (!realpath(target, real) || symlink(real, path))
		test_fail(__FILE__, __LINE__, "cannot link %s to %s: %s", path, target,
			  strerror(errno));
}

void fixture_tmpfile(char *path, size_t size, const char *name, const void *data, size_t len)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd;

	snprintf(path, size, "%s/tdtop-%s-XXXXXX", dir, name);
	fd = mkstemp(path);
	if (fd < 0) {
		test_fail(__FILE__, __LINE__, "mkstemp %s: %s", path, strerror(errno));
		return;
	}
	if (write(fd, data, len) != (ssize_t)len)
		test_fail(__FILE__, __LINE__, "write %s: %s", path, strerror(errno));
	close(fd);
}

void fixture_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void fixture_remove(char *root)
{
	if (!root)
		return;
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}

void fixture_mem_open(struct fixture_mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		test_fail(__FILE__, __LINE__, "open_memstream: %s", strerror(errno));
}

const char *fixture_mem_text(struct fixture_mem *m)
{
	fflush(m->f);
	return m->buf;
}

void fixture_mem_close(struct fixture_mem *m)
{
	fclose(m->f);
	free(m->buf);
}

static int tree_ancestors(void *ctx, __u64 id, __u64 *out, int max)
{
	static const __u64 parent[] = { 0, 0, 1, 2, 1, 4, 4 };
	int n = 0;

	if (id == 0 || id > 6)
		return -1;
	for (__u64 p = parent[id]; p && n < max; p = parent[p])
		out[n++] = p;
	return n;
}

static const char *tree_path(void *ctx, __u64 id)
{
	static const char *const paths[] = { NULL, "/", "/system.slice",
					     "/system.slice/nginx.service", "/user.slice",
					     "/user.slice//x", NULL };

	return id <= 6 ? paths[id] : NULL;
}

const struct cgroup_tree fixture_cgroup_tree = { tree_ancestors, tree_path, NULL };
