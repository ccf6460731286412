/*
 * Importer for btrace Android 3.0 sampling dumps (format spec §3-§6): the
 * sampling file's header, extra JSON and records, plus the mapping file
 * found beside it. One pass over the mapped bytes, no per-record
 * allocation; every oddity is fatal with its offset or counted. A file cut
 * short keeps its records (or entries) before the cut, unless --strict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/android/android_int.h"
#include "engine/base/fileio.h"
#include "engine/base/jsonr.h"
#include "importers/importer.h"
#include "importers/reader.h"
#include "importers/android/retrace.h"

#define MAGIC 0x01020304u
#define MAX_VERSION 5
#define ABSURD_DEPTH 1024       /* beyond this a depth is corruption, not data */
#define PROGRESS_EVERY 65536

struct actx {
	const char *path;
	struct bt_reader r;
	struct bt_db *db;
	struct bt_diag *diag;
	const struct bt_import_opts *o;
	const struct bt_android_input *in;
	struct bt_android_stacks st;
	uint32_t version, count;
	uint64_t time_ms;
	int64_t pid, start_ms;
	int has_pid, has_start;
	uint64_t records, samples;
	/* where the file ran out inside a record (need() failed), for salvage */
	struct { int yes; size_t start; const char *what; } cut;
	unsigned char seen[65536];      /* tids with valid samples */
	struct { int64_t id, arg; } *args;   /* kTraceArg arguments, written at the end */
	size_t nargs, args_cap;
};

static char *join(const char *dir, size_t dlen, const char *name)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_buf_add(&b, dir, dlen);
	bt_buf_adds(&b, name);
	return bt_buf_detach(&b, NULL);
}

