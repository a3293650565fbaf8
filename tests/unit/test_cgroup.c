// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup2 mount discovery from mountinfo fixtures, path resolution and the
 * id -> path cache on fake cgroup trees built in a temporary directory. */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup/cgroupfs.h"
#include "fixture.h"
#include "test.h"

#define MI "../fixtures/mountinfo/"

/* ---- mountinfo ---- */

TEST(cgroup_mount_pure_v2)
{
	char out[CGROUP_PATH_MAX];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "pure-v2", out, sizeof(out)), 0);
	CHECK_STR(out, "/sys/fs/cgroup");
}

TEST(cgroup_mount_hybrid)
{
	char out[CGROUP_PATH_MAX];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "hybrid", out, sizeof(out)), 0);
	CHECK_STR(out, "/sys/fs/cgroup/unified");
}

TEST(cgroup_mount_v1_only_and_none_differ)
{
	char out[CGROUP_PATH_MAX], msg[128];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "v1-only", out, sizeof(out)), CGROUP_EV1ONLY);
	cgroup2_mount_strerror(CGROUP_EV1ONLY, msg, sizeof(msg));
	CHECK_STR(msg, "only cgroup v1 is mounted: tdtop needs cgroup v2");

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "none", out, sizeof(out)), CGROUP_ENOMOUNT);
	cgroup2_mount_strerror(CGROUP_ENOMOUNT, msg, sizeof(msg));
	CHECK_STR(msg, "no cgroup filesystem is mounted: tdtop needs cgroup v2");
	CHECK(CGROUP_ENOMOUNT != CGROUP_EV1ONLY);

	CHECK_INT(cgroup2_mount_from_mountinfo("", out, sizeof(out)), CGROUP_ENOMOUNT);
}

TEST(cgroup_mount_escaped_mount_point)
{
	char out[CGROUP_PATH_MAX];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "escaped", out, sizeof(out)), 0);
	CHECK_STR(out, "/srv/cg root\ttab\\x");
	/* a backslash not followed by three octal digits is itself */
	CHECK_INT(cgroup2_mount_from_mountinfo("1 2 0:3 / /a\\9b\\04 rw - cgroup2 none rw",
					       out, sizeof(out)), 0);
	CHECK_STR(out, "/a\\9b\\04");
}

TEST(cgroup_mount_whole_hierarchy_preferred)
{
	char out[CGROUP_PATH_MAX];

	/* a container's bind mount of its own cgroup comes first */
	CHECK_INT(cgroup2_mount_from_mountinfo(MI "bind", out, sizeof(out)), 0);
	CHECK_STR(out, "/host/cgroup");
	/* but is used when it is all there is */
	CHECK_INT(cgroup2_mount_from_mountinfo("611 610 0:26 /system.slice/x.scope /sys/fs/cgroup "
					       "ro - cgroup2 cgroup rw\n", out, sizeof(out)), 0);
	CHECK_STR(out, "/sys/fs/cgroup");
	/* first of two whole mounts */
	CHECK_INT(cgroup2_mount_from_mountinfo("1 0 0:26 / /one rw - cgroup2 cgroup2 rw\n"
					       "2 0 0:26 / /two rw - cgroup2 cgroup2 rw\n",
					       out, sizeof(out)), 0);
	CHECK_STR(out, "/one");
}

TEST(cgroup_mount_garbage_lines_skipped)
{
	char out[CGROUP_PATH_MAX];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "garbage", out, sizeof(out)), 0);
	CHECK_STR(out, "/sys/fs/cgroup/good");
	/* the same lines without the good one: only the v1 line counts */
	CHECK_INT(cgroup2_mount_from_mountinfo("garbage\n"
					       "41 31 0:38 / /nosep rw cgroup2 cgroup2 rw\n"
					       "44 31 0:38 / /nofstype rw -\n"
					       "46 31 0:38 / /nul\\000 rw - cgroup2 cgroup2 rw\n"
					       "48 31 0:39 / /v1 rw - cgroup cgroup rw\n",
					       out, sizeof(out)), CGROUP_EV1ONLY);
}

