/*
 * The packets a trace is mostly made of (track events, ftrace prints,
 * interned data), decoded by hand into protobuf-c's own structs in the
 * packet arena: no per-message malloc, no second pass over the bytes, bytes
 * fields borrowed from the packet. Anything else, and anything odd (a
 * field the walker does not handle, a wrong wire type, a packed repeated
 * field, a message field given twice, a truncated or over-long varint),
 * makes the packet go to protobuf-c instead, which decides as before (and
 * keeps a field it does not know in unknown_fields, for pf_kinds.c to count
 * as not imported): the
 * walker only ever accepts what protobuf-c accepts, decoded alike
 * (tests/fuzz/fuzz_perfetto.c and t_pf_wire check both on every packet).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/perfetto/pf_int.h"

#define ARENA_BLOCK ((size_t)1 << 20)
#define ARENA_KEEP ((size_t)64 << 20)   /* more than this is freed after a packet */

static void *arena_more(struct pf_arena *a, size_t n);

/* The walker's allocations: the room left in the current block, else
 * arena_more. */
static inline void *take(struct pf_arena *a, size_t n)
{
	n = n ? (n + 15) & ~(size_t)15 : 16;
	if (a->cur < a->nb && a->used + n <= a->b[a->cur].cap) {
		void *ptr = a->b[a->cur].p + a->used;
		a->used += n;
		return ptr;
	}
	return arena_more(a, n);
}

void *pf_arena_alloc(struct pf_arena *a, size_t n)
{
	return take(a, n);
}

/* A block for n (rounded) bytes when the current one is full. */
static void *arena_more(struct pf_arena *a, size_t n)
{
	struct pf_arena_block *b;

	if (a->cur < a->nb && a->used)   /* the next block */
		a->cur++;
	if (a->cur == a->nb) {
		BT_GROW(a->b, a->nb + 1, a->bcap);
		a->b[a->nb].p = NULL;
		a->b[a->nb++].cap = 0;
	}
	b = &a->b[a->cur];
	if (b->cap < n) {   /* too small for it: a bigger one in its place */
		a->kept -= b->cap;
		free(b->p);
		b->cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b->p = bt_xmalloc(b->cap);
		a->kept += b->cap;
	}
	a->used = n;
	return b->p;
}

void pf_arena_back(struct pf_arena *a, size_t cur, size_t used)
{
	a->cur = cur;
	a->used = used;
	if (cur || used || a->kept <= ARENA_KEEP)
		return;
	while (a->nb > 1) {
		free(a->b[--a->nb].p);
		a->kept -= a->b[a->nb].cap;
	}
}

void pf_arena_release(struct pf_arena *a)
{
	size_t i;

	for (i = 0; i < a->nb; i++)
		free(a->b[i].p);
	free(a->b);
	memset(a, 0, sizeof *a);
}

#define TAG(num, wt) ((uint32_t)(num) << 3 | (wt))

/* One field of a message: its number, wire type and value (a varint or
 * fixed value in v; a length-delimited one's bytes at p). */
struct fld {
	uint32_t tag;   /* the key: number << 3 | wire type, compared whole (two
			 * halves stored apart and loaded as one stalled the walk) */
	uint64_t v;
	const uint8_t *p;
	size_t len;
};

/* At most max bytes (10 for a value, 5 for a length, 4 for a key here). */
static int varint_long(const uint8_t **b, const uint8_t *e, int max, uint64_t *v)
{
	uint64_t x = 0;
	int i;

	for (i = 0; i < max && *b < e; i++) {
		uint8_t c = *(*b)++;
		if (i == 9 && c > 1)
			return 0;   /* past 64 bits: protobuf-c's bool would differ */
		x |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*v = x;
			return 1;
		}
	}
	return 0;
}

/* Most keys, lengths and small values take one or two bytes: those
 * without a loop (the walk is most of the import's reading). */
