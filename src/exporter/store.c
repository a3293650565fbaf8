// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's series store: each interval's deltas added to running
 * totals per cgroup or process, with the machine-wide counters beside
 * them. Series come and go: exited processes after their last report,
 * idle series after the TTL.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rows/metrics.h"
#include "pmu/tdconfig.h"
#include "util/grow.h"
#include "exporter/labels.h"
#include "exporter/store.h"

/* What key_index__find() compares: a series' key with the one looked for. */
struct series_lookup {
	const struct prom_store *s;
	const char *key;
};

static bool series_has_key(const void *ctx, size_t pos)
{
	const struct series_lookup *l = ctx;

	return !strcmp(l->s->series[pos].key, l->key);
}

/* The series with this key and hash, or -1. */
static long series_find(const struct prom_store *s, const char *key, size_t hash)
{
	struct series_lookup l = { s, key };

	return key_index__find(&s->index, hash, series_has_key, &l);
}

/* After drops: it cannot fail, the index had room for more series. */
static void index_refill(struct prom_store *s)
{
	key_index__clear(&s->index);
	for (size_t i = 0; i < s->nr; i++)
		key_index__set(&s->index, s->series[i].hash, i, NULL, NULL);
}

static void series_free(struct prom_series *se)
{
	free(se->key);
	free(se->labels);
}

/* Keep the series for which keep() holds; the index follows. */
static void series_filter(struct prom_store *s, bool (*keep)(const struct prom_store *,
							     const struct prom_series *))
{
	size_t kept = 0;

	for (size_t i = 0; i < s->nr; i++) {
		if (keep(s, &s->series[i]))
			s->series[kept++] = s->series[i];
		else
			series_free(&s->series[i]);
	}
	if (kept == s->nr)
		return;
	s->nr = kept;
	index_refill(s);
}

static bool not_exited(const struct prom_store *s, const struct prom_series *se)
{
	return !se->exited;
}

static bool not_expired(const struct prom_store *s, const struct prom_series *se)
{
	return s->o.series_ttl_s <= 0 || s->elapsed_s - se->last_seen <= s->o.series_ttl_s;
}

static bool row_wanted(const struct prom_store *s, const struct row *r)
{
	return s->o.by == BY_CGROUP ? r->kind == ROW_CGROUP : r->kind == ROW_PROCESS;
}

static void row_key(const struct prom_store *s, const struct row *r, char *buf, size_t size,
		    const char **key)
{
	if (r->kind != ROW_CGROUP && s->o.by_comm) {
		snprintf(buf, size, "%.*s", TASK_COMM_LEN, r->comm);
		*key = buf;
	} else if (r->kind != ROW_CGROUP) {
		snprintf(buf, size, "%d", r->pid);
		*key = buf;
	} else if (r->cgroup) {
		*key = r->cgroup;
	} else {
		snprintf(buf, size, "cgroup %llu", (unsigned long long)r->cgroup_id);
		*key = buf;
	}
}

/* Append a series for *r*, whose key is not indexed yet; -ENOMEM. */
static int series_new(struct prom_store *s, const struct row *r, const char *key, size_t hash)
{
	struct prom_series *se;

	if (GROW(s->series, s->cap, s->nr + 1, 64))
		return -ENOMEM;
	se = &s->series[s->nr];
	memset(se, 0, sizeof(*se));
	se->key = strdup(key);
	se->hash = hash;
	se->pid = r->pid;
	memcpy(se->comm, r->comm, TASK_COMM_LEN);
	se->labels = r->kind == ROW_CGROUP ? prom_cgroup_labels(key) :
					     prom_process_labels(s->o.by_comm ? -1 : r->pid, r->comm);
	if (!se->key || !se->labels || key_index__set(&s->index, hash, s->nr, NULL, NULL)) {
		series_free(se);
		return -ENOMEM;
	}
	s->nr++;
	return 0;
}

/*
 * Find or create the series of every wanted row first, so that running
 * out of memory leaves no interval half added. ids[i] is SIZE_MAX for a
 * row not tracked.
 */