TEST(cgroup_mount_text_forms)
{
	char out[CGROUP_PATH_MAX];

	/* one line, no newline: still text since it starts with a digit */
	CHECK_INT(cgroup2_mount_from_mountinfo("41 31 0:38 / /cg rw - cgroup2 cgroup2 rw",
					       out, sizeof(out)), 0);
	CHECK_STR(out, "/cg");
	/* optional fields and extra spaces */
	CHECK_INT(cgroup2_mount_from_mountinfo("41 31 0:38 / /cg2 rw shared:9 master:1 -  "
					       "cgroup2 cgroup2 rw\n", out, sizeof(out)), 0);
	CHECK_STR(out, "/cg2");
	/* fstype must match exactly */
	CHECK_INT(cgroup2_mount_from_mountinfo("41 31 0:38 / /cg rw - cgroup2x none rw\n"
					       "42 31 0:38 / /cg rw - fuse.cgroup2 none rw\n",
					       out, sizeof(out)), CGROUP_ENOMOUNT);
}

TEST(cgroup_mount_overlong_lines)
{
	char out[CGROUP_PATH_MAX];
	size_t n = 200000;
	char *text = malloc(n + 256), *p = text;

	/* a huge token, a huge mount point, then the real one */
	memset(p, 'x', 100000);
	p += 100000;
	*p++ = '\n';
	p += sprintf(p, "40 31 0:38 / /");
	memset(p, 'y', 8000);
	p += 8000;
	p += sprintf(p, " rw - cgroup2 cgroup2 rw\n");
	CHECK_INT(cgroup2_mount_from_mountinfo(text, out, sizeof(out)), -ENAMETOOLONG);
	sprintf(p, "41 31 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	CHECK_INT(cgroup2_mount_from_mountinfo(text, out, sizeof(out)), 0);
	CHECK_STR(out, "/sys/fs/cgroup");
	free(text);
}

TEST(cgroup_mount_small_buffer)
{
	char out[32];
	const char *mi = "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";

	CHECK_INT(cgroup2_mount_from_mountinfo(mi, out, 22), -ENAMETOOLONG);
	CHECK_INT(cgroup2_mount_from_mountinfo(mi, out, 23), 0);
	CHECK_STR(out, "/sys/fs/cgroup/unified");
	CHECK_INT(cgroup2_mount_from_mountinfo(mi, NULL, 23), -EINVAL);
	CHECK_INT(cgroup2_mount_from_mountinfo(mi, out, 0), -EINVAL);
}

TEST(cgroup_mount_file_errors)
{
	char out[CGROUP_PATH_MAX], msg[128], path[256];

	CHECK_INT(cgroup2_mount_from_mountinfo(MI "does-not-exist", out, sizeof(out)), -ENOENT);
	cgroup2_mount_strerror(-ENOENT, msg, sizeof(msg));
	CHECK(strstr(msg, "failed to read mountinfo: ") == msg);

	/* a file of 16 MiB is refused rather than read into memory */
	fixture_tmpfile(path, sizeof(path), "mi", "", 0);
	CHECK_INT(truncate(path, 16 << 20), 0);
	CHECK_INT(cgroup2_mount_from_mountinfo(path, out, sizeof(out)), -EFBIG);
	unlink(path);
}

TEST(cgroup_mount_proc_self)
{
	char out[CGROUP_PATH_MAX];
	struct stat st;
	int ret = cgroup2_mount_from_mountinfo(NULL, out, sizeof(out));

	CHECK(ret == 0 || ret == CGROUP_EV1ONLY || ret == CGROUP_ENOMOUNT);
	if (!ret)
		CHECK(!stat(out, &st) && S_ISDIR(st.st_mode));
}

/* ---- fake cgroup trees ---- */

/* root/rel as a cgroup: a directory with a cgroup.procs file */
static void mkcg(const char *root, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/cgroup.procs", rel);
	fixture_put(root, p, "");
}

static unsigned long long ino(const char *root, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", root, strcmp(rel, "/") ? rel : "");
	if (stat(p, &st))
		return 0;
	return st.st_ino;
}

/*
 * root/
 *   system.slice/nginx.service/
 *   plain/         (no cgroup.procs)
 *   file           (regular file)
 */
static char *make_tree(void)
{
	char *root = fixture_new("cg");

	mkcg(root, "/");
	mkcg(root, "/system.slice");
	mkcg(root, "/system.slice/nginx.service");
	fixture_mkdir(root, "plain");
	fixture_put(root, "file", "");
	return root;
}

static int resolve(const char *root, const char *user, char *abs, unsigned long long *id,
		   char *err)
{
	err[0] = '\0';
	return cgroup_resolve_path(root, user, abs, CGROUP_PATH_MAX, id, err, 256);
}

TEST(cgroup_resolve_relative_and_absolute)
{
	char *root = make_tree(), abs[CGROUP_PATH_MAX], want[PATH_MAX], err[256];
	static const char *const forms[] = {
		"system.slice/nginx.service",
		"/system.slice/nginx.service",
		"system.slice/nginx.service/",
		"//system.slice/./nginx.service//",
		NULL,	/* root + "/system.slice/nginx.service" */
	};
	unsigned long long id;

	if (!root)
		return;
	snprintf(want, sizeof(want), "%s/system.slice/nginx.service", root);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		id = 0;
		CHECK_INT(resolve(root, forms[i] ? forms[i] : want, abs, &id, err), 0);
		CHECK_STR(abs, want);
		CHECK_U64(id, ino(root, "/system.slice/nginx.service"));
		CHECK_STR(err, "");
	}

	/* the root, by "/" or by the mount point itself */
	CHECK_INT(resolve(root, "/", abs, &id, err), 0);
	CHECK_STR(abs, root);
	CHECK_U64(id, ino(root, "/"));
	snprintf(want, sizeof(want), "%s/", root);
	CHECK_INT(resolve(root, want, abs, &id, err), 0);
	CHECK_STR(abs, root);
	/* a mount point given with a trailing slash */
	CHECK_INT(resolve(want, "system.slice", abs, &id, err), 0);
	CHECK_U64(id, ino(root, "/system.slice"));
	fixture_remove(root);
}