/* First existing file among dir + names; NULL if none. */
static char *first_file(const char *dir, size_t dlen, const char *const *names)
{
	for (; *names; names++) {
		char *p = join(dir, dlen, *names);
		if (bt_is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path + 1) : 0;
}

/* The mapping beside a sampling file: <stem>-mapping.bin, then the device names. */
static char *find_mapping(const char *sampling)
{
	size_t d = dir_len(sampling);
	const char *base = sampling + d, *ext = strrchr(base, '.');
	struct bt_buf stem = BT_BUF_INIT;
	char *found;

	bt_buf_add(&stem, base, ext && ext != base ? (size_t)(ext - base) : strlen(base));
	bt_buf_adds(&stem, "-mapping.bin");
	{
		const char *names[] = { stem.buf, "sampling-mapping.bin", "sampling-mapping", NULL };
		found = first_file(sampling, d, names);
	}
	bt_buf_release(&stem);
	return found;
}

static const char *const sampling_names[] = { "/sampling.bin", "/sampling", NULL };

static int probe(const char *path, const unsigned char *head, size_t n)
{
	char *p;

	if (!head) {
		p = first_file(path, strlen(path), sampling_names);
		free(p);
		return p != NULL;
	}
	return n >= 4 && (head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24) == MAGIC;
}

/* How deep the extra JSON may nest: the top object and 32 levels in it. */
#define EXTRA_DEPTH 33

/* What the extra JSON says of one member read as an integer. */
enum { EXTRA_MISSING, EXTRA_FOUND, EXTRA_NOT_INT };

/* The value at r: EXTRA_FOUND and *out for an integer, EXTRA_NOT_INT for
 * any other value (skipped); -1 when the JSON is malformed there. */
static int extra_int(struct bt_jr *r, int64_t *out)
{
	int n;

	if (bt_jr_peek(r) != BT_J_NUMBER)
		return bt_jr_skip(r) ? -1 : EXTRA_NOT_INT;
	n = bt_jr_int(r, out);
	return n < 0 ? -1 : n ? EXTRA_FOUND : EXTRA_NOT_INT;
}

/* processId and startTime of the extra JSON s[0..len) into c, their
 * EXTRA_* outcomes into st[] (of repeated keys, the last counts). -1 if s
 * is not a JSON object: *where is then the offset of the first wrong byte
 * and both outcomes are EXTRA_MISSING. */
static int scan_extra(struct actx *c, const char *s, size_t len, int st[2], size_t *where)
{
	static const char *const keys[2] = { "processId", "startTime" };
	int64_t *val[2] = { &c->pid, &c->start_ms };
	struct bt_err err = BT_ERR_INIT;
	struct bt_buf key = BT_BUF_INIT;
	struct bt_jr r;
	int more = 0, bad, k;

	st[0] = st[1] = EXTRA_MISSING;
	bt_jr_init(&r, s, len, c->path, &err);
	r.max_depth = EXTRA_DEPTH;
	bad = bt_jr_object(&r) != BT_OK;
	while (!bad && (more = bt_jr_key(&r, &key)) == 1) {
		for (k = 0; k < 2 && (key.len != strlen(keys[k]) || memcmp(key.buf, keys[k], key.len)); k++)
			;
		if (k == 2)
			bad = bt_jr_skip(&r) != BT_OK;
		else if ((st[k] = extra_int(&r, val[k])) < 0)
			bad = 1;
	}
	bt_buf_release(&key);
	if (bad || more < 0 || bt_jr_finish(&r)) {
		*where = bt_jr_offset(&r);
		st[0] = st[1] = EXTRA_MISSING;
		return -1;
	}
	return 0;
}

static int read_extra(struct actx *c, int32_t len, struct bt_err *err)
{
	const char *s;
	size_t where = 0;
	int st[2];

	if (len < 0)
		return bt_err_set(err, BT_EFORMAT, "negative extra JSON length %d in '%s' at offset 24",
				  len, c->path);
	if (bt_rd_need(&c->r, (size_t)len, "extra JSON", err))
		return err->code;
	s = (const char *)bt_rd_bytes(&c->r, (size_t)len);
	/* no extra JSON at all is only a missing pid */
	if (scan_extra(c, s, (size_t)len, st, &where) && len) {
		bt_diag_warn(c->diag, "bad_extra_json", "extra JSON in '%s' is malformed at offset %zu; pid unknown",
			     c->path, 28 + where);
		return BT_OK;
	}
	c->has_pid = st[0] == EXTRA_FOUND;
	if (!c->has_pid)
		bt_diag_warn(c->diag, "missing_pid", "extra JSON in '%s' has no integer processId; the main thread is unknown",
			     c->path);
	c->has_start = st[1] == EXTRA_FOUND;
	return BT_OK;
}

static int read_header(struct actx *c, struct bt_err *err)
{
	uint32_t magic, type;

	if (bt_rd_need(&c->r, 28, "header", err))
		return err->code;
	magic = bt_rd_u32(&c->r);
	type = bt_rd_u32(&c->r);
	c->version = bt_rd_u32(&c->r);
	c->time_ms = bt_rd_u64(&c->r);
	c->count = bt_rd_u32(&c->r);
	if (magic != MAGIC)
		return bt_err_set(err, BT_EFORMAT, "bad magic 0x%08x in '%s' at offset 0 (expected 0x%08x)",
				  magic, c->path, MAGIC);
	if (type != 0)
		return bt_err_set(err, BT_EFORMAT, "unsupported dump type %u in '%s' at offset 4 (only 0, sampling, is known)",
				  type, c->path);
	if (c->version < 1 || c->version > MAX_VERSION)
		return bt_err_set(err, BT_EFORMAT, "unknown dump version %u in '%s' at offset 8 (known: 1 to %d)",
				  c->version, c->path, MAX_VERSION);
	return read_extra(c, (int32_t)bt_rd_u32(&c->r), err);
}

static int need(struct actx *c, size_t n, const char *what, uint64_t idx, size_t start,
		struct bt_err *err)
{
	if (n <= bt_rd_left(&c->r))
		return BT_OK;
	c->cut.yes = 1;
	c->cut.start = start;
	c->cut.what = what;
	return bt_err_set(err, BT_EFORMAT,
			  "truncated %s of record %llu in '%s' at offset %zu: need %zu bytes, %zu left (record starts at offset %zu)",
			  what, (unsigned long long)idx, c->path, c->r.off, n, bt_rd_left(&c->r), start);
}

/* Decode the fixed part of one record into s (version-dependent layout,
 * §4.2), and the kTraceArg argument into *arg. */
static int record_fields(struct actx *c, struct bt_sample *s, int64_t *arg, size_t start,
			 struct bt_err *err)
{
	struct bt_reader *r = &c->r;
	uint64_t idx = c->records;

	if (need(c, 40, "header", idx, start, err))
		return err->code;
	s->type = bt_rd_u16(r);
	s->tid = bt_rd_u16(r);
	s->msg_id = bt_rd_u32(r);
	s->ts = (int64_t)bt_rd_u64(r);
	s->end_ts = (int64_t)bt_rd_u64(r);
	s->cpu_ns = (int64_t)bt_rd_u64(r);
	s->end_cpu_ns = (int64_t)bt_rd_u64(r);
	if (s->type == 15) {
		if (need(c, 8, "trace argument", idx, start, err))
			return err->code;
		*arg = (int64_t)bt_rd_u64(r);
	}
	s->alloc_objects = s->alloc_bytes = s->majflt = s->nvcsw = s->nivcsw = 0;
	if (c->version >= 4) {
		if (need(c, 16, "allocation counters", idx, start, err))
			return err->code;
		s->alloc_objects = (int64_t)bt_rd_u64(r);
		s->alloc_bytes = (int64_t)bt_rd_u64(r);
	}
	if (c->version >= 5) {
		if (need(c, 12, "rusage counters", idx, start, err))
			return err->code;
		s->majflt = bt_rd_u32(r);
		s->nvcsw = bt_rd_u32(r);
		s->nivcsw = bt_rd_u32(r);
	}
	return need(c, 8, "stack depth", idx, start, err);
}

/* Count what makes a well-formed record unusable or odd; 1 if it is a sample. */
static int check_record(struct actx *c, const struct bt_sample *s, uint32_t saved,
			uint32_t actual, size_t start)
{
	if (s->type < 1 || s->type > 23)
		bt_diag_warn(c->diag, "unknown_type", "record %llu at offset %zu has unknown type %lld; kept",
			     (unsigned long long)c->records, start, (long long)s->type);
	if (s->end_ts && (uint64_t)s->end_ts < (uint64_t)s->ts &&
	    !(c->version >= 5 && (s->type == 17 || s->type == 22 || s->type == 23)))
		bt_diag_warn(c->diag, "end_before_begin", "record %llu at offset %zu ends before it begins (clock mismatch, spec I-3); treated as a point",
			     (unsigned long long)c->records, start);
	if (saved == 0) {
		bt_diag_warn(c->diag, "empty_stack", "record %llu at offset %zu has no frames; skipped",
			     (unsigned long long)c->records, start);
		return 0;
	}
	if (saved > BT_ANDROID_MAX_DEPTH) {
		bt_diag_warn(c->diag, "stack_too_deep", "record %llu at offset %zu has %u frames (the writer stores at most %d); skipped",
			     (unsigned long long)c->records, start, saved, BT_ANDROID_MAX_DEPTH);
		return 0;
	}
	if (saved != actual) {
		bt_diag_warn(c->diag, "depth_mismatch", "record %llu at offset %zu stores %u of %u frames; skipped",
			     (unsigned long long)c->records, start, saved, actual);
		return 0;
	}
	return 1;
}

/* 1 if every time and counter of s is within the bounds of pipeline.h;
 * else the first that is not is counted and the record is dropped. */
static int check_values(struct actx *c, const struct bt_sample *s, size_t start)
{
	static const char *const names[] = { "timestamp", "end timestamp", "CPU time", "end CPU time",
					     "allocated objects", "allocated bytes" };
	const int64_t v[] = { s->ts, s->end_ts, s->cpu_ns, s->end_cpu_ns, s->alloc_objects, s->alloc_bytes };
	size_t i;

	for (i = 0; i < sizeof v / sizeof *v; i++)
		if ((uint64_t)v[i] >= (uint64_t)(i < 4 ? BT_MAX_TIME_NS : BT_MAX_COUNTER)) {
			bt_diag_warn(c->diag, "value_out_of_range", "record %llu at offset %zu of '%s' has %s %llu (beyond 2^%d); skipped",
				     (unsigned long long)c->records, start, c->path, names[i],
				     (unsigned long long)v[i], i < 4 ? 62 : 53);
			return 0;
		}
	return 1;
}

static int read_record(struct actx *c, struct bt_err *err)
{
	struct bt_sample s;
	size_t start = c->r.off;
	uint32_t saved, actual, leaf;
	const unsigned char *frames;
	int64_t arg = 0;

	if (record_fields(c, &s, &arg, start, err))
		return err->code;
	saved = bt_rd_u32(&c->r);
	actual = bt_rd_u32(&c->r);
	if (saved > ABSURD_DEPTH)
		return bt_err_set(err, BT_EFORMAT, "absurd stack depth %u in record %llu of '%s' at offset %zu",
				  saved, (unsigned long long)c->records, c->path, c->r.off - 8);
	if (need(c, 8 * (size_t)saved, "stack", c->records, start, err))
		return err->code;
	frames = bt_rd_bytes(&c->r, 8 * (size_t)saved);
	if (check_record(c, &s, saved, actual, start) && check_values(c, &s, start)) {
		if (bt_android_stacks_intern(&c->st, (uint16_t)s.tid, frames, saved, &leaf, err))
			return err->code;
		s.id = c->o->sample_base + (int64_t)c->samples + 1;
		s.node_id = c->st.node_base + leaf;
		if (bt_db_insert_sample(c->db, &s, err))
			return err->code;
		c->seen[s.tid] = 1;
		c->samples++;
		if (s.type == 15) {
			BT_GROW(c->args, c->nargs + 1, c->args_cap);
			c->args[c->nargs].id = s.id;
			c->args[c->nargs++].arg = arg;
		}
	}
	c->records++;
	return BT_OK;
}

/* The file ends inside record c->records: keep the records before it
 * (--strict: the truncation error stands). */
static int salvage(struct actx *c, struct bt_err *err)
{
	size_t lost = c->r.len - c->cut.start;
	struct bt_buf count = BT_BUF_INIT;
	int rc;

	if (c->o->strict)
		return err->code;
	bt_err_clear(err);
	if (c->count > c->records)
		bt_buf_addf(&count, ", %llu of the %u records its header counts",
			    (unsigned long long)(c->count - c->records), c->count);
	rc = bt_diag_partial(c->diag, c->db, "truncated_dump", err,
			     "'%s' is cut at offset %zu in record %llu (its %s, from offset %zu): "
			     "%zu bytes lost%s; %llu records imported",
			     c->path, c->r.len, (unsigned long long)c->records, c->cut.what, c->cut.start, lost,
			     count.buf, (unsigned long long)c->records);
	bt_buf_release(&count);
	return rc;
}

static int read_records(struct actx *c, struct bt_err *err)
{
	while (bt_rd_left(&c->r)) {
		if (read_record(c, err))
			return c->cut.yes ? salvage(c, err) : err->code;
		if (c->records % PROGRESS_EVERY)
			continue;
		if (c->o->progress)
			c->o->progress(c->o->progress_ctx, c->r.off, c->r.len);
		if (c->in->consumed)
			c->in->consumed(c->in->consumed_ctx, c->r.off);
	}
	if (c->records != c->count)
		bt_diag_count(c->diag, "record_count_mismatch", 1,
			      "header of '%s' says %u records, the file holds %llu", c->path, c->count,
			      (unsigned long long)c->records);
	return BT_OK;
}

static int write_args(struct actx *c, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < c->nargs; i++)
		if (bt_db_exec(c->db, BT_SQL_INSERT_SAMPLE_ARG, err, "ii", c->args[i].id, c->args[i].arg))
			return err->code;
	return BT_OK;
}

