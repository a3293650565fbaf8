// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Why the TopDown events that discovery built could not be opened, said
 * for the machine it found: a VM that lists PERF_METRICS events without
 * virtualising them, counters held by the NMI watchdog, missing privileges.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "pmu/discover.h"

const char *td_discovery__open_failure_reason(const struct td_discovery *d, int errnum,
					      char *buf, size_t len)
{
	enum td_method m = d && d->cfg.nr_parts ? d->cfg.parts[0].method : TD_METHOD_NONE;
	bool vm = d && d->cpu.hypervisor;
	const char *name = td_method_name(m);
	const char *err = strerror(errnum);

	switch (errnum) {
	case EINVAL:
	case EOPNOTSUPP:
	case ENOENT:
		if (m == TD_PERF_METRICS && vm)
			snprintf(buf, len, "this VM lists slots and topdown-* events but the "
				 "kernel refused them (%s): the vPMU does not virtualise "
				 "PERF_METRICS", err);
		else if (m == TD_PERF_METRICS)
			snprintf(buf, len, "the kernel refused the slots/topdown-* group (%s): "
				 "PERF_METRICS is not enumerated on this CPU", err);
		else if (m == TD_ARM && vm)
			snprintf(buf, len, "the kernel refused the STALL_SLOT events (%s): KVM "
				 "hides them from guests", err);
		else
			snprintf(buf, len, "the kernel refused the %s TopDown events (%s)%s", name,
				 err, vm ? ": the vPMU of this VM does not provide them" : "");
		break;
	case EBUSY:
	case ENOSPC:
		snprintf(buf, len, "the %s TopDown group cannot get its counters (%s): another "
			 "user holds them, e.g. the NMI watchdog (sysctl kernel.nmi_watchdog=0) "
			 "or a pinned perf session", name, err);
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, len, "not allowed to open CPU-wide counters (%s): needs root or "
			 "CAP_PERFMON, or kernel.perf_event_paranoid <= 0", err);
		break;
	case ENODEV:
		snprintf(buf, len, "the PMU of the %s TopDown events is gone (%s)", name, err);
		break;
	default:
		snprintf(buf, len, "opening the %s TopDown events failed: %s", name, err);
		break;
	}
	return buf;
}