TEST(cgroup_resolve_errors)
{
	char *root = make_tree(), abs[CGROUP_PATH_MAX], err[256], prefix[64];
	char *longp;
	unsigned long long id = 42;

	if (!root)
		return;
	snprintf(prefix, sizeof(prefix), "failed to resolve cgroup '");

	CHECK_INT(resolve(root, "system.slice/../system.slice", abs, &id, err), -EINVAL);
	CHECK(strstr(err, "'..' is not allowed"));
	CHECK(strstr(err, prefix) == err);
	CHECK_INT(resolve(root, "..", abs, &id, err), -EINVAL);
	CHECK_INT(resolve(root, "", abs, &id, err), -EINVAL);
	CHECK(strstr(err, "empty path"));
	/* "..x" is a name, not the parent */
	CHECK_INT(resolve(root, "..x", abs, &id, err), -ENOENT);

	CHECK_INT(resolve(root, "system.slice/missing.service", abs, &id, err), -ENOENT);
	CHECK(strstr(err, "no such cgroup under "));
	CHECK(strstr(err, root));
	CHECK_INT(resolve(root, "file/below", abs, &id, err), -ENOENT);
	CHECK_INT(resolve(root, "file", abs, &id, err), -ENOTDIR);
	CHECK(strstr(err, "not a directory"));
	CHECK_INT(resolve(root, "plain", abs, &id, err), -ENOTDIR);
	CHECK(strstr(err, "not a cgroup directory (no cgroup.procs)"));
	CHECK(!strchr(err, '\n'));

	longp = malloc(CGROUP_PATH_MAX + 16);
	memset(longp, 'a', CGROUP_PATH_MAX + 15);
	longp[CGROUP_PATH_MAX + 15] = '\0';
	CHECK_INT(resolve(root, longp, abs, &id, err), -ENAMETOOLONG);
	CHECK(strstr(err, "path is too long"));
	free(longp);
	/* the result must fit the caller's buffer */
	CHECK_INT(cgroup_resolve_path(root, "system.slice", abs, strlen(root) + 5, &id, err, 256),
		  -ENAMETOOLONG);
	CHECK_INT(cgroup_resolve_path(root, "system.slice", abs, strlen(root) + 14, &id, err, 256),
		  0);
	CHECK_INT(cgroup_resolve_path("relative", "x", abs, sizeof(abs), &id, err, 256), -EINVAL);
	CHECK_INT(cgroup_resolve_path(NULL, "x", abs, sizeof(abs), &id, NULL, 0), -EINVAL);
	/* a short error buffer is cut, not overrun */
	CHECK_INT(cgroup_resolve_path(root, "plain", abs, sizeof(abs), &id, err, 8), -ENOTDIR);
	CHECK_STR(err, "failed ");
	CHECK_U64(id, ino(root, "/system.slice"));	/* only the success above set it */
	fixture_remove(root);
}

