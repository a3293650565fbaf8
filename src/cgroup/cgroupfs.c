// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cgroup v2 ids are inode numbers of directories in the cgroup2 mount, so
 * everything here works on plain directory trees and is tested on fake ones.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup/cgroupfs.h"
#include "util/errmsg.h"
#include "util/fileio.h"
#include "util/grow.h"

#define MOUNTINFO_PATH "/proc/self/mountinfo"
/* the largest mountinfo read: 16 MiB or more is refused */
#define MOUNTINFO_MAX ((16u << 20) - 1)

/* ---- mountinfo ---- */

struct field {
	const char *s;
	size_t n;
};

/* Fields are separated by single spaces; tolerate runs of them. */
static bool next_field(const char **p, const char *end, struct field *f)
{
	const char *s = *p, *e;

	while (s < end && *s == ' ')
		s++;
	if (s == end)
		return false;
	e = memchr(s, ' ', end - s);
	if (!e)
		e = end;
	f->s = s;
	f->n = e - s;
	*p = e;
	return true;
}

static bool field_is(const struct field *f, const char *str)
{
	return f->n == strlen(str) && !memcmp(f->s, str, f->n);
}

static size_t digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

static bool is_uint(const struct field *f)
{
	return f->n && digits(f->s, f->n) == f->n;
}

static bool is_majmin(const struct field *f)
{
	size_t a = digits(f->s, f->n);

	size_t b = a + 1 < f->n ? digits(f->s + a + 1, f->n - a - 1) : 0;

	return a && b && f->s[a] == ':' && a + 1 + b == f->n;
}

struct mountinfo_line {
	struct field root;
	struct field mnt;
	struct field fstype;
};

/*
 * "36 35 98:0 /root /mnt rw,noatime master:1 - ext4 /dev/sda1 rw": six
 * fixed fields, any number of optional ones up to "-", then fstype and
 * source (see proc(5)). Anything else is not a mountinfo line.
 */
static bool parse_line(const char *line, size_t len, struct mountinfo_line *m)
{
	const char *p = line, *end = line + len;
	struct field f[6], t;

	for (int i = 0; i < 6; i++)
		if (!next_field(&p, end, &f[i]))
			return false;
	if (!is_uint(&f[0]) || !is_uint(&f[1]) || !is_majmin(&f[2]) || f[4].s[0] != '/')
		return false;
	do {
		if (!next_field(&p, end, &t))
			return false;
	} while (!field_is(&t, "-"));
	if (!next_field(&p, end, &m->fstype) || !next_field(&p, end, &t))
		return false;
	m->root = f[3];
	m->mnt = f[4];
	return true;
}

static bool is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

/* The kernel writes space, tab, newline and backslash as \ooo. */
static int unescape(const struct field *f, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < f->n; i++) {
		unsigned char ch = f->s[i];

		if (ch == '\\' && i + 3 < f->n && f->s[i + 1] >= '0' && f->s[i + 1] <= '3' &&
		    is_odigit(f->s[i + 2]) && is_odigit(f->s[i + 3])) {
			ch = (f->s[i + 1] - '0') << 6 | (f->s[i + 2] - '0') << 3 |
			     (f->s[i + 3] - '0');
			i += 3;
		}
		if (!ch)
			return -EINVAL;
		if (o + 1 >= outlen)
			return -ENAMETOOLONG;
		out[o++] = ch;
	}
	out[o] = '\0';
	return 0;
}

