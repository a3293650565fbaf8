// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * TLS for the exporter's server through GnuTLS: the credentials, checked
 * when loaded so that a bad certificate is a configuration error, and the
 * non-blocking sessions the server's event loop drives.
 */
#include <errno.h>
#include <stdlib.h>
#include <gnutls/gnutls.h>
#include "util/errmsg.h"
#include "exporter/tls.h"

/* The exporter-toolkit's default minimum, TLS 1.2, and no older one. */
#define TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

struct tls_server {
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t prio;
};

struct tls_conn {
	gnutls_session_t s;
};

struct tls_server *tls_server__new(const char *cert_pem, size_t cert_len, const char *key_pem,
				   size_t key_len, char *err, size_t errlen)
{
	gnutls_datum_t cert = { (unsigned char *)cert_pem, (unsigned int)cert_len };
	gnutls_datum_t key = { (unsigned char *)key_pem, (unsigned int)key_len };
	struct tls_server *t = calloc(1, sizeof(*t));
	int ret;

	if (!t || gnutls_certificate_allocate_credentials(&t->cred)) {
		errmsg(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	/* also checks that the key is the certificate's */
	ret = gnutls_certificate_set_x509_key_mem2(t->cred, &cert, &key, GNUTLS_X509_FMT_PEM,
						   NULL, 0);
	if (ret < 0) {
		errmsg(err, errlen, -EINVAL, "the certificate and key do not load: %s",
		       gnutls_strerror(ret));
		goto fail;
	}
	ret = gnutls_priority_init(&t->prio, TLS_PRIORITIES, NULL);
	if (ret < 0) {
		errmsg(err, errlen, -EINVAL, "TLS priorities: %s", gnutls_strerror(ret));
		goto fail;
	}
	return t;
fail:
	tls_server__free(t);
	return NULL;
}

void tls_server__free(struct tls_server *t)
{
	if (!t)
		return;
	if (t->prio)
		gnutls_priority_deinit(t->prio);
	if (t->cred)
		gnutls_certificate_free_credentials(t->cred);
	free(t);
}

struct tls_conn *tls_conn__new(const struct tls_server *t, int fd)
{
	struct tls_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (gnutls_init(&c->s, GNUTLS_SERVER | GNUTLS_NONBLOCK | GNUTLS_NO_SIGNAL)) {
		free(c);
		return NULL;
	}
	if (gnutls_priority_set(c->s, t->prio) ||
	    gnutls_credentials_set(c->s, GNUTLS_CRD_CERTIFICATE, t->cred)) {
		gnutls_deinit(c->s);
		free(c);
		return NULL;
	}
	gnutls_certificate_server_set_request(c->s, GNUTLS_CERT_IGNORE);
	gnutls_transport_set_int(c->s, fd);
	return c;
}

/* GnuTLS's result as the server wants it: done, -EAGAIN or -EPROTO. */
static ssize_t result(ssize_t ret)
{
	if (ret >= 0)
		return ret;
	if (ret == GNUTLS_E_AGAIN || ret == GNUTLS_E_INTERRUPTED)
		return -EAGAIN;
	/* alerts, renegotiation, a close without close_notify: the end of it */
	return -EPROTO;
}

int tls_conn__handshake(struct tls_conn *c)
{
	return (int)result(gnutls_handshake(c->s));
}

ssize_t tls_conn__recv(struct tls_conn *c, void *buf, size_t len)
{
	return result(gnutls_record_recv(c->s, buf, len));
}

ssize_t tls_conn__send(struct tls_conn *c, const void *buf, size_t len)
{
	return result(gnutls_record_send(c->s, buf, len));
}

bool tls_conn__wants_write(const struct tls_conn *c)
{
	return gnutls_record_get_direction(c->s) == 1;
}

size_t tls_conn__pending(const struct tls_conn *c)
{
	return gnutls_record_check_pending(c->s);
}

void tls_conn__free(struct tls_conn *c)
{
	if (!c)
		return;
	gnutls_bye(c->s, GNUTLS_SHUT_WR);
	gnutls_deinit(c->s);
	free(c);
}
