// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Plain mode: which terminals need it, and keys from the lines typed. */
#include <stdlib.h>
#include <string.h>
#include "test.h"
#include "tui/plain.h"

static void feed(struct tui_plain_input *in, const char *s)
{
	size_t n = strlen(s);

	memcpy(in->buf + in->len, s, n);
	in->len += n;
}

TEST(tui_plain_keys_from_lines)
{
	struct tui_plain_input in = { 0 };

	/* a line's newline only ends it */
	feed(&in, "q\n");
	CHECK_INT(tui_plain_key(&in, false), 'q');
	CHECK_INT(tui_plain_key(&in, false), ERR);
	/* an empty line is Enter */
	feed(&in, "\n");
	CHECK_INT(tui_plain_key(&in, false), '\n');
	CHECK_INT(tui_plain_key(&in, false), ERR);
	/* in a prompt the newline accepts what was typed */
	in = (struct tui_plain_input){ 0 };
	feed(&in, "/ba");
	CHECK_INT(tui_plain_key(&in, false), '/');
	CHECK_INT(tui_plain_key(&in, true), 'b');
	CHECK_INT(tui_plain_key(&in, true), 'a');
	feed(&in, "\n");
	CHECK_INT(tui_plain_key(&in, true), '\n');
	/* arrows, and Esc alone */
	in = (struct tui_plain_input){ 0 };
	feed(&in, "\x1b[B\x1b[D\x1bx\x1b");
	CHECK_INT(tui_plain_key(&in, false), KEY_DOWN);
	CHECK_INT(tui_plain_key(&in, false), KEY_LEFT);
	CHECK_INT(tui_plain_key(&in, false), 27);
	CHECK_INT(tui_plain_key(&in, false), 'x');
	CHECK_INT(tui_plain_key(&in, false), 27);
	CHECK_INT(tui_plain_key(&in, false), ERR);
}

TEST(tui_plain_needed_without_cursor_addressing)
{
	char *term = getenv("TERM") ? strdup(getenv("TERM")) : NULL;
	char why[96];

	setenv("TERM", "dumb", 1);
	CHECK(tui_plain_needed(why, sizeof(why)));
	CHECK_STR(why, "TERM=dumb cannot place the cursor");
	unsetenv("TERM");
	CHECK(tui_plain_needed(why, sizeof(why)));
	setenv("TERM", "no-such-terminal-type", 1);
	CHECK(tui_plain_needed(why, sizeof(why)));
	CHECK_STR(why, "unknown terminal type 'no-such-terminal-type'");
	setenv("TERM", "vt100", 1);
	CHECK(!tui_plain_needed(why, sizeof(why)));
	if (term)
		setenv("TERM", term, 1);
	else
		unsetenv("TERM");
	free(term);
}
