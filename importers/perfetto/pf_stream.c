/*
 * Reading a Perfetto trace packet by packet (perfetto-subset.md §2.1): the
 * top-level Trace is walked by hand, key by key, so only one packet is in
 * memory at a time whatever the file's size. A plain file is mapped and
 * its packets read in place (no copy: the kernel's into a buffer was a
 * tenth of the import), its pages let go behind the cursor; a gzip'd one
 * is mapped too and inflated through the importers' one reader
 * (importers/inflate.h) a window at a time, as zlib's gzread hands it over
 * (so a damaged stream fails where it always did). compressed_packets
 * are inflated and walked the same way. Offsets in messages are of the
 * (inflated) trace bytes. A file that ends inside a packet (or a gzip
 * stream that ends early) keeps the packets before the cut, unless
 * --strict.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "importers/inflate.h"
#include "importers/perfetto/pf_int.h"

#define MAX_PACKET (256u << 20)   /* far above any writer's; a bound for hostile lengths */
/* Inflated bytes handed over at a time: gzread's window (twice its
 * buffer, set to 128 KiB before), whose bytes a corrupt stream lost. */
#define WINDOW (1u << 18)
/* Writers emit no empty packets (a zero-length TracePacket says nothing);
 * past this many the input is filler, and reading on would only spend
 * time (a 2 MB .pb.gz holds a billion of them). */
#define MAX_EMPTY (1u << 20)
/* A mapped file's pages behind the cursor go back this often. */
#define DROP_EVERY ((uint64_t)64 << 20)

struct in {
	int gz;              /* the file is gzip'd: inflated through z */
	struct bt_inflate z;
	struct bt_fmap map;  /* the file, whole */
	size_t zdropped;     /* the gzip'd map's pages before this are let go */
	const char *path;
	const unsigned char *buf;   /* the bytes at off: store's, or the map's */
	unsigned char store[WINDOW];
	size_t len, pos;
	uint64_t off;        /* trace offset of buf[0] */
	int strict;
	int cut;             /* the file ended inside the element being read */
	int gz_cut;          /* the gzip stream ended early (not --strict) */
	long long gz_at;     /* the file offset where it did */
};

/* Errors of a gzip'd file are at offsets of the file, not of the trace
 * (the compressed bytes inflate has taken). A stream cut short reads as a
 * short file, so it is checked for at its end: a cut between two packets
 * would otherwise pass unnoticed. */
static int fill(struct in *in, struct bt_err *err)
{
	size_t got = 0;

	in->off += in->len;
	in->pos = in->len = 0;
	if (!in->gz) {   /* mapped: all that is left of it */
		if (in->off < in->map.len) {
			in->buf = in->map.data + in->off;
			in->len = in->map.len - (size_t)in->off;
		}
		return BT_OK;
	}
	in->buf = in->store;
	while (!got && !in->z.end)   /* a stream of no bytes hands over none */
		if (bt_inflate_read(&in->z, in->store, WINDOW, &got, err))
			return err->code;
	in->len = got;
	if (in->z.pos - in->zdropped >= DROP_EVERY)
		bt_fmap_drop(&in->map, in->zdropped = in->z.pos);
	if (got || !in->z.cut)
		return BT_OK;
	if (in->strict)
		return bt_inflate_cut_error(&in->z, err);
	in->gz_cut = 1;   /* what inflated is kept */
	in->gz_at = (long long)in->z.cut_at;
	return BT_OK;
}

static uint64_t here(const struct in *in)
{
	return in->off + in->pos;
}

/* Next byte, or -1 at the end of the file. */
static int next_byte(struct in *in, int *c, struct bt_err *err)
{
	if (in->pos == in->len && fill(in, err))
		return err->code;
	*c = in->pos < in->len ? in->buf[in->pos++] : -1;
	return BT_OK;
}

/* A varint; *end set when the file ended before its first byte. */
static int varint(struct in *in, uint64_t *v, int *end, const char *what, struct bt_err *err)
{
	uint64_t at = here(in);
	int shift = 0, c = -1;

	*v = 0;
	*end = 0;
	if (in->len - in->pos >= 2 && !(in->buf[in->pos] & 0x80)) {   /* a key, mostly */
		*v = in->buf[in->pos++];
		return BT_OK;
	}
	if (in->len - in->pos >= 3 && !(in->buf[in->pos + 1] & 0x80)) {   /* a length, mostly */
		*v = (uint64_t)(in->buf[in->pos] & 0x7f) | (uint64_t)in->buf[in->pos + 1] << 7;
		in->pos += 2;
		return BT_OK;
	}
	for (;;) {
		if (next_byte(in, &c, err))
			return err->code;
		if (c < 0) {
			if (!shift) {
				*end = 1;
				return BT_OK;
			}
			in->cut = 1;
			return bt_err_set(err, BT_EFORMAT, "truncated %s in '%s' at byte offset %llu", what,
					  in->path, (unsigned long long)at);
		}
		if (shift > 63)
			return bt_err_set(err, BT_EFORMAT, "over-long varint (%s) in '%s' at byte offset %llu", what,
					  in->path, (unsigned long long)at);
		*v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
		if (!(c & 0x80))
			return BT_OK;
	}
}