static int main_tid(const struct actx *c)
{
	return c->has_pid ? (int)(c->pid & 0xFFFF) : -1;
}

static void check_pid(struct actx *c)
{
	if (!c->has_pid)
		return;
	if (c->pid < 0 || c->pid > 0xFFFF)
		bt_diag_warn(c->diag, "pid_truncated", "pid %lld does not fit the format's 16-bit tids; main thread matched as tid %d, other tids may alias",
			     (long long)c->pid, main_tid(c));
	else if (c->pid >= 32768)
		bt_diag_warn(c->diag, "pid_sign", "pid %lld is >= 32768: upstream tools read such tids as negative and cannot find the main thread; read unsigned here",
			     (long long)c->pid);
}

/* The header's dump time and the extra JSON's startTime are ms: beyond
 * the ns bound of pipeline.h they are counted and left out. */
static void check_times(struct actx *c)
{
	const int64_t max_ms = BT_MAX_TIME_NS / 1000000;

	if (c->time_ms >= (uint64_t)max_ms) {
		bt_diag_warn(c->diag, "value_out_of_range", "dump time %llu ms in '%s' at offset 12 is beyond 2^62 ns; taken as 0",
			     (unsigned long long)c->time_ms, c->path);
		c->time_ms = 0;
	}
	if (c->has_start && (c->start_ms <= -max_ms || c->start_ms >= max_ms)) {
		bt_diag_warn(c->diag, "value_out_of_range", "extra JSON startTime %lld ms in '%s' is beyond 2^62 ns; left out",
			     (long long)c->start_ms, c->path);
		c->has_start = 0;
	}
}