static int mount_from_text(const char *text, size_t len, char *out, size_t outlen)
{
	const char *p = text, *end = text + len;
	bool v1 = false, too_long = false, found = false, found_whole = false;
	char mnt[CGROUP_PATH_MAX];

	while (p < end && !found_whole) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		struct mountinfo_line m;
		bool whole;
		int err;

		if (!parse_line(p, le - p, &m))
			goto next;
		if (field_is(&m.fstype, "cgroup")) {
			v1 = true;
			goto next;
		}
		if (!field_is(&m.fstype, "cgroup2"))
			goto next;
		whole = field_is(&m.root, "/");
		if (found && !whole)
			goto next;
		err = unescape(&m.mnt, mnt, sizeof(mnt));
		if (!err && strlen(mnt) >= outlen)
			err = -ENAMETOOLONG;
		if (err == -ENAMETOOLONG)
			too_long = true;
		if (err)
			goto next;
		strcpy(out, mnt);
		found = true;
		found_whole = whole;
next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (found)
		return 0;
	if (too_long)
		return -ENAMETOOLONG;
	return v1 ? CGROUP_EV1ONLY : CGROUP_ENOMOUNT;
}

int cgroup2_mount_from_mountinfo(const char *mountinfo_text_or_path, char *out, size_t outlen)
{
	const char *arg = mountinfo_text_or_path;
	char *buf = NULL;
	size_t len = 0;
	int err;

	if (!out || !outlen)
		return -EINVAL;
	if (arg && (!*arg || strchr(arg, '\n') || (*arg >= '0' && *arg <= '9')))
		return mount_from_text(arg, strlen(arg), out, outlen);
	err = read_whole_file(arg ? arg : MOUNTINFO_PATH, MOUNTINFO_MAX, &buf, &len);
	if (err)
		return err;
	err = mount_from_text(buf, len, out, outlen);
	free(buf);
	return err;
}

void cgroup2_mount_strerror(int err, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	switch (err) {
	case 0:
		snprintf(buf, len, "success");
		break;
	case CGROUP_EV1ONLY:
		snprintf(buf, len, "only cgroup v1 is mounted: tdtop needs cgroup v2");
		break;
	case CGROUP_ENOMOUNT:
		snprintf(buf, len, "no cgroup filesystem is mounted: tdtop needs cgroup v2");
		break;
	case -ENAMETOOLONG:
		snprintf(buf, len, "failed to find the cgroup2 mount: mount point is too long");
		break;
	case -EFBIG:
		snprintf(buf, len, "failed to read mountinfo: file is too large");
		break;
	default:
		snprintf(buf, len, "failed to read mountinfo: %s", strerror(err < 0 ? -err : err));
		break;
	}
}

/* ---- paths ---- */

static int resolve_fail(int ret, char *err, size_t errlen, const char *user_path,
			const char *why)
{
	/* keep the reason visible after a very long path */
	size_t n = strlen(user_path);
	int shown = n > 200 ? 200 : (int)n;

	return errmsg(err, errlen, ret, "failed to resolve cgroup '%.*s%s': %s", shown, user_path,
		      user_path[shown] ? "..." : "", why);
}

