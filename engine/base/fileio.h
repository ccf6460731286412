/*
 * File helpers: read-only memory maps of inputs, and output files that are
 * written to a temporary name and renamed into place only on success.
 */
#ifndef BT_FILEIO_H
#define BT_FILEIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

struct bt_fmap {
	const unsigned char *data;   /* NULL for an empty file */
	size_t len;
};

/* What a stat mode names, for messages: "a FIFO", "a directory", ... */
const char *bt_file_kind(unsigned mode);

/*
 * Check that input path is a regular file (or a directory, when dir_ok)
 * before anything reads it: it is opened without blocking, so a FIFO is
 * refused rather than waited on. BT_EIO: "cannot read 'path': it is a
 * FIFO, not a regular file", or the open's errno text.
 */
int bt_input_check(const char *path, int dir_ok, struct bt_err *err);

/* Map a whole regular file read-only (refused as bt_input_check does). Release with bt_fmap_release. */
int bt_fmap_open(struct bt_fmap *m, const char *path, struct bt_err *err);
void bt_fmap_release(struct bt_fmap *m);
/* Let the kernel drop the pages of m[0..upto): a one-pass reader calls it
 * behind its cursor so a large input does not stay resident. */
void bt_fmap_drop(struct bt_fmap *m, size_t upto);

/*
 * A new empty file $TMPDIR/<stem>-PID-XXXXXX (/tmp without TMPDIR), open
 * for reading and writing: its path goes to name and its descriptor is
 * returned. The path is in the temporaries' registry (temps.h) from before
 * the file exists: remove it with bt_temps_remove (or bt_temps_forget once
 * it is gone). On failure -1, name released, and err says "cannot create
 * <what> in '<dir>'" with the errno text.
 */
int bt_temp_file(const char *stem, const char *what, struct bt_buf *name, struct bt_err *err);

/* Write all n bytes of b to fd (through short writes and EINTR): 0, or
 * -1 with errno (EIO if a write wrote nothing). */
int bt_write_all(int fd, const void *b, size_t n);
/* The same at offset at (pwrite: fd's position stays). */
int bt_pwrite_all(int fd, const void *b, size_t n, off_t at);

/* 1 if path is a directory, 0 otherwise. */
int bt_is_dir(const char *path);
/* 1 if path names an existing regular file. */
int bt_is_file(const char *path);

/*
 * Where an output to path goes. A regular file, or none yet, is replaced
 * by renaming a temporary over it: real gets the file a chain of symbolic
 * links ends at, so the link is kept and its target replaced atomically.
 * A FIFO or character device (a pipe, /dev/stdout, /dev/null) is written
 * through (*stream = 1, real = path), unless need_file says why the
 * output needs a regular file ("a trace database"). A directory, socket
 * or block device, or a stream when need_file is given, is BT_EUSAGE
 * naming path and what it is. real is the caller's to release.
 */
int bt_out_target(const char *path, const char *need_file, struct bt_buf *real, int *stream,
		  struct bt_err *err);

/* Outputs checked before any work: each path (NULL or "-": stdout) as
 * bt_out_target says, none empty, no two naming one file by any path
 * ("x", "./x", a link to the folder): BT_EUSAGE naming both; BT_EIO for a
 * folder that cannot take a new file. */
int bt_out_distinct(const char *const *paths, size_t n, struct bt_err *err);

/* Outputs in a folder the tool owns (batch's OUTDIR, shared on a fleet):
 * never follow a link there. After bt_out_own(1), bt_out_target gives the
 * path itself, so a link planted at it is replaced, not its target, and a
 * FIFO or device there is replaced too. The batch sets it for itself and
 * its workers (BT_OWN_OUTPUTS=1 in the environment; main reads it). */
void bt_out_own(int on);

/* Create a temporary beside an output, never through a link planted at
 * its (predictable) name: O_EXCL | O_NOFOLLOW, what is there removed once.
 * The file descriptor, or -1 with errno. */
int bt_out_create_temp(const char *tmp, int flags);

/* An output in progress: fp writes to tmp until bt_out_commit renames it
 * to path; tmp is NULL when fp writes through (stdout, a FIFO, a device). */
struct bt_out {
	FILE *fp;
	char *path, *tmp;
};

/* path "-" or NULL writes to stdout directly; otherwise as bt_out_target
 * says. The temporary PATH.tmp-PID is in the temporaries' registry. */
int bt_out_open(struct bt_out *o, const char *path, struct bt_err *err);
int bt_out_commit(struct bt_out *o, struct bt_err *err);
/* Abandon an output: the temporary file is removed. Safe after commit. */
void bt_out_abort(struct bt_out *o);

#endif
