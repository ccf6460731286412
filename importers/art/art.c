/*
 * Importer for ART method traces (TraceView's .trace): what
 * Debug.startMethodTracing, `am profile start` and Android Studio's Java
 * method tracing write, in all three layouts (art_scan.c). Every call
 * becomes a slice with its wall and thread-CPU time (art_pair.c), so a
 * method's time splits into on- and off-CPU as for a btrace dump. A file
 * cut short keeps the records before the cut, unless --strict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "importers/art/art_int.h"
#include "importers/symbol.h"

static int starts(const unsigned char *h, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && !memcmp(h, lit, k);
}

/* The binary header's version, as a probe reads it: 1..5, 0 if none. */
static int slow_version(const unsigned char *h, size_t n)
{
	unsigned v;

	if (n < 6 || !starts(h, n, "SLOW") || h[5])
		return 0;
	v = h[4];
	if (v == 0xF2 || v == 0xF3 || v == 0xF4 || v == 0xF5)
		return (int)(v & 0x0F);
	return v >= 1 && v <= 5 ? (int)v : 0;
}

static int probe(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	if (!head)
		return 0;
	return starts(head, n, "*version\n") || starts(head, n, "*version\r\n") || starts(head, n, "SLOW");
}

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The data header cut short: nothing after it to read (salvaged by the caller). */
static int cut_header(struct art *a, size_t at, size_t need, struct bt_err *err)
{
	a->cut.yes = 1;
	a->cut.at = a->len;
	a->cut.start = at;
	a->cut.what = "data header";
	return bt_err_set(err, BT_EFORMAT, "truncated data header in '%s' at offset %zu: %zu bytes said, %zu there",
			  a->path, at, need, a->len - at);
}

/* A start time (us for V1, ns for V2) as ns, 0 if beyond the engine's range. */
static void set_start(struct art *a, uint64_t v, int us, size_t at)
{
	uint64_t max = (uint64_t)BT_MAX_TIME_NS / (us ? 1000 : 1);

	if (v >= max) {
		bt_diag_warn(a->diag, "value_out_of_range", "start time %llu %s in '%s' at offset %zu is beyond 2^62 ns; taken as 0",
			     (unsigned long long)v, us ? "us" : "ns", a->path, at);
		v = 0;
	}
	a->start_ns = (int64_t)(us ? v * 1000 : v);
}

/* The V1 data header at off (legacy after its key, streaming at 0). */
static int v1_header(struct art *a, size_t off, int version, struct bt_err *err)
{
	const unsigned char *p = a->data + off;
	size_t left = a->len - off, min;
	unsigned data;

	if (left < 4 || memcmp(p, "SLOW", 4)) {
		if (left < 4 && !memcmp(p, "SLOW", left))
			return cut_header(a, off, 4, err);
		return bt_err_set(err, BT_EFORMAT, "no 'SLOW' data header in '%s' at offset %zu, after the text's '*end'",
				  a->path, off);
	}
	min = version >= 3 ? 18 : 16;
	a->rec_size = 0;   /* none until the header is whole */
	if (left < min)
		return cut_header(a, off, min, err);
	data = le16(p + 6);
	if (data > left)
		return cut_header(a, off, data, err);
	if ((le16(p + 4) & ~0xF0u) != (unsigned)version)
		return bt_err_set(err, BT_EFORMAT, "data header version %u in '%s' at offset %zu differs from the text's %d",
				  le16(p + 4), a->path, off + 4, version);
	if (data < min)
		return bt_err_set(err, BT_EFORMAT, "offset to data %u in '%s' at offset %zu points inside the %zu-byte header",
				  data, a->path, off + 6, min);
	a->rec_size = version == 1 ? 9 : version == 2 ? 10 : le16(p + 16);
	if (a->rec_size < (version == 1 ? 9u : 10u))
		return bt_err_set(err, BT_EFORMAT, "record size %zu in '%s' at offset %zu is below the 10 bytes of a record",
				  a->rec_size, a->path, off + 16);
	set_start(a, le64(p + 8), 1, off + 8);
	a->data_off = off + data;
	return BT_OK;
}

/* The first V2 layout written to a file: the key's text (no threads, no
 * methods: none are named), then the binary header at off and entries
 * packets. The current layout never starts with a key. */
