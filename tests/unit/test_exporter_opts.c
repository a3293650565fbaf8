// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The exporter's listen addresses and its options from the command line's values. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include "exporter/opts.h"
#include "exporter/webconfig.h"
#include "test.h"

TEST(listen_addr_good)
{
	static const struct {
		const char *in, *text;
		int family;
	} cases[] = {
		{ "127.0.0.1:9717", "127.0.0.1:9717", AF_INET },
		{ "127.0.0.1", "127.0.0.1:9717", AF_INET },
		{ "0.0.0.0:80", "0.0.0.0:80", AF_INET },
		{ "10.1.2.3:65535", "10.1.2.3:65535", AF_INET },
		{ "[::1]:9717", "[::1]:9717", AF_INET6 },
		{ "[::1]", "[::1]:9717", AF_INET6 },
		{ "[::]:1", "[::]:1", AF_INET6 },
		{ "[2001:DB8:0:0::1]:9100", "[2001:db8::1]:9100", AF_INET6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct listen_addr a;
		char err[256] = "";

		CHECK_INT(listen_addr__parse(&a, cases[i].in, err, sizeof(err)), 0);
		CHECK_STR(a.text, cases[i].text);
		CHECK_INT(a.ss.ss_family, cases[i].family);
		CHECK_INT(a.len, cases[i].family == AF_INET ? sizeof(struct sockaddr_in)
							    : sizeof(struct sockaddr_in6));
	}
	{
		struct listen_addr a;
		char err[64];

		listen_addr__parse(&a, "192.168.0.7:1234", err, sizeof(err));
		CHECK_INT(ntohs(((struct sockaddr_in *)&a.ss)->sin_port), 1234);
		CHECK_U64(ntohl(((struct sockaddr_in *)&a.ss)->sin_addr.s_addr), 0xc0a80007);
	}
}

TEST(listen_addr_bad)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "", "empty listen address" },
		{ ":9717", "missing address" },
		{ "[]:9717", "missing address" },
		{ "localhost:9717", "invalid IPv4 address 'localhost'" },
		{ "127.0.0.1:0", "invalid port '0'" },
		{ "127.0.0.1:65536", "invalid port '65536'" },
		{ "127.0.0.1:", "invalid port ''" },
		{ "127.0.0.1:80x", "invalid port '80x'" },
		{ "127.0.0.1:+80", "invalid port '+80'" },
		{ "127.0.0.1: 80", "invalid port ' 80'" },
		{ "127.0.0.1:-1", "invalid port '-1'" },
		{ "127.0.0.1:99999999999999999999", "invalid port" },
		{ "::1:9717", "IPv6 addresses go in brackets" },
		{ "::1", "IPv6 addresses go in brackets" },
		{ "[::1", "no closing ']'" },
		{ "[::1]9717", "want [ADDR]:PORT" },
		{ "[127.0.0.1]:80", "invalid IPv6 address '127.0.0.1'" },
		{ "[fe80::1%eth0]:80", "zone ids are not supported" },
		{ "1.2.3.4.5:80", "invalid IPv4 address" },
		{ "256.1.1.1:80", "invalid IPv4 address" },
		{ "0x7f.0.0.1:80", "invalid IPv4 address" },
		{ "127.0.0.11111111111111111111111111111111111111111111111111111:80", "too long" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct listen_addr a;
		char err[256] = "";

		CHECK_INT(listen_addr__parse(&a, cases[i].in, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			test_fail(__FILE__, __LINE__, "'%s': error '%s' lacks '%s'", cases[i].in,
				  err, cases[i].msg);
	}
	/* a tiny error buffer is never overrun */
	{
		struct listen_addr a;
		char err[8];

		CHECK_INT(listen_addr__parse(&a, "nonsense", err, sizeof(err)), -EINVAL);
		CHECK(strlen(err) < sizeof(err));
	}
}

static int parse(struct exporter_opts *eo, const char *listen, enum group_by by, bool by_comm,
		 size_t top, char *err, size_t errlen)
{
	struct exporter_args a = { listen, NULL, by, by_comm, top, 0.5 };

	return exporter_opts__parse(eo, &a, err, errlen);
}

TEST(exporter_opts_from_command_line)
{
	struct exporter_opts eo;
	char err[256] = "";

	CHECK_INT(parse(&eo, NULL, BY_CGROUP, false, 0, err, sizeof(err)), 0);
	CHECK_STR(eo.listen.text, "127.0.0.1:9717");
	CHECK_INT(eo.prom.by, BY_CGROUP);
	CHECK_INT(eo.prom.top, 0);
	CHECK_NEAR(eo.prom.series_ttl_s, EXPORTER_DEFAULT_TTL_S, 0);
	CHECK_NEAR(eo.interval_s, 0.5, 0);

	CHECK_INT(parse(&eo, "[::1]:9999", BY_PROCESS, false, 0, err, sizeof(err)), 0);
	CHECK_STR(eo.listen.text, "[::1]:9999");
	CHECK_INT(eo.prom.by, BY_PROCESS);
	CHECK(!eo.prom.by_comm);
	CHECK_INT(eo.prom.top, EXPORTER_DEFAULT_TOP);
	CHECK_INT(parse(&eo, NULL, BY_PROCESS, false, 7, err, sizeof(err)), 0);
	CHECK_INT(eo.prom.top, 7);
	/* --by comm: process rows, one series per name, bounded like processes */
	CHECK_INT(parse(&eo, NULL, BY_PROCESS, true, 0, err, sizeof(err)), 0);
	CHECK(eo.prom.by_comm);
	CHECK_INT(eo.prom.by, BY_PROCESS);
	CHECK_INT(eo.prom.top, EXPORTER_DEFAULT_TOP);

	{
		char url[128];

		exporter_opts__describe(&eo, url, sizeof(url));
		CHECK_STR(url, "http://127.0.0.1:9717/metrics");
	}

	CHECK_INT(parse(&eo, "localhost:80", BY_PROCESS, false, 7, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "invalid IPv4 address 'localhost'"));
	CHECK_INT(parse(&eo, NULL, BY_THREAD, false, 0, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "no per-thread series"));
	CHECK_INT(parse(&eo, NULL, BY_PROCESS, false, PROM_MAX_SERIES + 1, err, sizeof(err)),
		  -EINVAL);
	CHECK(strstr(err, "invalid --top"));

	/* a web configuration is read and checked with the rest, and freed */
	{
		struct exporter_args a = { NULL, "/nonexistent/web.yml", BY_CGROUP, false, 0, 1 };

		CHECK_INT(exporter_opts__parse(&eo, &a, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "cannot read web config /nonexistent/web.yml"));
		a.web_config = "/dev/null";
		CHECK_INT(exporter_opts__parse(&eo, &a, err, sizeof(err)), 0);
		CHECK(eo.web && !eo.web->tls && !eo.web->nr_users);
		exporter_opts__free(&eo);
		CHECK(!eo.web);
		exporter_opts__free(&eo);
	}
}
