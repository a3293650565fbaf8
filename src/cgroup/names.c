// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Cgroup paths carry the names users know (units, containers, pods) only
 * in the naming conventions of systemd, container runtimes and kubelet;
 * this file knows those conventions so rows can be named after them.
 */
#include <stdio.h>
#include <string.h>
#include "util/macros.h"
#include "cgroup/names.h"
#include "util/format.h"
#include "util/strutil.h"

#define CONTAINER_ID_LEN 64
#define ELLIPSIS_UTF8 "\xe2\x80\xa6"

/* Container cgroups named "<prefix><64 hex>", optionally with ".scope". */
static const struct {
	const char *prefix;
	const char *runtime;
	bool conmon;
} container_prefixes[] = {
	{ "docker-", "docker", false },
	{ "cri-containerd-", "containerd", false },
	{ "crio-conmon-", "cri-o", true },
	{ "crio-", "cri-o", false },
	{ "libpod-conmon-", "podman", true },
	{ "libpod-", "podman", false },
};

/* Unit types that own a cgroup (systemd.unit(5)). */
static const char *const unit_suffixes[] = {
	".service", ".scope", ".slice", ".socket", ".mount", ".swap",
};

/* Where in the path each label came from, to name what lies below it. */
struct label_ends {
	const char *unit;
	const char *container;
	const char *pod;
};

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static bool is_eq(const char *s, size_t n, const char *str)
{
	return n == strlen(str) && !memcmp(s, str, n);
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_hex(s[i]))
			return false;
	return true;
}

static bool is_container_id(const char *s, size_t n)
{
	return n == CONTAINER_ID_LEN && all_hex(s, n);
}

static bool unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr(":-_.\\@", c);
}

static bool is_unit(const char *s, size_t n)
{
	if (!n || n >= CGROUP_UNIT_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!unit_char(s[i]))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(unit_suffixes); i++)
		if (ends_with(s, n, unit_suffixes[i]) && n > strlen(unit_suffixes[i]))
			return true;
	return false;
}

/*
 * A pod uid is a UUID or, for static pods, 32 hex digits. The systemd
 * driver writes its dashes as '_' since '-' separates slice levels.
 */
static bool parse_pod_uid(const char *s, size_t n, char *out)
{
	char uid[CGROUP_POD_UID_LEN];

	if (n == 32 && all_hex(s, n)) {
		memcpy(out, s, n);
		out[n] = '\0';
		return true;
	}
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool sep = i == 8 || i == 13 || i == 18 || i == 23;

		if (sep ? (s[i] != '-' && s[i] != '_') : !is_hex(s[i]))
			return false;
		uid[i] = sep ? '-' : s[i];
	}
	memcpy(out, uid, n);
	out[n] = '\0';
	return true;
}