static inline __attribute__((always_inline)) int varint(const uint8_t **b, const uint8_t *e, int max, uint64_t *v)
{
	const uint8_t *p = *b;

	if (e - p >= 2) {
		if (!(p[0] & 0x80)) {
			*v = p[0];
			*b = p + 1;
			return 1;
		}
		if (!(p[1] & 0x80)) {
			*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
			*b = p + 2;
			return 1;
		}
	}
	return varint_long(b, e, max, v);
}

/* 1 a field, 0 the end, -1 what the walker leaves to protobuf-c. */
static inline __attribute__((always_inline)) int next(const uint8_t **b, const uint8_t *e, struct fld *f)
{
	uint64_t key;

	if (*b == e)
		return 0;
	if (!varint(b, e, 4, &key) || !(key >> 3))
		return -1;
	f->tag = (uint32_t)key;
	f->p = NULL;   /* read only for wire type 2; set so the compiler sees it is */
	f->len = 0;
	switch (key & 7) {
	case 0:
		return varint(b, e, 10, &f->v) ? 1 : -1;
	case 1:
	case 5: {   /* little-endian, as protobuf; fixed sizes: a variable one was a rep movsb */
		uint64_t v8;
		uint32_t v4;
		size_t n = (key & 7) == 1 ? 8 : 4;
		if ((size_t)(e - *b) < n)
			return -1;
		if (n == 8)
			memcpy(&v8, *b, 8), f->v = v8;
		else
			memcpy(&v4, *b, 4), f->v = v4;
		*b += n;
		return 1;
	}
	case 2:
		if (!varint(b, e, 5, &f->v) || f->v > (uint64_t)(e - *b) || f->v > 0x7fffffff)
			return -1;
		f->p = *b;
		f->len = (size_t)f->v;
		*b += f->len;
		return 1;
	default:
		return -1;
	}
}

static char *str(struct pf_arena *a, const struct fld *f)
{
	char *s = take(a, f->len + 1);

	memcpy(s, f->p, f->len);
	s[f->len] = '\0';
	return s;
}

/* Inlined, so n is a constant and the copy a few vector moves. */
static inline __attribute__((always_inline)) void *msg(struct pf_arena *a, const void *init, size_t n)
{
	void *m = take(a, n);

	memcpy(m, init, n);
	return m;
}

static double dbl(uint64_t v)
{
	double d;

	memcpy(&d, &v, 8);
	return d;
}

static int annotation(struct pf_arena *a, const struct fld *in, Perfetto__Protos__DebugAnnotation **out)
{
	static const Perfetto__Protos__DebugAnnotation init = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
	Perfetto__Protos__DebugAnnotation *d = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(1, 0))
			d->has_name_iid = 1, d->name_iid = f.v;
		else if (f.tag == TAG(2, 0))
			d->has_bool_value = 1, d->bool_value = f.v != 0;
		else if (f.tag == TAG(3, 0))
			d->has_uint_value = 1, d->uint_value = f.v;
		else if (f.tag == TAG(4, 0))
			d->has_int_value = 1, d->int_value = (int64_t)f.v;
		else if (f.tag == TAG(5, 1))
			d->has_double_value = 1, d->double_value = dbl(f.v);
		else if (f.tag == TAG(6, 2))
			d->string_value = str(a, &f);
		else if (f.tag == TAG(7, 0))
			d->has_pointer_value = 1, d->pointer_value = f.v;
		else if (f.tag == TAG(10, 2))
			d->name = str(a, &f);
		else if (f.tag == TAG(17, 0))
			d->has_string_value_iid = 1, d->string_value_iid = f.v;
		else
			return 0;
	}
	*out = d;
	return rc == 0;
}

static void *array(struct pf_arena *a, size_t n, size_t each)
{
	return n ? take(a, n * each) : NULL;
}

/* A copy of the n values a repeated field gathered on the stack. */
static void *keep(struct pf_arena *a, const void *v, size_t n, size_t each)
{
	void *m = array(a, n, each);

	if (n)
		memcpy(m, v, n * each);
	return m;
}

/* A track event's repeated fields gather on the stack, so the event is
 * walked once; one with more of any than FEW goes to protobuf-c. */
