/*
 * Unit tests for ProGuard/R8 retrace (importers/android/retrace.c): mapping.txt
 * parsing and symbol rewriting per android-sampling.md §9, plus hostile
 * mappings (CRLF, no final newline, malformed lines, long lines, garbage).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "importers/android/retrace.h"
#include "importers/symbol.h"
#include "tests/tap.h"

#define FIXTURE "tests/fixtures/retrace-mapping.txt"

/* Rewrite sym; want NULL means "unchanged": 0 and nothing appended. */
static void check(const struct bt_retrace *rt, const char *sym, const char *want)
{
	struct bt_buf out = BT_BUF_INIT;
	int r = bt_retrace_symbol(rt, sym, strlen(sym), &out);

	is_int(r, want != NULL, sym);
	is_str(out.buf, want ? want : "", sym);
	bt_buf_release(&out);
}

/* Write data to a fresh temporary file whose name goes to path. */
static void write_tmp(char *path, size_t cap, const char *data, size_t len)
{
	int fd;

	snprintf(path, cap, "/tmp/t_retrace-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
		perror("t_retrace: temporary file");
		exit(1);
	}
	close(fd);
}

static struct bt_retrace *load_text(const char *data, size_t len)
{
	struct bt_retrace *rt = NULL;
	struct bt_err err = BT_ERR_INIT;
	char path[64];

	write_tmp(path, sizeof path, data, len);
	is_int(bt_retrace_load(&rt, path, &err), BT_OK, "temporary mapping loads");
	unlink(path);
	return rt;
}

static void test_renames(const struct bt_retrace *rt)
{
	check(rt, "void a.d.<init>(java.lang.String)", "com.example.Baz.<init>(java.lang.String)");
	check(rt, "void a.b.c(a.d, int)", "com.example.Foo.bar(com.example.Baz, int)");
	check(rt, "java.lang.String a.d.a()", "com.example.Baz.getName()");
	check(rt, "java.lang.Object[] a.b.i(java.util.Collection)",
	      "com.example.Foo.toArray(java.util.Collection)");
	check(rt, "void a.b.h()", "com.example.Foo.reset()");
	/* A single candidate is taken whatever the symbol's parameters. */
	check(rt, "void a.b.c()", "com.example.Foo.bar(com.example.Baz, int)");
	/* Identity-mapped: the same text is "no change", with or without ret. */
	check(rt, "com.example.ui.MainActivity.onCreate(android.os.Bundle)", NULL);
	check(rt, "void com.example.ui.MainActivity.onCreate(android.os.Bundle)",
	      "com.example.ui.MainActivity.onCreate(android.os.Bundle)");
}

static void test_overloads(const struct bt_retrace *rt)
{
	check(rt, "void a.b.e(a.d)", "com.example.Foo.draw(com.example.Baz)");
	check(rt, "void a.b.e(int)", "com.example.Foo.draw(int)");
	check(rt, "void a.b.e(a.d[])", "com.example.Foo.draw(com.example.Baz[])");
	check(rt, "void a.b.e(a.d,  int)", "com.example.Foo.draw(com.example.Baz, int)");
	check(rt, "void a.b.e(com.example.Baz)", "com.example.Foo.draw(com.example.Baz)");
	check(rt, "void a.b.e(long)", NULL);
	check(rt, "void a.b.e()", NULL);
	check(rt, "void a.b.e(x.y)", NULL);
	check(rt, "void a.b.e(int, a.d)", NULL);
	/* No ')' after '(': the parameters run to the end of the symbol. */
	check(rt, "void a.b.e(a.d", "com.example.Foo.draw(com.example.Baz)");
}

static void test_inlining(const struct bt_retrace *rt)
{
	/* A lone frame inlined from another class names that class. */
	check(rt, "void a.e.run()", "com.example.Foo.lambda$start$0()");
	check(rt, "void a.e.<init>(a.b)", "com.example.Foo$$ExternalSyntheticLambda0.<init>(com.example.Foo)");
	/* An inline group sharing name and signature: the first listed wins. */
	check(rt, "void a.b.f()", "com.other.Util.helper()");
	/* "com.example.Foo.stop" in class com.example.Foo drops its class part. */
	check(rt, "void a.b.g()", "com.example.Foo.stop()");
}