static int write_threads(struct actx *c, const struct bt_amap *map, struct bt_err *err)
{
	const char **name = bt_xcalloc(65536, sizeof *name);
	int mt = main_tid(c), rc = BT_OK;
	size_t i;

	for (i = 0; map && i < map->nthreads; i++) {
		name[map->threads[i].tid] = map->threads[i].name;
		c->seen[map->threads[i].tid] = 1;
	}
	for (i = 0; i < 65536 && !rc; i++)
		if (c->seen[i])
			rc = bt_db_exec(c->db, BT_SQL_INSERT_THREAD, err, "iti", (int64_t)i, name[i],
					(int64_t)((int)i == mt));
	free(name);
	return rc;
}

static int write_meta(struct actx *c, const char *mapping, const struct bt_retrace *rt,
		      struct bt_err *err)
{
	struct bt_db *db = c->db;
	int rc = bt_db_set_meta_text(db, "format", "android-sampling", err);

	rc = rc ? rc : bt_db_set_meta_int(db, "version", c->version, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "source", c->path, err);
	rc = rc ? rc : bt_db_set_meta_text(db, "mapping", mapping, err);
	if (!mapping)   /* every report says so first: its names and messages are guesses */
		rc = rc ? rc : bt_db_set_meta_text(db, "no_names",
			"analysed without its mapping file: methods read <unknown 0x...> and threads "
			"\"tid N\", so Looper messages and the startup cannot be recognised and their "
			"figures are missing; pass the sampling-mapping.bin beside the dump, or give it "
			"with --mapping", err);
	rc = rc ? rc : bt_db_set_meta_text(db, "clock", "boottime", err);
	rc = rc ? rc : bt_db_set_meta_int(db, "dump_time_ms", (int64_t)c->time_ms, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "header_records", c->count, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "records", (int64_t)c->records, err);
	rc = rc ? rc : bt_db_set_meta_int(db, "samples", (int64_t)c->samples, err);
	if (c->has_pid) {
		rc = rc ? rc : bt_db_set_meta_int(db, "pid", c->pid, err);
		rc = rc ? rc : bt_db_set_meta_int(db, "main_tid", main_tid(c), err);
	}
	if (c->has_start)
		rc = rc ? rc : bt_db_set_meta_int(db, "start_time_ns", c->start_ms * 1000000, err);
	if (rt) {
		rc = rc ? rc : bt_db_set_meta_text(db, "retrace", c->o->retrace, err);
		rc = rc ? rc : bt_db_set_meta_int(db, "retraced_frames", (int64_t)c->st.retraced, err);
	}
	return rc;
}

