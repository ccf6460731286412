/*
 * Importer for btrace 2.0 raw traces: appTrace.bin, the buffer rhea-atrace
 * maps and fills as instrumented methods return (binary_trace.cpp), with
 * the methodMapping.txt the build wrote beside it (b2_mapping.c). Each
 * record is a whole call, so the trace brings its own slices: grouped by
 * thread, nested (b2_tree.c) and given to the pipeline's feed. Times are
 * put on the boot clock as upstream's converter does. A record cut by
 * the file's end is counted and the rest kept, unless --strict.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/fileio.h"
#include "importers/btrace2/b2_int.h"
#include "importers/importer.h"
#include "importers/reader.h"
#include "importers/symbol.h"

#define VERSION 5                     /* the layout binary_trace.cpp writes */
#define MAX_PID 4194304               /* Linux's PID_MAX_LIMIT */
#define MAX_HEADER_TIME ((int64_t)1 << 61)
#define SAME_CLOCK 1000000            /* upstream: boot and monotonic within 1 ms are one clock */
#define PROGRESS_EVERY (1u << 20)

static const char trace_name[] = "appTrace.bin", mapping_name[] = "methodMapping.txt";

/* What one 16-byte slot holds (see take()). */
enum slot { S_OK, S_EMPTY, S_UNFINISHED, S_BAD_TID, S_RANGE, S_STALE, S_CLAMPED };

struct ctx {
	const char *path, *mapping;
	struct bt_fmap map;
	struct bt_db *db;
	struct bt_diag *diag;
	const struct bt_import_opts *o;
	int32_t version, pid;
	int64_t boot, mono, begin;       /* the header's */
	uint64_t begin_rel;              /* where tracing (last) began, as a record's start */
	size_t end;                      /* past the last whole slot */
	uint64_t count[S_CLAMPED + 1];
	size_t first_off[S_CLAMPED + 1]; /* of the first slot of each kind */
	uint64_t *per_tid;               /* records by tid */
	struct b2_names names;
	struct b2_trace trace;
	int64_t main_tid;
	uint64_t unmapped, unmapped_ids;
	uint32_t unmapped_example;
};

static int plausible(const unsigned char *h, size_t n, int32_t version)
{
	int32_t pid = (int32_t)(h[4] | h[5] << 8 | h[6] << 16 | (uint32_t)h[7] << 24);
	int k;

	if (pid < 1 || pid > MAX_PID)
		return 0;
	if (n < B2_HEADER)   /* a header cut short: claimed, so the error says so */
		return version == VERSION;
	for (k = 1; k <= 3; k++) {
		int64_t v = (int64_t)bt_le64(h + 8 * k);
		if (v < 0 || v >= MAX_HEADER_TIME)
			return 0;
	}
	return 1;
}

static int probe(const char *path, const unsigned char *head, size_t n)
{
	struct bt_buf p = BT_BUF_INIT;
	int32_t version;
	int yes;

	if (!head) {
		bt_buf_addf(&p, "%s/%s", path, trace_name);
		yes = bt_is_file(p.buf);
		bt_buf_release(&p);
		return yes;
	}
	if (n < 8)
		return 0;
	version = (int32_t)(head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24);
	return version >= 1 && version <= 15 && plausible(head, n, version);
}

static int header_time(struct ctx *c, const char *what, size_t off, int64_t *v, struct bt_err *err)
{
	*v = (int64_t)bt_le64(c->map.data + off);
	if (*v < 0 || *v >= MAX_HEADER_TIME)
		return bt_err_set(err, BT_EFORMAT, "%s %lld ns in '%s' at offset %zu is out of range (0 to 2^61)",
				  what, (long long)*v, c->path, off);
	return BT_OK;
}

