/*
 * The report model's rules (engine/base/result.c): the one unit rule for
 * metric and column names that every report, compare and the gates use,
 * and unit names both ways.
 */
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

int main(void)
{
	unit_of();
	names();
	return done_testing();
}
