// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The interactive view's settings file: parsing (strict about values, a
 * damaged file is ignored whole), the text written, where it lives, and
 * the atomic save that never follows a symbolic link.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/errmsg.h"
#include "util/fileio.h"
#include "tui/draw.h"
#include "tui/rc.h"

#define RC_DIR "tdtop"
#define RC_NAME "tdtoprc"
#define LINE_MAX_LEN 256

static const char *trim(char *s)
{
	char *end = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -1;
	*out = v[0] == '1';
	return 0;
}

/* "user,cpu,...": the optional columns shown; the others are hidden. */
static int parse_columns(const char *v, unsigned int *hidden, char *err, size_t errlen)
{
	unsigned int shown = 0;

	while (*v) {
		size_t len = strcspn(v, ",");
		int opt;

		for (opt = 0; opt < TUI_OPT_NR; opt++)
			if (strlen(tui_optional_name(opt)) == len &&
			    !strncmp(v, tui_optional_name(opt), len))
				break;
		if (opt == TUI_OPT_NR && len)
			return errmsg(err, errlen, -1, "unknown column '%.*s'", (int)len, v);
		if (len)
			shown |= TUI_HIDE(opt);
		v += len + (v[len] == ',');
	}
	*hidden = TUI_HIDE_ALL & ~shown;
	return 0;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/* One KEY=VALUE; unknown keys are a newer tdtop's and skipped. */
static int parse_setting(struct tui_rc *rc, const char *key, const char *v, char *err,
			 size_t errlen)
{
	char why[TUI_MSG_LEN];

	if (!strcmp(key, "sort")) {
		if (!v[0] || strlen(v) >= sizeof(rc->sort) || !printable(v))
			return errmsg(err, errlen, -1, "invalid sort key");
		snprintf(rc->sort, sizeof(rc->sort), "%s", v);
		rc->has |= TUI_RC_SORT;
	} else if (!strcmp(key, "reverse") || !strcmp(key, "tree")) {
		bool *b = key[0] == 'r' ? &rc->reverse : &rc->tree;

		if (parse_bool(v, b))
			return errmsg(err, errlen, -1, "%s wants 0 or 1, not '%.32s'", key, v);
		rc->has |= key[0] == 'r' ? TUI_RC_REVERSE : TUI_RC_TREE;
	} else if (!strcmp(key, "columns")) {
		if (parse_columns(v, &rc->hidden, err, errlen))
			return -1;
		rc->has |= TUI_RC_COLUMNS;
	} else if (!strcmp(key, "level")) {
		if (strcmp(v, "1") && strcmp(v, "2"))
			return errmsg(err, errlen, -1, "level wants 1 or 2, not '%.32s'", v);
		rc->level = v[0] - '0';
		rc->has |= TUI_RC_LEVEL;
	} else if (!strcmp(key, "delay")) {
		if (tui_parse_delay(v, &rc->delay_s, why, sizeof(why)))
			return errmsg(err, errlen, -1, "%s", why);
		rc->has |= TUI_RC_DELAY;
	}
	return 0;
}

int tui_rc__parse(struct tui_rc *rc, const char *text, size_t len, char *err, size_t errlen)
{
	char line[LINE_MAX_LEN], why[TUI_MSG_LEN];
	size_t pos = 0;
	int nr = 0;

	memset(rc, 0, sizeof(*rc));
	if (len > TUI_RC_MAX_SIZE)
		return errmsg(err, errlen, -1, "larger than %d bytes", TUI_RC_MAX_SIZE);
	if (memchr(text, '\0', len))
		return errmsg(err, errlen, -1, "holds a NUL byte");
	while (pos < len) {
		const char *end = memchr(text + pos, '\n', len - pos), *key, *value;
		size_t n = end ? (size_t)(end - (text + pos)) : len - pos;
		char *eq;

		nr++;
		if (n >= sizeof(line)) {
			memset(rc, 0, sizeof(*rc));
			return errmsg(err, errlen, -1, "line %d: longer than %d characters", nr,
				      LINE_MAX_LEN - 1);
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		key = trim(line);
		if (!key[0] || key[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			memset(rc, 0, sizeof(*rc));
			return errmsg(err, errlen, -1, "line %d: not KEY=VALUE", nr);
		}
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
		if (parse_setting(rc, key, value, why, sizeof(why))) {
			memset(rc, 0, sizeof(*rc));
			return errmsg(err, errlen, -1, "line %d: %s", nr, why);
		}
	}
	return 0;
}

static void append(char *buf, size_t size, int *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* snprintf() at the end of what *buf* holds; *n* counts what did not fit too. */
static void append(char *buf, size_t size, int *n, const char *fmt, ...)
{
	size_t at = (size_t)*n < size ? (size_t)*n : size;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	*n += len > 0 ? len : 0;
}

int tui_rc__format(const struct tui_rc *rc, char *buf, size_t size)
{
	const char *sep = "";
	int n = 0;

	if (size)
		buf[0] = '\0';
	append(buf, size, &n, "# tdtop's interactive view, saved on quit; "
			      "command-line options override it\n");
	if (rc->has & TUI_RC_SORT)
		append(buf, size, &n, "sort=%s\n", rc->sort);
	if (rc->has & TUI_RC_REVERSE)
		append(buf, size, &n, "reverse=%d\n", rc->reverse);
	if (rc->has & TUI_RC_COLUMNS) {
		append(buf, size, &n, "columns=");
		for (int opt = 0; opt < TUI_OPT_NR; opt++) {
			if (rc->hidden & TUI_HIDE(opt))
				continue;
			append(buf, size, &n, "%s%s", sep, tui_optional_name(opt));
			sep = ",";
		}
		append(buf, size, &n, "\n");
	}
	if (rc->has & TUI_RC_LEVEL)
		append(buf, size, &n, "level=%d\n", rc->level);
	if (rc->has & TUI_RC_DELAY)
		append(buf, size, &n, "delay=%g\n", rc->delay_s);
	if (rc->has & TUI_RC_TREE)
		append(buf, size, &n, "tree=%d\n", rc->tree);
	return n;
}

/* ---- the file ---- */

/* An absolute directory from the environment, else NULL. */
static const char *env_dir(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] == '/' ? v : NULL;
}

int tui_rc__path(char *buf, size_t size)
{
	const char *xdg = env_dir("XDG_CONFIG_HOME"), *home = env_dir("HOME");
	struct passwd pw, *res = NULL;
	char pwbuf[4096];
	int n;

	if (xdg) {
		n = snprintf(buf, size, "%s/" RC_DIR "/" RC_NAME, xdg);
	} else {
		if (!home && !getpwuid_r(getuid(), &pw, pwbuf, sizeof(pwbuf), &res) && res &&
		    res->pw_dir && res->pw_dir[0] == '/')
			home = res->pw_dir;
		if (!home)
			return -1;
		n = snprintf(buf, size, "%s/.config/" RC_DIR "/" RC_NAME, home);
	}
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int tui_rc__load(struct tui_rc *rc, const char *path, char *err, size_t errlen)
{
	char text[TUI_RC_MAX_SIZE + 1], why[TUI_MSG_LEN];
	ssize_t len;
	struct stat sb;
	int fd, ret = -1;

	memset(rc, 0, sizeof(*rc));
	/* O_NONBLOCK: a FIFO put there must not hang the start */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return 1;
	if (fd < 0)
		return errmsg(err, errlen, -1, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		errmsg(err, errlen, -1, "%s: not a regular file", path);
		goto out;
	}
	len = read_full(fd, text, sizeof(text));
	if (len < 0) {
		errmsg(err, errlen, -1, "%s: %s", path, strerror(-len));
		goto out;
	}
	if (tui_rc__parse(rc, text, len, why, sizeof(why))) {
		errmsg(err, errlen, -1, "%s: %s", path, why);
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* The directory *path* names, made when missing (and its parent, ~/.config). */
static int open_dir(char *dir, char *err, size_t errlen)
{
	char *slash = strrchr(dir, '/');
	int fd;

	if (slash && slash != dir) {
		*slash = '\0';
		/* the parent may be missing too; it is the user's, so it may be a link */
		if (mkdir(dir, 0700) && errno != EEXIST && errno != ENOENT)
			return errmsg(err, errlen, -1, "cannot create %s: %s", dir, strerror(errno));
		*slash = '/';
	}
	if (mkdir(dir, 0700) && errno != EEXIST)
		return errmsg(err, errlen, -1, "cannot create %s: %s", dir, strerror(errno));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errmsg(err, errlen, -1, "%s: %s", dir,
			      errno == ELOOP || errno == ENOTDIR ? "not a directory (a link?)"
								  : strerror(errno));
	return fd;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

int tui_rc__save(const struct tui_rc *rc, const char *path, char *err, size_t errlen)
{
	char dir[4096], tmp[64], text[TUI_RC_TEXT_LEN];
	const char *name = strrchr(path, '/');
	int len = tui_rc__format(rc, text, sizeof(text)), dfd, fd, ret = -1;

	if (!name || (size_t)(name - path) >= sizeof(dir) || len >= (int)sizeof(text))
		return errmsg(err, errlen, -1, "cannot save the settings to %s", path);
	snprintf(dir, sizeof(dir), "%.*s", (int)(name - path), path);
	name++;
	dfd = open_dir(dir, err, errlen);
	if (dfd < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), ".%s.%d", name, (int)getpid());
	/* O_EXCL | O_NOFOLLOW: a file or link planted under this name is not written through */
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		errmsg(err, errlen, -1, "%s/%s: %s", dir, tmp, strerror(errno));
		goto out;
	}
	if (write_all(fd, text, len) || fsync(fd)) {
		errmsg(err, errlen, -1, "%s/%s: %s", dir, tmp, strerror(errno));
		close(fd);
		unlinkat(dfd, tmp, 0);
		goto out;
	}
	close(fd);
	/* rename() replaces a link at *path* itself, it never writes where it points */
	if (renameat(dfd, tmp, dfd, name)) {
		errmsg(err, errlen, -1, "%s: %s", path, strerror(errno));
		unlinkat(dfd, tmp, 0);
		goto out;
	}
	fsync(dfd);
	ret = 0;
out:
	close(dfd);
	return ret;
}

/* ---- settings and the view ---- */

void tui_rc__apply(const struct tui_rc *rc, struct tui_opts *o)
{
	unsigned int use = rc->has & ~o->cmdline;
	struct sort_key key;

	if (use & TUI_RC_SORT && !sort_key__parse(rc->sort, o->names, o->nr_events, &key) &&
	    (key.kind != SORT_TD || o->topdown) && (key.kind != SORT_EVENT || !o->topdown))
		o->view.sort = key;
	if (use & TUI_RC_REVERSE)
		o->reverse = rc->reverse;
	if (use & TUI_RC_COLUMNS)
		o->hidden = rc->hidden;
	if (use & TUI_RC_LEVEL && (rc->level == 1 || o->level2_available))
		o->level = rc->level;
	if (use & TUI_RC_DELAY)
		o->delay_s = rc->delay_s;
	if (use & TUI_RC_TREE)
		o->tree = rc->tree;
}

void tui_rc__from_state(struct tui_rc *rc, const struct tui_state *st)
{
	memset(rc, 0, sizeof(*rc));
	rc->has = TUI_RC_SORT | TUI_RC_REVERSE | TUI_RC_COLUMNS | TUI_RC_LEVEL | TUI_RC_DELAY |
		  TUI_RC_TREE;
	snprintf(rc->sort, sizeof(rc->sort), "%s", sort_key__name(&st->sort, st->names,
								 st->nr_events));
	rc->reverse = st->reverse;
	rc->hidden = st->hidden;
	rc->level = st->level;
	rc->delay_s = st->delay_s;
	rc->tree = st->tree;
}

unsigned int tui_rc__diff(const struct tui_rc *a, const struct tui_rc *b)
{
	unsigned int d = a->has ^ b->has, both = a->has & b->has;

	if (both & TUI_RC_SORT && strcmp(a->sort, b->sort))
		d |= TUI_RC_SORT;
	if (both & TUI_RC_REVERSE && a->reverse != b->reverse)
		d |= TUI_RC_REVERSE;
	if (both & TUI_RC_COLUMNS && a->hidden != b->hidden)
		d |= TUI_RC_COLUMNS;
	if (both & TUI_RC_LEVEL && a->level != b->level)
		d |= TUI_RC_LEVEL;
	if (both & TUI_RC_DELAY && a->delay_s != b->delay_s)
		d |= TUI_RC_DELAY;
	if (both & TUI_RC_TREE && a->tree != b->tree)
		d |= TUI_RC_TREE;
	return d;
}

void tui_rc__take(struct tui_rc *dst, const struct tui_rc *src, unsigned int bits)
{
	bits &= src->has;
	if (bits & TUI_RC_SORT)
		snprintf(dst->sort, sizeof(dst->sort), "%s", src->sort);
	if (bits & TUI_RC_REVERSE)
		dst->reverse = src->reverse;
	if (bits & TUI_RC_COLUMNS)
		dst->hidden = src->hidden;
	if (bits & TUI_RC_LEVEL)
		dst->level = src->level;
	if (bits & TUI_RC_DELAY)
		dst->delay_s = src->delay_s;
	if (bits & TUI_RC_TREE)
		dst->tree = src->tree;
	dst->has |= bits;
}

int tui_rc__saved_level(void)
{
	char path[4096], err[TUI_MSG_LEN];
	struct tui_rc rc;

	if (tui_rc__path(path, sizeof(path)) || tui_rc__load(&rc, path, err, sizeof(err)))
		return 0;
	return rc.has & TUI_RC_LEVEL ? rc.level : 0;
}