/* Read n bytes: *out points at them, in place when they are all in the
 * buffer (always, for a mapped file), else copied into *buf (grown as
 * they come, so a lying length on a short file fails at its end, not at
 * malloc); skipped if !buf. */
static int take(struct in *in, uint64_t n, const unsigned char **out, unsigned char **buf, size_t *cap,
		uint64_t at, struct bt_err *err)
{
	uint64_t got = 0;

	if (buf && n <= in->len - in->pos) {
		*out = in->buf + in->pos;
		in->pos += (size_t)n;
		return BT_OK;
	}
	while (got < n) {
		size_t k;
		if (in->pos == in->len && fill(in, err))
			return err->code;
		if (in->pos == in->len) {
			in->cut = 1;
			return bt_err_set(err, BT_EFORMAT, "truncated packet in '%s' at byte offset %llu: %llu bytes said, %llu there",
					  in->path, (unsigned long long)at, (unsigned long long)n,
					  (unsigned long long)got);
		}
		k = in->len - in->pos;
		if (k > n - got)
			k = (size_t)(n - got);
		if (buf) {
			BT_GROW(*buf, (size_t)got + k, *cap);
			memcpy(*buf + got, in->buf + in->pos, k);
		}
		in->pos += k;
		got += k;
	}
	if (buf)
		*out = *buf;
	return BT_OK;
}

/* Skip a field of wire type wt that is not a packet. */
static int skip(struct in *in, unsigned wt, uint64_t at, struct bt_err *err)
{
	uint64_t v;
	int end;

	switch (wt) {
	case 0:
		if (varint(in, &v, &end, "varint", err))
			return err->code;
		in->cut = end;
		return end ? bt_err_set(err, BT_EFORMAT, "truncated field in '%s' at byte offset %llu", in->path,
					(unsigned long long)at) : BT_OK;
	case 1:
		return take(in, 8, NULL, NULL, NULL, at, err);
	case 5:
		return take(in, 4, NULL, NULL, NULL, at, err);
	case 2:
		if (varint(in, &v, &end, "length", err))
			return err->code;
		in->cut = end;
		if (end)
			return bt_err_set(err, BT_EFORMAT, "truncated field in '%s' at byte offset %llu", in->path,
					  (unsigned long long)at);
		return take(in, v, NULL, NULL, NULL, at, err);
	default:
		return bt_err_set(err, BT_EFORMAT, "not a Perfetto trace: wire type %u at byte offset %llu of '%s'",
				  wt, (unsigned long long)at, in->path);
	}
}

/* Count an empty packet at offset at; an error past MAX_EMPTY. */
static int empty_packet(struct pf *p, uint64_t at, struct bt_err *err)
{
	if (++p->empty <= MAX_EMPTY)
		return BT_OK;
	return bt_err_set(err, BT_EFORMAT, "over %u empty packets in '%s' (the last at byte offset %llu): not a trace a writer makes",
			  MAX_EMPTY, p->path, (unsigned long long)at);
}

static void progress(const struct pf *p, struct in *in, uint64_t size)
{
	if (p->o->progress && size)
		p->o->progress(p->o->progress_ctx, in->gz ? in->z.pos : here(in), size);
}

/* Open path: mapped, and inflated if it is gzip'd (zlib's message words
 * of gzread kept: "PATH: reason"). */
static int open_in(struct in *in, const char *path, struct bt_err *err)
{
	in->path = path;
	if (bt_fmap_open(&in->map, path, err))
		return err->code;
	in->gz = bt_inflate_is(in->map.data, in->map.len, BT_INFLATE_GZIP);
	if (in->gz)
		bt_inflate_init(&in->z, path, in->map.data, in->map.len, BT_INFLATE_GZIP, BT_INFLATE_GZMSG);
	return BT_OK;
}

/* The file ended inside the element at `at` (cut) or the gzip stream
 * early: keep the n packets before (--strict kept the error). */