/* "/a//./b/" -> "/a/b" in *rel*; "" for the root. */
static int normalise(const char *p, char *rel, size_t size)
{
	size_t r = 0;

	while (*p) {
		const char *e;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchrnul(p, '/');
		n = e - p;
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (!(n == 1 && p[0] == '.')) {
			if (r + 1 + n >= size)
				return -ENAMETOOLONG;
			rel[r++] = '/';
			memcpy(rel + r, p, n);
			r += n;
		}
		p = e;
	}
	rel[r] = '\0';
	return 0;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

int cgroup_resolve_path(const char *mount, const char *user_path, char *abs, size_t len,
			unsigned long long *id, char *err, size_t errlen)
{
	char mnt[CGROUP_PATH_MAX], rel[CGROUP_PATH_MAX], procs[CGROUP_PATH_MAX + 16];
	char real_mnt[PATH_MAX], real_abs[PATH_MAX];
	const char *p = user_path;
	size_t mlen;
	struct stat st;
	int ret;

	if (!user_path)
		user_path = "(null)";
	if (!mount || !p || !abs || !len || !id)
		return resolve_fail(-EINVAL, err, errlen, user_path, "missing argument");
	if (!*p)
		return resolve_fail(-EINVAL, err, errlen, user_path, "empty path");
	mlen = strlen(mount);
	while (mlen > 1 && mount[mlen - 1] == '/')
		mlen--;
	if (mount[0] != '/')
		return resolve_fail(-EINVAL, err, errlen, user_path,
				    "cgroup mount is not absolute");
	if (mlen >= sizeof(mnt))
		return resolve_fail(-ENAMETOOLONG, err, errlen, user_path, "path is too long");
	if (mlen == 1)
		mlen = 0;	/* mounted on "/": every path is relative to it */
	memcpy(mnt, mount, mlen);
	mnt[mlen] = '\0';

	if (mlen && !strncmp(p, mnt, mlen) && (p[mlen] == '/' || p[mlen] == '\0'))
		p += mlen;
	ret = normalise(p, rel, sizeof(rel));
	if (ret == -EINVAL)
		return resolve_fail(ret, err, errlen, user_path, "'..' is not allowed");
	if (ret)
		return resolve_fail(ret, err, errlen, user_path, "path is too long");
	if ((size_t)snprintf(abs, len, "%s%s", mnt, (mlen || rel[0]) ? rel : "/") >= len)
		return resolve_fail(-ENAMETOOLONG, err, errlen, user_path, "path is too long");
	if ((size_t)snprintf(procs, sizeof(procs), "%s/cgroup.procs", abs) >= sizeof(procs))
		return resolve_fail(-ENAMETOOLONG, err, errlen, user_path, "path is too long");

	if (stat(abs, &st)) {
		char why[CGROUP_PATH_MAX + 64];

		ret = -errno;
		if (ret == -ENOENT || ret == -ENOTDIR) {
			snprintf(why, sizeof(why), "no such cgroup under %s", mlen ? mnt : "/");
			return resolve_fail(-ENOENT, err, errlen, user_path, why);
		}
		return resolve_fail(ret, err, errlen, user_path, strerror(-ret));
	}
	if (!S_ISDIR(st.st_mode))
		return resolve_fail(-ENOTDIR, err, errlen, user_path, "not a directory");
	if (access(procs, F_OK))
		return resolve_fail(-ENOTDIR, err, errlen, user_path,
				    "not a cgroup directory (no cgroup.procs)");
	/* Symlinks could lead anywhere; ids only mean something inside the mount. */
	if (!realpath(mlen ? mnt : "/", real_mnt) || !realpath(abs, real_abs))
		return resolve_fail(-errno, err, errlen, user_path, strerror(errno));
	if (!under(real_abs, real_mnt))
		return resolve_fail(-EXDEV, err, errlen, user_path,
				    "resolves outside the cgroup mount");
	*id = st.st_ino;
	return 0;
}

int cgroup_path_depth(const char *path)
{
	int depth = 0;

	if (!path)
		return 0;
	while (*path) {
		while (*path == '/')
			path++;
		if (!*path)
			break;
		depth++;
		path = strchrnul(path, '/');
	}
	return depth;
}

/* ---- id -> path cache ---- */

struct walk {
	struct cgroup_entry *ents;
	size_t nr;
	size_t cap;
	size_t max_entries;
	int max_depth;
	dev_t dev;
	bool truncated;
	char path[CGROUP_PATH_MAX];	/* relative path of the directory being read */
};

static void entries_free(struct cgroup_entry *ents, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(ents[i].path);
	free(ents);
}

/* -E2BIG once max_entries cgroups were recorded: the walk stops there. */
static int walk_add(struct walk *w, unsigned long long id, unsigned long long parent,
		    size_t plen, int depth)
{
	struct cgroup_entry *e;

	if (w->nr >= w->max_entries) {
		w->truncated = true;
		return -E2BIG;
	}
	if (GROW(w->ents, w->cap, w->nr + 1, 64))
		return -ENOMEM;
	e = &w->ents[w->nr];
	e->path = plen ? strndup(w->path, plen) : strdup("/");
	if (!e->path)
		return -ENOMEM;
	e->id = id;
	e->parent_id = parent;
	e->depth = depth;
	e->gone = false;
	w->nr++;
	return 0;
}

/* Takes ownership of *dfd*. Directories that vanish mid-walk are skipped. */
static int walk_dir(struct walk *w, int dfd, size_t plen, int depth, unsigned long long id)
{
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		err = -errno;
		close(dfd);
		return err;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		size_t n = strlen(name);
		struct stat st;
		int cfd;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
		    st.st_dev != w->dev)
			continue;
		if (plen + 1 + n >= sizeof(w->path))
			continue;
		w->path[plen] = '/';
		memcpy(w->path + plen + 1, name, n + 1);
		err = walk_add(w, st.st_ino, id, plen + 1 + n, depth + 1);
		if (err)
			break;
		if (depth + 1 >= w->max_depth)
			continue;
		cfd = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0)
			continue;
		err = walk_dir(w, cfd, plen + 1 + n, depth + 1, st.st_ino);
		if (err)
			break;
	}
	w->path[plen] = '\0';
	closedir(d);
	return err;
}

