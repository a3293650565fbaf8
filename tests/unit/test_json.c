// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * JSON writer: exact escapes for every awkward byte, a strict validator
 * and decoder (written independently of the writer) for round trips,
 * numbers, nesting, commas and misuse.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include "util/json.h"
#include "fixture.h"
#include "test.h"

/* ---- a strict JSON validator that also decodes strings ---- */

struct jp {
	const unsigned char *s;
	size_t n, i;
	int depth;
};

static void jp_ws(struct jp *p)
{
	while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
		p->i++;
}

static bool jp_lit(struct jp *p, const char *lit)
{
	size_t len = strlen(lit);

	if (p->n - p->i < len || memcmp(p->s + p->i, lit, len))
		return false;
	p->i += len;
	return true;
}

static bool jp_digits(struct jp *p)
{
	size_t start = p->i;

	while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
		p->i++;
	return p->i > start;
}

static bool jp_number(struct jp *p)
{
	if (p->i < p->n && p->s[p->i] == '-')
		p->i++;
	if (p->i < p->n && p->s[p->i] == '0')
		p->i++;
	else if (!(p->i < p->n && p->s[p->i] >= '1' && p->s[p->i] <= '9') || !jp_digits(p))
		return false;
	if (p->i < p->n && p->s[p->i] == '.') {
		p->i++;
		if (!jp_digits(p))
			return false;
	}
	if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
		p->i++;
		if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
			p->i++;
		if (!jp_digits(p))
			return false;
	}
	return true;
}