static int v2_keyed(struct art *a, size_t off, struct bt_err *err)
{
	const unsigned char *p = a->data + off;
	size_t left = a->len - off;

	a->layout = ART_V2;
	a->tid_bits = 32;
	a->v2_first = a->v2_keyed = 1;
	if (left < 4 || memcmp(p, "SLOW", 4)) {
		if (left < 4 && !memcmp(p, "SLOW", left))
			return cut_header(a, off, ART_HEADER_LEN, err);
		return bt_err_set(err, BT_EFORMAT, "no 'SLOW' data header in '%s' at offset %zu, after the text's '*end'",
				  a->path, off);
	}
	if (left < ART_HEADER_LEN)
		return cut_header(a, off, ART_HEADER_LEN, err);
	if (le16(p + 4) != (unsigned)a->version)
		return bt_err_set(err, BT_EFORMAT, "data header version %u in '%s' at offset %zu differs from the text's %d",
				  le16(p + 4), a->path, off + 4, a->version);
	a->data_off = off + ART_HEADER_LEN;
	return BT_OK;
}

static int read_header(struct art *a, struct bt_err *err)
{
	size_t used;
	int v = slow_version(a->data, a->len);
	int slow = a->len >= 4 && !memcmp(a->data, "SLOW", 4);

	if (slow && a->len < 6)   /* no version yet: read as V2 (32 bytes) */
		return cut_header(a, 0, ART_HEADER_LEN, err);
	if (!v && slow)
		return bt_err_set(err, BT_EFORMAT, "unknown method trace version 0x%02x%02x in '%s' at offset 4 "
				  "(known: 1 to 5, streaming 0xf2 to 0xf5)", a->len > 5 ? a->data[5] : 0,
				  a->len > 4 ? a->data[4] : 0, a->path);
	if (!v) {
		a->layout = ART_LEGACY;
		if (art_text_key(a, (const char *)a->data, a->len, 0, &used, err))
			return err->code;
		if (a->version >= 4)
			return v2_keyed(a, used, err);
		return v1_header(a, used, a->version, err);
	}
	if (v <= 3 && a->data[4] == v)
		return bt_err_set(err, BT_EFORMAT, "'%s' at offset 0 is the data part of a version %d method trace "
				  "without its text key (\"*version\" ... \"*end\"); join them as the key, then the data",
				  a->path, v);
	a->version = v;
	if (v <= 3) {
		a->layout = ART_STREAM;
		a->tid_bits = 16;
		return v1_header(a, 0, v, err);
	}
	a->layout = ART_V2;
	a->tid_bits = 32;
	if (a->len < ART_HEADER_LEN)
		return cut_header(a, 0, ART_HEADER_LEN, err);
	a->data_off = ART_HEADER_LEN;   /* the start's unit comes with the layout (read_all) */
	return BT_OK;
}

static const char *clock_name(enum art_clock c)
{
	return c == ART_CLOCK_DUAL ? "dual" : c == ART_CLOCK_WALL ? "wall" : "thread-cpu";
}

/* The clock the records hold, against what the layout leaves room for. */
static int check_clock(struct art *a, struct bt_err *err)
{
	size_t need;

	if (!a->clock_known) {
		/* what the layout holds: two times in a v3 record of 14 bytes or more, else one */
		a->clock = a->version == 5 || (a->version == 3 && a->rec_size >= 14) ? ART_CLOCK_DUAL
			   : a->version == 4 ? ART_CLOCK_WALL : ART_CLOCK_CPU;
		bt_diag_warn(a->diag, "art_clock_unknown", "'%s' does not say its clock (no clock= option%s); read as %s",
			     a->path, a->layout == ART_LEGACY ? "" : ": no summary", clock_name(a->clock));
	}
	if (a->layout == ART_V2) {
		if ((a->version == 5) != (a->clock == ART_CLOCK_DUAL))
			return bt_err_set(err, BT_EFORMAT, "'%s' says clock=%s at offset %zu, but its version %d is %s-clock",
					  a->path, clock_name(a->clock), a->clock_at, a->version,
					  a->version == 5 ? "dual" : "single");
		return BT_OK;
	}
	need = (a->version == 1 ? 1u : 2u) + 4 + (a->clock == ART_CLOCK_DUAL ? 8 : 4);
	if (a->rec_size && a->rec_size < need)
		return bt_err_set(err, BT_EFORMAT, "records of %zu bytes in '%s' (data header at offset %zu) cannot hold clock=%s (%zu bytes)",
				  a->rec_size, a->path, a->data_off - ART_HEADER_LEN, clock_name(a->clock), need);
	return BT_OK;
}