static int read_header(struct ctx *c, struct bt_err *err)
{
	struct bt_reader r;

	bt_rd_init(&r, c->map.data, c->map.len, c->path);
	if (bt_rd_need(&r, B2_HEADER, "header", err))
		return err->code;
	c->version = (int32_t)bt_rd_u32(&r);
	c->pid = (int32_t)bt_rd_u32(&r);
	if (c->version < VERSION)
		return bt_err_set(err, BT_EFORMAT, "appTrace.bin version %d in '%s' at offset 0 is older than "
				  "btrace 2.0's layout (version %d); not supported", c->version, c->path, VERSION);
	if (c->pid < 1 || c->pid > MAX_PID)
		return bt_err_set(err, BT_EFORMAT, "pid %d in '%s' at offset 4 is no process id", c->pid, c->path);
	if (header_time(c, "bootTime", 8, &c->boot, err) || header_time(c, "monotonicTime", 16, &c->mono, err) ||
	    header_time(c, "traceBeginMonotonicTime", 24, &c->begin, err))
		return err->code;
	if (c->version > VERSION)
		bt_diag_warn(c->diag, "unknown_version", "'%s' is version %d; read as version %d, the last known",
			     c->path, c->version, VERSION);
	if (c->begin < c->mono || (uint64_t)(c->begin - c->mono) >= B2_SPAN)
		bt_diag_warn(c->diag, "bad_trace_begin", "traceBeginMonotonicTime %lld ns in '%s' at offset 24 is "
			     "before monotonicTime %lld ns or 2^45 ns after it; ignored, every record taken",
			     (long long)c->begin, c->path, (long long)c->mono);
	else
		c->begin_rel = (uint64_t)(c->begin - c->mono);
	return BT_OK;
}

/* The slot at p: S_OK (*r holds it), S_CLAMPED (begun before tracing
 * began: *r begins there), or why it is no record. No side effects. */
static enum slot take(const struct ctx *c, const unsigned char *p, struct b2_rec *r)
{
	uint64_t start, end;

	r->a = bt_le64(p);
	r->b = bt_le64(p + 8);
	if (!r->b)   /* upstream skips these: a slot never or not yet written */
		return r->a ? S_UNFINISHED : S_EMPTY;
	if (!b2_tid(r))
		return S_BAD_TID;
	start = b2_start(r);
	end = start + b2_dur(r);
	if (end >= B2_SPAN)
		return S_RANGE;
	if (end <= c->begin_rel && c->begin_rel)
		return S_STALE;
	if (start < c->begin_rel) {
		b2_set(r, c->begin_rel, end - c->begin_rel);
		return S_CLAMPED;
	}
	return S_OK;
}

static void note(struct ctx *c, enum slot k, size_t off)
{
	if (!c->count[k]++)
		c->first_off[k] = off;
}

/* Pass 1: what each slot is, the methods used, records per thread. */
static void scan(struct ctx *c)
{
	struct b2_rec r;
	size_t off;
	enum slot k;

	for (off = B2_HEADER; off < c->end; off += B2_RECORD) {
		k = take(c, c->map.data + off, &r);
		note(c, k, off);
		if (k == S_OK || k == S_CLAMPED) {
			b2_names_use(&c->names, b2_mid(&r));
			c->per_tid[b2_tid(&r)]++;
		}
		if (c->o->progress && !((off - B2_HEADER) / B2_RECORD % PROGRESS_EVERY))
			c->o->progress(c->o->progress_ctx, off, c->map.len);
	}
}

/* Pass 2: the records, grouped by thread in file order. */
static int gather(struct ctx *c, struct bt_err *err)
{
	struct b2_trace *t = &c->trace;
	uint32_t *at = bt_xmalloc(B2_NTID * sizeof *at);
	uint64_t n = 0;
	struct b2_rec r;
	size_t off, tid;
	uint32_t frame;
	enum slot k;

	t->first = bt_xmalloc((B2_NTID + 1) * sizeof *t->first);
	for (tid = 0; tid < B2_NTID; tid++) {
		t->first[tid] = at[tid] = (uint32_t)n;
		n += c->per_tid[tid];
	}
	if (n >= UINT32_MAX) {
		free(at);
		return bt_err_set(err, BT_EFORMAT, "more than 2^32 records in '%s'", c->path);
	}
	t->first[B2_NTID] = (uint32_t)n;
	t->n = n;
	t->rec = bt_xmalloc((n ? n : 1) * sizeof *t->rec);
	for (off = B2_HEADER; off < c->end; off += B2_RECORD) {
		if (!((off - B2_HEADER) / B2_RECORD % PROGRESS_EVERY))
			bt_fmap_drop(&c->map, off);
		k = take(c, c->map.data + off, &r);
		if (k != S_OK && k != S_CLAMPED)
			continue;
		frame = b2_frame(&c->names, b2_mid(&r));
		c->unmapped += !c->names.name[frame];   /* its method unnamed (counted with a mapping) */
		b2_set_frame(&r, frame);
		t->rec[at[b2_tid(&r)]++] = r;
	}
	free(at);
	return BT_OK;
}

