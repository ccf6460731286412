/*
 * Unit tests of the iOS importer's decoders (format spec ios-database.md):
 * every table's layout and node size per version, blob decoding with the
 * time scaling, the u32 time unwrap, the --symbols parser, the
 * TimeSeriesModel info JSON and the pairing of lock-contention samples.
 */
#include <stdlib.h>

#include "importers/ios/ios_int.h"
#include "tests/tap.h"

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16), p[3] = (unsigned char)(v >> 24);
}

static void ctx(struct bt_ios_ctx *c, struct bt_diag *d, int64_t version)
{
	memset(c, 0, sizeof *c);
	bt_diag_init(d);
	c->path = "t.db";
	c->diag = d;
	c->version = version;
}

/* Node sizes of spec §10.2-§10.7, per table and version. */
static void test_layouts(void)
{
	static const struct { const char *table; int v; size_t size; } want[] = {
		{ "CPUBatchSampleModel", 1, 12 }, { "CPUBatchSampleModel", 3, 20 },
		{ "CPUBatchIntervalSampleModel", 1, 20 }, { "CPUBatchIntervalSampleModel", 2, 28 },
		{ "MemBatchSampleModel", 1, 20 }, { "MemBatchSampleModel", 3, 28 },
		{ "DateBatchSampleModel", 1, 12 }, { "DateBatchSampleModel", 2, 20 },
		{ "DispatchBatchSampleModel", 1, 20 }, { "DispatchBatchSampleModel", 3, 28 },
		{ "DispatchBatchSampleModel", 4, 28 }, { "AsyncBatchSampleModel", 1, 20 },
		{ "AsyncBatchSampleModel", 3, 28 }, { "LockBatchSampleModel", 1, 20 },
		{ "LockBatchSampleModel", 3, 28 }, { "LockBatchSampleModel", 4, 28 },
		{ "LockSampleModel", 1, 24 }, { "LockSampleModel", 2, 32 }, { "LockSampleModel", 4, 32 },
		{ "ProfileBatchSampleModel", 4, 20 }, { "TimeRangeBatchSampleModel", 4, 28 },
	};
	char what[96];
	size_t i;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *f = bt_ios_layout(want[i].table, want[i].v, NULL);
		snprintf(what, sizeof what, "layout: %s v%d node is %zu bytes", want[i].table, want[i].v, want[i].size);
		is_int(f ? bt_ios_node_size(f) : 0, want[i].size, what);
	}
	ok(!bt_ios_layout("CPUBatchSampleModel", 4, NULL), "layout: no CPU table in version 4 (I-5)");
	ok(!bt_ios_layout("ProfileBatchSampleModel", 3, NULL), "layout: no Profile table before version 4");
	ok(!bt_ios_layout("AsyncSampleModel", 4, NULL), "layout: no Async table in version 4");
	ok(!bt_ios_layout("ImageInfoModel", 3, NULL), "layout: ImageInfoModel holds no samples");
	is_str(bt_ios_layout("DispatchBatchSampleModel", 4, NULL), "tcansTg", "layout: v4 dispatch field order");
	is_str(bt_ios_layout("LockBatchSampleModel", 2, NULL), "Ltcsan", "layout: v2 lock batch field order");
	{
		const char *cols = "x";
		is_str(bt_ios_layout("DispatchSampleModel", 4, &cols), "itcTgsan", "layout: v4 per-row dispatch fields");
		is_str(cols, "tid,time,cpu_time,target_tid,target_time,stack_id,alloc_size,alloc_count",
		       "layout: v4 per-row dispatch columns (I-4)");
		bt_ios_layout("CPUBatchSampleModel", 3, &cols);
		is_str(cols, NULL, "layout: a batch table has no column list");
	}
}