/* The file ends inside an item (or, streaming, before its summary): keep
 * what came before (--strict: the error stands). */
static int salvage(struct art *a, struct bt_err *err)
{
	if (a->o->strict)
		return err->code;
	bt_err_clear(err);
	return bt_diag_partial(a->diag, a->db, "truncated_trace", err,
			       "'%s' is cut at offset %zu inside its %s (from offset %zu): %zu bytes lost; "
			       "%llu records imported", a->path, a->cut.at, a->cut.what, a->cut.start,
			       a->cut.at - a->cut.start, (unsigned long long)a->records);
}

static int no_summary(struct art *a, struct bt_err *err)
{
	if (a->o->strict)
		return bt_err_set(err, BT_EFORMAT, "truncated trace '%s': it ends at offset %zu without the summary that ends a streaming trace",
				  a->path, a->len);
	return bt_diag_partial(a->diag, a->db, "truncated_trace", err,
			       "'%s' ends at offset %zu without the summary that ends a streaming trace: the recording "
			       "was cut short; %llu records imported", a->path, a->len, (unsigned long long)a->records);
}

/* A legacy trace whose records end on a record's boundary, short of the
 * count its key gives: cut there (ART counts the records it wrote). */
static int short_records(struct art *a, struct bt_err *err)
{
	if (a->o->strict)
		return bt_err_set(err, BT_EFORMAT, "truncated trace '%s': its key counts %lld method calls, the records "
				  "end at offset %zu after %llu", a->path, (long long)a->method_calls, a->len,
				  (unsigned long long)a->records);
	return bt_diag_partial(a->diag, a->db, "truncated_trace", err,
			       "'%s' ends at offset %zu after %llu records, short of the %lld method calls its key "
			       "counts: cut there", a->path, a->len, (unsigned long long)a->records,
			       (long long)a->method_calls);
}

static int read_all(struct art *a, struct bt_err *err)
{
	int rc = read_header(a, err);

	if (!rc)
		rc = art_scan(a, err);
	if (a->layout == ART_V2 && a->data_off)   /* the first V2 layout's start is in us, the current one's in ns */
		set_start(a, le64(a->data + a->data_off - ART_HEADER_LEN + 6), a->v2_first, a->data_off - ART_HEADER_LEN + 6);
	if (rc && a->cut.yes)
		rc = salvage(a, err);
	else if (!rc && a->layout != ART_LEGACY && !a->summary && !a->v2_keyed)   /* a key is its summary */
		rc = no_summary(a, err);
	else if (!rc && a->layout == ART_LEGACY && a->has_method_calls && a->rec_size &&
		 a->records < (uint64_t)a->method_calls)
		rc = short_records(a, err);
	if (!rc)
		rc = check_clock(a, err);
	return rc;
}

/* A main thread: the pid's (as the records' tids hold it), else "main". */
static int64_t main_tid(struct art *a)
{
	uint64_t mask = a->tid_bits >= 32 ? UINT32_MAX : (1ull << a->tid_bits) - 1;
	size_t i;

	if (a->has_pid && bt_map64_get(&a->thread_of, (uint64_t)a->pid & mask))
		return (int64_t)((uint64_t)a->pid & mask);
	for (i = 0; i < a->nthreads; i++)
		if (a->threads[i].name && !strcmp(art_str(a, a->threads[i].name - 1), "main"))
			return a->threads[i].tid;
	return -1;
}

static void check_pid(struct art *a)
{
	uint64_t mask = a->tid_bits >= 32 ? UINT32_MAX : (1ull << a->tid_bits) - 1;

	if (!a->has_pid || a->tid_bits >= 32)
		return;
	if ((uint64_t)a->pid > mask)
		bt_diag_warn(a->diag, "pid_truncated", "pid %lld does not fit the records' %d-bit tids; the main thread "
			     "is matched as tid %llu (or by its name), other tids may alias", (long long)a->pid,
			     a->tid_bits, (unsigned long long)((uint64_t)a->pid & mask));
	else if (a->tid_bits == 16 && a->pid >= 32768)
		bt_diag_warn(a->diag, "pid_sign", "pid %lld is >= 32768: upstream tools read such tids as negative and "
			     "cannot find the main thread; read unsigned here", (long long)a->pid);
}