static void count_diags(struct ctx *c)
{
	static const struct {
		enum slot k;
		const char *code, *what;
	} d[] = {
		{ S_UNFINISHED, "unfinished_record", "has its first word but not its second (a slot the writer had not "
		  "finished); skipped, as upstream does" },
		{ S_BAD_TID, "bad_tid", "has thread id 0; skipped" },
		{ S_RANGE, "time_out_of_range", "ends 2^45 ns (9.8 h) or more after the trace's first start, past "
		  "what the format holds: a damaged record; skipped" },
		{ S_STALE, "before_trace_begin", "ended before tracing began (traceBeginMonotonicTime, offset 24): left "
		  "in the reused buffer by an earlier session; skipped" },
		{ S_CLAMPED, "began_before_trace", "began before tracing did; it begins at the trace's begin, as "
		  "upstream shows it" },
	};
	size_t i;

	for (i = 0; i < sizeof d / sizeof d[0]; i++)
		if (c->count[d[i].k])
			bt_diag_count(c->diag, d[i].code, c->count[d[i].k], "the record at offset %zu of '%s' %s",
				      c->first_off[d[i].k], c->path, d[i].what);
}

/* A record cut by the end of the file: counted, the rest kept (--strict:
 * an error). Zeros after an empty slot are the end of the writer's
 * buffer, whose size need not be a whole number of records. */
static int tail(struct ctx *c, struct bt_err *err)
{
	size_t left = c->map.len - c->end, i;

	if (!left)
		return BT_OK;
	for (i = c->end - B2_RECORD; c->end > B2_HEADER && i < c->map.len && !c->map.data[i]; i++)
		;
	if (c->end > B2_HEADER && i == c->map.len)
		return BT_OK;
	bt_err_set(err, BT_EFORMAT, "truncated record in '%s' at offset %zu: need %d bytes, %zu left", c->path,
		   c->end, B2_RECORD, left);
	if (c->o->strict)
		return err->code;
	bt_err_clear(err);
	return bt_diag_partial(c->diag, c->db, "truncated_trace", err,
			       "'%s' is cut at offset %zu inside a record (from offset %zu): its %zu bytes lost; "
			       "%llu records before it imported", c->path, c->map.len, c->end, left,
			       (unsigned long long)(c->count[S_OK] + c->count[S_CLAMPED]));
}

/* A frame's name: the mapping's, else a placeholder (into ph). */
static const char *frame_name(struct ctx *c, uint32_t frame, uint32_t mid, int have_map, struct bt_buf *ph)
{
	const char *n = b2_names_get(&c->names, frame);

	if (n)
		return n;
	bt_buf_reset(ph);
	bt_buf_addf(ph, "<unknown method %u>", mid);
	if (have_map && !c->unmapped_ids++)
		c->unmapped_example = mid;
	return ph->buf;
}

/* The frames, in method id order (as b2_names_rank numbered them). */
static int write_frames(struct ctx *c, struct bt_feed *f, int have_map, struct bt_err *err)
{
	struct bt_buf ph = BT_BUF_INIT;
	struct bt_symbol sym;
	uint32_t k, mid, frame = 0;
	uint64_t w;
	const char *n;
	int rc = BT_OK;

	for (k = 0; k < (c->names.top + 63) / 64 && !rc; k++) {
		for (w = c->names.used[k]; w && !rc; w &= w - 1) {
			mid = k * 64 + (uint32_t)__builtin_ctzll(w);
			n = frame_name(c, ++frame, mid, have_map, &ph);
			bt_symbol_parse(n, strlen(n), &sym);
			bt_feed_frame(f, frame, n);
			rc = bt_db_exec(c->db, BT_SQL_INSERT_FRAME, err, "intssss", (int64_t)frame, n, sym.ret.p,
					sym.ret.len, sym.cls.p, sym.cls.len, sym.method.p, sym.method.len, sym.params.p,
					sym.params.len);
		}
	}
	bt_buf_release(&ph);
	return rc;
}

/* Records whose method the mapping does not name (gather counted them). */
static void count_unmapped(struct ctx *c)
{
	if (!c->unmapped_ids)
		return;
	bt_diag_count(c->diag, "unmapped_method", c->unmapped,
		      "method ids of '%s' with no line in '%s': %llu (e.g. %u); their records read <unknown method ID>",
		      c->path, c->mapping, (unsigned long long)c->unmapped_ids, c->unmapped_example);
}