/* The §12 example's CPU batch blob (v3): 10 µs ticks become ns. */
static void test_cpu_blob(void)
{
	static const unsigned char blob[] = {
		0x64, 0, 0, 0, 0x32, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0x0a, 0, 0, 0,
		0xc8, 0, 0, 0, 0x3c, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0x0c, 0, 0, 0,
	};
	struct bt_ios_recs r = { NULL, 0, 0 };
	struct bt_ios_clock k = BT_IOS_CLOCK_INIT;
	struct bt_err err = BT_ERR_INIT;
	struct bt_ios_ctx c;
	struct bt_diag d;
	int v;

	for (v = 1; v <= 3; v += 2) {
		ctx(&c, &d, v);
		r.n = 0;
		k.last = -1;
		is_int(bt_ios_blob(&c, &k, "CPUBatchSampleModel", 0, bt_ios_layout("CPUBatchSampleModel", 3, NULL),
				   BT_IOS_CPU, 259, blob, sizeof blob, &r, &err), BT_OK, "cpu blob: decodes");
		is_int(r.n, 2, "cpu blob: two nodes");
		is_int(r.v[1].ts, v == 3 ? 2000000 : 200000, v == 3 ? "cpu blob v3: 200 ticks = 2 ms" : "cpu blob v1: 200 µs");
		is_int(r.v[1].cpu, v == 3 ? 600000 : 60000, "cpu blob: CPU time scaled the same");
		is_int(r.v[1].stack_id, 4, "cpu blob: stack id");
		is_int(r.v[1].alloc_mib, 1, "cpu blob: alloc MiB");
		is_int(r.v[1].alloc_count, 12, "cpu blob: alloc count");
		is_int(r.v[0].tid, 259, "cpu blob: the row's tid");
		is_int(r.v[1].seq, 1, "cpu blob: read order kept");
	}
	is_int(bt_ios_blob(&c, &k, "CPUBatchSampleModel", 4, "tcsan", BT_IOS_CPU, 259, blob, 39, &r, &err),
	       BT_EFORMAT, "cpu blob: 39 bytes is not whole nodes");
	is_str(err.msg, "truncated blob in 't.db' table 'CPUBatchSampleModel' row 4 at byte offset 20: 39 bytes is not a whole number of 20-byte nodes (version 3)",
	       "cpu blob: the error names table, row and byte offset");
	free(r.v);
}

/* Every field code of every layout lands in its record field: node k of
 * a layout holds field i = 100 * (i + 1) + k. */
static void test_all_layouts(void)
{
	static const char *const tables[] = {
		"CPUBatchSampleModel", "CPUBatchIntervalSampleModel", "MemBatchSampleModel", "DateBatchSampleModel",
		"DispatchBatchSampleModel", "AsyncBatchSampleModel", "LockBatchSampleModel", "LockSampleModel",
		"ProfileBatchSampleModel", "TimeRangeBatchSampleModel", NULL,
	};
	const char *const *t;
	int v, bad = 0, checked = 0;

	for (t = tables; *t; t++) {
		for (v = 1; v <= 4; v++) {
			const char *f = bt_ios_layout(*t, v, NULL), *p;
			unsigned char node[64];
			struct bt_ios_recs r = { NULL, 0, 0 };
			struct bt_ios_clock k = BT_IOS_CLOCK_INIT;
			struct bt_err err = BT_ERR_INIT;
			struct bt_ios_ctx c;
			struct bt_diag d;
			size_t off = 0;
			int64_t unit = v >= 3 ? 10000 : 1000, base;
			if (!f)
				continue;
			ctx(&c, &d, v);
			for (p = f; *p; p++) {
				uint32_t val = (uint32_t)(100 * (p - f + 1));
				if (*p == 'L') {   /* id u48 = 0xABCDEF0123, action u16 = 15 */
					put32(node + off, 0xCDEF0123u);
					put32(node + off + 4, 0x000F00ABu);
					off += 8;
				} else {
					put32(node + off, val);
					off += 4;
				}
			}
			if (bt_ios_blob(&c, &k, *t, 0, f, BT_IOS_CPU, 7, node, off, &r, &err) || r.n != 1) {
				bad++;
				continue;
			}
			base = 100 * (strchr(f, 't') - f + 1);
			for (p = f; *p; p++) {
				int64_t want = 100 * (p - f + 1), got = -1;
				switch (*p) {
				case 't': got = r.v[0].ts, want *= unit; break;
				case 'c': got = r.v[0].cpu, want *= unit; break;
				case 'e': got = r.v[0].end_ts, want *= unit; break;
				case 'E': got = r.v[0].end_cpu, want *= unit; break;
				case 'g': got = r.v[0].target_ts, want *= unit; break;
				case 's': got = r.v[0].stack_id; break;
				case 'a': got = r.v[0].alloc_mib; break;
				case 'n': got = r.v[0].alloc_count; break;
				case 'i': got = r.v[0].tid; break;
				case 'T': got = r.v[0].target_tid; break;
				case 'z': got = r.v[0].mem_size; break;
				case 'A': got = want; break;   /* not kept */
				case 'L':
					got = (int64_t)r.v[0].lock_id * 100 + r.v[0].action;
					want = (int64_t)0xABCDEF0123 * 100 + 15;
					break;
				}
				checked++;
				if (got != want) {
					bad++;
					printf("# %s v%d field '%c': got %lld, want %lld (time base %lld)\n", *t, v, *p,
					       (long long)got, (long long)want, (long long)base);
				}
			}
			if (!strchr(f, 'i') && r.v[0].tid != 7)
				bad++;
			free(r.v);
		}
	}
	is_int(bad, 0, "every layout: each field decoded to its record field, times scaled");
	ok(checked > 150, "every layout: the fields were checked");
}

