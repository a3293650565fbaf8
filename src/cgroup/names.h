/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Recognisable names for cgroup paths: systemd units, container ids and
 * their runtime, Kubernetes pod uids and QoS classes.
 */
#ifndef __TDTOP_CGROUP_NAMES_H
#define __TDTOP_CGROUP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define CGROUP_UNIT_LEN 256	/* systemd's longest unit name, NUL included */
#define CGROUP_CONTAINER_LEN 13	/* short container id: 12 hex digits */
#define CGROUP_POD_UID_LEN 37	/* a UUID with dashes */

struct cgroup_label {
	char unit[CGROUP_UNIT_LEN];	/* innermost systemd unit or slice: "nginx.service" */
	char container[CGROUP_CONTAINER_LEN];	/* innermost container, first 12 hex digits */
	char runtime[16];	/* "docker", "containerd", "cri-o", "podman"; "" when unknown */
	char pod_uid[CGROUP_POD_UID_LEN];	/* Kubernetes pod uid, with dashes */
	char qos[16];		/* "guaranteed", "burstable", "besteffort" */
	bool conmon;		/* the container's monitor (conmon), not the container */
};

/*
 * Fill *out* from *path*, relative to the cgroup root ("/system.slice/x").
 * Fields not recognised are left empty; the root and NULL give all empty.
 * Shapes recognised, in any nesting:
 *   systemd units:	   *.service *.scope *.slice *.socket *.mount *.swap
 *   Docker:		   docker-<64 hex>.scope, /docker/<64 hex>
 *   containerd (CRI):	   cri-containerd-<64 hex>.scope
 *   CRI-O:		   crio-<64 hex>[.scope], crio-conmon-<64 hex>[.scope]
 *   Podman:		   libpod-<64 hex>[.scope], libpod-conmon-<64 hex>[.scope]
 *   kubelet, systemd:	   kubepods[-<qos>]-pod<uid>.slice (uid with '_' for '-')
 *   kubelet, cgroupfs:	   kubepods/[<qos>/]pod<uid>/<64 hex>
 * A pod straight under kubepods is "guaranteed". A bare 64-hex directory
 * is a container of unknown runtime except under "docker".
 */
void cgroup_name_recognise(const char *path, struct cgroup_label *out);

/* Allow UTF-8 in display names (an ellipsis, bytes of the path). */
#define CGROUP_NAME_UTF8 0x1

/*
 * A short name for a row of cgroup *path*, after the innermost container
 * or pod, else the innermost unit:
 *   container	"docker:3f2a1b9c8d7e", "cri-o-conmon:3f2a1b9c8d7e",
 *		"pod 1234abcd../containerd:3f2a1b9c8d7e" inside a pod,
 *		"3f2a1b9c8d7e" when the runtime is unknown
 *   pod	"pod 1234abcd.." (first 8 characters of the uid)
 *   unit	"nginx.service"
 * followed by what lies below it ("nginx.service/worker",
 * "podman:3f2a1b9c8d7e/container"); with none of them the path itself,
 * "/" for the root. Without CGROUP_NAME_UTF8 the result is printable
 * ASCII: ".." marks the cut pod uid and other bytes become '?'; with it
 * the mark is U+2026 and well-formed UTF-8 from the path is kept. Returns
 * the length of the full name, like snprintf(), which it may truncate.
 */
int cgroup_display_name(const char *path, unsigned int flags, char *buf, size_t len);

#endif /* __TDTOP_CGROUP_NAMES_H */