/* Resolve the sampling and mapping paths of a file or directory input. */
static int locate(const char *path, const struct bt_import_opts *o, char **sampling,
		  char **mapping, struct bt_err *err)
{
	static const char *const map_names[] = { "/sampling-mapping.bin", "/sampling-mapping", NULL };

	*mapping = NULL;
	if (bt_is_dir(path)) {
		*sampling = first_file(path, strlen(path), sampling_names);
		if (!*sampling)
			return bt_err_set(err, BT_EFORMAT, "no sampling file in directory '%s'", path);
		if (!o->mapping)
			*mapping = first_file(path, strlen(path), map_names);
	} else {
		*sampling = bt_xstrdup(path);
		if (!o->mapping)
			*mapping = find_mapping(path);
	}
	if (o->mapping) {
		if (bt_input_check(o->mapping, 0, err))   /* names the cause: missing, a FIFO, ... */
			return err->code;
		*mapping = bt_xstrdup(o->mapping);
	}
	return BT_OK;
}

/* A mapping cut short keeps the entries before the cut; frames it does not
 * name get placeholders, threads no name (--strict: the error stands). */
static int map_salvage(const struct bt_android_input *in, const struct bt_amap *m,
		       const struct bt_import_opts *o, struct bt_db *db, struct bt_diag *diag,
		       struct bt_err *err)
{
	const char *path = in->mapping_path;
	size_t lost = in->mapping_len - m->cut.at;

