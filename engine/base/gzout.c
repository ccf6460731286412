/*
 * Buffered, optionally gzip'd output (gzout.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/gzout.h"

int bt_gzout_open(struct bt_gzout *o, FILE *fp, int gz, size_t cap, const char *what, struct bt_err *err)
{
	memset(o, 0, sizeof *o);
	o->fp = fp;
	o->cap = cap;
	o->what = what;
	o->err = err;
	o->buf = bt_xmalloc(cap);
	if (!gz)
		return BT_OK;
	o->zout = bt_xmalloc(cap);
	/* windowBits 15 + 16: a gzip wrapper, which pprof and gunzip expect */
	if (deflateInit2(&o->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(o->zout);
		free(o->buf);
		o->zout = NULL;
		o->buf = NULL;
		return o->rc = bt_err_set(err, BT_EIO, "cannot start compressing %s", what);
	}
	o->gz = 1;
	return BT_OK;
}

static void failed_write(struct bt_gzout *o)
{
	o->rc = bt_err_set(o->err, BT_EIO, "cannot write %s: %s", o->what, strerror(errno));
}

static void drain(struct bt_gzout *o, int finish)
{
	int zrc = Z_OK;

	if (o->rc || !o->gz) {
		if (!o->rc && o->n && fwrite(o->buf, 1, o->n, o->fp) != o->n)
			failed_write(o);
		o->n = 0;
		return;
	}
	o->z.next_in = (Bytef *)o->buf;
	o->z.avail_in = (uInt)o->n;
	do {
		size_t k;
		o->z.next_out = o->zout;
		o->z.avail_out = (uInt)o->cap;
		if ((zrc = deflate(&o->z, finish ? Z_FINISH : Z_NO_FLUSH)) == Z_STREAM_ERROR) {
			o->rc = bt_err_set(o->err, BT_EIO, "cannot compress %s", o->what);
			break;
		}
		k = o->cap - o->z.avail_out;
		if (k && fwrite(o->zout, 1, k, o->fp) != k) {
			failed_write(o);
			break;
		}
	} while (o->z.avail_out == 0 || (finish && zrc != Z_STREAM_END));
	o->n = 0;
}

void bt_gzout_put(struct bt_gzout *o, const void *p, size_t len)
{
	const char *s = p;

	while (len) {
		size_t k = o->cap - o->n < len ? o->cap - o->n : len;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		len -= k;
		if (o->n == o->cap)
			drain(o, 0);
	}
}

char *bt_gzout_room(struct bt_gzout *o, size_t len)
{
	if (o->cap - o->n < len)
		drain(o, 0);
	return o->buf + o->n;
}

void bt_gzout_used(struct bt_gzout *o, size_t len)
{
	o->n += len;
}

int bt_gzout_close(struct bt_gzout *o)
{
	if (o->buf)
		drain(o, 1);
	if (o->gz)
		deflateEnd(&o->z);
	free(o->zout);
	free(o->buf);
	o->zout = NULL;
	o->buf = NULL;
	if (!o->rc && ferror(o->fp))
		failed_write(o);
	return o->rc;
}
