/*
 * The outputs of a command that writes whole files once its work is done
 * (compare, merge, query): one way out (issue 36 item 1). Every -o is
 * checked before the work (a path that can be one, no file named twice,
 * by any path); each is written and flushed in turn, through the
 * control-character filter where a person reads it, and all are renamed
 * into place only when every one succeeded; each file is told on stderr.
 * analyze's outputs (reports/outputs/outputs.c) add taps and threads on
 * the same rules. A command's own inputs are refused earlier, for every
 * command (clobber.c).
 */
#ifndef BT_OUTSET_H
#define BT_OUTSET_H

#include <stdio.h>

#include "engine/base/err.h"
#include "engine/base/fileio.h"

/* Who reads an output: a program, or a person (control characters shown,
 * not sent), in Markdown too (no mentions or HTML either). */
enum bt_reader { BT_READ_PROGRAM, BT_READ_PERSON, BT_READ_PERSON_MD };

struct bt_outset_item {
	const char *path;       /* NULL or "-": stdout */
	const void *format;     /* the command's writer for it */
	enum bt_reader reader;
	struct bt_out out;
};

struct bt_outset {
	struct bt_outset_item *v;
	size_t n, cap;
};

void bt_outset_add(struct bt_outset *s, const char *path, const void *format, enum bt_reader reader);
/* Before the work: BT_EUSAGE for --format (format, or NULL) with several
 * outputs (each takes its format from its extension), an empty path, one
 * that cannot be an output (a directory, a socket) or two naming one file;
 * BT_EIO for a folder that cannot take it. */
int bt_outset_check(const struct bt_outset *s, const char *format, struct bt_err *err);
/* Write every output with write(ctx, item, fp) (fp filtered for a person),
 * then commit them all; on an error none is left (an I/O error names the
 * output's path). */
int bt_outset_write(struct bt_outset *s, int (*write)(void *ctx, const struct bt_outset_item *it, FILE *fp,
						     struct bt_err *err),
		    void *ctx, struct bt_err *err);
/* "btrace-analyze: wrote PATH (SIZE)" for each file written (not stdout). */
void bt_outset_tell(const struct bt_outset *s, FILE *to);
/* Uncommitted outputs are removed. */
void bt_outset_release(struct bt_outset *s);

#endif
