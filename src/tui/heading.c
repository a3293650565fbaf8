// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The lines above the table: title, interval summary, the TopDown
 * breakdown (or the event totals), warnings and the status line. Every
 * field is drawn whole or left out, so that no number is ever cut.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "util/format.h"
#include "tui/draw.h"
#include "tui/paint.h"
#include "tui/screen.h"

#define HEADER_BAR_MIN 8
/* the title keeps this much room before the clock and the costs */
#define TITLE_MIN 16
/* a long reason why TopDown is off gets this many lines */
#define NOTICE_LINES 2

static void clock_text(char *buf, size_t size, double ts)
{
	struct tm tm;
	time_t sec;

	snprintf(buf, size, "--:--:--");
	if (!isfinite(ts) || ts < 0 || ts > 1e15)
		return;
	sec = (time_t)ts;
	if (localtime_r(&sec, &tm))
		strftime(buf, size, "%H:%M:%S", &tm);
}

/* tdtop's own cost and the clock; the clock stays longest. */
static void title_right(struct tui_line *l, int width, double cpu, double ns, const char *clock)
{
	for (int parts = 2; parts >= 0; parts--) {
		tui_line__init(l, width);
		if (parts >= 1 && isfinite(cpu))
			tui_line__add(l, "", "tdtop: %.1f%% CPU", cpu);
		if (parts >= 2 && isfinite(ns))
			tui_line__add(l, ", ", "%.0f ns/switch", ns);
		if (tui_line__add(l, "  ", "%s", clock) >= 0)
			return;
	}
	tui_line__init(l, width);
}

int tui__draw_title(struct tui *t, int y)
{
	const char *title = t->o->title ? t->o->title : "";
	double cpu = t->self_cpu, ns_switch = t->self_ns;
	struct tui_line right;
	char clock[16];
	int room;

	/* without the callback, what the build put into the interval */
	if (!t->src->self_cost && t->have_iv) {
		cpu = t->iv.self_cpu_pct;
		ns_switch = t->iv.bpf_ns_per_switch;
	}
	clock_text(clock, sizeof(clock), t->have_iv ? t->iv.ts : NAN);
	title_right(&right, COLS - TITLE_MIN - 2, cpu, ns_switch, clock);
	tui_put(y, COLS - right.len, A_NORMAL, right.text);
	room = COLS - right.len - (right.len ? 2 : 0) - 8;
	/* a title too long for the line ends at a word */
	tui_putf(y, 0, A_BOLD, "tdtop - %.*s", (int)tui_wrap(title, room), title);
	return y + 1;
}

static int draw_summary(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	char num[FMT_COMPACT_LEN], busy[16] = "-";
	double busy_pct = interval__busy_pct(iv);
	struct tui_line l;

	if (isfinite(busy_pct))
		snprintf(busy, sizeof(busy), "%.1f%%", busy_pct);
	tui_line__init(&l, COLS);
	tui_line__add(&l, "", "interval %.2fs", iv->interval_s);
	tui_line__add(&l, "  ", "%d CPUs", iv->ncpus);
	tui_line__add(&l, "  ", "busy %s", busy);
	tui_line__add(&l, "  ", "tasks %zu", t->smp[t->shown].nr);
	tui_line__add(&l, "  ", "rows %zu", iv->nr_rows);
	tui_line__add(&l, "  ", "switches %s", fmt_compact(num, sizeof(num), (double)iv->switches));
	if (iv->topdown && isfinite(iv->ipc))
		tui_line__add(&l, "  ", "IPC %.2f", iv->ipc);
	tui_put(y, 0, A_NORMAL, l.text);
	return y + 1;
}

static int draw_totals(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	char name[32], num[FMT_COMPACT_LEN];
	struct tui_line l;

	tui_line__init(&l, COLS);
	tui_line__add(&l, "", "Totals");
	for (int i = 0; i < interval__nr_events(iv); i++)
		tui_line__add(&l, "  ", "%s %s", interval__event_name(iv, i, name, sizeof(name)),
			      fmt_compact(num, sizeof(num), delta__scaled(&iv->totals[i])));
	tui_put(y, 0, A_NORMAL, l.text);
	return y + 1;
}

