/*
 * Unit tests of the streaming JSON writer (engine/base/jsonw.c): the exact
 * bytes of nested objects and arrays, pretty and compact (separators and
 * indentation are written in one piece per element); keys quoted in one
 * piece when plain, escaped like any string otherwise (quotes, controls,
 * non-ASCII, <>& in HTML, longer than the writer's buffer); and reals:
 * whole numbers written as integers must read exactly as the shortest of
 * %.15g and %.17g, which the test computes itself, over whole numbers of
 * every magnitude, both signs, zero and negative zero, and fractions.
 */
#define _POSIX_C_SOURCE 200809L   /* open_memstream */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/jsonw.h"
#include "tests/tap.h"

struct mem {
	char *buf;
	size_t len;
	FILE *fp;
	struct bt_jsonw w;
};

static void mem_open(struct mem *m, int pretty, int html)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	bt_jsonw_init(&m->w, m->fp, pretty);
	m->w.html = html;
}

/* What was written, kept until the next mem_open of m. */
static const char *mem_text(struct mem *m)
{
	fclose(m->fp);
	return m->buf;
}

static void nested(struct bt_jsonw *w)
{
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "a");
	bt_jsonw_int(w, 1);
	bt_jsonw_key(w, "list");
	bt_jsonw_begin_array(w);
	bt_jsonw_int(w, -2);
	bt_jsonw_begin_object(w);
	bt_jsonw_end_object(w);
	bt_jsonw_begin_array(w);
	bt_jsonw_begin_object(w);
	bt_jsonw_key(w, "deep");
	bt_jsonw_null(w);
	bt_jsonw_end_object(w);
	bt_jsonw_end_array(w);
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "b");
	bt_jsonw_bool(w, 1);
	bt_jsonw_end_object(w);
}

static void test_layout(void)
{
	struct mem m;

	mem_open(&m, 0, 0);
	nested(&m.w);
	is_str(mem_text(&m), "{\"a\":1,\"list\":[-2,{},[{\"deep\":null}]],\"b\":true}", "compact");
	free(m.buf);
	mem_open(&m, 1, 0);
	nested(&m.w);
	is_str(mem_text(&m),
	       "{\n  \"a\": 1,\n  \"list\": [\n    -2,\n    {},\n    [\n      {\n        \"deep\": null\n"
	       "      }\n    ]\n  ],\n  \"b\": true\n}\n",
	       "pretty: a separator and two spaces a level");
	free(m.buf);
	mem_open(&m, 0, 0);
	bt_jsonw_int(&m.w, 1);
	bt_jsonw_int(&m.w, 2);
	is_str(mem_text(&m), "1,2", "top-level values, compact");
	free(m.buf);

	/* as deep as the writer nests, pretty: the indentation of the
	 * deepest level comes out whole */
	mem_open(&m, 1, 0);
	for (int i = 0; i < BT_JSONW_DEPTH + 2; i++)
		bt_jsonw_begin_array(&m.w);
	bt_jsonw_int(&m.w, 7);
	bt_jsonw_int(&m.w, 8);
	const char *t = mem_text(&m);
	const char *seven = strstr(t, "7"), *eight = strstr(t, "8");
	ok(seven && eight, "deepest values written");
	if (seven && eight) {
		size_t spaces = 0;
		for (const char *p = seven - 1; p > t && *p == ' '; p--)
			spaces++;
		is_int(spaces, 2 * (BT_JSONW_DEPTH - 1), "deepest indentation: two spaces for each of 31 levels");
		is_int(eight - seven, 3 + 2 * (BT_JSONW_DEPTH - 1), "... and after a comma");
	}
	free(m.buf);
}

static const char *key_json(const char *key, int pretty, int html, struct mem *m)
{
	mem_open(m, pretty, html);
	bt_jsonw_begin_object(&m->w);
	bt_jsonw_key(&m->w, key);
	bt_jsonw_int(&m->w, 0);
	bt_jsonw_end_object(&m->w);
	return mem_text(m);
}