TEST(cgroup_resolve_symlink_outside)
{
	char *root = make_tree(), *other = fixture_new("cgo");
	char abs[CGROUP_PATH_MAX], err[256], link[PATH_MAX];
	unsigned long long id;

	if (!root || !other) {
		fixture_remove(root);
		fixture_remove(other);
		return;
	}
	mkcg(other, "/");
	snprintf(link, sizeof(link), "%s/elsewhere", root);
	CHECK_INT(symlink(other, link), 0);
	CHECK_INT(resolve(root, "elsewhere", abs, &id, err), -EXDEV);
	CHECK(strstr(err, "outside the cgroup mount"));
	fixture_remove(root);
	fixture_remove(other);
}

TEST(cgroup_path_depth_counts)
{
	CHECK_INT(cgroup_path_depth("/"), 0);
	CHECK_INT(cgroup_path_depth(""), 0);
	CHECK_INT(cgroup_path_depth(NULL), 0);
	CHECK_INT(cgroup_path_depth("/a"), 1);
	CHECK_INT(cgroup_path_depth("/a/b/"), 2);
	CHECK_INT(cgroup_path_depth("a//b"), 2);
	CHECK_INT(cgroup_path_depth("/system.slice/docker-1.scope/init.scope"), 3);
}

/* ---- cache ---- */

/* root/{a/{a1,a2/deep},b} */
static char *make_cache_tree(void)
{
	char *root = fixture_new("cg");

	mkcg(root, "/");
	mkcg(root, "/a");
	mkcg(root, "/a/a1");
	mkcg(root, "/a/a2");
	mkcg(root, "/a/a2/deep");
	mkcg(root, "/b");
	return root;
}

static void check_entry(const struct cgroup_cache *c, const char *root, const char *rel,
			const char *parent, int depth)
{
	const struct cgroup_entry *e = cgroup_cache__find(c, ino(root, rel));

	CHECK(e);
	if (!e)
		return;
	CHECK_STR(e->path, rel);
	CHECK_INT(e->depth, depth);
	CHECK_U64(e->parent_id, parent ? ino(root, parent) : 0);
	CHECK(!e->gone);
}

TEST(cgroup_cache_walk)
{
	char *root = make_cache_tree();
	struct cgroup_cache c;

	if (!root)
		return;
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(c.walks, 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 6);
	CHECK_INT(c.nr, 6);
	CHECK_INT(c.walks, 1);
	CHECK_U64(c.root_id, ino(root, "/"));
	check_entry(&c, root, "/", NULL, 0);
	check_entry(&c, root, "/a", "/", 1);
	check_entry(&c, root, "/a/a1", "/a", 2);
	check_entry(&c, root, "/a/a2", "/a", 2);
	check_entry(&c, root, "/a/a2/deep", "/a/a2", 3);
	check_entry(&c, root, "/b", "/", 1);
	for (size_t i = 1; i < c.nr; i++)
		CHECK(c.ents[i - 1].id < c.ents[i].id);
	CHECK(!cgroup_cache__find(&c, 1ULL << 62));
	cgroup_cache__free(&c);
	CHECK(!c.ents && !c.mount);
	cgroup_cache__free(&c);
	fixture_remove(root);
}

TEST(cgroup_cache_unknown_id_bounded_refresh)
{
	char *root = make_cache_tree();
	struct cgroup_cache_opts opts = { .min_refresh_s = 1.0 };
	const struct cgroup_entry *e;
	struct cgroup_cache c;
	unsigned long long id_c;

	if (!root)
		return;
	CHECK_INT(cgroup_cache__init(&c, root, &opts), 0);
	/* the first lookup walks whatever the time */
	e = cgroup_cache__lookup(&c, ino(root, "/a"), 10.0);
	CHECK(e && !strcmp(e->path, "/a"));
	CHECK_INT(c.walks, 1);
	/* known ids never walk */
	CHECK(cgroup_cache__lookup(&c, ino(root, "/b"), 50.0));
	CHECK_INT(c.walks, 1);

	mkcg(root, "/c");
	id_c = ino(root, "/c");
	/* too soon after the last walk: unknown for now */
	CHECK(!cgroup_cache__lookup(&c, id_c, 10.5));
	CHECK_INT(c.walks, 1);
	/* a batch of lookups at one time walks once */
	e = cgroup_cache__lookup(&c, id_c, 11.0);
	CHECK(e && !strcmp(e->path, "/c"));
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 11.0));
	CHECK(!cgroup_cache__lookup(&c, (1ULL << 62) + 1, 11.0));
	CHECK_INT(c.walks, 2);
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 11.9));
	CHECK_INT(c.walks, 2);
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 12.0));
	CHECK_INT(c.walks, 3);
	cgroup_cache__free(&c);

	/* min_refresh_s 0 walks for every unknown id */
	opts.min_refresh_s = 0;
	CHECK_INT(cgroup_cache__init(&c, root, &opts), 0);
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 1.0));
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 1.0));
	CHECK_INT(c.walks, 2);
	cgroup_cache__free(&c);
	fixture_remove(root);
}