static void test_unchanged(const struct bt_retrace *rt)
{
	check(rt, "void android.os.Looper.loop()", NULL);
	check(rt, "void z.q.c()", NULL);
	check(rt, "void a.b.zz()", NULL);
	check(rt, "<runtime method>", NULL);
	check(rt, "", NULL);
	check(rt, "void a.b.(int)", NULL);
	check(rt, "void .c()", NULL);
	check(rt, "void c()", NULL);
	check(rt, "()", NULL);
	check(rt, "void a.b.c", NULL);
	/* Comment lines, even with " -> " and '(', define nothing. */
	check(rt, "void x.y.a()", NULL);
	check(rt, "void a.b.q()", NULL);
	/* Field lines are not methods. */
	check(rt, "void a.b.j()", NULL);
	check(rt, "void a.b.k()", NULL);
	check(rt, "void a.e.a()", NULL);
}

static void test_buffer(const struct bt_retrace *rt)
{
	struct bt_buf out = BT_BUF_INIT;
	struct bt_symbol sym;
	const char *s = "void a.b.c(a.d, int)XYZ";

	bt_buf_adds(&out, "x|");
	is_int(bt_retrace_symbol(rt, "void android.os.Looper.loop()", 29, &out), 0, "non-app symbol");
	is_str(out.buf, "x|", "unchanged symbol leaves out untouched");
	is_int(bt_retrace_symbol(rt, "com.example.ui.MainActivity.onCreate(android.os.Bundle)", 55, &out),
	       0, "identical rewrite is no change");
	is_str(out.buf, "x|", "identical rewrite leaves out untouched");
	is_int(out.len, 2, "out length restored");
	is_int(bt_retrace_symbol(rt, s, strlen(s) - 3, &out), 1, "symbol need not be NUL-terminated");
	is_str(out.buf, "x|com.example.Foo.bar(com.example.Baz, int)", "rewrite is appended");
	ok(bt_symbol_parse(out.buf + 2, out.len - 2, &sym), "retraced symbol parses");
	ok(sym.ret.p == NULL, "retraced symbol has no return type");
	ok(sym.cls.len == 15 && !memcmp(sym.cls.p, "com.example.Foo", 15), "retraced class");
	ok(sym.method.len == 3 && !memcmp(sym.method.p, "bar", 3), "retraced method");
	bt_buf_release(&out);
}

static void test_fixture(void)
{
	struct bt_retrace *rt = NULL;
	struct bt_err err = BT_ERR_INIT;

	is_int(bt_retrace_load(&rt, FIXTURE, &err), BT_OK, "fixture loads");
	if (!rt)
		return;
	is_int(bt_retrace_classes(rt), 4, "classes: comments and markers add none");
	is_int(bt_retrace_methods(rt), 16, "methods: fields and comments skipped");
	test_renames(rt);
	test_overloads(rt);
	test_inlining(rt);
	test_unchanged(rt);
	test_buffer(rt);
	bt_retrace_free(rt);
}

static void test_line_endings(void)
{
	static const char crlf[] = "# R8\r\ncom.example.Crlf -> c.r:\r\n"
		"    1:1:void go(int):5:5 -> a\r\n    void go(long) -> a\r\n\r\n"
		"x.Lone -> l:\r    void m() -> n\r"
		"com.example.Tail -> t:\n    void last(int) -> z";
	struct bt_retrace *rt = load_text(crlf, sizeof crlf - 1);

	is_int(bt_retrace_classes(rt), 3, "CRLF, CR and LF classes");
	is_int(bt_retrace_methods(rt), 4, "CRLF, CR and LF methods");
	check(rt, "void c.r.a(long)", "com.example.Crlf.go(long)");
	check(rt, "void c.r.a(int)", "com.example.Crlf.go(int)");
	check(rt, "void l.n()", "x.Lone.m()");
	check(rt, "void t.z(int)", "com.example.Tail.last(int)");
	bt_retrace_free(rt);
}

static void test_malformed(void)
{
	static const char bad[] = " -> :\n->\na -> \n -> b:\nx.Y -> z\n    void m() -> n\n"
		"good.C -> g:\n    void () -> e\n    void f() -> \n    void g)( -> h\n"
		"    void h(int -> i\n    :(: -> k\n    void ok(int) -> o\n"
		"junk.Line -> j: trailing stuff\n    int fld -> f\n"
		"    void n(  int ,  a.b [] ) -> n\n\tvoid tab() -> t\n";
	struct bt_retrace *rt = load_text(bad, sizeof bad - 1);

	is_int(bt_retrace_classes(rt), 2, "malformed class lines skipped");
	is_int(bt_retrace_methods(rt), 2, "malformed method lines skipped");
	check(rt, "void z.n()", NULL);
	check(rt, "void g.e()", NULL);
	check(rt, "void g.h()", NULL);
	check(rt, "void g.i()", NULL);
	check(rt, "void g.o(int)", "good.C.ok(int)");
	check(rt, "void j.n(int, a.b[])", "junk.Line.n(int, a.b[])");
	check(rt, "void j.t()", NULL);
	bt_retrace_free(rt);
}