static void test_unwrap(void)
{
	struct bt_ios_clock k = BT_IOS_CLOCK_INIT;
	const int64_t W = (int64_t)1 << 32;
	struct bt_ios_ctx c;
	struct bt_diag d;
	struct bt_ios_rec r;

	is_int(bt_ios_unwrap(&k, 4294967000u), 4294967000, "unwrap: the first time as stored");
	is_int(bt_ios_unwrap(&k, 4294967200u), 4294967200, "unwrap: forward in the same epoch");
	is_int(bt_ios_unwrap(&k, 100), W + 100, "unwrap: back by more than 2^31 is a wrap");
	is_int(bt_ios_unwrap(&k, 4294967100u), 4294967100, "unwrap: a late record from before the wrap");
	is_int(bt_ios_unwrap(&k, 300), W + 300, "unwrap: and after it the wrap again");
	is_int(bt_ios_unwrap(&k, 200), W + 200, "unwrap: back by a little is not a wrap");
	k.last = -1;
	is_int(bt_ios_unwrap(&k, 5), 5, "unwrap: a new stream starts afresh");
	is_int(bt_ios_unwrap(&k, 4294967295u), 4294967295, "unwrap: no wrap below zero");
	k.last = -1;
	ctx(&c, &d, 3);
	memset(&r, 0, sizeof r);
	bt_ios_field(&r, 't', 4294967196u);
	bt_ios_field(&r, 'e', 50);
	bt_ios_field(&r, 'c', 7);
	bt_ios_times(&c, &k, &r);
	is_int(r.ts, 4294967196 * 10000, "times: v3 start in ns");
	is_int(r.end_ts, (W + 50) * 10000, "times: an end past the wrap follows its start");
	is_int(r.cpu, 70000, "times: CPU scaled");
	memset(&r, 0, sizeof r);
	bt_ios_field(&r, 't', 300);
	bt_ios_field(&r, 'e', 200);
	k.last = -1;
	ctx(&c, &d, 2);
	bt_ios_times(&c, &k, &r);
	is_int(r.end_ts - r.ts, -100000, "times: an end just before its start stays before it (v2 µs)");
	is_int(bt_ios_time_ns(&c, 3), 3000, "time_ns: v2 µs");
	c.version = 4;
	is_int(bt_ios_time_ns(&c, 3), 30000, "time_ns: v4 10 µs ticks");
}