static int write_threads(struct art *a, int64_t mt, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < a->nthreads; i++) {
		const struct art_thread *t = &a->threads[i];
		if (bt_db_exec(a->db, BT_SQL_INSERT_THREAD, err, "iti", t->tid, t->name ? art_str(a, t->name - 1) : NULL,
			       (int64_t)(t->tid == mt)))
			return err->code;
	}
	return BT_OK;
}

static int write_frames(struct art *a, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < a->nmethods; i++) {
		const struct art_method *m = &a->methods[i];
		const char *n = art_str(a, m->name);
		struct bt_symbol sym;
		if (!m->frame)
			continue;
		bt_symbol_parse(n, strlen(n), &sym);
		if (bt_db_exec(a->db, BT_SQL_INSERT_FRAME, err, "iitssss", (int64_t)m->frame, (int64_t)m->id, n,
			       sym.ret.p, sym.ret.len, sym.cls.p, sym.cls.len, sym.method.p, sym.method.len,
			       sym.params.p, sym.params.len))
			return err->code;
	}
	return BT_OK;
}

static const char *layout_name(const struct art *a)
{
	return a->layout == ART_LEGACY ? "legacy" : a->layout == ART_STREAM ? "streaming" : a->v2_first ? "v2-first" : "v2";
}

static int write_meta(struct art *a, int64_t mt, struct bt_err *err)
{
	struct bt_db *db = a->db;
	int64_t threads = 0;
	size_t i;
	int rc;

	for (i = 0; i < a->nthreads; i++)
		threads += a->threads[i].records > 0;
	rc = bt_db_set_meta_text(db, "format", "art-method-trace", err);
	rc = rc ? rc : bt_db_set_meta_text(db, "source", a->path, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "layout", layout_name(a), err);
	rc = rc ? rc : bt_db_set_meta_int(db, "version", a->version, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "clock", clock_name(a->clock), err);
	rc = rc ? rc : bt_db_set_meta_int(db, "records", (int64_t)a->records, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "sampled_threads", threads, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "trace_start_ns", a->start_ns, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "unroll_exits", (int64_t)a->unroll, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "no_alloc", 1, err);   /* a method trace records no counters */
	rc = rc ? rc : bt_db_set_meta_int(db, "no_faults", 1, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "no_csw", 1, err);
	if (a->vm[0])
		rc = rc ? rc : bt_db_set_meta_text(db, "vm", a->vm, err);
	if (a->has_elapsed)
		rc = rc ? rc : bt_db_set_meta_int(db, "elapsed_ns", a->elapsed_ns, err);
	if (a->has_pid)
		rc = rc ? rc : bt_db_set_meta_int(db, "pid", a->pid, err);
	if (mt >= 0)
		rc = rc ? rc : bt_db_set_meta_int(db, "main_tid", mt, err);
	return rc;
}

/* What only the slices' pass finds. */
static int write_found(struct art *a, struct bt_err *err)
{
	int rc = bt_db_set_meta_int(a->db, "art_sampled", art_sampled(a), err);

	if (!rc && art_sampled(a))
		rc = bt_db_set_meta_int(a->db, "sampling_interval_ns", a->min_gap, err);
	return rc;
}

