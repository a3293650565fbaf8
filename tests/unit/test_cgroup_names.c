// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Recognising units, containers and pods in real-world cgroup path shapes
 * (systemd, Docker, containerd, CRI-O, Podman, kubelet's two drivers). */
#include "cgroup/names.h"
#include "test.h"

#define CID "3f2a1b9c8d7e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90"
#define CID_UPPER "3F2A1B9C8D7E4F5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F90"
#define CID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SHORT "3f2a1b9c8d7e"
#define UID_ "1234abcd_5678_90ef_1234_567890abcdef"	/* systemd driver form */
#define UID "1234abcd-5678-90ef-1234-567890abcdef"
#define STATIC_UID "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
#define KP "/kubepods.slice"
#define KPB KP "/kubepods-burstable.slice"
#define KPBE KP "/kubepods-besteffort.slice"

static const struct {
	const char *path;
	const char *unit;
	const char *container;
	const char *runtime;
	const char *pod;
	const char *qos;
	bool conmon;
	const char *display;
} cases[] = {
	/* nothing to recognise */
	{ "/", "", "", "", "", "", false, "/" },
	{ "", "", "", "", "", "", false, "/" },
	{ "/foo/bar/", "", "", "", "", "", false, "/foo/bar" },
	{ "/init.scope", "init.scope", "", "", "", "", false, "init.scope" },

	/* systemd */
	{ "/system.slice", "system.slice", "", "", "", "", false, "system.slice" },
	{ "/system.slice/nginx.service", "nginx.service", "", "", "", "", false, "nginx.service" },
	{ "/system.slice/nginx.service/", "nginx.service", "", "", "", "", false, "nginx.service" },
	{ "/system.slice/nginx.service/worker", "nginx.service", "", "", "", "", false,
	  "nginx.service/worker" },
	{ "/system.slice/systemd-journald.socket", "systemd-journald.socket", "", "", "", "",
	  false, "systemd-journald.socket" },
	{ "/user.slice/user-1000.slice", "user-1000.slice", "", "", "", "", false,
	  "user-1000.slice" },
	{ "/user.slice/user-1000.slice/session-3.scope", "session-3.scope", "", "", "", "", false,
	  "session-3.scope" },
	{ "/user.slice/user-1000.slice/user@1000.service", "user@1000.service", "", "", "", "",
	  false, "user@1000.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice", "app.slice", "", "", "", "",
	  false, "app.slice" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/"
	  "app-org.gnome.Terminal-2345.scope", "app-org.gnome.Terminal-2345.scope", "", "", "", "",
	  false, "app-org.gnome.Terminal-2345.scope" },
	{ "/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", "", "", "",
	  "", false, "getty@tty1.service" },
	{ "/system.slice/.service", "system.slice", "", "", "", "", false,
	  "system.slice/.service" },

	/* Docker, systemd and cgroupfs drivers */
	{ "/system.slice/docker-" CID ".scope", "docker-" CID ".scope", SHORT, "docker", "", "",
	  false, "docker:" SHORT },
	{ "/system.slice/docker.service", "docker.service", "", "", "", "", false,
	  "docker.service" },
	{ "/docker/" CID, "", SHORT, "docker", "", "", false, "docker:" SHORT },
	{ "/docker/" CID "/docker/" CID2, "", "0123456789ab", "docker", "", "", false,
	  "docker:0123456789ab" },
	{ "/system.slice/docker-" CID ".scope/init.scope", "init.scope", SHORT, "docker", "", "",
	  false, "docker:" SHORT "/init.scope" },

	/* containerd CRI with the systemd driver */
	{ KPB "/kubepods-burstable-pod" UID_ ".slice/cri-containerd-" CID ".scope",
	  "cri-containerd-" CID ".scope", SHORT, "containerd", UID, "burstable", false,
	  "pod 1234abcd../containerd:" SHORT },
	{ KP "/kubepods-pod" UID_ ".slice/cri-containerd-" CID ".scope",
	  "cri-containerd-" CID ".scope", SHORT, "containerd", UID, "guaranteed", false,
	  "pod 1234abcd../containerd:" SHORT },
	{ KPBE "/kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" CID ".scope",
	  "cri-containerd-" CID ".scope", SHORT, "containerd", UID, "besteffort", false,
	  "pod 1234abcd../containerd:" SHORT },
	{ KPB "/kubepods-burstable-pod" UID_ ".slice", "kubepods-burstable-pod" UID_ ".slice", "",
	  "", UID, "burstable", false, "pod 1234abcd.." },
	{ KPB "/kubepods-burstable-pod" STATIC_UID ".slice",
	  "kubepods-burstable-pod" STATIC_UID ".slice", "", "", STATIC_UID, "burstable", false,
	  "pod 0f1e2d3c.." },
	{ KPB, "kubepods-burstable.slice", "", "", "", "burstable", false,
	  "kubepods-burstable.slice" },
	{ KP, "kubepods.slice", "", "", "", "", false, "kubepods.slice" },
	/* kubelet with --cgroup-root=/kubelet (kind) */
	{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	  "kubelet-kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" CID ".scope",
	  "cri-containerd-" CID ".scope", SHORT, "containerd", UID, "besteffort", false,
	  "pod 1234abcd../containerd:" SHORT },

	/* CRI-O, with its conmon scope */
	{ KPBE "/kubepods-besteffort-pod" UID_ ".slice/crio-" CID ".scope",
	  "crio-" CID ".scope", SHORT, "cri-o", UID, "besteffort", false,
	  "pod 1234abcd../cri-o:" SHORT },
	{ KPBE "/kubepods-besteffort-pod" UID_ ".slice/crio-conmon-" CID ".scope",
	  "crio-conmon-" CID ".scope", SHORT, "cri-o", UID, "besteffort", true,
	  "pod 1234abcd../cri-o-conmon:" SHORT },
	{ "/kubepods/burstable/pod" UID "/crio-" CID, "", SHORT, "cri-o", UID, "burstable", false,
	  "pod 1234abcd../cri-o:" SHORT },

	/* kubelet's cgroupfs driver */
	{ "/kubepods/burstable/pod" UID "/" CID, "", SHORT, "", UID, "burstable", false,
	  "pod 1234abcd../" SHORT },
	{ "/kubepods/pod" UID "/" CID, "", SHORT, "", UID, "guaranteed", false,
	  "pod 1234abcd../" SHORT },
	{ "/kubepods/besteffort/pod" UID, "", "", "", UID, "besteffort", false, "pod 1234abcd.." },
	{ "/kubepods/burstable", "", "", "", "", "burstable", false, "/kubepods/burstable" },
	{ "/kubepods", "", "", "", "", "", false, "/kubepods" },
	/* a node inside a container (kind, k3d) */
	{ "/docker/" CID "/kubepods/besteffort/pod" UID, "", SHORT, "docker", UID, "besteffort",
	  false, "pod 1234abcd.." },

	/* Podman: systemd, rootless with a payload sub-cgroup, cgroupfs */
	{ "/machine.slice/libpod-" CID ".scope", "libpod-" CID ".scope", SHORT, "podman", "", "",
	  false, "podman:" SHORT },
	{ "/machine.slice/libpod-conmon-" CID ".scope", "libpod-conmon-" CID ".scope", SHORT,
	  "podman", "", "", true, "podman-conmon:" SHORT },
	{ "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" CID
	  ".scope/container", "libpod-" CID ".scope", SHORT, "podman", "", "", false,
	  "podman:" SHORT "/container" },
	{ "/libpod_parent/libpod-" CID, "", SHORT, "podman", "", "", false, "podman:" SHORT },

	/* near misses */
	{ "/system.slice/docker-" SHORT ".scope", "docker-" SHORT ".scope", "", "", "", "", false,
	  "docker-" SHORT ".scope" },
	{ "/docker/" CID_UPPER, "", "", "", "", "", false, "/docker/" CID_UPPER },
	{ "/docker/" CID "0", "", "", "", "", "", false, "/docker/" CID "0" },
	{ "/pod" UID, "", "", "", "", "", false, "/pod" UID },
	{ KPB "/kubepods-burstable-podnotauid.slice", "kubepods-burstable-podnotauid.slice", "",
	  "", "", "burstable", false, "kubepods-burstable-podnotauid.slice" },
	{ "/kubepods/burstable/pod1234abcd+5678-90ef-1234-567890abcdef", "", "", "", "",
	  "burstable", false, "/kubepods/burstable/pod1234abcd+5678-90ef-1234-567890abcdef" },
	{ "/system.slice/other-" CID ".scope", "other-" CID ".scope", "", "", "", "", false,
	  "other-" CID ".scope" },
};

TEST(cgroup_names_table)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cgroup_label l;
		char name[512];
		int n;

		memset(&l, 0x5a, sizeof(l));
		cgroup_name_recognise(cases[i].path, &l);
		if (strcmp(l.unit, cases[i].unit) || strcmp(l.container, cases[i].container) ||
		    strcmp(l.runtime, cases[i].runtime) || strcmp(l.pod_uid, cases[i].pod) ||
		    strcmp(l.qos, cases[i].qos) || l.conmon != cases[i].conmon)
			test_fail(__FILE__, __LINE__,
				  "%s: unit '%s' container '%s' runtime '%s' pod '%s' qos '%s' "
				  "conmon %d", cases[i].path, l.unit, l.container, l.runtime,
				  l.pod_uid, l.qos, l.conmon);
		n = cgroup_display_name(cases[i].path, 0, name, sizeof(name));
		if (strcmp(name, cases[i].display) || n != (int)strlen(name))
			test_fail(__FILE__, __LINE__, "%s: display '%s' (%d), want '%s'",
				  cases[i].path, name, n, cases[i].display);
	}
}