static void test_symbols(void)
{
	static const char text[] =
		"# atos output\n"
		"\n"
		"0x100001000 main (in App) (main.m:3)\r\n"
		"  100001200\t-[Foo bar:baz:]  \n"
		"0x1000010f0 -[AppDelegate run (in) x]\n"
		"0x100002000 w\377x\n";
	struct bt_ios_stacks s;
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag d;

	bt_diag_init(&d);
	bt_ios_stacks_init(&s, NULL, &d, "t.db");
	is_int(bt_ios_symbols_parse(&s, text, sizeof text - 1, "syms.txt", &err), BT_OK, "symbols: parse");
	is_int(s.nsyms, 4, "symbols: four entries, comments and blank lines skipped");
	is_int(s.syms[0].addr, 0x100001000, "symbols: sorted by address");
	is_str(s.strs.buf + s.syms[0].off, "main", "symbols: atos ' (in IMAGE) (FILE:LINE)' dropped");
	is_int(s.syms[1].addr, 0x1000010f0, "symbols: second address");
	is_str(s.strs.buf + s.syms[1].off, "-[AppDelegate run (in) x]", "symbols: only ' (in ' starts the atos suffix");
	is_str(s.strs.buf + s.syms[2].off, "-[Foo bar:baz:]", "symbols: no 0x prefix, tab and spaces around");
	is_str(s.strs.buf + s.syms[3].off, "w\xEF\xBF\xBDx", "symbols: a non-UTF-8 byte becomes U+FFFD");
	is_int(d.n, 1, "symbols: the non-UTF-8 name is counted");
	bt_ios_stacks_release(&s);

	bt_ios_stacks_init(&s, NULL, &d, "t.db");
	is_int(bt_ios_symbols_parse(&s, "0x10 a\n0x20\n", 12, "syms.txt", &err), BT_EFORMAT, "symbols: an address alone");
	is_str(err.msg, "bad line 2 in symbols file 'syms.txt': expected '0xADDR name'", "symbols: the line is named");
	err.code = 0;
	is_int(bt_ios_symbols_parse(&s, "zz name\n", 8, "syms.txt", &err), BT_EFORMAT, "symbols: not hex");
	err.code = 0;
	is_int(bt_ios_symbols_parse(&s, "0x10 a\0b\n", 9, "syms.txt", &err), BT_EFORMAT, "symbols: NUL byte");
	is_str(err.msg, "NUL byte in line 1 of symbols file 'syms.txt'", "symbols: NUL named by line");
	err.code = 0;
	is_int(bt_ios_symbols_parse(&s, "0x1ffffffffffffffff x\n", 22, "syms.txt", &err), BT_EFORMAT,
	       "symbols: an address past 64 bits");
	err.code = 0;
	is_int(bt_ios_symbols_parse(&s, "", 0, "syms.txt", &err), BT_OK, "symbols: an empty file");
	bt_ios_stacks_release(&s);
}

static void test_series(void)
{
	struct bt_ios_series x;
	struct bt_err err = BT_ERR_INIT;

#define SERIES(s) bt_ios_series_parse(s, sizeof s - 1, "row 3 info", &x, &err)
	is_int(SERIES("{\"val\":104857600,\"perfetto_type\":\"counter\"}"), BT_OK, "series: counter parses");
	is_int(x.kind, BT_IOS_SERIES_COUNTER, "series: counter kind");
	ok(x.has_val && x.val == 104857600.0, "series: counter value");
	is_int(SERIES(" {\"begin_time\":1000, \"end_time\":60000.5, \"perfetto_type\":\"slice\", \"x\":[{}]} "), BT_OK,
	       "series: slice parses");
	is_int(x.kind, BT_IOS_SERIES_SLICE, "series: slice kind");
	ok(x.has_begin && x.has_end && x.begin_us == 1000 && x.end_us == 60000.5, "series: slice times");
	is_int(SERIES("{\"id\":7,\"action\":\"create\"}"), BT_OK, "series: no perfetto_type");
	is_int(x.kind, BT_IOS_SERIES_NONE, "series: other event");
	is_int(SERIES("{\"perfetto_type\":\"flow\",\"val\":\"3\"}"), BT_OK, "series: unknown perfetto_type");
	ok(x.kind == BT_IOS_SERIES_UNKNOWN && !x.has_val, "series: unknown kind, a string val is no value");
	is_int(SERIES("{\"val\":1,\"perfetto_type\":\"counter\""), BT_EFORMAT, "series: truncated JSON");
	is_str(err.msg, "row 3 info: byte 34: unexpected end of the JSON text", "series: the byte offset is named");
	err.code = 0;
	is_int(SERIES("[1]"), BT_EFORMAT, "series: not an object");
	err.code = 0;
	is_int(SERIES("{\"a\":1} {"), BT_EFORMAT, "series: trailing text");
	err.code = 0;
#undef SERIES
}