static int ent_cmp(const void *a, const void *b)
{
	unsigned long long x = ((const struct cgroup_entry *)a)->id;
	unsigned long long y = ((const struct cgroup_entry *)b)->id;

	return x < y ? -1 : x > y;
}

int cgroup_cache__init(struct cgroup_cache *c, const char *mount,
		       const struct cgroup_cache_opts *opts)
{
	struct cgroup_cache_opts o = {
		.max_depth = CGROUP_DEFAULT_MAX_DEPTH,
		.max_entries = CGROUP_DEFAULT_MAX_ENTRIES,
		.min_refresh_s = CGROUP_DEFAULT_MIN_REFRESH_S,
	};

	if (!c || !mount || !*mount)
		return -EINVAL;
	if (opts) {
		if (opts->max_depth < 0 || opts->max_depth > CGROUP_MAX_DEPTH ||
		    !(opts->min_refresh_s >= 0))
			return -EINVAL;
		if (opts->max_depth)
			o.max_depth = opts->max_depth;
		if (opts->max_entries)
			o.max_entries = opts->max_entries;
		o.min_refresh_s = opts->min_refresh_s;
	}
	memset(c, 0, sizeof(*c));
	c->mount = strdup(mount);
	if (!c->mount)
		return -ENOMEM;
	c->max_depth = o.max_depth;
	c->max_entries = o.max_entries;
	c->min_refresh_s = o.min_refresh_s;
	return 0;
}

/*
 * Merge the sorted, fresh *w* into the cache: fresh entries replace cached
 * ones (a cgroup can be renamed), cached ones the walk missed are kept.
 */
