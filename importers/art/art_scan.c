/*
 * One pass over the binary part of an ART method trace: the framing of
 * every record and packet checked, the methods and threads that packets
 * name read (art_text.c), and each thread's records located as runs of
 * consecutive records or entries packets, so the pairing can read one
 * thread at a time without a copy of the records. Layouts, as ART's
 * trace.cc writes them (all little-endian):
 *
 *   header   u4 'SLOW', u2 version, u2 offset to data (V1) | u8 start (V2),
 *            u8 start in us (V1), u2 record size (v3), padded to 32 bytes
 *   legacy   records to the end: u1 (v1) or u2 tid, u4 method | action,
 *            u4 thread-CPU and/or wall time since the start, in us
 *   stream   (version | 0xF0) records as legacy, and packets of tid 0:
 *            u1 1 method (u2 length, a method line), 2 thread (u2 tid,
 *            u2 length, name), 3 summary (u4 length, the key's text)
 *   V2       (4, 5, 0xF4, 0xF5) packets: u1 0 thread (u4 tid, u2 length,
 *            name), 1 method (u8 id, u2 length, "class\tname\tsig\tfile"),
 *            2 entries (u4 tid, u3 count, u4 size, then per record an
 *            SLEB128 method|action delta and ULEB128 wall and thread-CPU
 *            deltas in ns), 3 summary (u2 length, text); an entries
 *            packet's values are checked as the pairing reads them
 *   V2 first ART's first V2 (2023-24; the same versions): method packets
 *            with u4 ids (method index, the records' id >> 2), entries
 *            packets of u4 tid, the first record in the header (u4 method
 *            | action, u4 thread-CPU and/or u4 wall time in us), u2 count
 *            - 1, u2 size, then per record an SLEB128 method | action
 *            since the first's and ULEB128 wall and thread-CPU deltas in
 *            us, 32 bits each. Told apart by which layout frames the
 *            first packets (v2_form).
 */
#include <string.h>

#include "importers/art/art_int.h"

#define PROGRESS_EVERY ART_DROP_EVERY

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* n bytes at off, else the cut noted (item what starting at start). */
static int need(struct art *a, size_t off, size_t n, const char *what, size_t start, struct bt_err *err)
{
	if (off <= a->len && n <= a->len - off)
		return BT_OK;
	a->cut.yes = 1;
	a->cut.at = a->len;
	a->cut.start = start;
	a->cut.what = what;
	return bt_err_set(err, BT_EFORMAT, "truncated %s in '%s' at offset %zu: %zu bytes said, %zu there",
			  what, a->path, start, n + (off - start), a->len - start);
}

/* Record r's thread gets it: the thread's last run grows when r follows it. */
struct runner {
	int64_t tid;
	size_t thread;       /* index + 1, 0: none yet */
	size_t next;         /* where the current run's next record would be */
};

static void add_record(struct art *a, struct runner *r, int64_t tid, size_t off, size_t size)
{
	struct art_thread *t;

	if (r->thread && r->tid == tid && r->next == off) {
		t = &a->threads[r->thread - 1];
		if ((t->runs[t->nruns - 1] & ART_RUN_MAX) < ART_RUN_MAX) {
			t->runs[t->nruns - 1]++;
			t->records++;
			r->next = off + size;
			return;
		}
	} else {
		t = art_thread_get(a, tid);
	}
	BT_GROW(t->runs, t->nruns + 1, t->rcap);
	t->runs[t->nruns++] = ART_RUN(off, 1);
	t->records++;
	r->tid = tid;
	r->thread = (size_t)(t - a->threads) + 1;
	r->next = off + size;
}

static void progress(struct art *a, size_t off, size_t *mark)
{
	if (off < *mark)
		return;
	*mark = off + PROGRESS_EVERY;
	art_drop(a, off);
	if (a->o->progress)
		a->o->progress(a->o->progress_ctx, off, a->len);
}

