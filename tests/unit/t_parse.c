/*
 * Unit tests of the small parsers importers rely on: the extra-JSON
 * reader, method symbol splitting, UTF-8 repair and the byte reader.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "importers/android/json.h"
#include "importers/reader.h"
#include "importers/symbol.h"
#include "tests/tap.h"
#include "engine/base/utf8.h"

static void test_json(void)
{
	int64_t v = 0;
	size_t where = 0;

	is_int(bt_json_get_int("{\"processId\":12345}", 19, "processId", &v, NULL), BT_JSON_FOUND, "json: pid found");
	is_int(v, 12345, "json: pid value");
	is_int(bt_json_get_int("{\"a\":[1,{\"b\":2}],\"startTime\":-7 }", 33, "startTime", &v, NULL), BT_JSON_FOUND, "json: nested skipped");
	is_int(v, -7, "json: negative value");
	is_int(bt_json_get_int("{}", 2, "processId", &v, NULL), BT_JSON_MISSING, "json: empty object");
	is_int(bt_json_get_int("{\"processId\":\"12\"}", 18, "processId", &v, NULL), BT_JSON_NOT_INT, "json: string pid");
	is_int(bt_json_get_int("{\"processId\":1.5}", 17, "processId", &v, NULL), BT_JSON_NOT_INT, "json: real pid");
	is_int(bt_json_get_int("{\"processId\":99999999999999999999}", 34, "processId", &v, NULL), BT_JSON_NOT_INT, "json: overflow");
	is_int(bt_json_get_int("{\"processId\":12", 15, "processId", &v, &where), BT_JSON_BAD, "json: truncated");
	is_int((long long)where, 15, "json: truncated at end");
	is_int(bt_json_get_int("{\"p\":1} x", 9, "p", &v, &where), BT_JSON_BAD, "json: trailing garbage");
	is_int(bt_json_get_int("", 0, "p", &v, NULL), BT_JSON_BAD, "json: empty text");
	{
		char deep[200];
		int i;
		memset(deep, '[', sizeof deep);
		memcpy(deep, "{\"a\":", 5);
		for (i = 5; i < 200; i++)
			deep[i] = '[';
		is_int(bt_json_get_int(deep, sizeof deep, "a", &v, NULL), BT_JSON_BAD, "json: deep nesting refused");
	}
}

static void span_is(struct bt_span s, const char *want, const char *what)
{
	char buf[128];

	if (!s.p) {
		is_str(NULL, want, what);
		return;
	}
	snprintf(buf, sizeof buf, "%.*s", (int)s.len, s.p);
	is_str(buf, want, what);
}

static void test_symbol(void)
{
	struct bt_symbol s;
	const char *a = "void java.lang.Object.wait(long, int)";
	const char *b = "com.example.Foo.bar(com.example.Baz, int)";
	const char *c = "java.lang.String[] a.b.c()";

	ok(bt_symbol_parse(a, strlen(a), &s), "symbol: art shape parses");
	span_is(s.ret, "void", "symbol: return type");
	span_is(s.cls, "java.lang.Object", "symbol: class");
	span_is(s.method, "wait", "symbol: method");
	span_is(s.params, "long, int", "symbol: params");
	ok(bt_symbol_parse(b, strlen(b), &s), "symbol: retraced shape parses");
	span_is(s.ret, NULL, "symbol: retraced has no return type");
	span_is(s.cls, "com.example.Foo", "symbol: retraced class");
	ok(bt_symbol_parse(c, strlen(c), &s), "symbol: array return");
	span_is(s.ret, "java.lang.String[]", "symbol: array return type");
	span_is(s.params, "", "symbol: empty params");
	ok(!bt_symbol_parse("<runtime method>", 16, &s), "symbol: runtime frame not parsed");
	ok(!bt_symbol_parse("(", 1, &s), "symbol: lone paren");
	ok(!bt_symbol_parse("a b)(", 5, &s), "symbol: reversed parens");
	ok(!bt_symbol_parse("", 0, &s), "symbol: empty");
}

static void test_utf8(void)
{
	struct bt_buf b = BT_BUF_INIT;

	ok(bt_utf8_valid("main", 4), "utf8: ascii");
	ok(bt_utf8_valid("\xC3\xA9t\xC3\xA9", 5), "utf8: accents");
	ok(!bt_utf8_valid("\xC3\x28", 2), "utf8: bad continuation");
	ok(!bt_utf8_valid("\xC0\xAF", 2), "utf8: overlong");
	ok(!bt_utf8_valid("\xED\xA0\x80", 3), "utf8: surrogate");
	ok(!bt_utf8_valid("a\0b", 3), "utf8: NUL refused");
	ok(!bt_utf8_valid("\xE2\x82", 2), "utf8: truncated sequence");
	bt_utf8_sanitize(&b, "ab\xFF" "c\xC3\x28", 6);
	is_str(b.buf, "ab\xEF\xBF\xBD" "c\xEF\xBF\xBD(", "utf8: repaired");
	ok(bt_utf8_valid(b.buf, b.len), "utf8: repaired is valid");
	bt_buf_release(&b);
}

static void test_reader(void)
{
	static const unsigned char bytes[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct bt_reader r;
	struct bt_err err = BT_ERR_INIT;

	bt_rd_init(&r, bytes, sizeof bytes, "x.bin");
	is_int(bt_rd_need(&r, 10, "header", &err), BT_OK, "reader: exact fit");
	is_int(bt_rd_u16(&r), 0x0201, "reader: u16 little-endian");
	is_int(bt_rd_u32(&r), 0x06050403, "reader: u32 little-endian");
	is_int(bt_rd_need(&r, 5, "record", &err), BT_EFORMAT, "reader: overrun refused");
	is_str(err.msg, "truncated record in 'x.bin' at offset 6: need 5 bytes, 4 left", "reader: message names file and offset");
}

int main(void)
{
	test_json();
	test_symbol();
	test_utf8();
	test_reader();
	return done_testing();
}
