// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's options: the --listen address parsed into a socket
 * address, and the settings taken from the command line's values.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/errmsg.h"
#include "exporter/opts.h"
#include "exporter/webconfig.h"

static int parse_port(const char *s, int *port)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -EINVAL;
	*port = (int)v;
	return 0;
}

/*
 * Split "HOST:PORT", "[HOST]:PORT", "HOST" or "[HOST]" into *host* and the
 * port text (NULL when absent); *v6* for the bracketed form.
 */
static int split_listen(const char *s, char *host, size_t size, const char **port_s, bool *v6,
			char *err, size_t errlen)
{
	const char *h = s, *colon;
	size_t hlen;

	*port_s = NULL;
	*v6 = *s == '[';
	if (*v6) {
		const char *close = strchr(s, ']');

		if (!close)
			return errmsg(err, errlen, -EINVAL,
				      "invalid listen address '%.80s': no closing ']'", s);
		h = s + 1;
		hlen = (size_t)(close - h);
		if (close[1] == ':')
			*port_s = close + 2;
		else if (close[1])
			return errmsg(err, errlen, -EINVAL,
				      "invalid listen address '%.80s': want [ADDR]:PORT", s);
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':'))
			return errmsg(err, errlen, -EINVAL,
				      "invalid listen address '%.80s': IPv6 addresses go in "
				      "brackets, e.g. [::1]:%d", s, EXPORTER_DEFAULT_PORT);
		hlen = colon ? (size_t)(colon - s) : strlen(s);
		*port_s = colon ? colon + 1 : NULL;
	}
	/* no "all addresses" by omission: exposing the host is a decision */
	if (!hlen)
		return errmsg(err, errlen, -EINVAL,
			      "missing address in listen address '%.80s': give one, e.g. "
			      "127.0.0.1, 0.0.0.0 or [::]", s);
	if (hlen >= size)
		return errmsg(err, errlen, -EINVAL, "invalid listen address: '%.80s' is too long",
			      s);
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	return 0;
}

/* The socket address and its canonical text from a numeric *host*. */
static int fill_addr(struct listen_addr *a, const char *host, bool v6, int port, char *err,
		     size_t errlen)
{
	char canon[INET6_ADDRSTRLEN];
	int fam = v6 ? AF_INET6 : AF_INET;
	void *addr;

	if (v6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((unsigned short)port);
		addr = &in6->sin6_addr;
		a->len = sizeof(*in6);
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&a->ss;

		in->sin_family = AF_INET;
		in->sin_port = htons((unsigned short)port);
		addr = &in->sin_addr;
		a->len = sizeof(*in);
	}
	if (inet_pton(fam, host, addr) != 1) {
		if (v6)
			return errmsg(err, errlen, -EINVAL,
				      "invalid IPv6 address '%s' in listen address%s", host,
				      strchr(host, '%') ? " (zone ids are not supported)" : "");
		return errmsg(err, errlen, -EINVAL, "invalid IPv4 address '%s' in listen address "
			      "(numeric only; IPv6 in brackets)", host);
	}
	inet_ntop(fam, addr, canon, sizeof(canon));
	snprintf(a->text, sizeof(a->text), v6 ? "[%s]:%d" : "%s:%d", canon, port);
	return 0;
}

int listen_addr__parse(struct listen_addr *a, const char *s, char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + 1];
	int port = EXPORTER_DEFAULT_PORT;
	const char *port_s;
	bool v6;
	int ret;

	memset(a, 0, sizeof(*a));
	if (!*s)
		return errmsg(err, errlen, -EINVAL,
			      "empty listen address (want ADDR:PORT, e.g. 127.0.0.1:%d)",
			      EXPORTER_DEFAULT_PORT);
	ret = split_listen(s, host, sizeof(host), &port_s, &v6, err, errlen);
	if (ret)
		return ret;
	if (port_s && parse_port(port_s, &port))
		return errmsg(err, errlen, -EINVAL,
			      "invalid port '%.40s' in listen address (want 1..65535)", port_s);
	ret = fill_addr(a, host, v6, port, err, errlen);
	if (ret)
		memset(a, 0, sizeof(*a));
	return ret;
}

void exporter_opts__init(struct exporter_opts *o)
{
	memset(o, 0, sizeof(*o));
	listen_addr__parse(&o->listen, EXPORTER_DEFAULT_ADDR, NULL, 0);
	o->prom.by = BY_CGROUP;
	o->prom.series_ttl_s = EXPORTER_DEFAULT_TTL_S;
	o->prom.method = "none";
	o->interval_s = 1.0;
}

int exporter_opts__parse(struct exporter_opts *o, const struct exporter_args *a, char *err,
			 size_t errlen)
{
	int ret;

	exporter_opts__init(o);
	if (a->listen) {
		ret = listen_addr__parse(&o->listen, a->listen, err, errlen);
		if (ret)
			return ret;
	}
	if (a->by != BY_CGROUP && a->by != BY_PROCESS)
		return errmsg(err, errlen, -EINVAL, "the exporter has no per-thread series: use "
			      "--by cgroup, --by process or --by comm");
	o->prom.by = a->by;
	o->prom.by_comm = a->by == BY_PROCESS && a->by_comm;
	if (a->top > PROM_MAX_SERIES)
		return errmsg(err, errlen, -EINVAL,
			      "invalid --top '%zu' for the exporter (want 1..%d)", a->top,
			      PROM_MAX_SERIES);
	o->prom.top = a->top ? a->top : a->by == BY_PROCESS ? EXPORTER_DEFAULT_TOP : 0;
	o->interval_s = a->interval_s;
	if (a->web_config) {
		o->web = web_config__load(a->web_config, err, errlen);
		if (!o->web)
			return -EINVAL;
	}
	return 0;
}

void exporter_opts__describe(const struct exporter_opts *o, char *buf, size_t size)
{
	snprintf(buf, size, "http%s://%s/metrics%s", o->web && o->web->tls ? "s" : "",
		 o->listen.text, o->web && o->web->nr_users ? " (basic authentication)" : "");
}

void exporter_opts__free(struct exporter_opts *o)
{
	web_config__free(o->web);
	o->web = NULL;
}