static int map_rows(struct prom_store *s, const struct interval *iv, size_t *ids)
{
	size_t old_nr = s->nr;

	for (size_t i = 0; i < iv->nr_rows; i++) {
		const struct row *r = &iv->rows[i];
		char buf[48];
		const char *key;
		size_t hash;
		long pos;

		ids[i] = SIZE_MAX;
		if (!row_wanted(s, r))
			continue;
		row_key(s, r, buf, sizeof(buf), &key);
		hash = key_hash_str(key);
		pos = series_find(s, key, hash);
		if (pos >= 0) {
			ids[i] = (size_t)pos;
			continue;
		}
		if (s->nr >= PROM_MAX_SERIES)
			continue;
		if (series_new(s, r, key, hash)) {
			while (s->nr > old_nr)
				series_free(&s->series[--s->nr]);
			index_refill(s);
			return -ENOMEM;
		}
		ids[i] = s->nr - 1;
	}
	return 0;
}

static int relabel(struct prom_series *se, const struct row *r)
{
	char *labels;

	if (!memcmp(se->comm, r->comm, TASK_COMM_LEN))
		return 0;
	labels = prom_process_labels(r->pid, r->comm);
	if (!labels)
		return -ENOMEM;
	free(se->labels);
	se->labels = labels;
	memcpy(se->comm, r->comm, TASK_COMM_LEN);
	return 0;
}

static void add_row(struct prom_store *s, struct prom_series *se, const struct interval *iv,
		    const struct row *r)
{
	double cpu = r->cpu_ns / 1e9;

	se->cpu_s += cpu;
	se->score += cpu;
	se->last_seen = s->elapsed_s;
	/* a name outlives its processes: the series of a name only expires */
	if (r->kind == ROW_PROCESS && !s->o.by_comm) {
		se->exited = r->exited;
		/* exec renames: same counts, new label (the old one stays on ENOMEM) */
		relabel(se, r);
	}
	if (iv->topdown && r->td.valid && isfinite(r->td.slots) && r->td.slots > 0) {
		se->slots += r->td.slots;
		se->slots_seen = true;
		for (int i = 0; i < s->nr_td; i++) {
			double v = td_field_value(&r->td, i);

			if (td_fields[i].level > iv->level || !isfinite(v) || v < 0)
				continue;
			se->td[i] += v * r->td.slots;
			se->td_seen |= 1u << i;
		}
	}
	for (int e = 0; e < s->nr_events; e++) {
		double v = delta__scaled(&r->ev[e]);

		if (s->o.event_kind[e] == PROM_EV_SKIP || !isfinite(v) || v < 0)
			continue;
		se->ev[e] += v;
		se->ev_seen |= 1u << e;
	}
}

/* The same events, in the same order, for the whole run. */
static int check_events(struct prom_store *s, const struct interval *iv)
{
	int n = iv->nr_events < 0 ? 0 : iv->nr_events > MAX_EVENTS ? MAX_EVENTS : iv->nr_events;

	if (s->have_events) {
		if (n != s->nr_events)
			return -EINVAL;
		for (int i = 0; i < n; i++) {
			const char *name = iv->event_names ? iv->event_names[i] : NULL;

			if (strcmp(s->names[i], name ? name : ""))
				return -EINVAL;
		}
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const char *name = iv->event_names && iv->event_names[i] ? iv->event_names[i] : "";

		s->names[i] = strdup(name);
		s->ev_labels[i] = prom_event_label(name);
		if (!s->names[i] || !s->ev_labels[i]) {
			for (int j = 0; j <= i; j++) {
				free(s->names[j]);
				free(s->ev_labels[j]);
				s->names[j] = s->ev_labels[j] = NULL;
			}
			return -ENOMEM;
		}
	}
	s->nr_events = n;
	s->have_events = true;
	return 0;
}

static void add_machine(struct prom_store *s, const struct interval *iv)
{
	s->intervals++;
	s->interval_s = iv->interval_s;
	s->idle_cpu_s += iv->idle_cpu_ns / 1e9;
	s->dropped += iv->dropped;
	s->read_errors += iv->read_errors;
	s->switches += iv->switches;
	s->bpf_s_per_switch = iv->bpf_ns_per_switch / 1e9;
	if (isfinite(iv->self_cpu_pct) && iv->self_cpu_pct > 0 && iv->interval_s > 0)
		s->self_cpu_s += iv->self_cpu_pct / 100.0 * iv->interval_s;
	if (!s->method_fixed && iv->method && *iv->method)
		snprintf(s->method, sizeof(s->method), "%s", iv->method);
}