TEST(cgroup_names_null_path)
{
	struct cgroup_label l;
	char name[8];

	memset(&l, 0x5a, sizeof(l));
	cgroup_name_recognise(NULL, &l);
	CHECK_STR(l.unit, "");
	CHECK_STR(l.container, "");
	CHECK(!l.conmon);
	CHECK_INT(cgroup_display_name(NULL, 0, name, sizeof(name)), 1);
	CHECK_STR(name, "/");
}

TEST(cgroup_names_display_utf8)
{
	char name[128];

	CHECK_INT(cgroup_display_name(KPB "/kubepods-burstable-pod" UID_ ".slice/cri-containerd-"
				      CID ".scope", CGROUP_NAME_UTF8, name, sizeof(name)),
		  (int)strlen("pod 1234abcd\xe2\x80\xa6/containerd:" SHORT));
	CHECK_STR(name, "pod 1234abcd\xe2\x80\xa6/containerd:" SHORT);
	/* path bytes: printable ASCII only, unless UTF-8 is allowed and well-formed */
	cgroup_display_name("/caf\xc3\xa9/x", 0, name, sizeof(name));
	CHECK_STR(name, "/caf?" "?/x");
	cgroup_display_name("/caf\xc3\xa9/x", CGROUP_NAME_UTF8, name, sizeof(name));
	CHECK_STR(name, "/caf\xc3\xa9/x");
	cgroup_display_name("/a\x01\x1b[2Jb\x7f", CGROUP_NAME_UTF8, name, sizeof(name));
	CHECK_STR(name, "/a??[2Jb?");
	cgroup_display_name("/bad\xff\xc3", CGROUP_NAME_UTF8, name, sizeof(name));
	CHECK_STR(name, "/bad??");
	cgroup_display_name("/system.slice/nginx.service/w\xc3\xa9", 0, name, sizeof(name));
	CHECK_STR(name, "nginx.service/w??");
}

TEST(cgroup_names_display_truncates)
{
	char name[6];
	const char *path = "/system.slice/docker-" CID ".scope";

	memset(name, 'z', sizeof(name));
	CHECK_INT(cgroup_display_name(path, 0, name, sizeof(name)), 19);
	CHECK_STR(name, "docke");
	CHECK_INT(cgroup_display_name(path, 0, NULL, 0), 19);
	name[0] = 'z';
	CHECK_INT(cgroup_display_name(path, 0, name, 1), 19);
	CHECK_STR(name, "");
}
