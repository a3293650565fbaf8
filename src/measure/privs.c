// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Capabilities: whether this process may load and count, and dropping all
 * but the few the live loop still needs once everything is open.
 */
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include "util/macros.h"
#include "measure/privs.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int caps_get(struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3])
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &hdr, d) ? -errno : 0;
}

static bool has(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

bool privs_enough(void)
{
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {};

	if (caps_get(d))
		return geteuid() == 0;
	return has(d, CAP_SYS_ADMIN) || (has(d, CAP_BPF) && has(d, CAP_PERFMON));
}

int privs_drop(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {};
	static const int keep[] = { CAP_PERFMON, CAP_SYS_ADMIN };
	__u32 mask[_LINUX_CAPABILITY_U32S_3] = {};
	int ret = caps_get(d);

	if (ret)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
		mask[keep[i] / 32] |= 1u << (keep[i] % 32);
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		d[i].effective &= mask[i];
		d[i].permitted &= mask[i];
		d[i].inheritable = 0;
	}
	if (syscall(SYS_capset, &hdr, d))
		return -errno;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ? -errno : 0;
}