int prom_store__add(struct prom_store *s, const struct interval *iv)
{
	double len = isfinite(iv->interval_s) && iv->interval_s > 0 ? iv->interval_s : 0;
	double decay = exp2(-len / PROM_RANK_HALF_LIFE_S);
	size_t *ids;
	int ret;

	ret = check_events(s, iv);
	if (ret)
		return ret;
	/* an exit was reported with the previous interval's values */
	series_filter(s, not_exited);
	s->elapsed_s += len;
	series_filter(s, not_expired);
	ids = malloc((iv->nr_rows ? iv->nr_rows : 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	ret = map_rows(s, iv, ids);
	if (ret) {
		free(ids);
		return ret;
	}
	for (size_t i = 0; i < s->nr; i++)
		s->series[i].score *= decay;
	for (size_t i = 0; i < iv->nr_rows; i++) {
		if (ids[i] != SIZE_MAX)
			add_row(s, &s->series[ids[i]], iv, &iv->rows[i]);
		else if (row_wanted(s, &iv->rows[i]))
			s->overflow++;
	}
	free(ids);
	add_machine(s, iv);
	return 0;
}

struct prom_store *prom_store__new(const struct prom_opts *o)
{
	struct prom_store *s;

	if (o->by != BY_CGROUP && o->by != BY_PROCESS)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *o;
	snprintf(s->version, sizeof(s->version), "%s", o->version ? o->version : "");
	snprintf(s->method, sizeof(s->method), "%s", o->method ? o->method : "none");
	s->method_fixed = o->method && strcmp(o->method, "none");
	s->nr_td = nr_td_fields < PROM_MAX_TD ? nr_td_fields : PROM_MAX_TD;
	s->bpf_s_per_switch = NAN;
	return s;
}

void prom_store__free(struct prom_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		series_free(&s->series[i]);
	for (int i = 0; i < s->nr_events; i++) {
		free(s->names[i]);
		free(s->ev_labels[i]);
	}
	free(s->series);
	key_index__free(&s->index);
	free(s);
}

size_t prom_store__nr_series(const struct prom_store *s)
{
	return s->nr;
}

const struct prom_na_info prom_na_info[PROM_NR_NA] = {
	[PROM_NA_BPF_STATS] = { "tdtop_bpf_seconds_per_switch", "bpf_stats_refused",
				"the kernel refused BPF run-time statistics (they need "
				"CAP_SYS_ADMIN and Linux 5.8)" },
	[PROM_NA_SLOTS] = { "tdtop_slots_total", "no_topdown", NULL },
	[PROM_NA_TOPDOWN] = { "tdtop_topdown_slots_total", "no_topdown", NULL },
};

unsigned int prom_store__unavailable(const struct prom_store *s)
{
	unsigned int na = 0;

	if (s->intervals >= 2 && !isfinite(s->bpf_s_per_switch))
		na |= 1u << PROM_NA_BPF_STATS;
	if (s->intervals >= 1 && !strcmp(s->method, "none"))
		na |= 1u << PROM_NA_SLOTS | 1u << PROM_NA_TOPDOWN;
	return na;
}

/* The software clocks count nanoseconds: a time, not a count of things;
 * with modifiers too (cpu-clock:u), which the kernel ignores for them. */
static bool counts_time(const char *name)
{
	size_t n = name ? strcspn(name, ":") : 0;

	return (n == 9 && !strncmp(name, "cpu-clock", n)) ||
	       (n == 10 && !strncmp(name, "task-clock", n));
}

void prom_event_kinds(const int *role, const char *const *names, int n,
		      enum prom_event_kind *out)
{
	for (int i = 0; i < n && i < MAX_EVENTS; i++) {
		if (role[i] == TD_CYCLES)
			out[i] = PROM_EV_CYCLES;
		else if (role[i] == TD_INSTRUCTIONS)
			out[i] = PROM_EV_INSTRUCTIONS;
		else if (role[i] != TD_NO_ROLE)
			out[i] = PROM_EV_SKIP;
		else
			out[i] = counts_time(names[i]) ? PROM_EV_TIME : PROM_EV_GENERIC;
	}
}
