/*
 * The JSON pull reader (engine/base/jsonr.c) and the thresholds compare
 * parses (engine/compare/compare.c): values read back exactly (integers
 * without a double in between), bad text fails with the byte offset of the
 * first wrong byte, and skipping checks what it skips.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/tap.h"
#include "engine/compare/compare.h"
#include "engine/base/jsonr.h"

/* Skip the whole text; the error message, or "" when it is valid. */
static const char *check(const char *text, struct bt_err *err)
{
	struct bt_jr r;

	bt_err_clear(err);
	bt_jr_init(&r, text, strlen(text), "t.json", err);
	if (!bt_jr_skip(&r))
		bt_jr_finish(&r);
	return err->msg;
}

static void valid(void)
{
	static const char *const good[] = {
		"{}", "[]", " { \"a\" : [1, -2.5e3, 0, true, false, null, \"x\"] } ", "\"\\u00e9\\ud83d\\ude00\"",
		"-0", "0.5", "1E+2", "[[[[]]]]", "{\"a\":{\"b\":{}}}",
	};
	static const struct { const char *text, *msg; } bad[] = {
		{ "", "t.json: byte 0: unexpected end of the JSON text" },
		{ "{\"a\" 1}", "t.json: byte 5: expected ':' after an object key" },
		{ "{\"a\":1,}", "t.json: byte 7: expected a string key in an object" },
		{ "[1 2]", "t.json: byte 3: expected ',' or ']' in an array" },
		{ "01", "t.json: byte 1: text after the JSON value" },
		{ "1.", "t.json: byte 2: expected digits after '.' in a number" },
		{ "-", "t.json: byte 1: expected a number" },
		{ "[1e+]", "t.json: byte 4: expected digits in a number's exponent" },
		{ "\"a\tb\"", "t.json: byte 2: control character in a string" },
		{ "\"\\x\"", "t.json: byte 2: bad escape in a string" },
		{ "\"\\udc00\"", "t.json: byte 7: lone low surrogate in a \\u escape" },
		{ "\"\\ud800x\"", "t.json: byte 7: high surrogate without its low half in a \\u escape" },
		{ "\"\xff\"", "t.json: byte 2: string is not valid UTF-8" },
		{ "[tru]", "t.json: byte 1: expected a JSON value" },
		{ "{\"a\":1", "t.json: byte 6: unexpected end of the JSON text" },
		{ "[1]x", "t.json: byte 3: text after the JSON value" },
		{ "\"abc", "t.json: byte 4: unterminated string" },
		/* skipped strings cut after an escape: their scratch buffer freed (LSan) */
		{ "[\"\\u00e9abc", "t.json: byte 11: unterminated string" },
		{ "[\"\\n\x01\"]", "t.json: byte 4: control character in a string" },
	};
	struct bt_err err = BT_ERR_INIT;
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++)
		if (!ok(!*check(good[i], &err), "valid JSON reads"))
			printf("#   %s: %s\n", good[i], err.msg);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (!ok(!strcmp(check(bad[i].text, &err), bad[i].msg), bad[i].msg))
			printf("#   got '%s'\n", err.msg);
}

static void nesting(void)
{
	struct bt_err err = BT_ERR_INIT;
	char *deep = malloc(601);

	memset(deep, '[', 600);
	deep[600] = 0;
	check(deep, &err);
	if (!ok(!strcmp(err.msg, "t.json: byte 256: JSON nested too deeply"), "nesting is capped at the bracket too deep"))
		printf("#   got '%s'\n", err.msg);
	free(deep);
}

/* A lower cap set by the caller; the offset is the bracket's. */
static void max_depth(void)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_jr r;

	bt_jr_init(&r, "[[[]]]", 6, "t.json", &err);
	r.max_depth = 3;
	ok(!bt_jr_skip(&r) && !bt_jr_finish(&r), "three levels under a cap of 3");
	bt_jr_init(&r, "[[[[]]]]", 8, "t.json", &err);
	r.max_depth = 3;
	ok(bt_jr_skip(&r) == BT_EFORMAT && bt_jr_offset(&r) == 3, "a fourth level refused at its bracket");
	is_str(err.msg, "t.json: byte 3: JSON nested too deeply", "the message names it");
}

/* bt_jr_int on one number: its result, and *out (7 when untouched). */
static int int_of(const char *text, int64_t *out, struct bt_err *err)
{
	struct bt_jr r;
	int n;

	bt_err_clear(err);
	*out = 7;
	bt_jr_init(&r, text, strlen(text), "t.json", err);
	n = bt_jr_int(&r, out);
	if (n >= 0 && bt_jr_finish(&r))
		return -2;   /* the number was not consumed whole */
	return n;
}

