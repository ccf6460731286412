/*
 * Unit tests of the small parsers importers rely on: the Android dump's
 * extra JSON (read with engine/base/jsonr), method symbol splitting, UTF-8
 * repair and the byte reader.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "importers/android/android_int.h"
#include "importers/importer.h"
#include "importers/reader.h"
#include "importers/symbol.h"
#include "tests/tap.h"
#include "engine/base/utf8.h"

#define NONE INT64_MIN

/* What the Android importer makes of one extra JSON: the pid and start
 * time it keeps (NONE: none) and the warning it gives ("" for none). */
struct extra_case {
	const char *json, *what;
	int64_t pid, start_ms;
	const char *code, *detail;
};

static const char *warning(const struct bt_diag *d, const char *code)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->items[i].code, code))
			return d->items[i].detail;
	return NULL;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

/* A sampling file of no records whose header carries json, imported. */
static void extra_one(const struct extra_case *k)
{
	struct bt_import_opts o = { 0 };
	struct bt_android_input in = { "x.bin", NULL, 0, NULL, NULL, 0, NULL, NULL };
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	size_t len = strlen(k->json);
	unsigned char *b = bt_xcalloc(28 + len, 1);
	int64_t pid = -2, start = -2;
	const char *d;

	put_u32(b, 0x01020304u);
	put_u32(b + 8, 5);
	put_u32(b + 24, (uint32_t)len);
	memcpy(b + 28, k->json, len);
	in.data = b;
	in.len = 28 + len;
	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err) || bt_db_begin(db, &err) ||
	    bt_android_import_bytes(db, &in, &o, &diag, &err) ||
	    bt_db_meta_int(db, "pid", NONE, &pid, &err) ||
	    bt_db_meta_int(db, "start_time_ns", NONE, &start, &err))
		printf("#   %s: %s\n", k->what, err.msg);
	is_int(pid, k->pid, k->what);
	is_int(start, k->start_ms == NONE ? NONE : k->start_ms * 1000000, k->what);
	d = *k->code ? warning(&diag, k->code) : NULL;
	if (*k->code)
		is_str(d, k->detail, k->what);
	ok(!warning(&diag, "bad_extra_json") == (strcmp(k->code, "bad_extra_json") != 0), k->what);
	ok(!warning(&diag, "missing_pid") == (strcmp(k->code, "missing_pid") != 0), k->what);
	bt_db_close(db);
	free(b);
}

/* The extra JSON (format spec §3): integer members read exactly, anything
 * else about them a missing pid, malformed text a warning with the offset
 * in the file (the JSON starts at 28) of its first wrong byte. */