static size_t put_utf8(unsigned char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | cp >> 6;
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = 0xe0 | cp >> 12;
		out[1] = 0x80 | (cp >> 6 & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | cp >> 18;
	out[1] = 0x80 | (cp >> 12 & 0x3f);
	out[2] = 0x80 | (cp >> 6 & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

/* Decode one UTF-8 character by value ranges; 0 when ill-formed. */
static size_t decode_utf8(const unsigned char *s, size_t n, unsigned *cp)
{
	static const unsigned min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	unsigned v;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		v = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		v = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		v = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[k] & 0x3f);
	}
	if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

static bool jp_hex4(struct jp *p, unsigned *v)
{
	*v = 0;
	if (p->n - p->i < 4)
		return false;
	for (int k = 0; k < 4; k++) {
		unsigned char c = p->s[p->i++];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			*v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			*v |= c - 'A' + 10;
		else
			return false;
	}
	return true;
}

/* A string; decoded into *out* (room for 4 * input) when not NULL. */
static bool jp_string(struct jp *p, unsigned char *out, size_t *outlen)
{
	size_t o = 0;

	if (p->i >= p->n || p->s[p->i] != '"')
		return false;
	p->i++;
	for (;;) {
		unsigned char tmp[4];
		unsigned cp, lo;
		size_t len;

		if (p->i >= p->n)
			return false;
		if (p->s[p->i] == '"') {
			p->i++;
			break;
		}
		if (p->s[p->i] < 0x20)
			return false;
		if (p->s[p->i] != '\\') {
			len = decode_utf8(p->s + p->i, p->n - p->i, &cp);
			if (!len)
				return false;
			if (out)
				memcpy(out + o, p->s + p->i, len);
			o += len;
			p->i += len;
			continue;
		}
		if (++p->i >= p->n)
			return false;
		switch (p->s[p->i++]) {
		case '"': cp = '"'; break;
		case '\\': cp = '\\'; break;
		case '/': cp = '/'; break;
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			if (!jp_hex4(p, &cp))
				return false;
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return false;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (!jp_lit(p, "\\u") || !jp_hex4(p, &lo))
					return false;
				if (lo < 0xdc00 || lo > 0xdfff)
					return false;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			break;
		default:
			return false;
		}
		len = put_utf8(tmp, cp);
		if (out)
			memcpy(out + o, tmp, len);
		o += len;
	}
	if (outlen)
		*outlen = o;
	return true;
}

static bool jp_value(struct jp *p);

static bool jp_container(struct jp *p, bool object)
{
	char close = object ? '}' : ']';

	if (++p->depth > 64)
		return false;
	p->i++;
	jp_ws(p);
	if (p->i < p->n && p->s[p->i] == close) {
		p->i++;
		p->depth--;
		return true;
	}
	for (;;) {
		jp_ws(p);
		if (object) {
			if (!jp_string(p, NULL, NULL))
				return false;
			jp_ws(p);
			if (!jp_lit(p, ":"))
				return false;
		}
		if (!jp_value(p))
			return false;
		jp_ws(p);
		if (p->i >= p->n)
			return false;
		if (p->s[p->i] == close) {
			p->i++;
			p->depth--;
			return true;
		}
		if (p->s[p->i++] != ',')
			return false;
	}
}

static bool jp_value(struct jp *p)
{
	jp_ws(p);
	if (p->i >= p->n)
		return false;
	switch (p->s[p->i]) {
	case '{':
		return jp_container(p, true);
	case '[':
		return jp_container(p, false);
	case '"':
		return jp_string(p, NULL, NULL);
	case 't':
		return jp_lit(p, "true");
	case 'f':
		return jp_lit(p, "false");
	case 'n':
		return jp_lit(p, "null");
	default:
		return jp_number(p);
	}
}

/* Exactly one JSON value in s[0..n). */
static bool json_valid(const char *s, size_t n)
{
	struct jp p = { .s = (const unsigned char *)s, .n = n };

	if (!jp_value(&p))
		return false;
	jp_ws(&p);
	return p.i == n;
}

#define VALID(lit) json_valid(lit, sizeof(lit) - 1)

TEST(json_validator_rejects_bad_documents)
{
	/* the checker itself must be strict, or the round trips prove nothing */
	CHECK(VALID("{\"a\":[1,-2.5e+3,true,null,\"x\"]}"));
	CHECK(!VALID("{\"a\":1,}"));
	CHECK(!VALID("[1 2]"));
	CHECK(!VALID("\"a\nb\""));
	CHECK(!VALID("\"\\x41\""));
	CHECK(!VALID("\"\xc0\xaf\""));
	CHECK(!VALID("\"\xed\xa0\x80\""));
	CHECK(!VALID("\"\\udc00\""));
	CHECK(!VALID("nan"));
	CHECK(!VALID("01"));
	CHECK(!VALID("1."));
	CHECK(!VALID("{\"a\" 1}"));
	CHECK(!VALID("[1]]"));
	CHECK(!VALID("\"\xe0\x80\xaf\""));
	CHECK(!VALID("\"\xf4\x90\x80\x80\""));
	CHECK(!VALID("\"\xe2\x82\""));
	CHECK(VALID("\"\\ud834\\udd1e \xf0\x9d\x84\x9e\""));
}

/* ---- escaping ---- */

static const char *escaped(const char *s, size_t len)
{
	static char buf[1024];

	json_escape(buf, sizeof(buf), s, len);
	return buf;
}

#define ESC(lit) escaped(lit, sizeof(lit) - 1)

TEST(json_escape_quotes_backslash)
{
	CHECK_STR(ESC("plain text/ok"), "plain text/ok");
	CHECK_STR(ESC("a\"b\\c"), "a\\\"b\\\\c");
	CHECK_STR(ESC("\"\""), "\\\"\\\"");
	CHECK_STR(ESC("\\u0041"), "\\\\u0041");
	CHECK_STR(ESC(""), "");
}

TEST(json_escape_control_bytes)
{
	char all[32];

	for (int c = 0; c < 32; c++)
		all[c] = (char)c;
	CHECK_STR(escaped(all, sizeof(all)),
		  "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f"
		  "\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
		  "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f");
	CHECK_STR(ESC("\x7f"), "\\u007f");
	CHECK_STR(ESC("a\x1b[31mb"), "a\\u001b[31mb");
	CHECK_STR(ESC(" ~"), " ~");
}

TEST(json_escape_valid_utf8_kept)
{
	static const char *ok[] = {
		"\xc2\x80",		/* U+0080, smallest 2-byte */
		"\xc3\xa9t\xc3\xa9",	/* été */
		"\xdf\xbf",		/* U+07FF */
		"\xe0\xa0\x80",		/* U+0800, smallest 3-byte */
		"\xe2\x82\xac",		/* € */
		"\xed\x9f\xbf",		/* U+D7FF, below the surrogates */
		"\xee\x80\x80",		/* U+E000, above them */
		"\xef\xbf\xbf",		/* U+FFFF */
		"\xf0\x90\x80\x80",	/* U+10000, smallest 4-byte */
		"\xf0\x9d\x84\x9e",	/* 𝄞 */
		"\xf4\x8f\xbf\xbf",	/* U+10FFFF, the last */
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK_STR(escaped(ok[i], strlen(ok[i])), ok[i]);
}

#define FFFD "\\ufffd"

TEST(json_escape_invalid_utf8_replaced)
{
	CHECK_STR(ESC("\x80"), FFFD);			/* stray continuation */
	CHECK_STR(ESC("a\xbf" "b"), "a" FFFD "b");
	CHECK_STR(ESC("\xc0\xaf"), FFFD FFFD);		/* overlong '/' */
	CHECK_STR(ESC("\xc1\xbf"), FFFD FFFD);
	CHECK_STR(ESC("\xe0\x80\xaf"), FFFD FFFD FFFD);	/* overlong 3-byte */
	CHECK_STR(ESC("\xe0\x9f\xbf"), FFFD FFFD FFFD);
	CHECK_STR(ESC("\xf0\x80\x80\xaf"), FFFD FFFD FFFD FFFD); /* overlong 4-byte */
	CHECK_STR(ESC("\xf0\x8f\xbf\xbf"), FFFD FFFD FFFD FFFD);
	CHECK_STR(ESC("\xed\xa0\x80"), FFFD FFFD FFFD);	/* high surrogate */
	CHECK_STR(ESC("\xed\xbf\xbf"), FFFD FFFD FFFD);	/* low surrogate */
	CHECK_STR(ESC("\xf4\x90\x80\x80"), FFFD FFFD FFFD FFFD); /* U+110000 */
	CHECK_STR(ESC("\xf5\x80\x80\x80"), FFFD FFFD FFFD FFFD);
	CHECK_STR(ESC("\xfe\xff"), FFFD FFFD);
	/* truncated sequences: the valid prefix is one replacement */
	CHECK_STR(ESC("\xe2\x82"), FFFD);
	CHECK_STR(ESC("\xe2\x82" "A"), FFFD "A");
	CHECK_STR(ESC("\xf0\x9d\x84"), FFFD);
	CHECK_STR(ESC("\xf0\x9d\x84\xe2\x82\xac"), FFFD "\xe2\x82\xac");
	CHECK_STR(ESC("\xc3"), FFFD);
	CHECK_STR(ESC("\xc3" "x\xc3\xa9"), FFFD "x\xc3\xa9");
	CHECK_STR(ESC("\xc3\x22"), FFFD "\\\"");
	CHECK_STR(ESC("\xe2\x0a"), FFFD "\\n");
}

TEST(json_escape_truncates_whole_escapes)
{
	char buf[8];

	/* "ab" then "\n" would need 4 bytes + NUL: cut before the escape */
	CHECK_INT(json_escape(buf, 4, "ab\nc", 4), 5);
	CHECK_STR(buf, "ab");
	CHECK_INT(json_escape(buf, 6, "\x01x", 2), 7);
	CHECK_STR(buf, "");
	CHECK_INT(json_escape(buf, 7, "\x01x", 2), 7);
	CHECK_STR(buf, "\\u0001");
	CHECK_INT(json_escape(buf, 8, "\x01x", 2), 7);
	CHECK_STR(buf, "\\u0001x");
	CHECK_INT(json_escape(buf, 3, "\xe2\x82\xac", 3), 3);
	CHECK_STR(buf, "");
	CHECK_INT(json_escape(NULL, 0, "abc", 3), 3);
}

/* ---- the writer ---- */

/* A deterministic byte source biased to the UTF-8 boundaries. */
static unsigned next_rand(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 16;
}

static unsigned char pick_byte(unsigned *state)
{
	static const unsigned char edge[] = {
		0x00, 0x09, 0x1f, 0x20, '"', '\\', 'a', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0,
		0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf4,
		0xf5, 0xff,
	};
	unsigned r = next_rand(state);

	if (r & 1)
		return edge[(r >> 1) % sizeof(edge)];
	return (unsigned char)(r >> 3);
}

/* Whether s is well-formed UTF-8, by the test's own decoder. */
static bool utf8_ok(const unsigned char *s, size_t n)
{
	unsigned cp;

	for (size_t i = 0; i < n;) {
		size_t len = decode_utf8(s + i, n - i, &cp);

		if (!len)
			return false;
		i += len;
	}
	return true;
}

/*
 * Write *in* as a JSON string and check it: valid JSON, decoding to the
 * input when that was UTF-8 (else to UTF-8 holding U+FFFD), and equal to
 * json_escape() of the same bytes. Returns a reason on failure.
 */
static const char *round_trip(const unsigned char *in, size_t n)
{
	unsigned char dec[4 * 64 + 8];
	char esc[8 * 64 + 1];
	const char *why = NULL;
	struct json_writer *w;
	size_t declen = 0, esclen;
	struct fixture_mem m;
	struct jp p;

	if (n > 64)
		return "input too long for the test buffers";
	fixture_mem_open(&m);
	w = json__new(m.f);
	json__string_n(w, (const char *)in, n);
	if (!json__ok(w))
		why = "writer failed";
	json__free(w);
	fixture_mem_text(&m);
	p = (struct jp){ .s = (const unsigned char *)m.buf, .n = m.len };
	esclen = json_escape(esc, sizeof(esc), (const char *)in, n);
	if (why)
		;
	else if (!json_valid(m.buf, m.len))
		why = "not valid JSON";
	else if (!jp_string(&p, dec, &declen))
		why = "not a JSON string";
	else if (utf8_ok(in, n) && (declen != n || memcmp(dec, in, n)))
		why = "does not decode to the input";
	else if (!utf8_ok(in, n) && (!utf8_ok(dec, declen) ||
				     !memmem(dec, declen, "\xef\xbf\xbd", 3)))
		why = "invalid input not replaced by U+FFFD";
	else if (esclen + 2 != m.len || memcmp(esc, m.buf + 1, esclen))
		why = "json_escape() differs from the writer";
	fixture_mem_close(&m);
	return why;
}

TEST(json_string_round_trip_random_bytes)
{
	unsigned state = 12345;
	int valid = 0, invalid = 0;

	for (int iter = 0; iter < 20000; iter++) {
		unsigned char in[24];
		size_t n = next_rand(&state) % sizeof(in);
		const char *why;

		for (size_t k = 0; k < n; k++)
			in[k] = pick_byte(&state);
		if (utf8_ok(in, n))
			valid++;
		else
			invalid++;
		why = round_trip(in, n);
		if (why) {
			char hex[3 * sizeof(in) + 1] = "";

			for (size_t k = 0; k < n; k++)
				snprintf(hex + 3 * k, 4, "%02x ", in[k]);
			test_fail(__FILE__, __LINE__, "%s: %s", why, hex);
			break;
		}
	}
	/* both kinds of input were exercised */
	CHECK(valid > 1000);
	CHECK(invalid > 1000);
}

TEST(json_nesting_and_commas)
{
	struct fixture_mem m;
	struct json_writer *w;

	fixture_mem_open(&m);
	w = json__new(m.f);
	json__begin_object(w);
	CHECK_INT(json__depth(w), 1);
	json__key(w, "a");
	json__begin_array(w);
	json__int(w, 1);
	json__int(w, -2);
	json__begin_object(w);
	json__key(w, "b");
	json__null(w);
	json__end_object(w);
	json__begin_array(w);
	json__end_array(w);
	CHECK_INT(json__depth(w), 2);
	json__end_array(w);
	json__key(w, "c");
	json__begin_object(w);
	json__end_object(w);
	json__key(w, "d\"");
	json__bool(w, true);
	json__key(w, "e");
	json__bool(w, false);
	json__key(w, "u");
	json__uint(w, UINT64_MAX);
	json__key(w, "i");
	json__int(w, INT64_MIN);
	json__key(w, "s");
	json__string(w, "x\ty");
	json__end_object(w);
	json__newline(w);
	json__begin_array(w);
	json__end_array(w);
	json__newline(w);
	CHECK_INT(json__depth(w), 0);
	CHECK(json__ok(w));
	CHECK_STR(fixture_mem_text(&m),
		  "{\"a\":[1,-2,{\"b\":null},[]],\"c\":{},\"d\\\"\":true,\"e\":false,"
		  "\"u\":18446744073709551615,\"i\":-9223372036854775808,\"s\":\"x\\ty\"}\n"
		  "[]\n");
	CHECK(json_valid(m.buf, strchr(m.buf, '\n') - m.buf));
	json__free(w);
	fixture_mem_close(&m);
}

TEST(json_members_are_key_and_value)
{
	struct fixture_mem m;
	struct json_writer *w;

	fixture_mem_open(&m);
	w = json__new(m.f);
	json__begin_object(w);
	json__member_string(w, "s", "a\"b");
	json__member_int(w, "i", -3);
	json__member_uint(w, "u", UINT64_MAX);
	json__member_double(w, "d", NAN);
	json__member_real(w, "r", 2.0);
	json__member_bool(w, "b", true);
	json__end_object(w);
	json__newline(w);
	CHECK(json__ok(w));
	CHECK_STR(fixture_mem_text(&m),
		  "{\"s\":\"a\\\"b\",\"i\":-3,\"u\":18446744073709551615,\"d\":null,"
		  "\"r\":2.0,\"b\":true}\n");
	json__free(w);

	/* a member outside an object is a misuse like a key there */
	w = json__new(m.f);
	json__member_int(w, "i", 1);
	CHECK(!json__ok(w));
	json__free(w);
	fixture_mem_close(&m);
}

/* What *put* writes of *v*, alone. */
static char *write_number(void (*put)(struct json_writer *w, double v), double v)
{
	static char out[64];
	struct fixture_mem m;
	struct json_writer *w;

	fixture_mem_open(&m);
	w = json__new(m.f);
	put(w, v);
	CHECK(json__ok(w));
	snprintf(out, sizeof(out), "%s", fixture_mem_text(&m));
	json__free(w);
	fixture_mem_close(&m);
	return out;
}

static char *write_double(double v)
{
	return write_number(json__double, v);
}

static char *write_real(double v)
{
	return write_number(json__real, v);
}

TEST(json_double_values)
{
	static const double trip[] = {
		0.1, 1.0 / 3, 2.0 / 3, 1e-300, 5e-324, 1.7976931348623157e308, 123.456,
		1700000000.123456789, -0.5, 1e21, 12345.678901234567,
	};

	CHECK_STR(write_double(NAN), "null");
	CHECK_STR(write_double(INFINITY), "null");
	CHECK_STR(write_double(-INFINITY), "null");
	CHECK_STR(write_double(0.0), "0");
	CHECK_STR(write_double(-0.0), "0");
	CHECK_STR(write_double(42.0), "42");
	CHECK_STR(write_double(-7.0), "-7");
	CHECK_STR(write_double(0.1), "0.1");
	CHECK_STR(write_double(0.25), "0.25");
	CHECK_STR(write_double(1.0 / 3), "0.3333333333333333");
	/* large integral counts keep every digit, no exponent */
	CHECK_STR(write_double(123456789012345.0), "123456789012345");
	CHECK_STR(write_double(1e20), "100000000000000000000");
	CHECK_STR(write_double(1e21), "1e+21");
	CHECK_STR(write_double(1700000000.5), "1700000000.5");
	for (size_t i = 0; i < sizeof(trip) / sizeof(trip[0]); i++) {
		const char *s = write_double(trip[i]);

		CHECK(json_valid(s, strlen(s)));
		CHECK(strtod(s, NULL) == trip[i]);
	}
}

/* Reals read back bit for bit, and as reals: a parser that keeps integers
 * apart sees no integer (1e20 would overflow int64 as one). */
TEST(json_real_values)
{
	static const double trip[] = {
		0.1, 1.0 / 3, 1e-300, 5e-324, -5e-324, 1.7976931348623157e308, 1e20, 1e15,
		18446744073709551616.0, 1718000000.0, 1700000000.123456789, 4102444800.123456789,
		2.2250738585072014e-308, -0.0, 0.0, 100.0,
	};

	CHECK_STR(write_real(NAN), "null");
	CHECK_STR(write_real(-INFINITY), "null");
	CHECK_STR(write_real(1.0), "1.0");
	CHECK_STR(write_real(-0.0), "-0.0");
	CHECK_STR(write_real(0.1), "0.1");
	CHECK_STR(write_real(100.0), "100.0");
	CHECK_STR(write_real(1718000001.25), "1718000001.25");
	CHECK_STR(write_real(1e20), "1e+20");
	CHECK_STR(write_real(1.0 / 3), "0.3333333333333333");
	for (size_t i = 0; i < sizeof(trip) / sizeof(trip[0]); i++) {
		const char *s = write_real(trip[i]);
		double back = strtod(s, NULL);

		CHECK(json_valid(s, strlen(s)));
		CHECK(strpbrk(s, ".e") != NULL);
		CHECK(!memcmp(&back, &trip[i], sizeof(back)));
	}
}

TEST(json_misuse_fails)
{
	struct json_writer *w;
	struct fixture_mem m;

	fixture_mem_open(&m);

	w = json__new(m.f);
	json__begin_object(w);
	json__int(w, 1);		/* value without a key */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	json__begin_array(w);
	json__key(w, "k");		/* key in an array */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	json__begin_object(w);
	json__end_array(w);		/* mismatched end */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	json__end_object(w);		/* end at depth 0 */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	json__begin_object(w);
	json__key(w, "k");
	json__end_object(w);		/* key without a value */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	json__begin_object(w);
	json__newline(w);		/* newline inside a value */
	CHECK(!json__ok(w));
	json__free(w);

	w = json__new(m.f);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		json__begin_array(w);
	CHECK(json__ok(w));
	CHECK_INT(json__depth(w), JSON_MAX_DEPTH);
	json__begin_array(w);		/* one too deep */
	CHECK(!json__ok(w));
	CHECK_INT(json__depth(w), JSON_MAX_DEPTH);
	json__free(w);

	json__free(NULL);
	fixture_mem_close(&m);
}

TEST(json_write_error_reported)
{
	FILE *f = fopen("/dev/full", "w");
	struct json_writer *w;

	CHECK(f != NULL);
	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	w = json__new(f);
	json__string(w, "no space left");
	CHECK(!json__ok(w));
	json__free(w);
	fclose(f);
}
