// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Label sets in the exposition format: values escaped (and made valid
 * UTF-8), and the labels of a cgroup, a process or an event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup/names.h"
#include "util/format.h"
#include "tdtop_abi.h"
#include "exporter/labels.h"

size_t prom_escape_label(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), len = 0, written = 0;
	bool full = false;

	while (left) {
		int n = utf8_seq_len(p, left);
		const char *piece = (const char *)p;
		size_t plen = n > 0 ? (size_t)n : 0;

		if (n < 0) {
			piece = "\xef\xbf\xbd";
			plen = 3;
			n = -n;
		} else if (*p == '\\') {
			piece = "\\\\";
			plen = 2;
		} else if (*p == '"') {
			piece = "\\\"";
			plen = 2;
		} else if (*p == '\n') {
			piece = "\\n";
			plen = 2;
		}
		/* a piece is written whole or not at all, and nothing after it */
		if (!full && len + plen < size) {
			memcpy(buf + len, piece, plen);
			written = len + plen;
		} else {
			full = true;
		}
		len += plen;
		p += n;
		left -= (size_t)n;
	}
	if (size)
		buf[written] = '\0';
	return len;
}

/* A malloc'ed escaped copy; NULL on ENOMEM. */
static char *escape_dup(const char *s)
{
	size_t need = prom_escape_label(NULL, 0, s) + 1;
	char *out = malloc(need);

	if (out)
		prom_escape_label(out, need, s);
	return out;
}

char *prom_cgroup_labels(const char *path)
{
	struct cgroup_label cl;
	char *p = escape_dup(path), *u = NULL, *out = NULL;
	size_t len;

	if (!p)
		return NULL;
	cgroup_name_recognise(path, &cl);
	if (cl.unit[0] && !(u = escape_dup(cl.unit)))
		goto cleanup;
	/* ids only: hex digits and dashes need no escaping */
	len = strlen(p) + (u ? strlen(u) : 0) + sizeof(cl.container) + sizeof(cl.pod_uid) + 64;
	out = malloc(len);
	if (!out)
		goto cleanup;
	snprintf(out, len, "cgroup=\"%s\"%s%s%s%s%s%s%s%s%s", p, u ? ",systemd_unit=\"" : "",
		 u ? u : "", u ? "\"" : "", cl.container[0] ? ",container_id=\"" : "", cl.container,
		 cl.container[0] ? "\"" : "", cl.pod_uid[0] ? ",pod_uid=\"" : "", cl.pod_uid,
		 cl.pod_uid[0] ? "\"" : "");
cleanup:
	free(p);
	free(u);
	return out;
}

char *prom_process_labels(int pid, const char *comm)
{
	char name[TASK_COMM_LEN + 1], esc[4 * TASK_COMM_LEN + 1];
	char *out;
	size_t len;

	memcpy(name, comm, TASK_COMM_LEN);
	name[TASK_COMM_LEN] = '\0';
	prom_escape_label(esc, sizeof(esc), name);
	len = strlen(esc) + 32;
	out = malloc(len);
	if (out && pid < 0)
		snprintf(out, len, "comm=\"%s\"", esc);
	else if (out)
		snprintf(out, len, "pid=\"%d\",comm=\"%s\"", pid, esc);
	return out;
}

char *prom_event_label(const char *name)
{
	char *e = escape_dup(name), *out = NULL;

	if (e && asprintf(&out, "event=\"%s\"", e) < 0)
		out = NULL;
	free(e);
	return out;
}