static int bad_action(struct art *a, size_t off, uint32_t word, struct bt_err *err)
{
	return bt_err_set(err, BT_EFORMAT, "record %llu of '%s' at offset %zu has action 3 (method word 0x%08x; "
			  "known: 0 enter, 1 exit, 2 unroll)", (unsigned long long)a->records, a->path, off, word);
}

/* Records of fixed size from data_off to the end (a cut record is noted). */
static int scan_legacy(struct art *a, struct bt_err *err)
{
	const size_t rs = a->rec_size, tb = a->version == 1 ? 1 : 2;
	size_t off = a->data_off, mark = 0;
	struct runner r = { 0, 0, 0 };

	for (; a->len - off >= rs; off += rs) {
		const unsigned char *p = a->data + off;
		int64_t tid = tb == 1 ? p[0] : le16(p);
		if ((p[tb] & 3) == 3)
			return bad_action(a, off, le32(p + tb), err);
		add_record(a, &r, tid, off, rs);
		a->records++;
		progress(a, off, &mark);
	}
	if (off < a->len)
		return need(a, off, rs, "record", off, err);
	return BT_OK;
}

/* The summary's text at off (n bytes), which must end the file. */
static int summary(struct art *a, size_t off, size_t n, struct bt_err *err)
{
	size_t used;

	a->summary = 1;
	if (art_text_key(a, (const char *)a->data + off, n, off, &used, err))
		return err->code;
	if (off + n < a->len)
		return bt_err_set(err, BT_EFORMAT, "%zu bytes after the summary of '%s' at offset %zu (the summary ends the trace)",
				  a->len - off - n, a->path, off + n);
	return BT_OK;
}

/* A streaming V1 packet (tid 0) at off; *next past it. */
static int stream_packet(struct art *a, size_t off, size_t *next, struct bt_err *err)
{
	const unsigned char *p;
	size_t n;

	if (need(a, off, 3, "packet", off, err))
		return err->code;
	switch (a->data[off + 2]) {
	case 1:
		if (need(a, off, 5, "method packet", off, err))
			return err->code;
		n = le16(a->data + off + 3);
		if (need(a, off + 5, n, "method packet", off, err))
			return err->code;
		art_text_method(a, (const char *)a->data + off + 5, n, off + 5, 1, 0);
		*next = off + 5 + n;
		return BT_OK;
	case 2:
		if (need(a, off, 7, "thread packet", off, err))
			return err->code;
		p = a->data + off;
		n = le16(p + 5);
		if (need(a, off + 7, n, "thread packet", off, err))
			return err->code;
		art_text_thread(a, le16(p + 3), (const char *)p + 7, n, off + 7);
		*next = off + 7 + n;
		return BT_OK;
	case 3:
		if (need(a, off, 7, "summary packet", off, err))
			return err->code;
		n = le32(a->data + off + 3);
		if (need(a, off + 7, n, "summary packet", off, err))
			return err->code;
		*next = off + 7 + n;
		return summary(a, off + 7, n, err);
	default:
		return bt_err_set(err, BT_EFORMAT, "unknown packet type %u in '%s' at offset %zu (known: 1 method, 2 thread, 3 summary)",
				  a->data[off + 2], a->path, off);
	}
}

static int scan_stream(struct art *a, struct bt_err *err)
{
	size_t off = a->data_off, next = 0, mark = 0;
	struct runner r = { 0, 0, 0 };

	while (off < a->len && !a->summary) {
		int64_t tid;
		if (need(a, off, 2, "record", off, err))
			return err->code;
		tid = le16(a->data + off);
		if (!tid) {
			if (stream_packet(a, off, &next, err))
				return err->code;
			off = next;
			continue;
		}
		if (need(a, off, a->rec_size, "record", off, err))
			return err->code;
		if ((a->data[off + 2] & 3) == 3)
			return bad_action(a, off, le32(a->data + off + 2), err);
		add_record(a, &r, tid, off, a->rec_size);
		a->records++;
		off += a->rec_size;
		progress(a, off, &mark);
	}
	return BT_OK;
}

/* The entries header's size in the first V2 layout: type, tid, the
 * first record (method and one or two times), count - 1, size. */