/* Sorting moves whole records by (tid, ts), ties in read order. */
static void test_sort(void)
{
	struct bt_ios_recs r = { NULL, 0, 0 };
	unsigned state = 7;
	size_t i;
	int bad = 0;

	for (i = 0; i < 5000; i++) {
		struct bt_ios_rec *x = bt_ios_recs_add(&r);
		state = state * 1103515245u + 12345u;
		x->tid = 259 + (state >> 16) % 5;
		x->ts = (int64_t)((state >> 8) % 300);
		x->stack_id = (uint32_t)i;   /* a payload that must travel with its record */
		x->cpu = x->ts * 3 + x->tid;
	}
	bt_ios_recs_sort(&r);
	for (i = 0; i < r.n; i++) {
		const struct bt_ios_rec *x = &r.v[i], *p = i ? &r.v[i - 1] : NULL;
		if (x->cpu != x->ts * 3 + x->tid || x->seq != x->stack_id)
			bad++;
		if (p && (p->tid > x->tid || (p->tid == x->tid && (p->ts > x->ts || (p->ts == x->ts && p->seq > x->seq)))))
			bad++;
	}
	is_int(r.n, 5000, "sort: every record kept");
	is_int(bad, 0, "sort: by tid, then time, ties in read order, each record whole");
	free(r.v);
}

/* A lock's contention samples in time order, each with its other half:
 * read table by table (per-row, then batch: spec §10.1) they are not in
 * time order, and one whose other half is missing or whose CPU time
 * differs stays a point, counted. */
static void test_pair_locks(void)
{
	static const struct { int64_t tid, ts, cpu; unsigned action; } in[] = {
		{ 259, 200, 10, 15 }, { 259, 300, 20, 15 }, { 259, 600, 30, 15 },   /* per-row table */
		{ 771, 350, 5, 16 }, { 259, 450, 25, 1 },
		{ 259, 100, 10, 15 }, { 259, 400, 20, 15 }, { 259, 500, 30, 15 },   /* batch table */
		{ 259, 700, 40, 15 },                        /* its end is missing */
		{ 259, 800, 50, 15 }, { 259, 900, 51, 15 },  /* not one wait: the CPU times differ */
		{ 1283, 150, 7, 15 }, { 1283, 250, 7, 15 },  /* another thread, the same lock */
	};
	static const int64_t want[][3] = { { 259, 100, 200 }, { 259, 300, 400 }, { 259, 500, 600 },
					   { 1283, 150, 250 } };
	struct bt_ios_recs r = { NULL, 0, 0 };
	struct bt_diag d;
	size_t i, j, waits = 0, points = 0, found = 0;

	bt_diag_init(&d);
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct bt_ios_rec *x = bt_ios_recs_add(&r);
		x->type = BT_IOS_LOCK;
		x->tid = in[i].tid;
		x->ts = in[i].ts;
		x->cpu = in[i].cpu;
		x->action = (uint16_t)in[i].action;
		x->lock_id = 0x280001230;
		x->stack_id = 42;
	}
	bt_ios_pair_locks(&r, &d);
	for (i = 0; i < r.n; i++) {
		const struct bt_ios_rec *x = &r.v[i];
		waits += x->type == BT_IOS_LOCK_WAIT;
		points += x->type == BT_IOS_LOCK;
		for (j = 0; x->type == BT_IOS_LOCK_WAIT && j < sizeof want / sizeof want[0]; j++)
			found += x->tid == want[j][0] && x->ts == want[j][1] && x->end_ts == want[j][2] &&
				 x->cpu == x->end_cpu;
	}
	is_int(waits, 4, "pair locks: four waits");
	is_int(found, 4, "pair locks: each over its own begin and end, across the tables");
	is_int(points, 5, "pair locks: the lone half, the two of different CPU times and the others stay points");
	is_int(d.n, 1, "pair locks: one diagnostic");
	is_str(d.items[0].code, "unpaired_lock_contention", "pair locks: the unpaired samples are counted");
	is_int(d.items[0].count, 3, "pair locks: all three of them");
	free(r.v);
}

int main(void)
{
	test_sort();
	test_pair_locks();
	test_layouts();
	test_cpu_blob();
	test_all_layouts();
	test_unwrap();
	test_symbols();
	test_series();
	return done_testing();
}