static int salvage(struct pf *p, const struct in *in, int cut, uint64_t at, uint64_t n,
		   struct bt_err *err)
{
	struct bt_buf where = BT_BUF_INIT;
	int rc;

	bt_err_clear(err);
	if (cut)
		bt_buf_addf(&where, "in the packet at byte offset %llu: that packet (%llu bytes of it there)",
			    (unsigned long long)at, (unsigned long long)(here(in) - at));
	else
		bt_buf_addf(&where, "between packets:");
	if (in->gz_cut)
		rc = bt_diag_partial(p->diag, p->db, "truncated_trace", err,
				     "the gzip stream of '%s' ends early at byte offset %lld (trace byte %llu), "
				     "%s%s the rest lost; %llu packets imported",
				     p->path, in->gz_at, (unsigned long long)here(in), where.buf,
				     cut ? " and" : "", (unsigned long long)n);
	else
		rc = bt_diag_partial(p->diag, p->db, "truncated_trace", err,
				     "'%s' is cut at byte offset %llu %s lost; %llu packets imported",
				     p->path, (unsigned long long)here(in), where.buf, (unsigned long long)n);
	bt_buf_release(&where);
	return rc;
}

int pf_stream(struct pf *p, struct bt_err *err)
{
	struct in *in = bt_xcalloc(1, sizeof *in);
	struct pf_predecode *pre = NULL;   /* a mapped file's packets, decoded on the other core */
	unsigned char *pkt = NULL;
	const unsigned char *data;
	size_t cap = 0;
	struct stat st;
	uint64_t size = stat(p->path, &st) == 0 ? (uint64_t)st.st_size : 0, n = 0, at = 0, dropped = 0;
	int rc = BT_OK;

	in->strict = p->o->strict;
	if (open_in(in, p->path, err)) {
		free(in);
		return err->code;
	}
	if (!in->gz) {
		p->fmap = in->map;   /* the import's: its scheduler bundles are read again there (pf_later.c) */
		pre = pf_predecode_start(in->map.data, in->map.len, MAX_PACKET);
	}
	for (;;) {
		uint64_t key, len;
		int end;
		at = here(in);
		if (!in->gz && at - dropped >= DROP_EVERY)   /* interned strings kept from before fault back in */
			bt_fmap_drop(&in->map, (size_t)(dropped = at));
		if ((rc = varint(in, &key, &end, "field key", err)) != 0 || end)
			break;
		if ((key >> 3) == 0) {   /* protobuf has no field 0: zero bytes, not a trace */
			rc = bt_err_set(err, BT_EFORMAT, "not a Perfetto trace: field number 0 at byte offset %llu of '%s'",
					(unsigned long long)at, p->path);
			break;
		}
		if ((key >> 3) != 1 || (key & 7) != 2) {
			if ((rc = skip(in, (unsigned)(key & 7), at, err)) != 0)
				break;
			continue;
		}
		if ((rc = varint(in, &len, &end, "packet length", err)) != 0)
			break;
		in->cut = end;
		if (end || len > MAX_PACKET) {
			rc = end ? bt_err_set(err, BT_EFORMAT, "truncated packet in '%s' at byte offset %llu", p->path,
					      (unsigned long long)at)
				 : bt_err_set(err, BT_EFORMAT, "packet of %llu bytes in '%s' at byte offset %llu (at most %u allowed)",
					      (unsigned long long)len, p->path, (unsigned long long)at, MAX_PACKET);
			break;
		}
		if (!len && (rc = empty_packet(p, at, err)) != 0)
			break;
		if ((rc = take(in, len, &data, &pkt, &cap, at, err)) != 0)
			break;
		if ((rc = pf_packet(p, data, (size_t)len, at, pre ? pf_predecode_packet(pre, at) : NULL, err)) != 0)
			break;
		if ((++n & 0xfff) == 0)
			progress(p, in, size);
	}
	/* a cut inside a packet, or a gzip stream that ended between two */
	if (rc ? in->cut && !in->strict : in->gz_cut)
		rc = salvage(p, in, in->cut, at, n, err);
	pf_predecode_stop(pre);
	if (in->gz) {
		bt_inflate_release(&in->z);
		bt_fmap_release(&in->map);
	}
	free(in);
	free(pkt);
	return rc;
}

int pf_mem_varint(const uint8_t *b, size_t n, size_t *i, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; *i < n && shift <= 63; shift += 7) {
		*v |= (uint64_t)(b[*i] & 0x7f) << shift;
		if (!(b[(*i)++] & 0x80))
			return 1;
	}
	return 0;
}