TEST(cgroup_cache_removed_kept_until_dropped)
{
	char *root = make_cache_tree(), p[PATH_MAX];
	unsigned long long id_b, id_deep, anc[CGROUP_MAX_DEPTH];
	const struct cgroup_entry *e;
	struct cgroup_cache c;

	if (!root)
		return;
	id_b = ino(root, "/b");
	id_deep = ino(root, "/a/a2/deep");
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 6);

	snprintf(p, sizeof(p), "%s/b/cgroup.procs", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/b", root);
	CHECK_INT(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/a/a2/deep/cgroup.procs", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/a/a2/deep", root);
	CHECK_INT(rmdir(p), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 1), 4);
	CHECK_INT(c.nr, 6);
	e = cgroup_cache__find(&c, id_b);
	CHECK(e && e->gone && !strcmp(e->path, "/b"));
	/* a gone cgroup still rolls up into its ancestors */
	CHECK_INT(cgroup_cache__ancestors(&c, id_deep, anc, CGROUP_MAX_DEPTH), 3);
	e = cgroup_cache__find(&c, ino(root, "/a"));
	CHECK(e && !e->gone);
	/* still gone after another walk */
	CHECK_INT(cgroup_cache__refresh(&c, 2), 4);
	CHECK(cgroup_cache__find(&c, id_b) && cgroup_cache__find(&c, id_b)->gone);

	CHECK_INT(cgroup_cache__drop(&c, id_deep), 0);
	CHECK(!cgroup_cache__find(&c, id_deep));
	CHECK_INT(cgroup_cache__drop(&c, id_deep), -ENOENT);
	CHECK_INT(cgroup_cache__drop_gone(&c), 1);
	CHECK(!cgroup_cache__find(&c, id_b));
	CHECK_INT(c.nr, 4);
	CHECK_INT(cgroup_cache__drop_gone(&c), 0);
	/* dropping a live one: a later walk brings it back */
	CHECK_INT(cgroup_cache__drop(&c, ino(root, "/a/a1")), 0);
	CHECK(!cgroup_cache__find(&c, ino(root, "/a/a1")));
	CHECK(cgroup_cache__lookup(&c, ino(root, "/a/a1"), 10));
	cgroup_cache__free(&c);
	fixture_remove(root);
}

TEST(cgroup_cache_ancestors)
{
	char *root = make_cache_tree();
	unsigned long long anc[CGROUP_MAX_DEPTH], deep, a2, a, r, b;
	struct cgroup_cache c;

	if (!root)
		return;
	deep = ino(root, "/a/a2/deep");
	a2 = ino(root, "/a/a2");
	a = ino(root, "/a");
	r = ino(root, "/");
	b = ino(root, "/b");
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 6);
	CHECK_INT(cgroup_cache__ancestors(&c, deep, anc, CGROUP_MAX_DEPTH), 3);
	CHECK_U64(anc[0], a2);
	CHECK_U64(anc[1], a);
	CHECK_U64(anc[2], r);
	memset(anc, 0, sizeof(anc));
	CHECK_INT(cgroup_cache__ancestors(&c, deep, anc, 2), 2);
	CHECK_U64(anc[1], a);
	CHECK_U64(anc[2], 0);
	CHECK_INT(cgroup_cache__ancestors(&c, r, anc, CGROUP_MAX_DEPTH), 0);
	CHECK_INT(cgroup_cache__ancestors(&c, 1ULL << 62, anc, CGROUP_MAX_DEPTH), -ENOENT);

	CHECK(cgroup_cache__within(&c, deep, a));
	CHECK(cgroup_cache__within(&c, deep, r));
	CHECK(cgroup_cache__within(&c, deep, deep));
	CHECK(!cgroup_cache__within(&c, deep, b));
	CHECK(!cgroup_cache__within(&c, a, deep));
	CHECK(!cgroup_cache__within(&c, 1ULL << 62, r));
	cgroup_cache__free(&c);
	fixture_remove(root);
}

