// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The service manager's notification protocol, written out rather than
 * linked from libsystemd: it is one datagram, and the static build and the
 * container image then need no libsystemd.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/errmsg.h"
#include "util/sdnotify.h"

int sd_notify_addr(const char *name, struct sockaddr_un *addr, socklen_t *len)
{
	size_t n = name ? strlen(name) : 0;

	if (n < 2 || (name[0] != '/' && name[0] != '@') || n >= sizeof(addr->sun_path))
		return -EINVAL;
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	memcpy(addr->sun_path, name, n);
	/* an abstract name: a leading NUL, and no terminating one counted */
	if (name[0] == '@') {
		addr->sun_path[0] = '\0';
		*len = offsetof(struct sockaddr_un, sun_path) + n;
	} else {
		*len = offsetof(struct sockaddr_un, sun_path) + n + 1;
	}
	return 0;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

uint64_t sd_watchdog_us(const char *usec, const char *pid, pid_t self)
{
	unsigned long long us, p;

	if (parse_u64(usec, &us) || !us)
		return 0;
	if (pid && (parse_u64(pid, &p) || p != (unsigned long long)self))
		return 0;
	return us;
}

int sd_notify__open(struct sd_notify *n, char *err, size_t errlen)
{
	const char *name = getenv("NOTIFY_SOCKET");

	*n = (struct sd_notify){ .fd = -1 };
	if (!name)
		return 0;
	if (sd_notify_addr(name, &n->addr, &n->addr_len))
		return errmsg(err, errlen, -EINVAL, "NOTIFY_SOCKET=%s is not a socket address",
			      name);
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (n->fd < 0)
		return errmsg(err, errlen, -errno, "failed to create the notification socket: %s",
			      strerror(errno));
	n->watchdog_us = sd_watchdog_us(getenv("WATCHDOG_USEC"), getenv("WATCHDOG_PID"),
					getpid());
	return 0;
}

int sd_notify__send(const struct sd_notify *n, const char *msg)
{
	if (n->fd < 0)
		return 0;
	if (sendto(n->fd, msg, strlen(msg), MSG_NOSIGNAL, (const struct sockaddr *)&n->addr,
		   n->addr_len) < 0)
		return -errno;
	return 0;
}

void sd_notify__close(struct sd_notify *n)
{
	if (n->fd >= 0)
		close(n->fd);
	n->fd = -1;
}
