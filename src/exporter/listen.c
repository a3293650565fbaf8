// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's options: the --listen address parsed into a socket
 * address, and the settings taken from the command line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "exporter/listen.h"

static int parse_port(const char *s, int *port)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -1;
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

		if (!close) {
			snprintf(err, errlen, "invalid listen address '%.80s': no closing ']'", s);
			return -1;
		}
		h = s + 1;
		hlen = (size_t)(close - h);
		if (close[1] == ':') {
			*port_s = close + 2;
		} else if (close[1]) {
			snprintf(err, errlen, "invalid listen address '%.80s': want [ADDR]:PORT",
				 s);
			return -1;
		}
	} else {
		colon = strchr(s, ':');
		if (colon && strchr(colon + 1, ':')) {
			snprintf(err, errlen,
				 "invalid listen address '%.80s': IPv6 addresses go in brackets, "
				 "e.g. [::1]:%d", s, EXPORTER_DEFAULT_PORT);
			return -1;
		}
		hlen = colon ? (size_t)(colon - s) : strlen(s);
		*port_s = colon ? colon + 1 : NULL;
	}
	if (!hlen) {
		/* no "all addresses" by omission: exposing the host is a decision */
		snprintf(err, errlen,
			 "missing address in listen address '%.80s': give one, e.g. 127.0.0.1, "
			 "0.0.0.0 or [::]", s);
		return -1;
	}
	if (hlen >= size) {
		snprintf(err, errlen, "invalid listen address: '%.80s' is too long", s);
		return -1;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	return 0;
}

/* The socket address and its canonical text from a numeric *host*. */
static int fill_addr(const char *host, bool v6, int port, struct listen_addr *out, char *err,
		     size_t errlen)
{
	char canon[INET6_ADDRSTRLEN];
	int fam = v6 ? AF_INET6 : AF_INET;
	void *addr;

	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&out->ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((unsigned short)port);
		addr = &a->sin6_addr;
		out->len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&out->ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((unsigned short)port);
		addr = &a->sin_addr;
		out->len = sizeof(*a);
	}
	if (inet_pton(fam, host, addr) != 1) {
		if (v6)
			snprintf(err, errlen, "invalid IPv6 address '%s' in listen address%s", host,
				 strchr(host, '%') ? " (zone ids are not supported)" : "");
		else
			snprintf(err, errlen, "invalid IPv4 address '%s' in listen address "
				 "(numeric only; IPv6 in brackets)", host);
		return -1;
	}
	inet_ntop(fam, addr, canon, sizeof(canon));
	snprintf(out->text, sizeof(out->text), v6 ? "[%s]:%d" : "%s:%d", canon, port);
	return 0;
}

int listen_addr_parse(const char *s, struct listen_addr *out, char *err, size_t errlen)
{
	char host[INET6_ADDRSTRLEN + 1];
	int port = EXPORTER_DEFAULT_PORT;
	const char *port_s;
	bool v6;

	memset(out, 0, sizeof(*out));
	if (!*s) {
		snprintf(err, errlen, "empty listen address (want ADDR:PORT, e.g. 127.0.0.1:%d)",
			 EXPORTER_DEFAULT_PORT);
		return -1;
	}
	if (split_listen(s, host, sizeof(host), &port_s, &v6, err, errlen))
		return -1;
	if (port_s && parse_port(port_s, &port)) {
		snprintf(err, errlen, "invalid port '%.40s' in listen address (want 1..65535)",
			 port_s);
		return -1;
	}
	if (fill_addr(host, v6, port, out, err, errlen)) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	return 0;
}

void exporter_opts_init(struct exporter_opts *o)
{
	char err[8];

	memset(o, 0, sizeof(*o));
	listen_addr_parse(EXPORTER_DEFAULT_ADDR, &o->listen, err, sizeof(err));
	o->prom.by = BY_CGROUP;
	o->prom.series_ttl_s = EXPORTER_DEFAULT_TTL_S;
	o->prom.method = "none";
	o->interval_s = 1.0;
}

int exporter_opts_from_options(const struct options *o, struct exporter_opts *eo, char *err,
				size_t errlen)
{
	exporter_opts_init(eo);
	if (o->listen && listen_addr_parse(o->listen, &eo->listen, err, errlen))
		return -1;
	if (o->by != BY_CGROUP && o->by != BY_PROCESS) {
		snprintf(err, errlen, "the exporter has no per-thread series: use --by cgroup or "
			 "--by process");
		return -1;
	}
	eo->prom.by = o->by;
	if (o->top > PROM_MAX_SERIES) {
		snprintf(err, errlen, "invalid --top '%zu' for the exporter (want 1..%d)", o->top,
			 PROM_MAX_SERIES);
		return -1;
	}
	eo->prom.top = o->top ? o->top : o->by == BY_PROCESS ? EXPORTER_DEFAULT_TOP : 0;
	eo->interval_s = o->delay_s;
	return 0;
}