TEST(cgroup_cache_bounds)
{
	char *root = make_cache_tree(), p[PATH_MAX];
	struct cgroup_cache_opts opts = { .max_depth = 2 };
	const struct cgroup_entry *e;
	struct cgroup_cache c;

	if (!root)
		return;
	/* depth: root is 0, deep is 3 */
	CHECK_INT(cgroup_cache__init(&c, root, &opts), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 5);
	CHECK(cgroup_cache__find(&c, ino(root, "/a/a2")));
	CHECK(!cgroup_cache__find(&c, ino(root, "/a/a2/deep")));
	CHECK(!c.truncated);
	cgroup_cache__free(&c);

	/* count: a cut walk marks nothing gone */
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 6);
	c.max_entries = 2;
	snprintf(p, sizeof(p), "%s/b/cgroup.procs", root);
	unlink(p);
	snprintf(p, sizeof(p), "%s/b", root);
	CHECK_INT(rmdir(p), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 1), 2);
	CHECK(c.truncated);
	CHECK_INT(c.nr, 6);
	for (size_t i = 0; i < c.nr; i++)
		CHECK(!c.ents[i].gone);
	c.max_entries = 100;
	CHECK_INT(cgroup_cache__refresh(&c, 2), 5);
	CHECK(!c.truncated);
	e = cgroup_cache__find(&c, ino(root, "/a"));
	CHECK(e && !e->gone);
	CHECK_INT(cgroup_cache__drop_gone(&c), 1);
	cgroup_cache__free(&c);

	opts.max_depth = CGROUP_MAX_DEPTH + 1;
	CHECK_INT(cgroup_cache__init(&c, root, &opts), -EINVAL);
	opts.max_depth = 0;
	opts.min_refresh_s = -1;
	CHECK_INT(cgroup_cache__init(&c, root, &opts), -EINVAL);
	CHECK_INT(cgroup_cache__init(&c, NULL, NULL), -EINVAL);
	fixture_remove(root);
}

TEST(cgroup_cache_rename_symlink_and_missing_root)
{
	char *root = make_cache_tree(), from[PATH_MAX], to[PATH_MAX];
	struct cgroup_cache c;
	const struct cgroup_entry *e;
	unsigned long long id;

	if (!root)
		return;
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 6);
	id = ino(root, "/a/a1");
	snprintf(from, sizeof(from), "%s/a/a1", root);
	snprintf(to, sizeof(to), "%s/b/moved", root);
	CHECK_INT(rename(from, to), 0);
	/* not a directory tree to follow */
	snprintf(from, sizeof(from), "%s/link", root);
	CHECK_INT(symlink(root, from), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 1), 6);
	e = cgroup_cache__find(&c, id);
	CHECK(e && !e->gone && !strcmp(e->path, "/b/moved"));
	CHECK_U64(e ? e->parent_id : 0, ino(root, "/b"));
	CHECK_INT(e ? e->depth : -1, 2);

	fixture_remove(root);
	CHECK_INT(cgroup_cache__refresh(&c, 2), -ENOENT);
	CHECK_INT(c.nr, 6);	/* unchanged */
	CHECK_INT(c.walks, 2);
	CHECK(!cgroup_cache__lookup(&c, 1ULL << 62, 100));
	cgroup_cache__free(&c);
}

TEST(cgroup_cache_wide_tree)
{
	char *root = fixture_new("cg"), rel[64];
	struct cgroup_cache c;
	int missing = 0;

	if (!root)
		return;
	for (int i = 0; i < 150; i++) {
		snprintf(rel, sizeof(rel), "/s%d", i);
		mkcg(root, rel);
		snprintf(rel, sizeof(rel), "/s%d/t", i);
		mkcg(root, rel);
	}
	CHECK_INT(cgroup_cache__init(&c, root, NULL), 0);
	CHECK_INT(cgroup_cache__refresh(&c, 0), 301);
	for (int i = 0; i < 150; i++) {
		const struct cgroup_entry *e;

		snprintf(rel, sizeof(rel), "/s%d/t", i);
		e = cgroup_cache__find(&c, ino(root, rel));
		if (!e || strcmp(e->path, rel))
			missing++;
	}
	CHECK_INT(missing, 0);
	cgroup_cache__free(&c);
	fixture_remove(root);
}
