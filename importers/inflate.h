/*
 * gzip and zlib streams, inflated for every importer that reads them
 * (iOS's .db.gz, systrace's gzip and atrace -z, Perfetto's .pb.gz and
 * compressed_packets): one reader over compressed bytes in memory, one cap
 * on what they inflate to, errors naming the file and the byte offset.
 */
#ifndef BT_INFLATE_H
#define BT_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "engine/base/err.h"

/* An input inflating past this is a bomb: no trace a phone writes comes
 * near it. The one cap of every importer (bt_inflate.cap). */
#define BT_INFLATE_CAP ((uint64_t)4 << 30)

enum bt_inflate_wrap { BT_INFLATE_GZIP, BT_INFLATE_ZLIB };

/* bt_inflate_init's flags. */
enum {
	BT_INFLATE_ONE = 1,     /* the first stream only; what follows it is not read */
	BT_INFLATE_GZMSG = 2    /* zlib's reason as gzread words it ("PATH: reason") */
};

/* Why bt_inflate_read failed (bt_inflate.failed), for callers that word
 * the error their own way. */
enum { BT_INFLATE_CORRUPT = 1, BT_INFLATE_OVER = 2 };

/*
 * The compressed bytes src[0, len) (borrowed: they must outlive the
 * reader), one stream after another: each further stream must begin with
 * its wrapper's magic, and bytes after the last that are no stream are
 * counted (trailing), not read.
 */
struct bt_inflate {
	const char *path;              /* for messages */
	const unsigned char *src;
	size_t len, pos;               /* pos: compressed bytes consumed */
	enum bt_inflate_wrap wrap;
	unsigned flags;
	uint64_t cap;                  /* at most this many bytes inflated (BT_INFLATE_CAP) */
	uint64_t total;                /* bytes inflated so far */
	uint64_t streams;              /* streams begun */
	uint64_t trailing;             /* bytes after the last stream that are none */
	int end;                       /* nothing more to inflate */
	int cut;                       /* the input ended inside a stream ... */
	uint64_t cut_at;               /* ... at this byte offset (the input's length) */
	int failed;                    /* BT_INFLATE_CORRUPT, _OVER, or 0 */
	const char *zmsg;              /* zlib's reason for CORRUPT, or NULL (valid until release) */
	int open;                      /* a stream is being inflated */
	int zinit;
	z_stream z;
};

/* 1 if b[0, n) begins with the wrapper's magic (gzip 1f 8b; a zlib header
 * of deflate whose check bits hold). */
int bt_inflate_is(const unsigned char *b, size_t n, enum bt_inflate_wrap wrap);

/* Read src[0, len) of path; flags BT_INFLATE_*. Release with
 * bt_inflate_release. */
void bt_inflate_init(struct bt_inflate *z, const char *path, const void *src, size_t len,
		     enum bt_inflate_wrap wrap, unsigned flags);
void bt_inflate_release(struct bt_inflate *z);

/*
 * Inflate into out[0, room), stopping when it is full, when a stream ends
 * (its bytes are handed over before the next stream begins, as gzread
 * does) or when the input does; *got says how many (0 with z->end: no
 * more). An input ending inside a stream is no error: z->cut and z->cut_at
 * say so (bt_inflate_cut_error words it). Errors (BT_EFORMAT, z->failed
 * set): "corrupt gzip stream in 'PATH' near byte offset N: REASON", and
 * "gzip'd 'PATH' inflates to more than CAP bytes (the cap) at byte offset
 * N", offsets of the compressed input; the bytes of this call are then
 * not to be used.
 */
int bt_inflate_read(struct bt_inflate *z, unsigned char *out, size_t room, size_t *got,
		    struct bt_err *err);

/* The error of an input cut inside a stream (z->cut): "truncated gzip
 * stream in 'PATH' at byte offset N" (with BT_INFLATE_GZMSG, then ":
 * PATH: unexpected end of file"). Returns BT_EFORMAT. */
int bt_inflate_cut_error(const struct bt_inflate *z, struct bt_err *err);

/*
 * A probe's look at a gzip file: up to n of its first inflated bytes into
 * buf, through zlib's gzread (a file that is no gzip reads as it is).
 * Returns how many (-1: none could be read); *damaged (if not NULL) is set
 * when the stream is corrupt or ends within those bytes.
 */
int bt_inflate_head(const char *path, void *buf, unsigned n, int *damaged);

#endif