static size_t first_head(const struct art *a)
{
	return a->version == 5 ? 21 : 17;
}

/* The bytes ending a LEB128 value (high bit clear) in p[0..n). */
static size_t leb_ends(const unsigned char *p, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t w = le64(p + i);
		k += (size_t)__builtin_popcountll(~w & 0x8080808080808080ull);
	}
	for (; i < n; i++)
		k += !(p[i] & 0x80);
	return k;
}

/*
 * An entries packet of the first V2 layout at off whose records do not
 * end where its u2 size says: ART wrote a flush of 65536 records or more
 * (or of as many bytes) with its count - 1 and size modulo 65536. Its
 * true end is the first record boundary past the said size whose records
 * and bytes agree with both modulo 65536 and where a packet or the file
 * begins; noted in a->wraps. 1 if found.
 */
static int first_wrapped(struct art *a, size_t off, size_t head, uint32_t coded16, size_t size16)
{
	const unsigned char *body = a->data + off + head;
	size_t n = a->len - off - head, i, ends = 0, per = a->version == 5 ? 3 : 2;

	for (i = 0; i < n; i++) {
		if (body[i] & 0x80 || ++ends % per)
			continue;
		if (i + 1 > size16 && (i + 1) % 65536 == size16 && (ends / per) % 65536 == coded16 &&
		    (off + head + i + 1 == a->len || body[i + 1] <= 3)) {
			BT_GROW(a->wraps, a->nwraps + 1, a->wcap);
			a->wraps[a->nwraps].count = (uint32_t)(ends / per) + 1;
			a->wraps[a->nwraps].size = i + 1;
			bt_map64_put(&a->wrapped, off, (uint32_t)++a->nwraps);
			return 1;
		}
	}
	return 0;
}

static int v2_entries(struct art *a, size_t off, size_t *next, struct bt_err *err)
{
	const unsigned char *p = a->data + off;
	size_t head = a->v2_first ? first_head(a) : 12, size;
	struct art_thread *t;
	uint32_t count, coded;

	if (need(a, off, head, "entries packet", off, err))
		return err->code;
	if (a->v2_first) {   /* the header holds the first record */
		count = (uint32_t)le16(p + head - 4) + 1;
		size = le16(p + head - 2);
		coded = count - 1;
		if (off + head + size <= a->len &&   /* not where its records end: a count past 16 bits */
		    (leb_ends(p + head, size) != coded * (a->version == 5 ? 3u : 2u) ||
		     (off + head + size < a->len && p[head + size] > 3)) &&
		    first_wrapped(a, off, head, coded, size)) {
			count = a->wraps[a->nwraps - 1].count;
			size = a->wraps[a->nwraps - 1].size;
			coded = count - 1;
		}
	} else {
		count = (uint32_t)p[5] | (uint32_t)p[6] << 8 | (uint32_t)p[7] << 16;
		size = le32(p + 8);
		coded = count;
	}
	if (need(a, off + head, size, "entries packet", off, err))
		return err->code;
	if (size < (size_t)coded * (a->version == 5 ? 3 : 2))   /* each value takes a byte at least */
		return bt_err_set(err, BT_EFORMAT, "entries packet in '%s' at offset %zu says %u records, which "
				  "its %zu bytes cannot hold", a->path, off, count, size);
	*next = off + head + size;
	if (!count)
		return BT_OK;
	t = art_thread_get(a, le32(p + 1));
	BT_GROW(t->runs, t->nruns + 1, t->rcap);
	t->runs[t->nruns++] = ART_RUN(off, 0);
	t->records += count;
	a->records += count;
	return BT_OK;
}

