// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Curses primitives of the interactive view's drawing: text cut at the
 * screen's edge, the stacked bar in colour, the colour pairs and what
 * each kind of text is drawn with, with colour or without.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "tui/paint.h"

enum {
	PAIR_BAD = 1,
	PAIR_GOOD,
	PAIR_WARN,
	PAIR_SORT,
	PAIR_BAR_R,
	PAIR_BAR_B,
	PAIR_BAR_F,
	PAIR_BAR_K,
	PAIR_LABEL,
};

attr_t tui_attr_hl(bool color, enum tui_hl hl)
{
	if (hl == TUI_HL_NONE)
		return A_NORMAL;
	if (!color)
		return A_BOLD;
	return COLOR_PAIR(hl == TUI_HL_BAD ? PAIR_BAD : PAIR_GOOD) | A_BOLD;
}

attr_t tui_attr_warn(bool color)
{
	return color ? COLOR_PAIR(PAIR_WARN) | A_BOLD : A_BOLD;
}

attr_t tui_attr_sort(bool color)
{
	return color ? COLOR_PAIR(PAIR_SORT) | A_BOLD : A_BOLD | A_UNDERLINE;
}

attr_t tui_attr_label(bool color)
{
	return color ? COLOR_PAIR(PAIR_LABEL) : A_REVERSE;
}

int tui_put(int y, int x, attr_t attr, const char *s)
{
	int room = COLS - x;
	int len = (int)strlen(s);

	if (y < 0 || y >= LINES || room <= 0)
		return x;
	if (len > room)
		len = room;
	attrset(attr);
	mvaddnstr(y, x, s, len);
	attrset(A_NORMAL);
	return x + len;
}

int tui_putf(int y, int x, attr_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui_put(y, x, attr, buf);
}

int tui_put_bar(bool color, int y, int x, attr_t base, const char *bar)
{
	static const int pairs[] = { PAIR_BAR_R, PAIR_BAR_B, PAIR_BAR_F, PAIR_BAR_K };

	for (const char *c = bar; *c && x < COLS; c++) {
		int td = tui_bar_td(*c);
		attr_t a = base;

		if (td >= 0 && color)
			a = COLOR_PAIR(pairs[td]) | (base & A_REVERSE ? A_BOLD : A_NORMAL);
		attrset(a);
		mvaddch(y, x++, (chtype)(unsigned char)*c);
	}
	attrset(A_NORMAL);
	return x;
}

void tui_screen_colors(void)
{
	start_color();
	use_default_colors();
	init_pair(PAIR_BAD, COLOR_RED, -1);
	init_pair(PAIR_GOOD, COLOR_GREEN, -1);
	init_pair(PAIR_WARN, COLOR_YELLOW, -1);
	init_pair(PAIR_SORT, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_BAR_R, COLOR_BLACK, COLOR_GREEN);
	init_pair(PAIR_BAR_B, COLOR_BLACK, COLOR_RED);
	init_pair(PAIR_BAR_F, COLOR_BLACK, COLOR_MAGENTA);
	init_pair(PAIR_BAR_K, COLOR_WHITE, COLOR_BLUE);
	init_pair(PAIR_LABEL, COLOR_BLACK, COLOR_CYAN);
}