/*
 * "[bar]  Retiring 12.3%  ..."; narrower, the bar's letters name the
 * nodes ("R 12.3%"); narrower still the bar goes, then labels from the right.
 */
static int draw_breakdown(struct tui *t, int y)
{
	static const char letters[] = { TUI_BAR_RETIRING, TUI_BAR_BAD_SPEC, TUI_BAR_FRONTEND,
					 TUI_BAR_BACKEND };
	const struct interval *iv = &t->iv;
	char full[4][40], brief[4][40], bar[TUI_HEADER_BAR_MAX + 1], pct[16];
	int x = 0, len = 0, brief_len = 0, width;
	struct tui_line l;

	if (!iv->topdown)
		return draw_totals(t, y);
	for (int i = 0; i <= TUI_TD_BACKEND; i++) {
		tui_pct(pct, sizeof(pct), tui_td_value(&iv->td, i));
		len += snprintf(full[i], sizeof(full[i]), "  %s %s%%", tui_td_title(i), pct);
		brief_len += snprintf(brief[i], sizeof(brief[i]), "  %c %s%%", letters[i], pct);
	}
	if (COLS - len - 2 < HEADER_BAR_MIN) {
		for (int i = 0; i <= TUI_TD_BACKEND; i++)
			memcpy(full[i], brief[i], sizeof(full[i]));
		len = brief_len;
	}
	width = COLS - len - 2;
	if (width >= HEADER_BAR_MIN) {
		tui_bar(bar, width > TUI_HEADER_BAR_MAX ? TUI_HEADER_BAR_MAX : width, &iv->td);
		x = tui_put(y, 0, A_NORMAL, "[");
		x = tui_put_bar(t->color, y, x, A_NORMAL, bar);
		x = tui_put(y, x, A_NORMAL, "]");
	}
	tui_line__init(&l, COLS - x);
	for (int i = 0; i <= TUI_TD_BACKEND; i++) {
		/* without the bar the line starts with a label, not with its gap */
		const char *s = x || l.len ? full[i] : full[i] + 2;
		int at = tui_line__add(&l, "", "%s", s);

		if (at >= 0)
			tui_put(y, x + at, tui_attr_hl(t->color, tui_td_hl(i, tui_td_value(&iv->td, i))),
				s);
	}
	return y + 1;
}