static int v2_packet(struct art *a, size_t off, size_t *next, struct bt_err *err)
{
	const unsigned char *p = a->data + off;
	size_t n;

	switch (p[0]) {
	case 0:
		if (need(a, off, 7, "thread packet", off, err))
			return err->code;
		n = le16(p + 5);
		if (need(a, off + 7, n, "thread packet", off, err))
			return err->code;
		art_text_thread(a, le32(p + 1), (const char *)p + 7, n, off + 7);
		*next = off + 7 + n;
		return BT_OK;
	case 1:
		if (a->v2_first) {   /* u4 method index */
			if (need(a, off, 7, "method packet", off, err))
				return err->code;
			n = le16(p + 5);
			if (need(a, off + 7, n, "method packet", off, err))
				return err->code;
			art_text_method(a, (const char *)p + 7, n, off + 7, 0, (uint64_t)le32(p + 1) << 2);
			*next = off + 7 + n;
			return BT_OK;
		}
		if (need(a, off, 11, "method packet", off, err))
			return err->code;
		n = le16(p + 9);
		if (need(a, off + 11, n, "method packet", off, err))
			return err->code;
		art_text_method(a, (const char *)p + 11, n, off + 11, 0, le64(p + 1));
		*next = off + 11 + n;
		return BT_OK;
	case 2:
		return v2_entries(a, off, next, err);
	case 3:
		if (need(a, off, 3, "summary packet", off, err))
			return err->code;
		n = le16(p + 1);
		if (need(a, off + 3, n, "summary packet", off, err))
			return err->code;
		*next = off + 3 + n;
		return summary(a, off + 3, n, err);
	default:
		return bt_err_set(err, BT_EFORMAT, "unknown packet type %u in '%s' at offset %zu (known: 0 thread, 1 method, 2 entries, 3 summary)",
				  p[0], a->path, off);
	}
}

/* The method and entries packets (the ones the layouts frame apart;
 * thread packets are the same in both) framed from off under one layout
 * (first: the first V2), up to limit of them: how many, until one does
 * not fit the file or the layout (a method line without its tabs and
 * final newline). */
static int v2_fits(const struct art *a, int first, int limit)
{
	size_t off = a->data_off, len = a->len, head, n, seen;
	int k = 0;

	for (seen = 0; k < limit && off < len && seen < ((size_t)1 << 20); seen++) {
		const unsigned char *p = a->data + off;
		size_t left = len - off;
		switch (p[0]) {
		case 0:
			if (left < 7)
				return k;
			n = 7 + (size_t)le16(p + 5);
			break;
		case 1:
			head = first ? 7 : 11;
			if (left < head)
				return k;
			n = head + (size_t)le16(p + head - 2);
			if (n > left || n < head + 2 || p[n - 1] != '\n' || !memchr(p + head, '\t', n - head))
				return k;
			break;
		case 2:
			head = first ? (a->version == 5 ? 21u : 17u) : 12u;
			if (left < head)
				return k;
			n = head + (first ? (size_t)le16(p + head - 2) : (size_t)le32(p + 8));
			break;
		case 3:
			return left >= 3 && 3 + (size_t)le16(p + 1) == left ? limit : k;   /* the summary ends it */
		default:
			return k;
		}
		if (n > left)
			return k;
		off += n;
		k += p[0] != 0;
	}
	return off >= len ? limit : k;
}

/* Which V2 layout the file has: the one that frames more of its first
 * packets (the current one when both frame them all, or none). */
static void v2_form(struct art *a)
{
	a->v2_first = v2_fits(a, 1, 64) > v2_fits(a, 0, 64);
}

static int scan_v2(struct art *a, struct bt_err *err)
{
	size_t off = a->data_off, next = 0, mark = 0;

	if (!a->v2_keyed)   /* after a key it is the first layout */
		v2_form(a);

	while (off < a->len && !a->summary) {
		if (v2_packet(a, off, &next, err))
			return err->code;
		off = next;
		progress(a, off, &mark);
	}
	return BT_OK;
}

int art_scan(struct art *a, struct bt_err *err)
{
	if (a->len > ((uint64_t)1 << 40))
		return bt_err_set(err, BT_EFORMAT, "'%s' is larger than 1 TiB", a->path);
	switch (a->layout) {
	case ART_LEGACY:
		return scan_legacy(a, err);
	case ART_STREAM:
		return scan_stream(a, err);
	default:
		return scan_v2(a, err);
	}
}