/* The packets of an in-memory Trace encoding (inflated bytes). */
static int walk(struct pf *p, const uint8_t *b, size_t n, uint64_t off, struct bt_err *err)
{
	size_t i = 0;

	while (i < n) {
		uint64_t key, len, skip;
		size_t at = i;
		if (!pf_mem_varint(b, n, &i, &key))
			return bt_err_set(err, BT_EFORMAT, "corrupt compressed_packets in '%s' at byte offset %llu (inflated byte %zu)",
					  p->path, (unsigned long long)off, at);
		if ((key >> 3) == 0)
			return bt_err_set(err, BT_EFORMAT, "corrupt compressed_packets in '%s' at byte offset %llu (field number 0 at inflated byte %zu)",
					  p->path, (unsigned long long)off, at);
		if ((key & 7) == 0) {
			if (!pf_mem_varint(b, n, &i, &skip))
				return bt_err_set(err, BT_EFORMAT, "truncated compressed_packets in '%s' at byte offset %llu",
						  p->path, (unsigned long long)off);
			continue;
		}
		if ((key & 7) == 1 || (key & 7) == 5) {
			i += (key & 7) == 1 ? 8 : 4;
			continue;
		}
		if ((key & 7) != 2)
			return bt_err_set(err, BT_EFORMAT, "corrupt compressed_packets in '%s' at byte offset %llu (wire type %u at inflated byte %zu)",
					  p->path, (unsigned long long)off, (unsigned)(key & 7), at);
		if (!pf_mem_varint(b, n, &i, &len))
			return bt_err_set(err, BT_EFORMAT, "corrupt compressed_packets in '%s' at byte offset %llu (inflated byte %zu)",
					  p->path, (unsigned long long)off, at);
		if (len > n - i)
			return bt_err_set(err, BT_EFORMAT, "truncated packet in compressed_packets of '%s' at byte offset %llu (inflated byte %zu)",
					  p->path, (unsigned long long)off, at);
		if ((key >> 3) == 1 && !len && empty_packet(p, off, err))
			return err->code;
		if ((key >> 3) == 1 && pf_packet(p, b + i, (size_t)len, off, NULL, err))
			return err->code;
		i += (size_t)len;
	}
	return i == n ? BT_OK : bt_err_set(err, BT_EFORMAT, "truncated compressed_packets in '%s' at byte offset %llu",
					   p->path, (unsigned long long)off);
}

int pf_stream_inflate(struct pf *p, const uint8_t *data, size_t len, uint64_t off, struct bt_err *err)
{
	struct bt_inflate z;
	unsigned char *out = NULL;
	size_t cap = 0, n = 0, got;
	int rc;

	if (p->inflating) {
		bt_diag_warn(p->diag, "perfetto_nested_compression", "compressed_packets inside compressed_packets in '%s' (byte offset %llu); skipped",
			     p->path, (unsigned long long)off);
		return BT_OK;
	}
	bt_inflate_init(&z, p->path, data, len, BT_INFLATE_ZLIB, BT_INFLATE_ONE);
	z.cap = MAX_PACKET;
	do {
		if (n == cap)
			BT_GROW(out, cap + (len > 4096 ? len * 4 : 16384), cap);
		rc = bt_inflate_read(&z, out + n, cap - n, &got, err);
		n += got;
	} while (!rc && z.open && !z.end);
	if (z.failed || (!rc && z.cut)) {   /* worded as the packet's */
		const char *why = z.zmsg ? z.zmsg : "truncated stream";
		int over = z.failed == BT_INFLATE_OVER;
		bt_inflate_release(&z);
		free(out);
		bt_err_clear(err);
		if (over)
		if (z.failed == BT_INFLATE_OVER)
			return bt_err_set(err, BT_EFORMAT, "compressed_packets in '%s' at byte offset %llu inflate to over %u bytes",
					  p->path, (unsigned long long)off, MAX_PACKET);
		return bt_err_set(err, BT_EFORMAT, "corrupt compressed_packets in '%s' at byte offset %llu (zlib: %s)",
				  p->path, (unsigned long long)off, why);
	}
	bt_inflate_release(&z);
	if (rc) {
		free(out);
		return rc;
	}
	p->inflated += n;
	if (p->inflated > BT_INFLATE_CAP) {
		free(out);
		return bt_err_set(err, BT_EFORMAT, "compressed_packets of '%s' inflate to more than %llu bytes in all (the cap) at byte offset %llu",
				  p->path, (unsigned long long)BT_INFLATE_CAP, (unsigned long long)off);
	}
	p->inflating = 1;
	rc = walk(p, out, n, off, err);
	p->inflating = 0;
	free(out);
	return rc;
}