static int write_threads(struct ctx *c, struct bt_err *err)
{
	uint32_t tid;
	int64_t n = 0;
	int rc = BT_OK;

	for (tid = 1; tid < B2_NTID && !rc; tid++)
		if (c->per_tid[tid]) {
			n++;
			rc = bt_db_exec(c->db, BT_SQL_INSERT_THREAD, err, "ini", (int64_t)tid,
					(int64_t)(tid == c->main_tid));
		}
	return rc ? rc : bt_db_set_meta_int(c->db, "sampled_threads", n, err);
}

static int write_meta(struct ctx *c, struct bt_err *err)
{
	struct bt_db *db = c->db;
	int rc = bt_db_set_meta_text(db, "format", "btrace2", err);

	rc = rc ? rc : bt_db_set_meta_int(db, "version", c->version, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "source", c->path, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "mapping", c->mapping, err);
	if (!c->mapping)   /* every report says so first */
		rc = rc ? rc : bt_db_set_meta_text(db, "no_names",
			"analysed without its mapping file: methods read <unknown method ID> and threads "
			"\"tid N\", so Looper messages and the startup cannot be recognised; pass the "
			"methodMapping.txt beside appTrace.bin, or give it with --mapping", err);
	rc = rc ? rc : bt_db_set_meta_text(db, "clock", "boottime", err);
	rc = rc ? rc : bt_db_set_meta_int(db, "no_alloc", 1, err);   /* wall time per call, nothing else */
	rc = rc ? rc : bt_db_set_meta_int(db, "no_faults", 1, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "no_csw", 1, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "pid", c->pid, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "main_tid", c->main_tid, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "boot_time_ns", c->boot, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "monotonic_time_ns", c->mono, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "trace_begin_monotonic_ns", c->begin, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "records", (int64_t)(c->count[S_OK] + c->count[S_CLAMPED]), err);
	rc = rc ? rc : bt_db_set_meta_int(db, "empty_slots", (int64_t)c->count[S_EMPTY], err);
	return rc;
}

/* The boot-clock time of start 0: upstream's converter adds bootTime -
 * monotonicTime to every time unless the two are within 1 ms (writers
 * whose "monotonic" field is already the boot clock, as btrace 2.x's
 * elapsedRealtimeNanos). */
static int64_t boot_base(const struct ctx *c)
{
	int64_t diff = c->boot - c->mono;

	return c->mono + (diff > -SAME_CLOCK && diff < SAME_CLOCK ? 0 : diff);
}

/* The deferred slices (bt_feed_defer): the walk again, its slices stored. */
static int fill(void *ctx, struct bt_db *db, struct bt_err *err)
{
	struct bt_feed *f = bt_feed_new_refill(db);

	if (b2_tree_feed(ctx, f, NULL, err)) {
		bt_feed_free(f);
		return err->code;
	}
	return bt_feed_finish(f, err);
}

static void release_trace(void *ctx)
{
	b2_trace_release(ctx);
	free(ctx);
}

static void count_fixes(struct ctx *c, const struct b2_fixes *fx)
{
	if (fx->unordered)
		bt_diag_count(c->diag, "records_out_of_order", fx->unordered,
			      "records of '%s' came out of the order their calls ended (a thread's are written as "
			      "they return), in %llu thread(s); sorted", c->path, (unsigned long long)fx->unordered_threads);
	if (fx->overlaps)
		bt_diag_count(c->diag, "overlapping_records", fx->overlaps,
			      "calls in '%s' began inside an earlier call of their thread but ended after it; they "
			      "begin where it ended", c->path);
	if (fx->deep)
		bt_diag_count(c->diag, "too_deep", fx->deep, "calls of thread %lld in '%s' nest deeper than 512; "
			      "left out with their callees", (long long)fx->deep_tid, c->path);
}

/* Nest and feed the slices (a scratch analysis defers storing them: the
 * records, kept, give them again), finding the start as they pass. */