static void set(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool container(const char *s, size_t n, const char *parent, size_t pn,
		      struct cgroup_label *l)
{
	size_t base = ends_with(s, n, ".scope") ? n - strlen(".scope") : n;

	for (size_t i = 0; i < ARRAY_SIZE(container_prefixes); i++) {
		size_t k = strlen(container_prefixes[i].prefix);

		if (!starts_with(s, base, container_prefixes[i].prefix) ||
		    !is_container_id(s + k, base - k))
			continue;
		set(l->container, sizeof(l->container), s + k, 12);
		set(l->runtime, sizeof(l->runtime), container_prefixes[i].runtime,
		    strlen(container_prefixes[i].runtime));
		l->conmon = container_prefixes[i].conmon;
		return true;
	}
	/* cgroupfs drivers name the directory by the bare id */
	if (!is_container_id(s, n))
		return false;
	set(l->container, sizeof(l->container), s, 12);
	l->runtime[0] = '\0';
	if (is_eq(parent, pn, "docker"))
		set(l->runtime, sizeof(l->runtime), "docker", 6);
	l->conmon = false;
	return true;
}

static void set_qos(struct cgroup_label *l, const char *s, size_t n)
{
	set(l->qos, sizeof(l->qos), s, n);
}

static bool is_qos(const char *s, size_t n)
{
	return is_eq(s, n, "burstable") || is_eq(s, n, "besteffort");
}

/*
 * What both kubelet drivers share below kubepods: *s* is a QoS class
 * (recorded; not a pod yet) or "pod<uid>" below *parent*. A pod right
 * below kubepods is "guaranteed"; with *qos_parent* the parent may name
 * the class itself. True for a pod.
 */
static bool pod_tail(const char *s, size_t n, const char *parent, size_t pn, bool qos_parent,
		     bool kube, struct cgroup_label *l)
{
	if (!kube)
		return false;
	if (is_qos(s, n) && is_eq(parent, pn, "kubepods")) {
		set_qos(l, s, n);
		return false;
	}
	if (!starts_with(s, n, "pod") || !parse_pod_uid(s + 3, n - 3, l->pod_uid))
		return false;
	if (qos_parent && is_qos(parent, pn))
		set_qos(l, parent, pn);
	else if (is_eq(parent, pn, "kubepods"))
		set_qos(l, "guaranteed", strlen("guaranteed"));
	return true;
}

/* kubelet's systemd driver: "kubepods-burstable-pod<uid>.slice" */
static bool pod_slice(const char *s, size_t n, bool *kube, struct cgroup_label *l)
{
	const char *last, *prev = NULL, *p;
	size_t base = n - strlen(".slice"), ln, pvn = 0;

	for (p = s; p < s + base;) {
		const char *e = memchr(p, '-', s + base - p);
		size_t k = (e ? e : s + base) - p;

		if (is_eq(p, k, "kubepods"))
			*kube = true;
		if (!e)
			break;
		p = e + 1;
	}
	last = memrchr(s, '-', base);
	if (!last)
		return false;
	prev = memrchr(s, '-', last - s);
	prev = prev ? prev + 1 : s;
	pvn = last - prev;
	last++;
	ln = s + base - last;
	return pod_tail(last, ln, prev, pvn, true, *kube, l);
}

/* kubelet's cgroupfs driver: "kubepods/burstable/pod<uid>" */
static bool pod_dir(const char *s, size_t n, const char *parent, size_t pn, bool *kube,
		    struct cgroup_label *l)
{
	if (is_eq(s, n, "kubepods")) {
		*kube = true;
		return false;
	}
	return pod_tail(s, n, parent, pn, false, *kube, l);
}

static void recognise(const char *path, struct cgroup_label *l, struct label_ends *ends)
{
	const char *p = path, *parent = "";
	size_t pn = 0;
	bool kube = false;

	memset(l, 0, sizeof(*l));
	memset(ends, 0, sizeof(*ends));
	if (!path)
		return;
	while (*p) {
		const char *s, *e;
		size_t n;
		bool pod;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		s = p;
		e = strchrnul(s, '/');
		n = e - s;
		if (is_unit(s, n)) {
			set(l->unit, sizeof(l->unit), s, n);
			ends->unit = e;
		}
		if (container(s, n, parent, pn, l))
			ends->container = e;
		if (ends_with(s, n, ".slice"))
			pod = pod_slice(s, n, &kube, l);
		else
			pod = pod_dir(s, n, parent, pn, &kube, l);
		if (pod)
			ends->pod = e;
		parent = s;
		pn = n;
		p = e;
	}
}

void cgroup_name_recognise(const char *path, struct cgroup_label *out)
{
	struct label_ends ends;

	recognise(path, out, &ends);
}

/* snprintf()-like appending: counts what would be written, cuts the rest. */
struct out {
	char *buf;
	size_t len;
	size_t n;
	unsigned int flags;
};

static void put_bytes(struct out *o, const char *s, size_t n)
{
	if (o->n < o->len) {
		size_t room = o->len - 1 - o->n;

		memcpy(o->buf + o->n, s, n < room ? n : room);
		o->buf[o->n + (n < room ? n : room)] = '\0';
	}
	o->n += n;
}

static void put(struct out *o, const char *s)
{
	put_bytes(o, s, strlen(s));
}

/* Bytes from the path could be anything a cgroup name may hold. */
static void put_path(struct out *o, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = s[i];
		int k;

		if (c >= 0x20 && c < 0x7f) {
			put_bytes(o, s + i, 1);
			i++;
			continue;
		}
		k = (o->flags & CGROUP_NAME_UTF8) && c >= 0x80 ?
			    utf8_seq_len((const unsigned char *)s + i, n - i) : -1;
		if (k > 0) {
			put_bytes(o, s + i, k);
			i += k;
		} else {
			put(o, "?");
			i += k < 0 ? -k : 1;
		}
	}
}

/* What lies below the labelled component, "" or "/a/b", without trailing '/'. */
static void put_tail(struct out *o, const char *tail)
{
	size_t n = tail ? strlen(tail) : 0;

	while (n && tail[n - 1] == '/')
		n--;
	put_path(o, tail, n);
}

static bool has_component(const char *path)
{
	return path[strspn(path, "/")] != '\0';
}

int cgroup_display_name(const char *path, unsigned int flags, char *buf, size_t len)
{
	struct out o = { .buf = buf, .len = buf ? len : 0, .flags = flags };
	const char *ell = (flags & CGROUP_NAME_UTF8) ? ELLIPSIS_UTF8 : "..";
	struct label_ends ends;
	struct cgroup_label l;

	if (o.len)
		buf[0] = '\0';
	recognise(path, &l, &ends);
	if (l.pod_uid[0]) {
		put(&o, "pod ");
		put_bytes(&o, l.pod_uid, 8);
		put(&o, ell);
		/* a pod run inside a container is named after the pod */
		if (!l.container[0] || ends.container < ends.pod) {
			put_tail(&o, ends.pod);
			return (int)o.n;
		}
		put(&o, "/");
	}
	if (l.container[0]) {
		if (l.runtime[0]) {
			put(&o, l.runtime);
			if (l.conmon)
				put(&o, "-conmon");
			put(&o, ":");
		}
		put(&o, l.container);
		put_tail(&o, ends.container);
	} else if (l.unit[0]) {
		put(&o, l.unit);
		put_tail(&o, ends.unit);
	} else if (path && has_component(path)) {
		put_tail(&o, path);
	} else {
		put(&o, "/");
	}
	return (int)o.n;
}
