/*
 * Unit tests of the btrace 2.0 importer's parts: JVM descriptors to
 * PrettyMethod names, methodMapping.txt lines (btrace's and Matrix's),
 * method ids numbered as frames, and the record layout.
 */
#include <stdlib.h>

#include "engine/base/alloc.h"
#include "engine/db/diag.h"
#include "importers/btrace2/b2_int.h"
#include "tests/tap.h"

static void pretty(const char *desc, const char *want)
{
	struct bt_buf b = BT_BUF_INIT;
	int yes;

	bt_buf_adds(&b, "x");
	yes = b2_pretty(&b, "com/foo/Bar$In", 14, "baz", 3, desc, strlen(desc));
	if (want) {
		ok(yes, desc);
		is_str(b.buf + 1, want, desc);
	} else {
		ok(!yes && !strcmp(b.buf, "x"), desc);
	}
	bt_buf_release(&b);
}

static const char *code_detail(const struct bt_diag *d, const char *code, uint64_t *count)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->items[i].code, code)) {
			*count = d->items[i].count;
			return d->items[i].detail;
		}
	*count = 0;
	return NULL;
}

static void mapping(void)
{
	static const char text[] =
		"#6b0c7a36-2f6a-4e43-9a0e-1d6f2a1b8c55\n"
		"3,1,com.foo.A run (Ljava/lang/String;[I)V\n"           /* btrace's */
		"5,1,com.foo.B get (Ljava.lang.String;J)[[Ljava.lang.Object;\r\n"   /* Matrix's, CRLF */
		"\n"
		"7,264,com.foo.C nativeRun\n"                          /* native: no desc */
		"9,1,com.foo.D unused ()V\n"                           /* not in the trace */
		"5,1,com.foo.B again ()V\n"                            /* a second line for 5 */
		"not a line\n"
		"8388608,1,com.foo.E far ()V\n"                        /* past 23 bits */
		"11,1,com.foo.F bad (L;)V";                            /* no newline at the end */
	struct b2_names nm;
	struct bt_diag d;
	uint64_t n;

	bt_diag_init(&d);
	b2_names_init(&nm);
	b2_names_use(&nm, 3);
	b2_names_use(&nm, 5);
	b2_names_use(&nm, 7);
	b2_names_use(&nm, 11);
	b2_names_use(&nm, 4000000);
	b2_names_rank(&nm);
	is_int(nm.n, 5, "five methods used, five frames");
	is_int(b2_frame(&nm, 3), 1, "frame ids in method id order: 3 -> 1");
	is_int(b2_frame(&nm, 11), 4, "11 -> 4");
	is_int(b2_frame(&nm, 4000000), 5, "4000000 -> 5");
	is_int(b2_frame(&nm, 9), 0, "an unused id has no frame");
	b2_names_load(&nm, text, sizeof text - 1, "m.txt", &d);
	is_str(b2_names_get(&nm, 1), "void com.foo.A.run(java.lang.String, int[])", "btrace's slashed descriptor");
	is_str(b2_names_get(&nm, 2), "java.lang.Object[][] com.foo.B.get(java.lang.String, long)",
	       "Matrix's dotted descriptor, a CRLF line; the first line of an id kept");
	is_str(b2_names_get(&nm, 3), "com.foo.C.nativeRun(?)", "a native method: no descriptor");
	is_str(b2_names_get(&nm, 4), "com.foo.F.bad(?)", "a bad descriptor: class and method");
	is_str(b2_names_get(&nm, 5), NULL, "an id no line names");
	ok(code_detail(&d, "bad_mapping_line", &n) && n == 1, "a malformed line counted");
	ok(code_detail(&d, "duplicate_mapping_id", &n) && n == 1, "a second line for an id counted");
	ok(code_detail(&d, "mapping_id_range", &n) && n == 1, "an id past 23 bits counted");
	ok(code_detail(&d, "bad_descriptor", &n) && n == 1, "a bad descriptor counted");
	is_str(code_detail(&d, "bad_mapping_line", &n),
	       "line 8 of 'm.txt' (offset 217) is not 'id,access,class method desc'; skipped", "the line and its offset named");
	b2_names_release(&nm);
}

static void layout(void)
{
	/* binary_trace.cpp: a = start << 19 | dur >> 26, b = (dur & 0x3FFFFFF) << 38 | tid << 23 | mid */
	uint64_t start = 0x123456789ull, dur = 0x1ABCDEF01234ull, tid = 0x5A5A, mid = 0x6B6B6B;
	struct b2_rec r = { start << 19 | dur >> 26, (dur & 0x3FFFFFF) << 38 | tid << 23 | mid };

	is_int(b2_start(&r), start, "start: the first word's top 45 bits");
	is_int(b2_dur(&r), dur, "duration: 19 bits in the first word, 26 in the second");
	is_int(b2_tid(&r), tid, "tid: 15 bits");
	is_int(b2_mid(&r), mid, "method id: 23 bits");
	b2_set(&r, 77, 5);
	ok(b2_start(&r) == 77 && b2_dur(&r) == 5 && b2_tid(&r) == tid && b2_mid(&r) == mid,
	   "b2_set: start and duration, the rest kept");
	b2_set_frame(&r, 9);
	ok(b2_mid(&r) == 9 && b2_tid(&r) == tid && b2_dur(&r) == 5, "b2_set_frame: the frame where the id was");
}

int main(void)
{
	pretty("()V", "void com.foo.Bar$In.baz()");
	pretty("(IJZBCSFD)I", "int com.foo.Bar$In.baz(int, long, boolean, byte, char, short, float, double)");
	pretty("([[Ljava/lang/String;[I)[J", "long[] com.foo.Bar$In.baz(java.lang.String[][], int[])");
	pretty("(Landroid.os.Bundle;)Landroid.view.View;", "android.view.View com.foo.Bar$In.baz(android.os.Bundle)");
	pretty("(V)V", NULL);
	pretty("()", NULL);
	pretty("(I)[V", NULL);
	pretty("(L;)V", NULL);
	pretty("(Ljava/lang/String)V", NULL);
	pretty("(I)VX", NULL);
	pretty("I)V", NULL);
	mapping();
	layout();
	return done_testing();
}