static void integers(void)
{
	static const struct { const char *text; int n; int64_t v; } cases[] = {
		{ "0", 1, 0 }, { "-0", 1, 0 }, { " 42 ", 1, 42 }, { "-7", 1, -7 },
		{ "9007199254740993", 1, 9007199254740993 },           /* 2^53 + 1: a double rounds it */
		{ "-9007199254740993", 1, -9007199254740993 },
		{ "9223372036854775807", 1, INT64_MAX }, { "-9223372036854775808", 1, INT64_MIN },
		{ "9223372036854775808", 0, 7 }, { "-9223372036854775809", 0, 7 },
		{ "18446744073709551616", 0, 7 }, { "99999999999999999999999", 0, 7 },
		{ "1.5", 0, 7 }, { "1.0", 0, 7 }, { "1e3", 0, 7 }, { "1E+2", 0, 7 }, { "-0.0", 0, 7 },
	};
	struct bt_err err = BT_ERR_INIT;
	int64_t v;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int n = int_of(cases[i].text, &v, &err);
		if (!ok(n == cases[i].n && v == cases[i].v && !err.code, cases[i].text))
			printf("#   got %d, %lld (%s)\n", n, (long long)v, err.msg);
	}
	ok(int_of("-", &v, &err) == -1 && v == 7, "a lone minus fails");
	is_str(err.msg, "t.json: byte 1: expected a number", "at the byte after it");
	ok(int_of("\"1\"", &v, &err) == -1, "a string is no number");
	is_str(err.msg, "t.json: byte 0: expected a number", "where the value starts");
	ok(int_of("012", &v, &err) == -2 && v == 0, "a leading zero ends the number");
}

static void values(void)
{
	const char *text = "{\"name\": \"a\\\"b\\u00e9\\ud83d\\ude00\", \"n\": [12345678901234, -1.5e-3]}";
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf key = BT_BUF_INIT, s = BT_BUF_INIT;
	struct bt_jr r;
	double d[2] = { 0, 0 };
	int keys = 0, i = 0;

	bt_jr_init(&r, text, strlen(text), "t.json", &err);
	ok(!bt_jr_object(&r), "an object opens");
	while (bt_jr_key(&r, &key) == 1) {
		keys++;
		if (!strcmp(key.buf, "name")) {
			ok(bt_jr_peek(&r) == BT_J_STRING && !bt_jr_string(&r, &s), "a string value");
		} else {
			ok(!bt_jr_array(&r), "an array opens");
			while (bt_jr_more(&r) == 1 && i < 2)
				bt_jr_number(&r, &d[i++]);
		}
	}
	is_int(keys, 2, "two keys");
	is_str(s.buf, "a\"b\xc3\xa9\xf0\x9f\x98\x80", "escapes and a surrogate pair decode to UTF-8");
	ok(d[0] == 12345678901234.0 && d[1] == -1.5e-3, "numbers read exactly");
	ok(!bt_jr_finish(&r) && !err.code, "nothing after the value");
	bt_buf_release(&key);
	bt_buf_release(&s);
}

static void thresholds(void)
{
	struct bt_gate g;
	double v = 0;

	bt_gate_defaults(&g);
	ok(!bt_gate_parse_pct("5%", &v) && fabs(v - 0.05) < 1e-12, "5% is 0.05");
	ok(!bt_gate_parse_pct("0.1", &v) && fabs(v - 0.1) < 1e-12, "a bare number is a fraction");
	ok(bt_gate_parse_pct("5 percent", &v) && bt_gate_parse_pct("-1%", &v), "bad percentages fail");
	ok(!bt_gate_parse_floor("2ms", &g) && g.floor_ns == 2e6, "2ms");
	ok(!bt_gate_parse_floor("150us", &g) && g.floor_ns == 150e3, "150us");
	ok(!bt_gate_parse_floor("1.5 s", &g) && g.floor_ns == 1.5e9, "1.5 s");
	ok(!bt_gate_parse_floor("64KB", &g) && g.floor_bytes == 65536 && g.floor_ns == 1.5e9,
	   "64KB sets the bytes floor only");
	ok(!bt_gate_parse_floor("3", &g) && g.floor_count == 3, "a bare count");
	ok(bt_gate_parse_floor("2 parsecs", &g) && bt_gate_parse_floor("ms", &g), "bad floors fail");
}

int main(void)
{
	valid();
	nesting();
	max_depth();
	integers();
	values();
	thresholds();
	return done_testing();
}