#define FEW 32

static int track_event(struct pf_arena *a, const struct fld *in, Perfetto__Protos__TrackEvent **out)
{
	static const Perfetto__Protos__TrackEvent init = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent *t = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	Perfetto__Protos__DebugAnnotation *anns[FEW];
	uint64_t cat_iids[FEW], flows[FEW], terms[FEW];
	char *cats[FEW];
	size_t nanns = 0, ncat_iids = 0, nflows = 0, nterms = 0, ncats = 0;
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(3, 0)) {
			if (ncat_iids == FEW)
				return 0;
			cat_iids[ncat_iids++] = f.v;
		} else if (f.tag == TAG(4, 2)) {
			if (nanns == FEW || !annotation(a, &f, &anns[nanns++]))
				return 0;
		} else if (f.tag == TAG(9, 0))
			t->has_type = 1, t->type = (Perfetto__Protos__TrackEvent__Type)(int32_t)(uint32_t)f.v;
		else if (f.tag == TAG(10, 0))
			t->has_name_iid = 1, t->name_iid = f.v;
		else if (f.tag == TAG(11, 0))
			t->has_track_uuid = 1, t->track_uuid = f.v;
		else if (f.tag == TAG(22, 2)) {
			if (ncats == FEW)
				return 0;
			cats[ncats++] = str(a, &f);
		} else if (f.tag == TAG(23, 2))
			t->name = str(a, &f);
		else if (f.tag == TAG(30, 0))
			t->has_counter_value = 1, t->counter_value = (int64_t)f.v;
		else if (f.tag == TAG(44, 1))
			t->has_double_counter_value = 1, t->double_counter_value = dbl(f.v);
		else if (f.tag == TAG(47, 1)) {
			if (nflows == FEW)
				return 0;
			flows[nflows++] = f.v;
		} else if (f.tag == TAG(48, 1)) {
			if (nterms == FEW)
				return 0;
			terms[nterms++] = f.v;
		} else
			return 0;
	}
	if (rc)
		return 0;
	t->n_category_iids = ncat_iids;
	t->category_iids = keep(a, cat_iids, ncat_iids, sizeof *cat_iids);
	t->n_debug_annotations = nanns;
	t->debug_annotations = keep(a, anns, nanns, sizeof *anns);
	t->n_categories = ncats;
	t->categories = keep(a, cats, ncats, sizeof *cats);
	t->n_flow_ids = nflows;
	t->flow_ids = keep(a, flows, nflows, sizeof *flows);
	t->n_terminating_flow_ids = nterms;
	t->terminating_flow_ids = keep(a, terms, nterms, sizeof *terms);
	*out = t;
	return 1;
}

/* EventCategory, EventName and DebugAnnotationName alike: iid and name. */
static int named(struct pf_arena *a, const struct fld *in, uint64_t *iid, protobuf_c_boolean *has_iid, char **name)
{
	const uint8_t *b = in->p, *e = in->p + in->len;
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(1, 0))
			*has_iid = 1, *iid = f.v;
		else if (f.tag == TAG(2, 2))
			*name = str(a, &f);
		else
			return 0;
	}
	return rc == 0;
}

static int interned_string(struct pf_arena *a, const struct fld *in, Perfetto__Protos__InternedString **out)
{
	static const Perfetto__Protos__InternedString init = PERFETTO__PROTOS__INTERNED_STRING__INIT;
	Perfetto__Protos__InternedString *s = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(1, 0))
			s->has_iid = 1, s->iid = f.v;
		else if (f.tag == TAG(2, 2))   /* borrowed: the packet outlives it */
			s->has_str = 1, s->str.len = f.len, s->str.data = (uint8_t *)(f.len ? f.p : NULL);
		else
			return 0;
	}
	*out = s;
	return rc == 0;
}

