/*
 * The files under a path, walked the one way batch, merge and compare
 * walk their inputs: a file given is itself; a directory's entries in
 * name order, those whose name starts with '.' left out, links followed,
 * each directory walked once by device and inode (a link back up, or two
 * links to one folder, end there), dangling links, FIFOs, devices and
 * sockets passed over; optionally one directory left out (a batch's
 * OUTDIR inside one of its inputs) and each file given once however many
 * paths reach it.
 */
#ifndef BT_WALK_H
#define BT_WALK_H

#include <sys/stat.h>

#include "engine/base/err.h"

/* Called for each regular file; nonzero stops the walk with that code. */
typedef int (*bt_walk_file)(void *ctx, const char *path, const struct stat *st, struct bt_err *err);

struct bt_walk {
	bt_walk_file file;
	void *ctx;
	const struct stat *skip;   /* a directory not walked, or NULL */
	int files_once;            /* a file reached by several paths: the first only */
};

/* The paths in turn, as one walk (a directory under two of them is
 * walked once). BT_EIO naming the path when a path given or a directory
 * under it cannot be read; else what the callback returned, or BT_OK. */
int bt_walk(const struct bt_walk *w, const char *const *paths, int npaths, struct bt_err *err);

#endif