	if (o->strict)
		return err->code;
	bt_err_clear(err);
	if (!strcmp(m->cut.section, "header"))
		return bt_diag_partial(diag, db, "truncated_mapping", err,
				       "mapping '%s' is cut at offset %zu inside its header: no frame is named, no thread either",
				       path, in->mapping_len);
	if (!strcmp(m->cut.section, "method"))
		return bt_diag_partial(diag, db, "truncated_mapping", err,
				       "mapping '%s' is cut at offset %zu inside method entry %u (from offset %zu): "
				       "%zu bytes, %u of the %u methods it declares and the thread names lost; "
				       "their frames get placeholder names",
				       path, in->mapping_len, m->cut.index, m->cut.at, lost,
				       m->declared - m->cut.index, m->declared);
	return bt_diag_partial(diag, db, "truncated_mapping", err,
			       "mapping '%s' is cut at offset %zu inside thread-name entry %u (from offset %zu): "
			       "%zu bytes lost; the %u thread names before are kept",
			       path, in->mapping_len, m->cut.index, m->cut.at, lost, m->cut.index);
}

int bt_android_import_bytes(struct bt_db *db, const struct bt_android_input *in,
			    const struct bt_import_opts *o, struct bt_diag *diag, struct bt_err *err)
{
	struct actx *c = bt_xcalloc(1, sizeof *c);
	struct bt_amap map;
	struct bt_retrace *rt = NULL;
	int rc = BT_OK, have_map = in->mapping_path != NULL;

	bt_amap_init(&map);
	if (have_map)
		rc = bt_amap_load(&map, in->mapping, in->mapping_len, in->mapping_path, diag, err);
	else
		bt_diag_warn(diag, "mapping_missing", "no mapping file for '%s' (looked for <stem>-mapping.bin, sampling-mapping.bin, sampling-mapping); frames get placeholder names",
			     in->path);
	if (rc && map.cut.yes)
		rc = map_salvage(in, &map, o, db, diag, err);
	if (!rc && o->retrace)
		rc = bt_retrace_load(&rt, o->retrace, err);
	c->path = in->path;
	c->db = db;
	c->diag = diag;
	c->o = o;
	c->in = in;
	bt_rd_init(&c->r, in->data, in->len, in->path);
	if (!rc)
		rc = read_header(c, err);
	if (!rc) {
		check_pid(c);
		check_times(c);
		bt_android_stacks_init(&c->st, db, have_map ? &map : NULL, rt, diag);
		c->st.frame_base = o->frame_base;
		c->st.node_base = o->node_base;
		rc = read_records(c, err);
		if (!rc)
			rc = bt_android_stacks_finish(&c->st, err);
		if (!rc)
			rc = write_args(c, err);
		if (!rc)
			rc = write_threads(c, have_map ? &map : NULL, err);
		if (!rc)
			rc = write_meta(c, in->mapping_path, rt, err);
		bt_android_stacks_release(&c->st);
	}
	bt_retrace_free(rt);
	bt_amap_release(&map);
	free(c->args);
	free(c);
	return rc;
}

static void drop_pages(void *ctx, size_t upto)
{
	bt_fmap_drop(ctx, upto);
}

static int run(struct bt_db *db, const char *path, const struct bt_import_opts *o,
	       struct bt_diag *diag, struct bt_err *err)
{
	struct bt_fmap smap = { NULL, 0 }, mmap_ = { NULL, 0 };
	struct bt_android_input in;
	char *sampling = NULL, *mapping = NULL;
	int rc = locate(path, o, &sampling, &mapping, err);

	if (!rc && mapping)
		rc = bt_fmap_open(&mmap_, mapping, err);
	if (!rc)
		rc = bt_fmap_open(&smap, sampling, err);
	if (!rc) {
		in.path = sampling;
		in.data = smap.data;
		in.len = smap.len;
		in.mapping_path = mapping;
		in.mapping = mmap_.data;
		in.mapping_len = mmap_.len;
		in.consumed = drop_pages;
		in.consumed_ctx = &smap;
		rc = bt_android_import_bytes(db, &in, o, diag, err);
	}
	bt_fmap_release(&smap);
	bt_fmap_release(&mmap_);
	free(sampling);
	free(mapping);
	return rc;
}

const struct bt_importer bt_imp_android = {
	.name = "android-sampling", .noun = "a btrace 3.0 sampling dump",
	.brings = BT_BRINGS_CPU | BT_BRINGS_WAKERS | BT_BRINGS_THROTTLE | BT_BRINGS_MAPPING |
		  BT_BRINGS_RETRACE | BT_BRINGS_JOINS,
	.probe = probe, .run = run
};