static int interned(struct pf_arena *a, const struct fld *in, Perfetto__Protos__InternedData **out)
{
	static const Perfetto__Protos__InternedData init = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	static const Perfetto__Protos__EventCategory cat0 = PERFETTO__PROTOS__EVENT_CATEGORY__INIT;
	static const Perfetto__Protos__EventName name0 = PERFETTO__PROTOS__EVENT_NAME__INIT;
	static const Perfetto__Protos__DebugAnnotationName ann0 = PERFETTO__PROTOS__DEBUG_ANNOTATION_NAME__INIT;
	Perfetto__Protos__InternedData *d = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	size_t n[4] = { 0, 0, 0, 0 };
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1)
		n[0] += f.tag == TAG(1, 2), n[1] += f.tag == TAG(2, 2), n[2] += f.tag == TAG(3, 2),
		n[3] += f.tag == TAG(29, 2);
	if (rc)
		return 0;
	d->event_categories = array(a, n[0], sizeof *d->event_categories);
	d->event_names = array(a, n[1], sizeof *d->event_names);
	d->debug_annotation_names = array(a, n[2], sizeof *d->debug_annotation_names);
	d->debug_annotation_string_values = array(a, n[3], sizeof *d->debug_annotation_string_values);
	for (b = in->p; (rc = next(&b, e, &f)) == 1;) {
		int ok;
		if (f.tag == TAG(1, 2)) {
			Perfetto__Protos__EventCategory *c = msg(a, &cat0, sizeof cat0);
			d->event_categories[d->n_event_categories++] = c;
			ok = named(a, &f, &c->iid, &c->has_iid, &c->name);
		} else if (f.tag == TAG(2, 2)) {
			Perfetto__Protos__EventName *c = msg(a, &name0, sizeof name0);
			d->event_names[d->n_event_names++] = c;
			ok = named(a, &f, &c->iid, &c->has_iid, &c->name);
		} else if (f.tag == TAG(3, 2)) {
			Perfetto__Protos__DebugAnnotationName *c = msg(a, &ann0, sizeof ann0);
			d->debug_annotation_names[d->n_debug_annotation_names++] = c;
			ok = named(a, &f, &c->iid, &c->has_iid,
				   &c->name);
		} else if (f.tag == TAG(29, 2)) {
			ok = interned_string(a, &f, &d->debug_annotation_string_values[d->n_debug_annotation_string_values++]);
		} else {
			ok = 0;
		}
		if (!ok)
			return 0;
	}
	*out = d;
	return rc == 0;
}

static int ftrace_event(struct pf_arena *a, const struct fld *in, Perfetto__Protos__FtraceEvent **out)
{
	static const Perfetto__Protos__FtraceEvent init = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	static const Perfetto__Protos__PrintFtraceEvent print0 = PERFETTO__PROTOS__PRINT_FTRACE_EVENT__INIT;
	Perfetto__Protos__FtraceEvent *ev = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	struct fld f, g;
	int rc;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(1, 0))
			ev->has_timestamp = 1, ev->timestamp = f.v;
		else if (f.tag == TAG(2, 0))
			ev->has_pid = 1, ev->pid = (uint32_t)f.v;
		else if (f.tag == TAG(3, 2) && !ev->print) {   /* twice: protobuf-c merges them */
			const uint8_t *pb = f.p, *pe = f.p + f.len;
			int prc;
			ev->print = msg(a, &print0, sizeof print0);
			while ((prc = next(&pb, pe, &g)) == 1) {
				if (g.tag == TAG(2, 2))
					ev->print->buf = str(a, &g);
				else
					return 0;
			}
			if (prc)
				return 0;
		} else
			return 0;
	}
	*out = ev;
	return rc == 0;
}

/* A packed repeated varint field, each value kept whole (each 8) or its
 * low 32 bits (each 4: int32, uint32), as protobuf-c keeps them. One chunk
 * only: a field given twice, or unpacked, goes to protobuf-c. Room for as
 * many values as bytes (a packet's arena: given back with it), so the
 * bytes are walked once. */
