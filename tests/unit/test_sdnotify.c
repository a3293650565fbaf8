// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests of the service manager's notification protocol (util/sdnotify). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include "test.h"
#include "util/sdnotify.h"

TEST(sd_notify_addr_takes_paths_and_abstract_names)
{
	struct sockaddr_un a;
	socklen_t len;

	CHECK_INT(sd_notify_addr("/run/systemd/notify", &a, &len), 0);
	CHECK_INT(a.sun_family, AF_UNIX);
	CHECK_STR(a.sun_path, "/run/systemd/notify");
	CHECK_INT(len, offsetof(struct sockaddr_un, sun_path) + sizeof("/run/systemd/notify"));

	CHECK_INT(sd_notify_addr("@tdtop/notify", &a, &len), 0);
	CHECK_INT(a.sun_path[0], 0);
	CHECK(!memcmp(a.sun_path + 1, "tdtop/notify", 12));
	/* no terminating NUL in an abstract name's length */
	CHECK_INT(len, offsetof(struct sockaddr_un, sun_path) + 13);
}

TEST(sd_notify_addr_refuses_bad_names)
{
	char longname[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	struct sockaddr_un a;
	socklen_t len;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	CHECK_INT(sd_notify_addr(NULL, &a, &len), -EINVAL);
	CHECK_INT(sd_notify_addr("", &a, &len), -EINVAL);
	CHECK_INT(sd_notify_addr("@", &a, &len), -EINVAL);
	CHECK_INT(sd_notify_addr("run/notify", &a, &len), -EINVAL);
	CHECK_INT(sd_notify_addr(longname, &a, &len), -EINVAL);
	longname[sizeof(longname) - 2] = '\0';
	CHECK_INT(sd_notify_addr(longname, &a, &len), 0);
}

TEST(sd_watchdog_us_is_for_this_process_only)
{
	CHECK_U64(sd_watchdog_us("30000000", NULL, 42), 30000000);
	CHECK_U64(sd_watchdog_us("30000000", "42", 42), 30000000);
	CHECK_U64(sd_watchdog_us("30000000", "43", 42), 0);
	CHECK_U64(sd_watchdog_us("30000000", "x", 42), 0);
	CHECK_U64(sd_watchdog_us(NULL, NULL, 42), 0);
	CHECK_U64(sd_watchdog_us("0", NULL, 42), 0);
	CHECK_U64(sd_watchdog_us("-5", NULL, 42), 0);
	CHECK_U64(sd_watchdog_us("5s", NULL, 42), 0);
	CHECK_U64(sd_watchdog_us("", NULL, 42), 0);
}

static int bind_dgram(const char *name, struct sockaddr_un *a)
{
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || sd_notify_addr(name, a, &len) || bind(fd, (struct sockaddr *)a, len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void check_sends_to(const char *name)
{
	char err[256] = "", buf[64];
	struct sockaddr_un a;
	struct sd_notify n;
	int fd = bind_dgram(name, &a);
	ssize_t len;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	setenv("NOTIFY_SOCKET", name, 1);
	setenv("WATCHDOG_USEC", "2000000", 1);
	unsetenv("WATCHDOG_PID");
	CHECK_INT(sd_notify__open(&n, err, sizeof(err)), 0);
	CHECK_U64(n.watchdog_us, 2000000);
	CHECK_INT(sd_notify__send(&n, "READY=1\nWATCHDOG=1"), 0);
	len = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	CHECK_INT(len, 18);
	buf[len < 0 ? 0 : len] = '\0';
	CHECK_STR(buf, "READY=1\nWATCHDOG=1");
	sd_notify__close(&n);
	CHECK_INT(n.fd, -1);
	close(fd);
}

TEST(sd_notify_sends_one_datagram_to_a_path_and_an_abstract_name)
{
	char dir[] = "/tmp/tdtop-sdnotify-XXXXXX", path[64], abstract[64];

	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/notify", dir);
	check_sends_to(path);
	unlink(path);
	rmdir(dir);
	snprintf(abstract, sizeof(abstract), "@tdtop-unit-%d", (int)getpid());
	check_sends_to(abstract);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
}

TEST(sd_notify_is_a_no_op_without_a_socket)
{
	char err[256] = "";
	struct sd_notify n;

	unsetenv("NOTIFY_SOCKET");
	CHECK_INT(sd_notify__open(&n, err, sizeof(err)), 0);
	CHECK_INT(n.fd, -1);
	CHECK_INT(sd_notify__send(&n, "READY=1"), 0);
	sd_notify__close(&n);

	setenv("NOTIFY_SOCKET", "relative", 1);
	CHECK_INT(sd_notify__open(&n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "NOTIFY_SOCKET=relative"));
	unsetenv("NOTIFY_SOCKET");
}