static int merge(struct cgroup_cache *c, struct walk *w)
{
	struct cgroup_entry *m;
	size_t i = 0, j = 0, k = 0;

	m = malloc((c->nr + w->nr + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	while (i < c->nr || j < w->nr) {
		if (j == w->nr || (i < c->nr && c->ents[i].id < w->ents[j].id)) {
			m[k] = c->ents[i++];
			if (!w->truncated)
				m[k].gone = true;
		} else {
			if (i < c->nr && c->ents[i].id == w->ents[j].id)
				free(c->ents[i++].path);
			m[k] = w->ents[j++];
		}
		k++;
	}
	free(c->ents);
	free(w->ents);
	w->ents = NULL;
	w->nr = 0;
	c->ents = m;
	c->nr = k;
	c->cap = c->nr + 1;
	return 0;
}

int cgroup_cache__refresh(struct cgroup_cache *c, double now_s)
{
	struct walk *w;
	struct stat st;
	int fd, err, seen;
	size_t k = 0;

	if (!c || !c->mount)
		return -EINVAL;
	fd = open(c->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		return -ENOMEM;
	}
	w->max_entries = c->max_entries;
	w->max_depth = c->max_depth;
	w->dev = st.st_dev;
	err = walk_add(w, st.st_ino, 0, 0, 0);
	if (!err)
		err = walk_dir(w, fd, 0, 0, st.st_ino);
	else
		close(fd);
	if (err == -E2BIG)
		err = 0;
	if (err)
		goto out;

	qsort(w->ents, w->nr, sizeof(*w->ents), ent_cmp);
	/* A directory moved during the walk can be met twice. */
	for (size_t i = 0; i < w->nr; i++) {
		if (k && w->ents[k - 1].id == w->ents[i].id)
			free(w->ents[i].path);
		else
			w->ents[k++] = w->ents[i];
	}
	w->nr = k;
	seen = (int)k;
	err = merge(c, w);
	if (err)
		goto out;
	c->root_id = st.st_ino;
	c->walks++;
	c->walked = true;
	c->truncated = w->truncated;
	c->last_walk_s = now_s;
	err = seen;
out:
	entries_free(w->ents, w->nr);
	free(w);
	return err;
}

static struct cgroup_entry *find(const struct cgroup_cache *c, unsigned long long id)
{
	struct cgroup_entry key = { .id = id };

	if (!c || !c->nr)
		return NULL;
	return bsearch(&key, c->ents, c->nr, sizeof(key), ent_cmp);
}

const struct cgroup_entry *cgroup_cache__find(const struct cgroup_cache *c, unsigned long long id)
{
	return find(c, id);
}

const struct cgroup_entry *cgroup_cache__lookup(struct cgroup_cache *c, unsigned long long id,
						double now_s)
{
	const struct cgroup_entry *e = find(c, id);

	if (e || !c)
		return e;
	if (c->walked && now_s - c->last_walk_s < c->min_refresh_s)
		return NULL;
	if (cgroup_cache__refresh(c, now_s) < 0)
		return NULL;
	return find(c, id);
}

int cgroup_cache__ancestors(const struct cgroup_cache *c, unsigned long long id,
			    unsigned long long *out, int max)
{
	const struct cgroup_entry *e = find(c, id);
	int n = 0;

	if (!e)
		return -ENOENT;
	/* The depth bound also stops a parent cycle left by reused ids. */
	while (e && e->parent_id && n < max && n < CGROUP_MAX_DEPTH) {
		out[n++] = e->parent_id;
		e = find(c, e->parent_id);
	}
	return n;
}

bool cgroup_cache__within(const struct cgroup_cache *c, unsigned long long id,
			  unsigned long long ancestor)
{
	const struct cgroup_entry *e;

	if (id == ancestor)
		return true;
	e = find(c, id);
	for (int n = 0; e && e->parent_id && n < CGROUP_MAX_DEPTH; n++) {
		if (e->parent_id == ancestor)
			return true;
		e = find(c, e->parent_id);
	}
	return false;
}

int cgroup_cache__drop(struct cgroup_cache *c, unsigned long long id)
{
	struct cgroup_entry *e = find(c, id);
	size_t i;

	if (!e)
		return -ENOENT;
	i = e - c->ents;
	free(e->path);
	memmove(e, e + 1, (c->nr - i - 1) * sizeof(*e));
	c->nr--;
	return 0;
}

size_t cgroup_cache__drop_gone(struct cgroup_cache *c)
{
	size_t k = 0, dropped;

	if (!c)
		return 0;
	for (size_t i = 0; i < c->nr; i++) {
		if (c->ents[i].gone)
			free(c->ents[i].path);
		else
			c->ents[k++] = c->ents[i];
	}
	dropped = c->nr - k;
	c->nr = k;
	return dropped;
}

void cgroup_cache__free(struct cgroup_cache *c)
{
	if (!c)
		return;
	entries_free(c->ents, c->nr);
	free(c->mount);
	memset(c, 0, sizeof(*c));
}
