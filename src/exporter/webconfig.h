/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --web-config FILE: the web configuration Prometheus exporters share
 * (exporter-toolkit's YAML), of which tdtop takes TLS with a certificate
 * and key, and basic authentication with bcrypt hashes.
 */
#ifndef __TDTOP_WEBCONFIG_H
#define __TDTOP_WEBCONFIG_H

#include <stddef.h>

struct tls_server;

struct web_user {
	char *name;
	char *hash;		/* bcrypt: $2a$, $2b$ or $2y$ */
};

struct web_config {
	struct tls_server *tls;	/* NULL: plain HTTP */
	struct web_user *users;	/* basic_auth_users; none: no authentication */
	size_t nr_users;
};

/* The largest web configuration read, and the largest certificate or key file. */
#define WEB_CONFIG_MAX (64 * 1024)
#define WEB_PEM_MAX (1024 * 1024)

/*
 *   tls_server_config:
 *     cert_file: PATH	(relative to the file's directory)
 *     key_file: PATH
 *   basic_auth_users:
 *     NAME: BCRYPT-HASH
 *
 * Keys of exporter-toolkit that tdtop does not implement, unknown keys,
 * repeated keys, unreadable files, a certificate that does not go with
 * its key and hashes that are not bcrypt are errors: NULL, with a one-line
 * message in *err*. An empty file is a configuration without either.
 */
struct web_config *web_config__load(const char *path, char *err, size_t errlen);

/* Accepts NULL. */
void web_config__free(struct web_config *w);

#endif /* __TDTOP_WEBCONFIG_H */