static int slices(struct ctx *c, int have_map, struct bt_err *err)
{
	struct bt_feed *f = bt_feed_new(c->db, c->o->taps);
	struct b2_trace *t = bt_xmalloc(sizeof *t);
	struct b2_fixes fx;
	int rc;

	*t = c->trace;   /* the feed's, then the database's, when deferred */
	memset(&c->trace, 0, sizeof c->trace);
	if (!c->o->keep)
		bt_feed_defer(f, fill, release_trace, t);
	memset(&fx, 0, sizeof fx);
	rc = write_frames(c, f, have_map, err);
	if (!rc)
		count_unmapped(c);
	if (!rc)
		rc = write_threads(c, err);
	if (!rc)
		rc = write_meta(c, err);
	if (!rc)
		rc = bt_feed_find_startup(f, c->diag, err);
	if (!rc)
		rc = b2_tree_feed(t, f, &fx, err);
	if (!rc)
		b2_trace_drop_work(t);   /* what is deferred: the records alone */
	if (rc)
		bt_feed_free(f);
	else
		rc = bt_feed_finish(f, err);
	if (c->o->keep)
		release_trace(t);
	if (!rc)
		count_fixes(c, &fx);
	return rc;
}

static int import(struct ctx *c, const struct bt_fmap *mapping, struct bt_err *err)
{
	int rc;

	c->end = c->map.len < B2_HEADER ? c->map.len
		 : B2_HEADER + (c->map.len - B2_HEADER) / B2_RECORD * B2_RECORD;
	rc = read_header(c, err);
	if (!rc && c->pid >= (int32_t)B2_NTID)
		bt_diag_warn(c->diag, "pid_truncated", "pid %d of '%s' does not fit the format's 15-bit tids; main "
			     "thread matched as tid %d, other tids may alias", c->pid, c->path, c->pid & 0x7FFF);
	c->main_tid = c->pid & 0x7FFF;
	if (!rc)
		scan(c);
	if (!rc)
		rc = tail(c, err);
	if (rc)
		return rc;
	count_diags(c);
	b2_names_rank(&c->names);
	if (mapping)
		b2_names_load(&c->names, (const char *)mapping->data, mapping->len, c->mapping, c->diag);
	else
		bt_diag_warn(c->diag, "mapping_missing", "no %s beside '%s'; methods get placeholder names",
			     mapping_name, c->path);
	c->trace.base = boot_base(c);
	rc = gather(c, err);
	bt_fmap_release(&c->map);
	return rc ? rc : slices(c, mapping != NULL, err);
}

/* The trace and mapping paths of a file or directory input. */
static int locate(const char *path, const struct bt_import_opts *o, char **trace, char **mapping,
		  struct bt_err *err)
{
	struct bt_buf b = BT_BUF_INIT;
	const char *slash;

	*mapping = NULL;
	if (bt_is_dir(path)) {
		bt_buf_addf(&b, "%s/%s", path, trace_name);
		*trace = bt_buf_detach(&b, NULL);
		bt_buf_addf(&b, "%s/%s", path, mapping_name);
	} else {
		*trace = bt_xstrdup(path);
		slash = strrchr(path, '/');
		if (slash)
			bt_buf_add(&b, path, (size_t)(slash - path + 1));
		bt_buf_adds(&b, mapping_name);
	}
	if (o->mapping) {
		bt_buf_release(&b);
		if (bt_input_check(o->mapping, 0, err))   /* names the cause: missing, a FIFO, ... */
			return err->code;
		*mapping = bt_xstrdup(o->mapping);
	} else if (bt_is_file(b.buf)) {
		*mapping = bt_buf_detach(&b, NULL);
	}
	bt_buf_release(&b);
	return BT_OK;
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
	       struct bt_err *err)
{
	struct ctx *c = bt_xcalloc(1, sizeof *c);
	struct bt_fmap mapping = { NULL, 0 };
	char *trace = NULL, *mpath = NULL;
	int rc = locate(path, o, &trace, &mpath, err);

	if (!rc && mpath)
		rc = bt_fmap_open(&mapping, mpath, err);
	if (!rc)
		rc = bt_fmap_open(&c->map, trace, err);
	if (!rc) {
		c->path = trace;
		c->mapping = mpath;
		c->db = db;
		c->diag = diag;
		c->o = o;
		c->per_tid = bt_xcalloc(B2_NTID, sizeof *c->per_tid);
		b2_names_init(&c->names);
		rc = import(c, mpath ? &mapping : NULL, err);
		b2_names_release(&c->names);
		b2_trace_release(&c->trace);
		free(c->per_tid);
	}
	bt_fmap_release(&c->map);
	bt_fmap_release(&mapping);
	free(trace);
	free(mpath);
	free(c);
	return rc;
}

const struct bt_importer bt_imp_btrace2 = {
	.name = "btrace2", .noun = "a btrace 2.0 trace",
	.brings = BT_BRINGS_SLICES | BT_BRINGS_MAPPING,
	.probe = probe, .run = run
};