static void test_extra(void)
{
	static const char nopid[] = "extra JSON in 'x.bin' has no integer processId; the main thread is unknown";
#define BAD(off) "extra JSON in 'x.bin' is malformed at offset " #off "; pid unknown"
	static const struct extra_case cases[] = {
		{ "{\"processId\":12345}", "extra: pid found", 12345, NONE, "", "" },
		{ "{\"a\":[1,{\"b\":2}],\"startTime\":-7 }", "extra: nested values skipped, a negative start",
		  NONE, -7, "missing_pid", nopid },
		{ " { \"processId\" : 7 , \"startTime\" : 1700000000123 } ", "extra: whitespace, both members",
		  7, 1700000000123, "", "" },
		{ "{\"processId\":9007199254740993}", "extra: a pid above 2^53 read exactly",
		  9007199254740993, NONE, "pid_truncated",
		  "pid 9007199254740993 does not fit the format's 16-bit tids; main thread matched as tid 1, other tids may alias" },
		{ "{\"processId\":-0}", "extra: -0 is 0", 0, NONE, "", "" },
		{ "{}", "extra: empty object", NONE, NONE, "missing_pid", nopid },
		{ "", "extra: no extra JSON is a missing pid only", NONE, NONE, "missing_pid", nopid },
		{ "{\"processId\":\"12\"}", "extra: a string pid", NONE, NONE, "missing_pid", nopid },
		{ "{\"processId\":1.5}", "extra: a fraction", NONE, NONE, "missing_pid", nopid },
		{ "{\"processId\":1e3}", "extra: an exponent", NONE, NONE, "missing_pid", nopid },
		{ "{\"processId\":99999999999999999999}", "extra: out of range", NONE, NONE, "missing_pid", nopid },
		{ "{\"processId\":9223372036854775808,\"startTime\":-9223}", "extra: one past INT64_MAX",
		  NONE, -9223, "missing_pid", nopid },
		{ "{\"processId\":5,\"processId\":null}", "extra: the last of repeated keys counts",
		  NONE, NONE, "missing_pid", nopid },
		{ "{\"process\\u0049d\":5}", "extra: keys compare unescaped", 5, NONE, "", "" },
		{ "{\"processId\":12", "extra: truncated", NONE, NONE, "bad_extra_json", BAD(43) },
		{ "{\"p\":1} x", "extra: trailing garbage", NONE, NONE, "bad_extra_json", BAD(36) },
		{ "[1]", "extra: not an object", NONE, NONE, "bad_extra_json", BAD(28) },
		{ "{\"processId\":1.}", "extra: a bad number, at its wrong byte", NONE, NONE, "bad_extra_json", BAD(43) },
		{ "{\"processId\":-}", "extra: a lone minus", NONE, NONE, "bad_extra_json", BAD(42) },
		{ "{\"processId\":012}", "extra: a leading zero", NONE, NONE, "bad_extra_json", BAD(42) },
		{ "{\"processId\":5,}", "extra: a trailing comma", NONE, NONE, "bad_extra_json", BAD(43) },
		{ "{\"a\":\"\\x\",\"processId\":5}", "extra: a bad escape", NONE, NONE, "bad_extra_json", BAD(35) },
		{ "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"processId\":3}",
		  "extra: 32 levels inside the object", 3, NONE, "", "" },
		{ "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],\"processId\":3}",
		  "extra: 33 levels refused at the 33rd bracket", NONE, NONE, "bad_extra_json", BAD(65) },
	};
#undef BAD
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		extra_one(&cases[i]);
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

/* The repair one character at a time, as the maximal-subpart rule reads
 * (the reference for the run-at-once one): a valid sequence's length at
 * p, else 0. */
static size_t ref_seq(const unsigned char *p, size_t left)
{
	unsigned c = p[0], lo = 0x80, hi = 0xBF;
	size_t n, i;

	if (c >= 0x01 && c < 0x80)
		return 1;
	n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : lo;
	hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : hi;
	if (!n || left < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

static void ref_sanitize(struct bt_buf *b, const unsigned char *p, size_t len)
{
	size_t i = 0, n;

	while (i < len) {
		if ((n = ref_seq(p + i, len - i))) {
			bt_buf_add(b, p + i, n);
			i += n;
			continue;
		}
		bt_buf_adds(b, "\xEF\xBF\xBD");
		for (i++; i < len && (p[i] & 0xC0) == 0x80 && !ref_seq(p + i, len - i); i++)
			;
	}
}

/* Long ASCII runs (read eight bytes a step) with a bad byte, a NUL or a
 * sequence at every offset and cut at every length: as the reference. */
static void test_utf8_runs(void)
{
	static const char *const odd[] = { "\xFF", "", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC3",
					   "\xE2\x82", "\xED\xA0\x80", "\x80\x80", "\xF4\x90\x80\x80" };
	unsigned char in[64];
	size_t k, at, len, bad = 0, valid_bad = 0, cases = 0;
	uint64_t x = 7;

	for (k = 0; k < sizeof odd / sizeof *odd; k++) {
		size_t m = k == 1 ? 1 : strlen(odd[k]);   /* odd[1]: a NUL */
		for (at = 0; at + m <= 40; at++) {
			for (len = at; len <= 40; len++) {
				struct bt_buf got = BT_BUF_INIT, want = BT_BUF_INIT;
				size_t i;
				for (i = 0; i < sizeof in; i++) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					in[i] = (unsigned char)(' ' + (x >> 33) % 95);
				}
				memcpy(in + at, odd[k], m);
				bt_utf8_sanitize(&got, (const char *)in, len);
				ref_sanitize(&want, in, len);
				bad += got.len != want.len || (got.len && memcmp(got.buf, want.buf, got.len));
				valid_bad += bt_utf8_valid((const char *)in, len) != (want.len == len && (!len || !memcmp(want.buf, in, len)));
				cases++;
				bt_buf_release(&got);
				bt_buf_release(&want);
			}
		}
	}
	ok(cases > 5000, "utf8 runs: every offset and length");
	is_int((int64_t)bad, 0, "utf8 runs: repaired as one character at a time");
	is_int((int64_t)valid_bad, 0, "utf8 runs: valid exactly where the repair keeps the bytes");
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
	test_extra();
	test_symbol();
	test_utf8();
	test_utf8_runs();
	test_reader();
	return done_testing();
}