/* What the pairing found, counted. */
static void report(const struct art *a)
{
	struct bt_diag *d = a->diag;
	const char *p = a->path;

	if (a->synthetic)
		bt_diag_count(d, "art_exit_without_entry", a->synthetic, "exits in '%s' of calls made before tracing "
			      "began: they become the outermost slices, from the trace's start", p);
	if (a->open_at_end)
		bt_diag_count(d, "art_open_at_end", a->open_at_end, "calls in '%s' still running when tracing stopped: "
			      "closed when tracing stopped", p);
	if (a->mismatched)
		bt_diag_count(d, "art_exit_mismatch", a->mismatched, "calls in '%s' that an outer call's exit closed "
			      "(their own exits are missing)", p);
	if (a->nwraps)
		bt_diag_count(d, "art_v2_count_wrapped", a->nwraps, "entries packets in '%s' whose u2 record count "
			      "and size ART wrote modulo 65536 (a flush of more records than they hold): read to "
			      "where their records end", p);
	if (a->unknown_methods && a->v2_keyed)
		bt_diag_count(d, "art_unknown_method", a->unknown_methods, "method ids in the records of '%s', which "
			      "ART's first V2 layout written to a file names nowhere (nor its threads); shown as "
			      "<unknown method 0x...>", p);
	else if (a->unknown_methods)
		bt_diag_count(d, "art_unknown_method", a->unknown_methods, "method ids in the records of '%s' that no "
			      "method line names; shown as <unknown method 0x...>", p);
	if (a->backwards)
		bt_diag_count(d, "art_time_backwards", a->backwards, "records in '%s' earlier than their thread's "
			      "previous one; held at its time", p);
	if (a->range)
		bt_diag_count(d, "value_out_of_range", a->range, "record times in '%s' beyond 2^62 ns; held at "
			      "their thread's previous time", p);
	if (a->deep)
		bt_diag_count(d, "art_too_deep", a->deep, "calls in '%s' nested deeper than %d; paired but not "
			      "made slices", p, ART_MAX_DEPTH);
	if (a->overflow)
		bt_diag_warn(d, "art_buffer_overflow", "'%s' says data-file-overflow=true: its buffer filled up "
			     "and the calls after that were not recorded", p);
	if (a->has_method_calls && a->layout == ART_LEGACY && (uint64_t)a->method_calls < a->records)
		bt_diag_warn(d, "art_record_count_mismatch", "'%s' says num-method-calls=%lld; it holds %llu records",
			     p, (long long)a->method_calls, (unsigned long long)a->records);
	if (a->clock == ART_CLOCK_WALL)
		bt_diag_warn(d, "art_no_cpu_clock", "'%s' has only the wall clock (clock=wall): its thread-CPU time "
			     "is not in the trace and reads as unknown", p);
	if (a->clock == ART_CLOCK_CPU)
		bt_diag_warn(d, "art_cpu_clock_only", "'%s' has only the thread-CPU clock (clock=thread-cpu): each "
			     "thread's slices are placed on its own CPU time, and off-CPU time is unknown", p);
	if (art_sampled(a))
		bt_diag_warn(d, "art_sampled_trace", "'%s' is a sampled trace (a thread's records are %lld us or "
			     "more apart): calls are stack changes between samples, timed to that interval; shorter "
			     "calls are missing", p, (long long)(a->min_gap / 1000));
}

void art_drop(struct art *a, size_t upto)
{
	if (a->map.data)
		bt_fmap_drop(&a->map, upto);
	a->touched = 0;
}

void art_free(struct art *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nthreads; i++) {
		free(a->threads[i].runs);
		free(a->threads[i].callers);
	}
	free(a->threads);
	free(a->methods);
	bt_map64_release(&a->method_of);
	bt_map64_release(&a->thread_of);
	bt_map64_release(&a->wrapped);
	free(a->wraps);
	bt_buf_release(&a->pool);
	bt_fmap_release(&a->map);
	free(a->path);
	free(a);
}

int bt_art_import_bytes(struct bt_db *db, const char *path, const unsigned char *data, size_t len,
			struct bt_fmap *map, const struct bt_import_opts *o, struct bt_diag *diag,
			struct bt_err *err)
{
	struct art *a = bt_xcalloc(1, sizeof *a);
	int64_t mt = -1;
	int rc, taken = 0;

	a->path = bt_xstrdup(path);
	a->data = data;
	a->len = len;
	if (map)
		a->map = *map;
	a->db = db;
	a->diag = diag;
	a->o = o;
	bt_buf_init(&a->pool);
	bt_map64_init(&a->method_of, 1024);
	bt_map64_init(&a->thread_of, 64);
	bt_map64_init(&a->wrapped, 16);
	rc = read_all(a, err);
	if (!rc)
		rc = art_pair_first(a, err);
	if (!rc) {
		check_pid(a);
		mt = main_tid(a);
		rc = write_frames(a, err);
	}
	if (!rc)
		rc = write_threads(a, mt, err);
	if (!rc)
		rc = write_meta(a, mt, err);
	if (!rc) {   /* a scratch database's slices are made when first read */
		taken = map && !o->keep;
		rc = art_pair_feed(a, taken, err);
	}
	if (!rc) {
		report(a);
		rc = write_found(a, err);
	}
	if (!taken)
		art_free(a);
	return rc;
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
	       struct bt_err *err)
{
	static const unsigned char empty[1];
	struct bt_fmap m = { NULL, 0 };
	int rc = bt_fmap_open(&m, path, err);

	if (rc)
		return rc;
	return bt_art_import_bytes(db, path, m.data ? m.data : empty, m.len, &m, o, diag, err);
}

const struct bt_importer bt_imp_art = {
	.name = "art-method-trace", .noun = "an ART method trace",
	.brings = BT_BRINGS_SLICES | BT_BRINGS_CPU,
	.probe = probe, .run = run
};
