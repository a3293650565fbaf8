// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Label values escaped for the exposition formats. */
#include "exporter/labels.h"
#include "test.h"

static const char *esc(const char *s, size_t size)
{
	static char buf[256];

	prom_escape_label(buf, size, s);
	return buf;
}

TEST(prom_escape_label_values)
{
	CHECK_STR(esc("plain", 256), "plain");
	CHECK_STR(esc("a\\b\"c\nd", 256), "a\\\\b\\\"c\\nd");
	CHECK_STR(esc("tab\there", 256), "tab\there");
	CHECK_STR(esc("caf\xc3\xa9", 256), "caf\xc3\xa9");
	/* ill-formed UTF-8: one U+FFFD per maximal subpart */
	CHECK_STR(esc("a\xff" "b", 256), "a\xef\xbf\xbd" "b");
	CHECK_STR(esc("\xe2\x82", 256), "\xef\xbf\xbd");
	CHECK_STR(esc("\xc0\xaf", 256), "\xef\xbf\xbd\xef\xbf\xbd");
	/* the needed length, like snprintf */
	CHECK_INT(prom_escape_label(NULL, 0, "a\"b"), 4);
	CHECK_INT(prom_escape_label(NULL, 0, "\xff"), 3);
	/* never a cut escape */
	CHECK_STR(esc("ab\"c", 4), "ab");
	CHECK_STR(esc("ab\"c", 5), "ab\\\"");
	CHECK_STR(esc("a\xff", 3), "a");
	CHECK_STR(esc("x", 1), "");
}
