// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The web configuration file (exporter-toolkit's format) read with
 * libyaml into a tree, then walked strictly: every key known, none
 * repeated, every file and hash checked, so that a mistake stops the
 * exporter at start instead of serving without the protection asked for.
 */
#include <crypt.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util/errmsg.h"
#include "util/fileio.h"
#include "exporter/tls.h"
#include "exporter/webconfig.h"

struct loader {
	const char *path;
	yaml_document_t doc;
	char *err;
	size_t errlen;
	const char *cert_file, *key_file;	/* in doc */
	struct web_config *w;
};

/* "FILE: line N: message", -EINVAL. */
__attribute__((format(printf, 3, 4)))
static int fail(struct loader *l, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n)
		return errmsg(l->err, l->errlen, -EINVAL, "web config %s: line %zu: %s", l->path,
			      n->start_mark.line + 1, msg);
	return errmsg(l->err, l->errlen, -EINVAL, "web config %s: %s", l->path, msg);
}

/* A scalar's text; "" for YAML's null. NULL for a mapping or sequence. */
static const char *scalar(const yaml_node_t *n)
{
	const char *v;

	if (n->type != YAML_SCALAR_NODE)
		return NULL;
	v = (const char *)n->data.scalar.value;
	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (!strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL")))
		return "";
	return v;
}

typedef int (*pair_fn)(struct loader *l, const char *key, const yaml_node_t *k,
		       const yaml_node_t *v);

/* Each pair of a mapping given to *fn*; keys must be scalars, and differ. */
static int each_pair(struct loader *l, const yaml_node_t *map, const char *what, pair_fn fn)
{
	yaml_node_pair_t *start, *end;

	/* "key:" with nothing after it is a null, as good as an empty mapping */
	if (map->type == YAML_SCALAR_NODE && !*scalar(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return fail(l, map, "%s must be a mapping", what);
	start = map->data.mapping.pairs.start;
	end = map->data.mapping.pairs.top;
	for (yaml_node_pair_t *p = start; p < end; p++) {
		const yaml_node_t *k = yaml_document_get_node(&l->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);
		const char *key = k ? scalar(k) : NULL;
		int ret;

		if (!key || !v)
			return fail(l, k, "the keys of %s must be strings", what);
		for (yaml_node_pair_t *q = start; q < p; q++) {
			const yaml_node_t *qk = yaml_document_get_node(&l->doc, q->key);

			if (!strcmp(scalar(qk), key))
				return fail(l, k, "'%s' given twice in %s", key, what);
		}
		ret = fn(l, key, k, v);
		if (ret)
			return ret;
	}
	return 0;
}

/* exporter-toolkit keys tdtop does not implement: refused, not ignored */
static bool toolkit_key(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (!strcmp(key, *keys))
			return true;
	return false;
}

static int tls_pair(struct loader *l, const char *key, const yaml_node_t *k,
		    const yaml_node_t *v)
{
	static const char *const unsupported[] = {
		"cert", "key", "client_auth_type", "client_ca_file", "client_allowed_sans",
		"cipher_suites", "curve_preferences", "min_version", "max_version",
		"prefer_server_cipher_order", NULL,
	};
	const char **slot = !strcmp(key, "cert_file") ? &l->cert_file :
			    !strcmp(key, "key_file") ? &l->key_file : NULL;

	if (!slot && toolkit_key(key, unsupported))
		return fail(l, k, "tls_server_config: '%s' is not supported by tdtop (only "
			    "cert_file and key_file)", key);
	if (!slot)
		return fail(l, k, "tls_server_config: unknown key '%s'", key);
	*slot = scalar(v);
	if (!*slot)
		return fail(l, v, "tls_server_config: %s must be a path", key);
	return 0;
}

/*
 * Is *hash* a bcrypt hash ("$2b$" cost "$" salt and checksum in 53
 * characters) libcrypt takes? Its salt is tried at the lowest cost, so
 * that checking a costly hash does not take long.
 */
static bool is_bcrypt(const char *hash)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	struct crypt_data *cd;
	char setting[30];
	bool ok;

	if (strlen(hash) != 60 || hash[0] != '$' || hash[1] != '2' || !strchr("aby", hash[2]) ||
	    hash[3] != '$' || hash[4] < '0' || hash[4] > '3' || hash[5] < '0' || hash[5] > '9' ||
	    hash[6] != '$' || strspn(hash + 7, b64) != 53)
		return false;
	snprintf(setting, sizeof(setting), "%.4s04$%.22s", hash, hash + 7);
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	/* a setting it refuses gives NULL or a string starting with '*' */
	ok = crypt_rn("", setting, cd, sizeof(*cd)) && cd->output[0] == '$';
	free(cd);
	return ok && (hash[4] - '0') * 10 + hash[5] - '0' >= 4;
}

static int user_pair(struct loader *l, const char *key, const yaml_node_t *k,
		     const yaml_node_t *v)
{
	struct web_config *w = l->w;
	const char *hash = scalar(v);
	struct web_user *u;

	if (!*key || strchr(key, ':'))
		return fail(l, k, "basic_auth_users: '%s' cannot be a user name (empty, or with "
			    "a ':')", key);
	if (!hash || !is_bcrypt(hash))
		return fail(l, v, "basic_auth_users: the password of '%s' is not a bcrypt hash "
			    "($2a$, $2b$ or $2y$, e.g. from htpasswd -nbB)", key);
	u = realloc(w->users, (w->nr_users + 1) * sizeof(*u));
	if (!u)
		return errmsg(l->err, l->errlen, -ENOMEM, "out of memory");
	w->users = u;
	u = &w->users[w->nr_users];
	u->name = strdup(key);
	u->hash = strdup(hash);
	if (!u->name || !u->hash) {
		free(u->name);
		free(u->hash);
		return errmsg(l->err, l->errlen, -ENOMEM, "out of memory");
	}
	w->nr_users++;
	return 0;
}

static int http_pair(struct loader *l, const char *key, const yaml_node_t *k,
		     const yaml_node_t *v)
{
	return fail(l, k, "http_server_config: '%s' is not supported by tdtop", key);
}

static int top_pair(struct loader *l, const char *key, const yaml_node_t *k,
		    const yaml_node_t *v)
{
	if (!strcmp(key, "tls_server_config"))
		return each_pair(l, v, key, tls_pair);
	if (!strcmp(key, "basic_auth_users"))
		return each_pair(l, v, key, user_pair);
	if (!strcmp(key, "http_server_config"))
		return each_pair(l, v, key, http_pair);
	return fail(l, k, "unknown key '%s' (want tls_server_config, basic_auth_users)", key);
}

/* *file*, relative to the configuration's directory unless absolute. */
static int read_pem(struct loader *l, const char *what, const char *file, char **buf,
		    size_t *len)
{
	const char *slash = strrchr(l->path, '/');
	char path[4096];
	int ret;

	if (*file == '/' || !slash)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - l->path), l->path, file);
	ret = read_whole_file(path, WEB_PEM_MAX, buf, len);
	if (ret)
		return fail(l, NULL, "tls_server_config: cannot read %s %s: %s", what, path,
			    strerror(-ret));
	return 0;
}

