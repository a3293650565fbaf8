// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Plain mode: a terminal without cursor addressing still gets the
 * interactive view, each screen printed as text (top -b style) and the
 * keys read from the lines the user types, the terminal left as it is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <term.h>
#include <unistd.h>
#include "tui/plain.h"

#define KEY_ESC 27
#define DEFAULT_LINES 24
#define DEFAULT_COLS 80
#define MAX_COLS 512

static FILE *plain_out, *plain_in;

bool tui_plain_needed(char *why, size_t size)
{
	const char *term = getenv("TERM");
	const char *cup;
	int err = 0;

	if (!term || !term[0] || !strcmp(term, "dumb")) {
		snprintf(why, size, "TERM=%s cannot place the cursor", term ? term : "");
		return true;
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, size, "unknown terminal type '%s'", term);
		return true;
	}
	cup = tigetstr("cup");
	del_curterm(cur_term);
	if (cup && cup != (const char *)-1)
		return false;
	snprintf(why, size, "TERM=%s cannot place the cursor", term);
	return true;
}

static int env_size(const char *name, int def)
{
	const char *v = getenv(name);
	int n = v ? atoi(v) : 0;

	return n > 0 ? n : def;
}

void tui_plain_resize(void)
{
	struct winsize ws = { 0 };
	int height = DEFAULT_LINES, width = DEFAULT_COLS;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		height = ws.ws_row;
		width = ws.ws_col;
	} else {
		height = env_size("LINES", height);
		width = env_size("COLUMNS", width);
	}
	if (width > MAX_COLS)
		width = MAX_COLS;
	if (height != LINES || width != COLS)
		resizeterm(height, width);
}

SCREEN *tui_plain_open(void)
{
	SCREEN *scr;

	plain_out = fopen("/dev/null", "w");
	plain_in = fopen("/dev/null", "r");
	/* "dumb" is in every terminfo: the screen lives in memory, its output goes nowhere */
	scr = plain_out && plain_in ? newterm("dumb", plain_out, plain_in) : NULL;
	if (!scr) {
		tui_plain_close(NULL);
		return NULL;
	}
	set_term(scr);
	tui_plain_resize();
	return scr;
}

void tui_plain_close(SCREEN *scr)
{
	if (scr) {
		endwin();
		delscreen(scr);
	}
	if (plain_out)
		fclose(plain_out);
	if (plain_in)
		fclose(plain_in);
	plain_out = plain_in = NULL;
}

void tui_plain_print(FILE *f)
{
	char line[MAX_COLS + 1];
	int last = -1;

	for (int y = 0; y < LINES; y++) {
		mvinnstr(y, 0, line, COLS < MAX_COLS ? COLS : MAX_COLS);
		if (line[strspn(line, " ")])
			last = y;
	}
	for (int y = 0; y <= last; y++) {
		size_t len;

		mvinnstr(y, 0, line, COLS < MAX_COLS ? COLS : MAX_COLS);
		len = strlen(line);
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
	}
	fputc('\n', f);
	fflush(f);
}

int tui_plain_read(struct tui_plain_input *in, int fd)
{
	ssize_t n;

	if (in->pos == in->len)
		in->pos = in->len = 0;
	if (in->len == sizeof(in->buf))
		return 0;
	n = read(fd, in->buf + in->len, sizeof(in->buf) - in->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	in->len += n;
	return 0;
}

static int arrow(struct tui_plain_input *in)
{
	static const int keys[] = { KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT };
	unsigned char c;

	if (in->len - in->pos < 2 || in->buf[in->pos] != '[')
		return KEY_ESC;
	c = in->buf[in->pos + 1];
	if (c < 'A' || c > 'D')
		return KEY_ESC;
	in->pos += 2;
	return keys[c - 'A'];
}

int tui_plain_key(struct tui_plain_input *in, bool prompt)
{
	while (in->pos < in->len) {
		unsigned char c = in->buf[in->pos++];

		if (c != '\n') {
			in->in_line = true;
			return c == KEY_ESC ? arrow(in) : c;
		}
		if (!in->in_line || prompt) {
			in->in_line = false;
			return '\n';
		}
		in->in_line = false;
	}
	return ERR;
}