/* *text* after *label* on up to *lines* lines, broken at spaces. */
static int put_wrapped(int y, const char *label, const char *text, int lines)
{
	int x = tui_put(y, 0, A_NORMAL, label);

	for (int i = 0; i < lines && *text; i++, y++) {
		size_t n = i + 1 < lines ? tui_wrap(text, COLS - x) : strlen(text);

		tui_putf(y, x, A_NORMAL, "%.*s", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
	}
	return y;
}

static int draw_warnings(struct tui *t, int y)
{
	const struct interval *iv = &t->iv;
	double share = interval__min_running_share(iv);
	attr_t warn = tui_attr_warn(t->color);

	if (iv->dropped)
		tui_putf(y++, 0, warn, "dropped %llu: task map full (raise --max-tasks)",
			 (unsigned long long)iv->dropped);
	if (iv->read_errors)
		tui_putf(y++, 0, warn, "%llu counter reads failed",
			 (unsigned long long)iv->read_errors);
	if (share < 1.0)
		tui_putf(y++, 0, warn, "multiplexed: counted %.1f%% of the time, counts scaled",
			 share * 100.0);
	if (iv->notice)
		y = put_wrapped(y, "note: ", iv->notice, NOTICE_LINES);
	return y;
}

int tui__draw_header(struct tui *t, int y)
{
	y = draw_summary(t, y);
	y = draw_breakdown(t, y);
	return draw_warnings(t, y);
}

/* ---- status line ---- */

static void add_filters(const struct tui_state *st, struct tui_line *l)
{
	char pids[64];
	size_t len = 0;

	if (st->nr_pids) {
		len += snprintf(pids + len, sizeof(pids) - len, "pid %d", st->pids[0]);
		for (size_t i = 1; i < st->nr_pids && i < 4 && len < sizeof(pids); i++)
			len += snprintf(pids + len, sizeof(pids) - len, ",%d", st->pids[i]);
		if (st->nr_pids > 4 && len < sizeof(pids))
			snprintf(pids + len, sizeof(pids) - len, ",...");
		tui_line__add(l, "  ", "%s", pids);
	}
	if (st->by == BY_CGROUP) {
		if (st->cg_filter[0])
			tui_line__add(l, "  ", "path '%s'", st->cg_filter);
		return;
	}
	if (st->comm[0])
		tui_line__add(l, "  ", "comm '%s'", st->comm);
	if (st->user_filter)
		tui_line__add(l, "  ", "user %s", st->user_name);
}

static const char *grouping(const struct tui_state *st)
{
	switch (st->by) {
	case BY_THREAD:
		return "threads";
	case BY_CGROUP:
		return st->tree ? "cgroup tree" : "cgroups";
	case BY_PROCESS:
		break;
	}
	return st->tree ? "process tree" : "processes";
}

static const char *prompt_label(enum tui_prompt p)
{
	switch (p) {
	case TUI_PROMPT_DELAY:
		return "Delay in seconds: ";
	case TUI_PROMPT_PID:
		return "Show PIDs (comma-separated, empty for all): ";
	case TUI_PROMPT_COMM:
		return "Show commands containing (empty for all): ";
	case TUI_PROMPT_PATH:
		return "Show cgroups whose path contains (empty for all): ";
	case TUI_PROMPT_SEARCH:
		return "Search: ";
	case TUI_PROMPT_NONE:
		break;
	}
	return "";
}

static void draw_prompt(struct tui *t, int y)
{
	const struct tui_state *st = &t->st;
	int x = tui_put(y, 0, A_BOLD, prompt_label(st->prompt)), cursor;

	cursor = x = tui_put(y, x, A_NORMAL, st->input);
	if (st->prompt == TUI_PROMPT_SEARCH && st->search_failed)
		tui_put(y, x + 1, tui_attr_warn(t->color), "(no match)");
	if (cursor < COLS) {
		move(y, cursor);
		curs_set(1);
	}
}

/* What the table shows, field by field. */
static void draw_view(struct tui *t, int y, int x, bool keybar)
{
	const struct tui_state *st = &t->st;
	struct tui_line l;

	tui_line__init(&l, COLS - x);
	tui_line__add(&l, "", "sort %s%s", tui_state__sort_text(st, &st->sort),
		      st->reverse ? " reversed" : "");
	if (st->cg_within)
		tui_line__add(&l, "  ", "%s in %s (Esc: back)", grouping(st), st->cg_name);
	else
		tui_line__add(&l, "  ", "%s", grouping(st));
	if (st->topdown)
		tui_line__add(&l, "  ", "level %d", st->level);
	add_filters(st, &l);
	tui_line__add(&l, "  ", "delay %gs", st->delay_s);
	if (st->hscroll)
		tui_line__add(&l, "  ", "scrolled (Left)");
	else if (st->hscroll_max)
		tui_line__add(&l, "  ", "Right: more columns");
	if (!keybar)
		tui_line__add(&l, "   ", "h help  q quit");
	tui_put(y, x, A_NORMAL, l.text);
}

void tui__draw_status(struct tui *t, int y, bool keybar)
{
	const struct tui_state *st = &t->st;
	char question[TUI_MSG_LEN];
	int x = 0;

	if (st->mode == TUI_MODE_PROMPT) {
		draw_prompt(t, y);
		return;
	}
	if (st->mode == TUI_MODE_CONFIRM) {
		tui_state__confirm_text(st, question, sizeof(question));
		tui_put(y, 0, tui_attr_warn(t->color), question);
		return;
	}
	if (st->paused)
		x = tui_put(y, 0, A_REVERSE | A_BOLD, "PAUSED");
	if (!st->live)
		x = tui_put(y, x ? x + 1 : 0, A_REVERSE, t->eof ? "END" : "REPLAY");
	if (x)
		x++;
	if (st->msg[0])
		tui_put(y, x, st->msg_error ? tui_attr_warn(t->color) : A_BOLD, st->msg);
	else
		draw_view(t, y, x, keybar);
}