/* Both files or neither, as exporter-toolkit: neither is plain HTTP. */
static int load_tls(struct loader *l)
{
	char *cert = NULL, *key = NULL, msg[256];
	size_t cert_len, key_len;
	int ret;

	if ((!l->cert_file || !*l->cert_file) && (!l->key_file || !*l->key_file))
		return 0;
	if (!l->cert_file || !*l->cert_file || !l->key_file || !*l->key_file)
		return fail(l, NULL, "tls_server_config needs both cert_file and key_file");
	ret = read_pem(l, "cert_file", l->cert_file, &cert, &cert_len);
	if (!ret)
		ret = read_pem(l, "key_file", l->key_file, &key, &key_len);
	if (!ret) {
		l->w->tls = tls_server__new(cert, cert_len, key, key_len, msg, sizeof(msg));
		if (!l->w->tls)
			ret = fail(l, NULL, "tls_server_config: %s", msg);
	}
	/* the key is kept by GnuTLS alone */
	if (key)
		explicit_bzero(key, key_len);
	free(cert);
	free(key);
	return ret;
}

static int yaml_error(struct loader *l, const yaml_parser_t *p)
{
	return errmsg(l->err, l->errlen, -EINVAL, "web config %s: line %zu: %s", l->path,
		      p->problem_mark.line + 1, p->problem ? p->problem : "not YAML");
}

/* The file's one document into l->doc. */
static int parse(struct loader *l, const char *text, size_t len)
{
	yaml_parser_t p;
	yaml_document_t extra;
	int ret = 0;

	if (!yaml_parser_initialize(&p))
		return errmsg(l->err, l->errlen, -ENOMEM, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &l->doc)) {
		ret = yaml_error(l, &p);
		yaml_parser_delete(&p);
		return ret;
	}
	if (!yaml_parser_load(&p, &extra)) {
		ret = yaml_error(l, &p);
	} else {
		if (yaml_document_get_root_node(&extra))
			ret = fail(l, NULL, "more than one YAML document");
		yaml_document_delete(&extra);
	}
	if (ret)
		yaml_document_delete(&l->doc);
	yaml_parser_delete(&p);
	return ret;
}

struct web_config *web_config__load(const char *path, char *err, size_t errlen)
{
	struct loader l = { .path = path, .err = err, .errlen = errlen };
	yaml_node_t *root;
	char *text;
	size_t len;
	int ret;

	ret = read_whole_file(path, WEB_CONFIG_MAX, &text, &len);
	if (ret) {
		errmsg(err, errlen, ret, "cannot read web config %s: %s", path, strerror(-ret));
		return NULL;
	}
	l.w = calloc(1, sizeof(*l.w));
	ret = l.w ? parse(&l, text, len) : errmsg(err, errlen, -ENOMEM, "out of memory");
	free(text);
	if (ret) {
		web_config__free(l.w);
		return NULL;
	}
	root = yaml_document_get_root_node(&l.doc);
	ret = root ? each_pair(&l, root, "the web config", top_pair) : 0;
	if (!ret)
		ret = load_tls(&l);
	yaml_document_delete(&l.doc);
	if (ret) {
		web_config__free(l.w);
		return NULL;
	}
	return l.w;
}

void web_config__free(struct web_config *w)
{
	if (!w)
		return;
	tls_server__free(w->tls);
	for (size_t i = 0; i < w->nr_users; i++) {
		free(w->users[i].name);
		free(w->users[i].hash);
	}
	free(w->users);
	free(w);
}