static inline __attribute__((always_inline)) int packed_each(struct pf_arena *a, const struct fld *f, size_t each,
							     size_t *n, void **out)
{
	const uint8_t *b = f->p, *e = f->p + f->len;
	uint8_t *v;
	size_t k = 0;

	if (*n || (f->len && (e[-1] & 0x80)))
		return 0;
	v = array(a, f->len, each);
	while (b < e) {   /* each varint ends inside the field: its last byte does */
		uint64_t x = *b++;
		if (x & 0x80) {
			int shift = 7;
			uint8_t c;
			x &= 0x7f;
			do {
				c = *b++;
				if (shift == 63 && c > 1)
					return 0;   /* past 64 bits, or over ten bytes */
				x |= (uint64_t)(c & 0x7f) << shift;
				shift += 7;
			} while (c & 0x80);
		}
		if (each == 8) {
			memcpy(v + 8 * k++, &x, 8);
		} else {
			uint32_t y = (uint32_t)x;
			memcpy(v + 4 * k++, &y, 4);
		}
	}
	*n = k;
	*out = k ? v : NULL;
	return 1;
}

static int packed64(struct pf_arena *a, const struct fld *f, size_t *n, void **out)
{
	return packed_each(a, f, 8, n, out);
}

static int packed32(struct pf_arena *a, const struct fld *f, size_t *n, void **out)
{
	return packed_each(a, f, 4, n, out);
}

/* Compact sched's columns into c (a bundle's switches and wakings): with
 * names, the threads' names too (the comm table and indexes), which
 * pf_wire_sched's second reading skips. Fields of other kernels' versions
 * (prios, target CPUs) are skipped, as protobuf-c keeps them apart among
 * its unknown fields; a column in another wire type (unpacked values) is
 * protobuf-c's. */
static int columns(struct pf_arena *a, const struct fld *in, Perfetto__Protos__CompactSched *c, int names)
{
	const uint8_t *b = in->p, *e = in->p + in->len;
	size_t nstr = 0;
	struct fld f;
	int rc, ok = 1;

	while (names && (rc = next(&b, e, &f)) == 1)
		nstr += f.tag == TAG(5, 2);
	if (names && rc)
		return 0;
	c->intern_table = names ? array(a, nstr, sizeof *c->intern_table) : NULL;
	for (b = in->p; ok && (rc = next(&b, e, &f)) == 1;) {
		unsigned num = f.tag >> 3;
		switch (f.tag) {
		case TAG(1, 2):
			ok = packed64(a, &f, &c->n_switch_timestamp, (void **)&c->switch_timestamp);
			break;
		case TAG(2, 2):
			ok = packed64(a, &f, &c->n_switch_prev_state, (void **)&c->switch_prev_state);
			break;
		case TAG(3, 2):
			ok = packed32(a, &f, &c->n_switch_next_pid, (void **)&c->switch_next_pid);
			break;
		case TAG(7, 2):
			ok = packed64(a, &f, &c->n_waking_timestamp, (void **)&c->waking_timestamp);
			break;
		case TAG(8, 2):
			ok = packed32(a, &f, &c->n_waking_pid, (void **)&c->waking_pid);
			break;
		case TAG(5, 2):
			if (names)
				c->intern_table[c->n_intern_table++] = str(a, &f);
			break;
		case TAG(6, 2):
			ok = !names || packed32(a, &f, &c->n_switch_next_comm_index, (void **)&c->switch_next_comm_index);
			break;
		case TAG(11, 2):
			ok = !names || packed32(a, &f, &c->n_waking_comm_index, (void **)&c->waking_comm_index);
			break;
		default:
			ok = !(num <= 3 || num == 7 || num == 8 || (names && (num == 5 || num == 6 || num == 11)));
		}
	}
	return ok && rc == 0;
}

static int compact(struct pf_arena *a, const struct fld *in, Perfetto__Protos__CompactSched **out)
{
	static const Perfetto__Protos__CompactSched init = PERFETTO__PROTOS__COMPACT_SCHED__INIT;

	*out = msg(a, &init, sizeof init);
	return columns(a, in, *out, 1);
}

