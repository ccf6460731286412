/*
 * File helpers: read-only memory maps of inputs, and output files that are
 * written to a temporary name and renamed into place only on success.
 */
#ifndef BT_FILEIO_H
#define BT_FILEIO_H

#include <stddef.h>
#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

struct bt_fmap {
	const unsigned char *data;   /* NULL for an empty file */
	size_t len;
};

/* Map a whole regular file read-only. Release with bt_fmap_release. */
int bt_fmap_open(struct bt_fmap *m, const char *path, struct bt_err *err);
void bt_fmap_release(struct bt_fmap *m);
/* Let the kernel drop the pages of m[0..upto): a one-pass reader calls it
 * behind its cursor so a large input does not stay resident. */
void bt_fmap_drop(struct bt_fmap *m, size_t upto);

/*
 * A new empty file $TMPDIR/<stem>-XXXXXX (/tmp without TMPDIR), open for
 * writing: its path goes to name and its descriptor is returned. On
 * failure -1, name released, and err says "cannot create <what> in '<dir>'".
 */
int bt_temp_file(const char *stem, const char *what, struct bt_buf *name, struct bt_err *err);

/* 1 if path is a directory, 0 otherwise. */
int bt_is_dir(const char *path);
/* 1 if path names an existing regular file. */
int bt_is_file(const char *path);

/* An output in progress: fp writes to tmp until bt_out_commit renames it. */
struct bt_out {
	FILE *fp;
	char *path, *tmp;
};

/* path "-" or NULL writes to stdout directly. */
int bt_out_open(struct bt_out *o, const char *path, struct bt_err *err);
int bt_out_commit(struct bt_out *o, struct bt_err *err);
/* Abandon an output: the temporary file is removed. Safe after commit. */
void bt_out_abort(struct bt_out *o);

#endif
