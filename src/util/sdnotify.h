/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The service manager's notification protocol (sd_notify(3)): one datagram
 * of "KEY=VALUE" lines to the unix socket named by $NOTIFY_SOCKET, and the
 * watchdog that $WATCHDOG_USEC asks for. Without $NOTIFY_SOCKET every call
 * is a no-op, so a service not started by systemd behaves as before.
 */
#ifndef __TDTOP_UTIL_SDNOTIFY_H
#define __TDTOP_UTIL_SDNOTIFY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

struct sd_notify {
	int fd;			/* -1: no service manager to tell */
	struct sockaddr_un addr;
	socklen_t addr_len;
	uint64_t watchdog_us;	/* 0: no watchdog asked for */
};

/*
 * $NOTIFY_SOCKET's value as an address: a path, or an abstract name when it
 * starts with '@'. -EINVAL for an empty, relative or too long name.
 */
int sd_notify_addr(const char *name, struct sockaddr_un *addr, socklen_t *len);

/*
 * The watchdog period $WATCHDOG_USEC asks of process *self*, in
 * microseconds: 0 when unset, not a positive number, or meant for another
 * process ($WATCHDOG_PID).
 */
uint64_t sd_watchdog_us(const char *usec, const char *pid, pid_t self);

/*
 * Read the environment and open the socket; n->fd is -1 when there is no
 * $NOTIFY_SOCKET. Returns 0, or -errno with a message in *err*.
 */
int sd_notify__open(struct sd_notify *n, char *err, size_t errlen);

/* Send one message ("READY=1", ...). 0 or -errno; 0 when there is no socket. */
int sd_notify__send(const struct sd_notify *n, const char *msg);

void sd_notify__close(struct sd_notify *n);

#endif /* __TDTOP_UTIL_SDNOTIFY_H */