static void add_rep(struct bt_buf *b, const char *s, int n, const char *sep)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			bt_buf_adds(b, sep);
		bt_buf_adds(b, s);
	}
}

/* Names past the lookup scratch's stack size take the heap path. */
static void test_long(void)
{
	struct bt_buf map = BT_BUF_INIT, sym = BT_BUF_INIT, want = BT_BUF_INIT;
	struct bt_retrace *rt;

	bt_buf_adds(&map, "com.example.Baz -> a.b:\ncom.example.Long -> L:\n    void m1(com.example.Baz) -> ");
	add_rep(&map, "m", 400, "");
	bt_buf_adds(&map, "\n    void m2(");
	add_rep(&map, "int", 200, ",");
	bt_buf_adds(&map, ") -> ");
	add_rep(&map, "m", 400, "");
	bt_buf_addc(&map, '\n');
	add_rep(&map, "A", 1 << 20, "");
	bt_buf_adds(&map, " -> big:\n    void run() -> x");
	rt = load_text(map.buf, map.len);
	is_int(bt_retrace_methods(rt), 3, "long lines load");

	bt_buf_adds(&sym, "void L.");
	add_rep(&sym, "m", 400, "");
	bt_buf_adds(&sym, "(a.b)");
	check(rt, sym.buf, "com.example.Long.m1(com.example.Baz)");
	sym.len -= 5;
	bt_buf_addc(&sym, '(');
	add_rep(&sym, "int", 200, ", ");
	bt_buf_addc(&sym, ')');
	bt_buf_adds(&want, "com.example.Long.m2(");
	add_rep(&want, "int", 200, ", ");
	bt_buf_addc(&want, ')');
	check(rt, sym.buf, want.buf);
	bt_buf_reset(&want);
	add_rep(&want, "A", 1 << 20, "");
	bt_buf_adds(&want, ".run()");
	check(rt, "void big.x()", want.buf);
	bt_buf_release(&map);
	bt_buf_release(&sym);
	bt_buf_release(&want);
	bt_retrace_free(rt);
}

static uint32_t lcg(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

static void test_garbage(void)
{
	static const char special[] = " ->:(),.#[]\n\r\t";
	struct bt_buf junk = BT_BUF_INIT, out = BT_BUF_INIT;
	struct bt_retrace *rt;
	uint32_t st = 42, r;
	size_t i, at;

	for (i = 0; i < 256 * 1024; i++) {
		r = lcg(&st);
		bt_buf_addc(&junk, r % 3 ? special[(r >> 4) % (sizeof special - 1)] : (char)(r >> 8));
		if (r % 97 == 0)
			bt_buf_adds(&junk, i % 2 ? " -> a:" : "\n  a(b) -> c");
	}
	rt = load_text(junk.buf, junk.len);
	ok(rt != NULL, "random garbage loads without crashing");
	for (i = 0; i < 2000; i++) {
		at = lcg(&st) % (junk.len - 64);
		bt_retrace_symbol(rt, junk.buf + at, lcg(&st) % 64, &out);
	}
	ok(1, "garbage symbols looked up without crashing");
	bt_buf_release(&junk);
	bt_buf_release(&out);
	bt_retrace_free(rt);
}

static void test_errors(void)
{
	struct bt_retrace *rt = (struct bt_retrace *)&rt;
	struct bt_err err = BT_ERR_INIT;
	const char *missing = "tests/fixtures/no-such-mapping.txt";

	is_int(bt_retrace_load(&rt, missing, &err), BT_EIO, "missing file is BT_EIO");
	ok(rt == NULL, "no object on error");
	ok(strstr(err.msg, "'tests/fixtures/no-such-mapping.txt'") != NULL, "message names the path");
	bt_err_clear(&err);
	is_int(bt_retrace_load(&rt, "tests/fixtures", &err), BT_EIO, "directory is BT_EIO");
	rt = load_text("", 0);
	is_int(bt_retrace_classes(rt), 0, "empty file loads empty");
	check(rt, "void a.b.c()", NULL);
	bt_retrace_free(rt);
	bt_retrace_free(NULL);
	ok(1, "free accepts NULL");
}

int main(void)
{
	test_fixture();
	test_line_endings();
	test_malformed();
	test_long();
	test_garbage();
	test_errors();
	return done_testing();
}
