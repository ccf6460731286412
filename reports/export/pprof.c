/*
 * pprof export (see pprof.h). A Profile is a sequence of fields whose
 * repeated entries may come in any order between fields, so each Sample,
 * Location and Function is packed on its own and written as one field,
 * the string table last; the bytes go through a zlib gzip stream.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/gzout.h"
#include "engine/base/hash.h"
#include "engine/base/names.h"
#include "reports/export/pprof.h"
#include "gen/profile.pb-c.h"
#include "reports/report.h"

typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Label Label;
typedef Perftools__Profiles__ValueType ValueType;

#define OUT_BUF (1u << 18)
#define NTYPES 6

/* Profile's field numbers (upstream's). */
enum { F_SAMPLE_TYPE = 1, F_SAMPLE = 2, F_MAPPING = 3, F_LOCATION = 4, F_FUNCTION = 5, F_STRING = 6,
       F_TIME = 9, F_DURATION = 10, F_PERIOD_TYPE = 11, F_COMMENT = 13, F_DEFAULT_TYPE = 14 };

struct pprof_writer {
	struct bt_gzout out;        /* gzip'd, as pprof expects */
	uint8_t *buf;               /* one packed message */
	size_t cap;
	char **strs;                /* the string table */
	size_t nstrs, scap;
	struct bt_strmap smap;      /* string -> index + 1 */
	uint64_t *locs;             /* a sample's location ids */
	size_t lcap;
	int64_t k_thread, k_name, k_tid, k_msg;   /* label keys */
	int64_t *labels;            /* thread label strings, by thread: "main" for the main thread */
	int64_t *tnames;            /* thread_name label strings, by thread */
	const struct bt_namer *names;
	int nocpu;                  /* the trace gives no CPU time: no cpu and offcpu types */
	int noalloc, nofaults;      /* nor allocations, page faults: no alloc_*, majflt types */
};

/* The sample types written: all but those the trace does not record
 * (cpu and offcpu 1, 2; alloc_space and alloc_objects 3, 4; majflt 5). */
static int type_kept(const struct pprof_writer *w, size_t i)
{
	return !(w->nocpu && (i == 1 || i == 2)) && !(w->noalloc && (i == 3 || i == 4)) && !(w->nofaults && i == 5);
}

static int emit(struct pprof_writer *w, const void *p, size_t n, struct bt_err *err)
{
	(void)err;   /* the writer keeps its first failure, in err */
	bt_gzout_put(&w->out, p, n);
	return w->out.rc;
}

static size_t varint(uint8_t *b, uint64_t v)
{
	size_t n = 0;

	for (; v >= 0x80; v >>= 7)
		b[n++] = (uint8_t)(v | 0x80);
	b[n++] = (uint8_t)v;
	return n;
}

/* A length-delimited field: tag, length, bytes. */
static int put_bytes(struct pprof_writer *w, int field, const void *p, size_t len, struct bt_err *err)
{
	uint8_t hdr[20];
	size_t h = varint(hdr, (uint64_t)field << 3 | 2);

	h += varint(hdr + h, len);
	if (emit(w, hdr, h, err) || emit(w, p, len, err))
		return err->code;
	return BT_OK;
}

static int put_int(struct pprof_writer *w, int field, int64_t v, struct bt_err *err)
{
	uint8_t b[20];
	size_t h = varint(b, (uint64_t)field << 3);

	h += varint(b + h, (uint64_t)v);
	return v ? emit(w, b, h, err) : BT_OK;
}

/* Pack a message (any protobuf-c message) and put it as field. */
static int put_msg(struct pprof_writer *w, int field, const ProtobufCMessage *m, struct bt_err *err)
{
	size_t len = protobuf_c_message_get_packed_size(m);

	BT_GROW(w->buf, len + 1, w->cap);
	protobuf_c_message_pack(m, w->buf);
	return put_bytes(w, field, w->buf, len, err);
}

/* Index of s in the string table, added if new. */
static int64_t str(struct pprof_writer *w, const char *s)
{
	size_t len = strlen(s);
	uint32_t k = bt_strmap_get(&w->smap, s, len);

	if (k)
		return k - 1;
	BT_GROW(w->strs, w->nstrs + 1, w->scap);
	w->strs[w->nstrs] = bt_xstrdup(s);
	bt_strmap_put(&w->smap, s, len, (uint32_t)++w->nstrs);
	return (int64_t)w->nstrs - 1;
}

