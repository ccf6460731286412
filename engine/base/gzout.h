/*
 * Bytes out to a stream through one buffer, gzip'd if asked: the writer of
 * the exports that may be compressed (pprof always, speedscope for .gz).
 * The first failure is kept, later bytes are dropped, and close says it.
 */
#ifndef BT_GZOUT_H
#define BT_GZOUT_H

#include <stddef.h>
#include <stdio.h>
#include <zlib.h>

#include "engine/base/err.h"

struct bt_gzout {
	FILE *fp;
	char *buf;                  /* cap bytes, n of them not yet written */
	size_t n, cap;
	int gz;
	z_stream z;
	unsigned char *zout;
	const char *what;           /* "the pprof profile", for the errors */
	int rc;
	struct bt_err *err;
};

/* Start writing to fp with a buffer of cap bytes; gz: as a gzip stream
 * (the fastest level: the exports repeat a lot). */
int bt_gzout_open(struct bt_gzout *o, FILE *fp, int gz, size_t cap, const char *what, struct bt_err *err);
void bt_gzout_put(struct bt_gzout *o, const void *p, size_t len);
/* Room for len (<= cap) bytes at the end of the buffer, written in place
 * and then counted with bt_gzout_used. */
char *bt_gzout_room(struct bt_gzout *o, size_t len);
void bt_gzout_used(struct bt_gzout *o, size_t len);
/* Write what is left, end the gzip stream, free; the first failure's code. */
int bt_gzout_close(struct bt_gzout *o);

#endif
