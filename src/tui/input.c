// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The interactive view's prompts: delay, PIDs, the name and path filters
 * and the F3 search, which jumps to the next matching row as the text is
 * typed; with the validation of what each accepts.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/errmsg.h"
#include "tui/handlers.h"
#include "tui/keys.h"

/* the kernel's PID_MAX_LIMIT */
#define TUI_PID_MAX 4194304

unsigned int tui_state__open_prompt(struct tui_state *st, enum tui_prompt p)
{
	st->back = st->mode;
	st->mode = TUI_MODE_PROMPT;
	st->prompt = p;
	st->input[0] = '\0';
	st->input_len = 0;
	st->search_failed = false;
	return TUI_REDRAW;
}

int tui_parse_delay(const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	while (*end == ' ')
		end++;
	if (errno || end == s || *end || !isfinite(v) || v < TUI_MIN_DELAY || v > TUI_MAX_DELAY)
		return errmsg(err, errlen, -1, "invalid delay '%s' (want seconds from %g to %g)", s,
			      TUI_MIN_DELAY, TUI_MAX_DELAY);
	*out = v;
	return 0;
}

int tui_parse_pids(const char *s, int *pids, size_t max, size_t *nr, char *err, size_t errlen)
{
	size_t n = 0;

	while (*s) {
		char *end;
		long v;

		if (*s == ',' || *s == ' ') {
			s++;
			continue;
		}
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || end == s || (*end && *end != ',' && *end != ' ') || v < 1 ||
		    v > TUI_PID_MAX)
			return errmsg(err, errlen, -1,
				      "invalid PID '%.*s' (want numbers from 1 to %d)",
				      (int)strcspn(s, ", "), s, TUI_PID_MAX);
		if (n == max)
			return errmsg(err, errlen, -1, "too many PIDs (at most %zu)", max);
		pids[n++] = (int)v;
		s = end;
	}
	*nr = n;
	return 0;
}

int tui_parse_comm(const char *s, char *out, size_t size, char *err, size_t errlen)
{
	size_t len = strlen(s);

	if (len >= TASK_COMM_LEN || len >= size)
		return errmsg(err, errlen, -1, "name filter longer than %d characters",
			      (int)(size < TASK_COMM_LEN ? size : TASK_COMM_LEN) - 1);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return errmsg(err, errlen, -1,
				      "name filter holds a non-printable character");
	memcpy(out, s, len + 1);
	return 0;
}

static unsigned int accept_prompt(struct tui_state *st)
{
	char err[TUI_MSG_LEN];
	int pids[TUI_MAX_PIDS];
	size_t nr;
	double delay;

	switch (st->prompt) {
	case TUI_PROMPT_DELAY:
		if (tui_parse_delay(st->input, &delay, err, sizeof(err)))
			break;
		st->delay_s = delay;
		tui_state__msg(st, false, "delay %gs", delay);
		return TUI_RESCHEDULE | TUI_REDRAW;
	case TUI_PROMPT_PID:
		if (tui_parse_pids(st->input, pids, TUI_MAX_PIDS, &nr, err, sizeof(err)))
			break;
		memcpy(st->pids, pids, nr * sizeof(pids[0]));
		st->nr_pids = nr;
		return tui_state__filter_changed(st);
	case TUI_PROMPT_COMM:
		if (tui_parse_comm(st->input, st->comm, sizeof(st->comm), err, sizeof(err)))
			break;
		return tui_state__filter_changed(st);
	case TUI_PROMPT_PATH:
		/* the prompt takes printable ASCII only, and no more than the filter holds */
		snprintf(st->cg_filter, sizeof(st->cg_filter), "%s", st->input);
		return tui_state__filter_changed(st);
	case TUI_PROMPT_SEARCH:
		if (st->search_failed)
			tui_state__msg(st, true, "no row matches '%s'", st->search);
		return TUI_REDRAW;
	case TUI_PROMPT_NONE:
		return TUI_REDRAW;
	}
	tui_state__msg(st, true, "%s", err);
	return TUI_REDRAW;
}

/* The search text changed, or F3 asked for the next match. */
static unsigned int search_again(struct tui_state *st, bool next)
{
	/* F3 on an empty line: the previous search, once more */
	if (next && !st->input_len && st->search[0]) {
		snprintf(st->input, sizeof(st->input), "%s", st->search);
		st->input_len = strlen(st->input);
	}
	snprintf(st->search, sizeof(st->search), "%s", st->input);
	st->search_pending = st->search[0] != '\0';
	st->search_next = next;
	st->search_failed = false;
	return TUI_REDRAW;
}

static unsigned int edit_key(struct tui_state *st, int key)
{
	switch (key) {
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (st->input_len)
			st->input[--st->input_len] = '\0';
		break;
	case KEY_CTRL_U:
		st->input_len = 0;
		st->input[0] = '\0';
		break;
	default:
		/* only printable ASCII: what a PID, a delay or a comm filter can hold */
		if (key < 0x20 || key >= 0x7f || st->input_len + 1 >= sizeof(st->input))
			return TUI_REDRAW;
		st->input[st->input_len++] = (char)key;
		st->input[st->input_len] = '\0';
		break;
	}
	return st->prompt == TUI_PROMPT_SEARCH ? search_again(st, false) : TUI_REDRAW;
}

unsigned int tui_state__prompt_key(struct tui_state *st, int key)
{
	unsigned int ret;

	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		st->mode = st->back;
		ret = accept_prompt(st);
		st->prompt = TUI_PROMPT_NONE;
		return ret;
	case KEY_ESC:
		st->mode = st->back;
		st->prompt = TUI_PROMPT_NONE;
		return TUI_REDRAW;
	case KEY_F(3):
		if (st->prompt == TUI_PROMPT_SEARCH)
			return search_again(st, true);
		return TUI_REDRAW;
	default:
		return edit_key(st, key);
	}
}

bool tui_row_matches(const struct row *r, const char *text)
{
	char comm[TASK_COMM_LEN];

	if (r->kind == ROW_CGROUP)
		return r->cgroup && strcasestr(r->cgroup, text);
	snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(r->comm), r->comm);
	return strcasestr(comm, text) != NULL;
}

void tui_state__search(struct tui_state *st, const struct row *rows, size_t nr)
{
	size_t from = st->list.cursor + (st->search_next ? 1 : 0);

	if (!st->search_pending)
		return;
	st->search_pending = false;
	st->search_failed = true;
	for (size_t k = 0; k < nr; k++) {
		size_t i = (from + k) % nr;

		if (tui_row_matches(&rows[i], st->search)) {
			st->list.cursor = i;
			/* the match stays selected as the rows change */
			st->follow = true;
			st->search_failed = false;
			return;
		}
	}
}