static const char *const type_names[NTYPES][2] = {
	{ "wall", "nanoseconds" }, { "cpu", "nanoseconds" }, { "offcpu", "nanoseconds" },
	{ "alloc_space", "bytes" }, { "alloc_objects", "count" }, { "majflt", "count" },
};

static int header(struct pprof_writer *w, const struct bt_stacks *s, struct bt_err *err)
{
	ValueType vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	size_t i;

	str(w, "");
	for (i = 0; i < NTYPES; i++) {
		if (!type_kept(w, i))
			continue;
		vt.type = str(w, type_names[i][0]);
		vt.unit = str(w, type_names[i][1]);
		if (put_msg(w, F_SAMPLE_TYPE, &vt.base, err))
			return err->code;
	}
	vt.type = str(w, "wall");
	vt.unit = str(w, "nanoseconds");
	if (put_msg(w, F_PERIOD_TYPE, &vt.base, err) || put_int(w, F_DEFAULT_TYPE, vt.type, err) ||
	    put_int(w, F_TIME, s->wall_first_ns, err) || put_int(w, F_DURATION, s->last_ts - s->first_ts, err))
		return err->code;
	w->k_thread = str(w, "thread");
	w->k_name = str(w, "thread_name");
	w->k_tid = str(w, "tid");
	w->k_msg = str(w, "msg_id");
	w->labels = bt_xcalloc(s->nthreads + 1, sizeof *w->labels);
	w->tnames = bt_xcalloc(s->nthreads + 1, sizeof *w->tnames);
	for (i = 0; i < s->nthreads; i++) {
		w->tnames[i] = str(w, s->threads[i].label);
		w->labels[i] = s->threads[i].is_main ? str(w, "main") : w->tnames[i];
	}
	return put_int(w, F_COMMENT, str(w, "btrace-analyze: self values per thread, Looper message"
				       " and call path; offcpu = wall - cpu; label thread is \"main\" for the"
				       " main thread, thread_name its name"), err);
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

/* A packed repeated field (proto3's way for scalars): tag, length, the
 * values as varints; nothing for none. */
static size_t put_packed(uint8_t *b, int field, const uint64_t *v, size_t n)
{
	size_t len = 0, at, i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		len += varint_size(v[i]);
	at = varint(b, (uint64_t)field << 3 | 2);
	at += varint(b + at, len);
	for (i = 0; i < n; i++)
		at += varint(b + at, v[i]);
	return at;
}

/* A Label (key, str, num; zeros left out, as proto3 packs them) as
 * Sample's field 3. */
static size_t put_label(uint8_t *b, int64_t key, int64_t sv, int64_t num)
{
	const int64_t f[3] = { key, sv, num };
	size_t len = 0, at, k;

	for (k = 0; k < 3; k++)
		len += f[k] ? 1 + varint_size((uint64_t)f[k]) : 0;
	at = varint(b, 3 << 3 | 2);
	at += varint(b + at, len);
	for (k = 0; k < 3; k++)
		if (f[k]) {
			b[at++] = (uint8_t)((k + 1) << 3);
			at += varint(b + at, (uint64_t)f[k]);
		}
	return at;
}

/* One entry as a Sample, unless all its values are 0. Packed here, byte
 * for byte as protobuf-c would (a million samples make its generic packer
 * the export's largest cost). */
static int sample(struct pprof_writer *w, const struct bt_stacks *s, const struct bt_stacks_entry *e,
		  struct bt_err *err)
{
	const struct bt_stacks_ctx *c = &s->ctx[e->ctx];
	const struct bt_stacks_thread *t = &s->threads[c->thread];
	int64_t wall = bt_stacks_value(s, e, BT_SV_WALL), cpu = bt_stacks_value(s, e, BT_SV_CPU);
	int64_t v[NTYPES] = { wall, cpu, wall - cpu, bt_stacks_value(s, e, BT_SV_ABYTES),
			      bt_stacks_value(s, e, BT_SV_AOBJS), bt_stacks_value(s, e, BT_SV_MAJFLT) };
	uint64_t uv[NTYPES];
	uint32_t p;
	size_t n = 0, i, at, nv = 0;

	for (i = 0; i < NTYPES && (!v[i] || !type_kept(w, i)); i++)
		;
	if (i == NTYPES)
		return BT_OK;
	for (p = e->path; p; p = s->parent[p]) {
		BT_GROW(w->locs, n + 1, w->lcap);
		w->locs[n++] = s->frame[p];
	}
	for (i = 0; i < NTYPES; i++)
		if (type_kept(w, i))
			uv[nv++] = (uint64_t)v[i];
	/* at most 10 bytes a value, and four labels of three fields */
	BT_GROW(w->buf, 32 + 10 * (n + NTYPES) + 4 * 40, w->cap);
	at = put_packed(w->buf, 1, w->locs, n);
	at += put_packed(w->buf + at, 2, uv, nv);
	at += put_label(w->buf + at, w->k_thread, w->labels[c->thread], 0);
	at += put_label(w->buf + at, w->k_name, w->tnames[c->thread], 0);
	at += put_label(w->buf + at, w->k_tid, 0, t->tid);
	if (c->msg)
		at += put_label(w->buf + at, w->k_msg, 0, c->msg);
	return put_bytes(w, F_SAMPLE, w->buf, at, err);
}

/* A Location and a Function (same id) per frame a path uses, in one
 * mapping whose functions are known. */
static int frames(struct pprof_writer *w, const struct bt_stacks *s, struct bt_err *err)
{
	Perftools__Profiles__Mapping map = PERFTOOLS__PROFILES__MAPPING__INIT;
	Perftools__Profiles__Location loc = PERFTOOLS__PROFILES__LOCATION__INIT;
	Perftools__Profiles__Line line = PERFTOOLS__PROFILES__LINE__INIT, *linep = &line;
	Perftools__Profiles__Function fn = PERFTOOLS__PROFILES__FUNCTION__INIT;
	size_t ncap = 0, i;
	uint8_t *used = NULL;
	int rc = BT_OK;

	for (i = 1; i < s->npaths; i++)
		used = bt_grow_zero(used, 1, &ncap, s->frame[i]);
	for (i = 1; i < s->npaths; i++)
		used[s->frame[i]] = 1;
	map.id = loc.mapping_id = 1;
	map.has_functions = 1;
	rc = put_msg(w, F_MAPPING, &map.base, err);
	for (i = 1; i < ncap && !rc; i++) {
		if (!used[i])
			continue;
		loc.id = line.function_id = fn.id = i;
		loc.n_line = 1;
		loc.line = &linep;
		fn.system_name = str(w, bt_stacks_frame_name(s, (uint32_t)i));
		fn.name = str(w, bt_namer_get(w->names, bt_stacks_frame_name(s, (uint32_t)i)));
		rc = put_msg(w, F_LOCATION, &loc.base, err);
		if (!rc)
			rc = put_msg(w, F_FUNCTION, &fn.base, err);
	}
	free(used);
	return rc;
}

static int strings(struct pprof_writer *w, struct bt_err *err)
{
	size_t i;

	for (i = 0; i < w->nstrs; i++)
		if (put_bytes(w, F_STRING, w->strs[i], strlen(w->strs[i]), err))
			return err->code;
	return BT_OK;
}

static void release(struct pprof_writer *w)
{
	size_t i;

	for (i = 0; i < w->nstrs; i++)
		free(w->strs[i]);
	free(w->strs);
	bt_strmap_release(&w->smap);
	free(w->buf);
	free(w->locs);
	free(w->labels);
	free(w->tnames);
}

int bt_pprof_write(const struct bt_stacks *s, const struct bt_namer *names, FILE *fp, struct bt_err *err)
{
	struct pprof_writer w;
	size_t i;
	int rc, orc;

	memset(&w, 0, sizeof w);
	w.names = names;
	w.nocpu = s->cpu_unknown;
	w.noalloc = s->no_alloc;
	w.nofaults = s->no_faults;
	/* the fastest level, as the samples repeat a lot (-6 saves 7% for twice the time) */
	if (bt_gzout_open(&w.out, fp, 1, OUT_BUF, "the pprof profile", err))
		return err->code;
	bt_strmap_init(&w.smap);
	rc = header(&w, s, err);
	for (i = 0; i < s->n && !rc; i++)
		rc = sample(&w, s, &s->e[i], err);
	if (!rc)
		rc = frames(&w, s, err);
	if (!rc)
		rc = strings(&w, err);
	orc = bt_gzout_close(&w.out);
	release(&w);
	return rc ? rc : orc;
}

static int write_export(const struct bt_export *x, FILE *out, struct bt_err *err)
{
	return bt_pprof_write(x->stacks, x->names, out, err);
}

const struct bt_exporter bt_exp_pprof = { "pprof", NULL, BT_NEED_STACKS, write_export };
