/*
 * The one gzip/zlib reader of the importers (inflate.h): streams one
 * after another over bytes in memory, inflated into the caller's buffer
 * up to the cap, the offsets of messages those of the compressed input.
 */
#include <string.h>

#include "importers/inflate.h"

#define MAX_CALL (1u << 30)   /* zlib counts in uInt */

int bt_inflate_is(const unsigned char *b, size_t n, enum bt_inflate_wrap wrap)
{
	if (wrap == BT_INFLATE_GZIP)
		return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
	return n >= 2 && (b[0] & 0x0f) == 8 && (b[0] >> 4) <= 7 && ((unsigned)b[0] << 8 | b[1]) % 31 == 0;
}

void bt_inflate_init(struct bt_inflate *z, const char *path, const void *src, size_t len,
		     enum bt_inflate_wrap wrap, unsigned flags)
{
	memset(z, 0, sizeof *z);
	z->path = path;
	z->src = src;
	z->len = src ? len : 0;
	z->wrap = wrap;
	z->flags = flags;
	z->cap = BT_INFLATE_CAP;
}

void bt_inflate_release(struct bt_inflate *z)
{
	if (z->zinit)
		inflateEnd(&z->z);
	z->zinit = z->open = 0;
	z->zmsg = NULL;
}

static const char *wrap_name(const struct bt_inflate *z)
{
	return z->wrap == BT_INFLATE_GZIP ? "gzip" : "zlib";
}

/* Begin the next stream at z->pos, or end. The first is begun whatever
 * its bytes (zlib names what is wrong with its header); a later one only
 * if its magic is there, what follows the last being trailing. */
static int begin(struct bt_inflate *z, struct bt_err *err)
{
	int bits = z->wrap == BT_INFLATE_GZIP ? 15 + 16 : 15, rc;

	if (z->streams && ((z->flags & BT_INFLATE_ONE) ||
			   !bt_inflate_is(z->src + z->pos, z->len - z->pos, z->wrap))) {
		z->trailing = z->flags & BT_INFLATE_ONE ? 0 : z->len - z->pos;
		z->end = 1;
		return BT_OK;
	}
	rc = z->zinit ? inflateReset2(&z->z, bits) : inflateInit2(&z->z, bits);
	if (rc != Z_OK)
		return bt_err_set(err, BT_EIO, "cannot start zlib for '%s'", z->path);
	z->zinit = z->open = 1;
	z->streams++;
	return BT_OK;
}

static int corrupt(struct bt_inflate *z, struct bt_err *err)
{
	z->failed = BT_INFLATE_CORRUPT;
	z->zmsg = z->z.msg;
	if (z->flags & BT_INFLATE_GZMSG)
		return bt_err_set(err, BT_EFORMAT, "corrupt %s stream in '%s' near byte offset %llu: %s: %s", wrap_name(z),
				  z->path, (unsigned long long)z->pos, z->path, z->zmsg ? z->zmsg : "compressed data error");
	return bt_err_set(err, BT_EFORMAT, "corrupt %s stream in '%s' near byte offset %llu: %s", wrap_name(z), z->path,
			  (unsigned long long)z->pos, z->zmsg ? z->zmsg : "inflate failed");
}

int bt_inflate_read(struct bt_inflate *z, unsigned char *out, size_t room, size_t *got,
		    struct bt_err *err)
{
	size_t n = 0;
	int rc;

	*got = 0;
	while (n < room && !z->end) {
		const unsigned char *next = z->src + z->pos;
		size_t before = n, in = z->len - z->pos, space = room - n;
		if (!z->open) {
			if (begin(z, err))
				return err->code;
			continue;
		}
		z->z.next_in = (unsigned char *)next;
		z->z.avail_in = (uInt)(in > MAX_CALL ? MAX_CALL : in);
		z->z.next_out = out + n;
		z->z.avail_out = (uInt)(space > MAX_CALL ? MAX_CALL : space);
		rc = inflate(&z->z, Z_NO_FLUSH);
		z->pos += (size_t)(z->z.next_in - next);
		n = (size_t)(z->z.next_out - out);
		z->total += n - before;
		*got = n;
		if (z->total > z->cap) {
			z->failed = BT_INFLATE_OVER;
			return bt_err_set(err, BT_EFORMAT, "%s'd '%s' inflates to more than %llu bytes (the cap) at byte offset %llu",
					  wrap_name(z), z->path, (unsigned long long)z->cap, (unsigned long long)z->pos);
		}
		if (rc == Z_STREAM_END) {
			z->open = 0;
			break;
		}
		if (rc == Z_OK || (rc == Z_BUF_ERROR && (z->pos < z->len || n > before)))
			continue;   /* the output full, or more of it to come */
		if (rc == Z_BUF_ERROR) {   /* the input ended inside the stream */
			z->cut = z->end = 1;
			z->cut_at = z->pos;
			break;
		}
		return corrupt(z, err);
	}
	return BT_OK;
}

int bt_inflate_cut_error(const struct bt_inflate *z, struct bt_err *err)
{
	if (z->flags & BT_INFLATE_GZMSG)
		return bt_err_set(err, BT_EFORMAT, "truncated %s stream in '%s' at byte offset %llu: %s: unexpected end of file",
				  wrap_name(z), z->path, (unsigned long long)z->cut_at, z->path);
	return bt_err_set(err, BT_EFORMAT, "truncated %s stream in '%s' at byte offset %llu", wrap_name(z), z->path,
			  (unsigned long long)z->cut_at);
}

int bt_inflate_head(const char *path, void *buf, unsigned n, int *damaged)
{
	gzFile gz = gzopen(path, "rb");
	int k, zerr = Z_OK;

	if (damaged)
		*damaged = 0;
	if (!gz)
		return -1;
	k = gzread(gz, buf, n);
	if (damaged && k != (int)n) {
		gzerror(gz, &zerr);
		*damaged = zerr == Z_DATA_ERROR || zerr == Z_BUF_ERROR || k < 0;
	}
	gzclose(gz);
	return k;
}
