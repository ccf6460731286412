/*
 * The report model's rules (engine/base/result.c): the one unit rule for
 * metric and column names that every report, compare and the gates use,
 * and unit names both ways.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/base/result.h"
#include "tests/tap.h"

static void unit_of(void)
{
	static const struct { const char *name; enum bt_unit column, metric; } cases[] = {
		/* the suffixes */
		{ "wall_ns", BT_UNIT_NS, BT_UNIT_NS },
		{ "self_alloc_bytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "thread_pct", BT_UNIT_PCT, BT_UNIT_PCT },
		{ "x.cpu_pct", BT_UNIT_PCT, BT_UNIT_PCT },
		/* whole words: a column named so, or a metric's last component */
		{ "ns", BT_UNIT_NS, BT_UNIT_NS },
		{ "dur", BT_UNIT_NS, BT_UNIT_NS },
		{ "bytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "pct", BT_UNIT_PCT, BT_UNIT_PCT },
		{ "slice.dur", BT_UNIT_NS, BT_UNIT_NS },
		/* bytes is any ending (help rules says "*bytes"); the others
		 * are whole words after '_' */
		{ "allocbytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "x.rxbytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "bytes_in", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "dns", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "x_nsec", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "duration", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "self_dur", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "thread.main.messages.over_16ms", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "tid", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "", BT_UNIT_NONE, BT_UNIT_COUNT },
		/* the last component that names a unit decides */
		{ "thread.main.blocked_ns.monitor", BT_UNIT_NS, BT_UNIT_NS },
		{ "method.a.b_ns(int).self_alloc_bytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "x_ns.y_bytes", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "a_bytes.b", BT_UNIT_BYTES, BT_UNIT_BYTES },
		{ "a_pct.b.c", BT_UNIT_PCT, BT_UNIT_PCT },
		{ "method.com.x.Pool.max_ns.self_majflt", BT_UNIT_NS, BT_UNIT_NS },
		/* empty components and stray dots */
		{ ".", BT_UNIT_NONE, BT_UNIT_COUNT },
		{ "a..b_ns", BT_UNIT_NS, BT_UNIT_NS },
		{ "cpu_ns.", BT_UNIT_NS, BT_UNIT_NS },
		{ ".ns", BT_UNIT_NS, BT_UNIT_NS },
		{ "_ns", BT_UNIT_NS, BT_UNIT_NS },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		is_int(bt_unit_of(cases[i].name, BT_UNIT_NONE), cases[i].column, cases[i].name);
		is_int(bt_unit_of(cases[i].name, BT_UNIT_COUNT), cases[i].metric, cases[i].name);
	}
}

static void names(void)
{
	enum bt_unit u = BT_UNIT_NONE;
	int i;

	for (i = BT_UNIT_NONE; i <= BT_UNIT_COUNT; i++)
		ok(bt_unit_parse(bt_unit_name((enum bt_unit)i), &u) && u == (enum bt_unit)i,
		   "a unit's name parses back");
	ok(!bt_unit_parse("ms", &u), "ms is no unit name");
}

/* Metrics and tables are found by name in O(1): 100k metrics, each set
 * twice (the second a text value that must replace, not leak, the first:
 * make asan checks), take well under a second. */
static void store(void)
{
	struct bt_result r;
	char name[64];
	clock_t t0 = clock();
	int i, n = 100000;
	double secs;

	bt_result_init(&r);
	for (i = 0; i < 2 * n; i++) {
		struct bt_value v = bt_value_text("x", 1);
		snprintf(name, sizeof name, "method.m%d.self_ns", i % n);
		if (i < n) {
			bt_value_release(&v);
			v.type = BT_V_INT;
			v.u.i = i;
		}
		bt_result_metric(&r, name, v);
	}
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	is_int((long long)r.nmetrics, n, "a metric set again replaces itself");
	ok(r.metrics[7].v.type == BT_V_TEXT && !strcmp(r.metrics[7].name, "method.m7.self_ns"),
	   "the later value wins, in the first one's place");
	ok(secs < 1.0, "200k metric sets are not quadratic");
	bt_result_table(&r, "t", NULL, 1)->columns[0] = NULL;
	bt_rtable_row(bt_result_table(&r, "u", NULL, 1));
	bt_result_table(&r, "t", "T", 2);
	is_int((long long)r.ntables, 2, "a table of the same name replaces the earlier one");
	is_str(r.tables[0].title, "T", "in its place");
	bt_result_release(&r);
}

int main(void)
{
	unit_of();
	names();
	store();
	return done_testing();
}
