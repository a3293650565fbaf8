// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one thing the interactive view does to other processes: F9's
 * signal, through a pidfd so that it reaches the process that was on
 * screen, checked by name, or nothing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rows/model.h"
#include "util/errmsg.h"
#include "util/fileio.h"
#include "util/format.h"
#include "tui/kill.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

/* As the row shows a name: printable ASCII, no trailing blanks. */
static void comm_text(char *buf, size_t size, const char *comm)
{
	size_t len;

	fmt_comm_ascii(buf, size, comm, TASK_COMM_LEN);
	len = strlen(buf);
	while (len && buf[len - 1] == ' ')
		buf[--len] = '\0';
}

static int send_signal(int fd, int pid, int sig)
{
	/* a kernel older than 5.3 has no pidfd: the name check is all there is */
	if (fd < 0)
		return kill(pid, sig);
	return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
}

int tui_kill(int pid, int tid, const char *comm, int sig, char *err, size_t errlen)
{
	char path[64], now[TASK_COMM_LEN * 2], was[TASK_COMM_LEN], raw[TASK_COMM_LEN * 2];
	int fd, ret = 0;
	ssize_t n;

	if (pid <= 1 || pid == getpid())
		return errmsg(err, errlen, -EPERM, "PID %d is not signalled from here", pid);
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0 && errno != ENOSYS)
		return errmsg(err, errlen, -errno, "PID %d: %s", pid,
			      errno == ESRCH ? "it has exited" : strerror(errno));
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	n = read_small_file(path, raw, sizeof(raw));
	if (n < 0) {
		ret = errmsg(err, errlen, (int)n, "PID %d has exited: nothing sent", pid);
		goto out;
	}
	comm_text(now, sizeof(now), raw);
	comm_text(was, sizeof(was), comm);
	if (strcmp(now, was)) {
		ret = errmsg(err, errlen, -ESRCH, "PID %d is '%s' now, not '%s': nothing sent", pid,
			     now, was);
		goto out;
	}
	if (send_signal(fd, pid, sig))
		ret = errmsg(err, errlen, -errno, "signal %d to PID %d: %s", sig, pid,
			     strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	return ret;
}