static void test_keys(void)
{
	struct mem m;
	char long_key[301], want[400];

	is_str(key_json("plain.key_1(x)", 0, 0, &m), "{\"plain.key_1(x)\":0}", "a plain key");
	free(m.buf);
	is_str(key_json("", 1, 0, &m), "{\n  \"\": 0\n}\n", "an empty key, pretty");
	free(m.buf);
	is_str(key_json("a\"b\\c\td", 0, 0, &m), "{\"a\\\"b\\\\c\\td\":0}", "quote, backslash and tab escaped");
	free(m.buf);
	is_str(key_json("x\001y", 0, 0, &m), "{\"x\\u0001y\":0}", "a control character escaped");
	free(m.buf);
	is_str(key_json("caf\xc3\xa9", 0, 0, &m), "{\"caf\xc3\xa9\":0}", "UTF-8 kept");
	free(m.buf);
	is_str(key_json("bad\xff", 0, 0, &m), "{\"bad\xef\xbf\xbd\":0}", "invalid UTF-8 repaired");
	free(m.buf);
	is_str(key_json("<a&b>", 0, 1, &m), "{\"\\u003ca\\u0026b\\u003e\":0}", "<>& escaped in HTML");
	free(m.buf);
	is_str(key_json("<a&b>", 0, 0, &m), "{\"<a&b>\":0}", "... kept elsewhere");
	free(m.buf);
	memset(long_key, 'k', 300);
	long_key[300] = 0;
	snprintf(want, sizeof want, "{\"%s\":0}", long_key);
	is_str(key_json(long_key, 0, 0, &m), want, "a key longer than the writer's buffer");
	free(m.buf);
	long_key[200] = '"';
	snprintf(want, sizeof want, "{\"%.200s\\\"%s\":0}", long_key, long_key + 201);
	is_str(key_json(long_key, 0, 0, &m), want, "... with a quote past the buffer");
	free(m.buf);
}

/* The shortest of %.15g and %.17g that reads back as v: the writer's
 * definition, for every real it writes. */
static void reference(double v, char *buf, size_t n)
{
	if (!isfinite(v)) {
		snprintf(buf, n, "null");
		return;
	}
	snprintf(buf, n, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, n, "%.17g", v);
}

static int real_matches(double v)
{
	struct mem m;
	char want[40];
	int same;

	reference(v, want, sizeof want);
	mem_open(&m, 0, 0);
	bt_jsonw_real(&m.w, v);
	same = !strcmp(mem_text(&m), want);
	if (!same)
		printf("#   %.17g: got '%s', want '%s'\n", v, m.buf, want);
	free(m.buf);
	return same;
}

static void test_reals(void)
{
	static const double fixed[] = {0.0, -0.0, 1.0, -1.0, 100.0, 1e14, 999999999999999.0, -999999999999999.0,
				       1e15, -1e15, 1e15 + 1, 4503599627370496.0, 9007199254740993.0, 1e300, -1e300,
				       9.2233720368547758e18, -9.2233720368547758e18, 0.5, -0.5, 0.1, 1e-300,
				       123456.789, 2.5e-7, INFINITY, -INFINITY, NAN};
	uint64_t seed = 0x5eed;
	int bad = 0;

	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		bad += !real_matches(fixed[i]);
	is_int(bad, 0, "edge reals as %.15g or %.17g would write them (zeros, 1e15 and around, 2^53, huge, tiny, "
		       "non-finite)");
	bad = 0;
	for (int i = 0; i < 200000; i++) {
		uint64_t r = tap_rand(&seed);
		int digits = 1 + (int)(r % 18);
		double whole = floor((double)(tap_rand(&seed) >> 11) / 9007199254740992.0 * pow(10, digits));
		double v = r & 1 ? -whole : whole;
		if (r & 2)
			v += (double)(tap_rand(&seed) % 1000) / 1000;   /* a fraction, or none */
		bad += !real_matches(v);
	}
	is_int(bad, 0, "200,000 random reals of 1 to 18 digits, whole or not, either sign: the same text");
}

int main(void)
{
	test_layout();
	test_keys();
	test_reals();
	return done_testing();
}
