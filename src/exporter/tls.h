/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * TLS for the exporter's server (GnuTLS): a certificate and key loaded
 * once, and a non-blocking session per connection.
 */
#ifndef __TDTOP_TLS_H
#define __TDTOP_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tls_server;
struct tls_conn;

/*
 * Credentials from PEM text: the certificate (chain) and its private key,
 * checked to belong together. NULL with a one-line message in *err*.
 * TLS 1.2 and 1.3 only, as the exporters' shared web configuration does.
 */
struct tls_server *tls_server__new(const char *cert_pem, size_t cert_len, const char *key_pem,
				   size_t key_len, char *err, size_t errlen);

/* Accepts NULL. */
void tls_server__free(struct tls_server *t);

/* A server session on the connected, non-blocking *fd*; NULL on ENOMEM. */
struct tls_conn *tls_conn__new(const struct tls_server *t, int fd);

/*
 * Each returns -EAGAIN until the socket is ready the way
 * tls_conn__wants_write() says, or -EPROTO when the session failed (the
 * connection is to be closed). recv() returns 0 at the peer's close.
 */
int tls_conn__handshake(struct tls_conn *c);
ssize_t tls_conn__recv(struct tls_conn *c, void *buf, size_t len);
/* After -EAGAIN, call again with the same buffer. */
ssize_t tls_conn__send(struct tls_conn *c, const void *buf, size_t len);

bool tls_conn__wants_write(const struct tls_conn *c);
/* Bytes decrypted and not yet taken by recv(): no socket event will tell. */
size_t tls_conn__pending(const struct tls_conn *c);

/* Say goodbye (without waiting) and free; the socket stays open. Accepts NULL. */
void tls_conn__free(struct tls_conn *c);

#endif /* __TDTOP_TLS_H */
