// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libFuzzer target: any bytes as an -e list, resolved against a fixture
 * sysfs tree (a Skylake's PMUs; FUZZ_SYSFS overrides it). An accepted list
 * must give sane specs whose canonical names parse again to the same
 * events; a refused one a message, on one line unless it quotes a newline
 * of the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pmu/events.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[4096];

static void require(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_events: broken promise: %s\n", what);
		abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SYSFS") ? getenv("FUZZ_SYSFS")
					      : "tests/fixtures/sysfs/skylake";

	if (!realpath(dir, root) || access(root, R_OK)) {
		fprintf(stderr, "fuzz_events: no fixture tree at %s (run from the repository)\n",
			dir);
		exit(2);
	}
	return 0;
}

static bool same_event(const struct event_spec *a, const struct event_spec *b)
{
	return !strcmp(a->name, b->name) && a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2 &&
	       a->exclude == b->exclude &&
	       !memcmp(&a->scale, &b->scale, sizeof(a->scale)) && !strcmp(a->unit, b->unit);
}

/* The canonical names, comma-separated, are an -e list for the same events. */
static void check_canonical(const struct event_list *el)
{
	char list[MAX_EVENTS * (EVENT_NAME_LEN + 1)] = "", err[512];
	struct event_list again;

	for (int i = 0; i < el->nr; i++) {
		if (i)
			strcat(list, ",");
		strcat(list, el->ev[i].name);
	}
	if (event_list__parse(root, list, &again, err, sizeof(err))) {
		fprintf(stderr, "fuzz_events: '%s' does not parse again: %s\n", list, err);
		abort();
	}
	require(again.nr == el->nr, "same number of events after a round trip");
	for (int i = 0; i < el->nr; i++)
		require(same_event(&el->ev[i], &again.ev[i]), "same events after a round trip");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct event_list el;
	char err[512] = "";
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (event_list__parse(root, s, &el, err, sizeof(err))) {
		require(err[0] && (!strchr(err, '\n') || strchr(s, '\n')),
			"one-line error message");
		free(s);
		return 0;
	}
	require(el.nr >= 1 && el.nr <= MAX_EVENTS, "event count");
	for (int i = 0; i < el.nr; i++) {
		const struct event_spec *e = &el.ev[i];
		struct perf_event_attr attr;

		require(e->name[0] && strnlen(e->name, EVENT_NAME_LEN) < EVENT_NAME_LEN, "name");
		require(strnlen(e->unit, sizeof(e->unit)) < sizeof(e->unit), "unit");
		require(e->leader >= 0 && e->leader <= i, "leader");
		require(e->scale > 0 && e->scale == e->scale, "scale");
		event_spec__to_attr(e, &attr);
		require(attr.type == e->type && attr.config == e->config && !attr.inherit,
			"attr matches the spec");
	}
	check_canonical(&el);
	free(s);
	return 0;
}