static int ftrace(struct pf_arena *a, const struct fld *in, Perfetto__Protos__FtraceEventBundle **out)
{
	static const Perfetto__Protos__FtraceEventBundle init = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__FtraceEventBundle *fb = msg(a, &init, sizeof init);
	const uint8_t *b = in->p, *e = in->p + in->len;
	size_t n = 0;
	struct fld f;
	int rc;

	while ((rc = next(&b, e, &f)) == 1)
		n += f.tag == TAG(2, 2);
	if (rc)
		return 0;
	fb->event = array(a, n, sizeof *fb->event);
	for (b = in->p; (rc = next(&b, e, &f)) == 1;) {
		if (f.tag == TAG(1, 0))
			fb->has_cpu = 1, fb->cpu = (uint32_t)f.v;
		else if (f.tag == TAG(2, 2)) {
			if (!ftrace_event(a, &f, &fb->event[fb->n_event++]))
				return 0;
		} else if (f.tag == TAG(4, 2) && !fb->compact_sched) {   /* twice: protobuf-c merges them */
			if (!compact(a, &f, &fb->compact_sched))
				return 0;
		} else
			return 0;
	}
	*out = fb;
	return rc == 0;
}

int pf_wire_sched(struct pf_arena *a, const uint8_t *data, size_t len, Perfetto__Protos__FtraceEventBundle *fb,
		  Perfetto__Protos__CompactSched *c)
{
	const uint8_t *b = data, *e = data + len, *bb, *be;
	struct fld f, g;
	int rc, brc, seen = 0;

	while ((rc = next(&b, e, &f)) == 1) {
		if (f.tag != TAG(1, 2))
			continue;   /* the packet's other fields: read the first time */
		if (seen++)
			return 0;   /* two bundles: protobuf-c merges them */
		for (bb = f.p, be = f.p + f.len; (brc = next(&bb, be, &g)) == 1;) {
			if (g.tag == TAG(1, 0) && !fb->has_cpu)
				fb->has_cpu = 1, fb->cpu = (uint32_t)g.v;
			else if (g.tag == TAG(4, 2) && !fb->compact_sched) {
				if (!columns(a, &g, c, 0))
					return 0;
				fb->compact_sched = c;
			} else if ((g.tag >> 3) == 1 || (g.tag >> 3) == 2 || (g.tag >> 3) == 4)
				return 0;   /* full events, a field twice */
		}
		if (brc)
			return 0;
	}
	return rc == 0;
}

int pf_wire_packet(struct pf_arena *a, const uint8_t *data, size_t len, Perfetto__Protos__TracePacket **out)
{
	static const Perfetto__Protos__TracePacket init = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TracePacket *pk = msg(a, &init, sizeof init);
	const uint8_t *b = data, *e = len ? data + len : data;   /* an empty packet may be NULL */
	struct fld f;
	int rc, ok = 1;

	while (ok && (rc = next(&b, e, &f)) == 1) {
		if (f.tag == TAG(8, 0))
			pk->has_timestamp = 1, pk->timestamp = f.v;
		else if (f.tag == TAG(58, 0))
			pk->has_timestamp_clock_id = 1, pk->timestamp_clock_id = (uint32_t)f.v;
		else if (f.tag == TAG(10, 0))
			pk->has_trusted_packet_sequence_id = 1, pk->trusted_packet_sequence_id = (uint32_t)f.v;
		else if (f.tag == TAG(13, 0))
			pk->has_sequence_flags = 1, pk->sequence_flags = (uint32_t)f.v;
		else if (f.tag == TAG(41, 0))
			pk->has_incremental_state_cleared = 1, pk->incremental_state_cleared = f.v != 0;
		else if (f.tag == TAG(11, 2) && !pk->track_event)
			ok = track_event(a, &f, &pk->track_event);
		else if (f.tag == TAG(1, 2) && !pk->ftrace_events)
			ok = ftrace(a, &f, &pk->ftrace_events);
		else if (f.tag == TAG(12, 2) && !pk->interned_data)
			ok = interned(a, &f, &pk->interned_data);
		else
			ok = 0;
	}
	*out = pk;
	return ok && rc == 0;
}
