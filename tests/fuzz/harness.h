/*
 * What the importer harnesses share. The code under test reads paths, so
 * each input goes to a temporary file (one per slot, made on the first
 * call and removed at exit); an import runs into an in-memory database
 * and commits as the import command does. Included by one harness per
 * program (its functions are static).
 */
#ifndef BT_FUZZ_HARNESS_H
#define BT_FUZZ_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "importers/importer.h"

#define FUZZ_SLOTS 2   /* a trace and its mapping */

static struct bt_buf fuzz_paths[FUZZ_SLOTS];

static void fuzz_remove_inputs(void)
{
	size_t i;

	for (i = 0; i < FUZZ_SLOTS; i++) {
		if (fuzz_paths[i].len)
			unlink(fuzz_paths[i].buf);
		bt_buf_release(&fuzz_paths[i]);
	}
}

/* The bytes in slot's temporary file (named prefix-*), its path returned;
 * aborts if it cannot be written. */
static const char *fuzz_write_slot(int slot, const char *prefix, const uint8_t *data, size_t size)
{
	static int registered;
	struct bt_buf *path = &fuzz_paths[slot];
	struct bt_err err = BT_ERR_INIT;
	FILE *fp;

	if (!path->len) {
		int fd = bt_temp_file(prefix, "a fuzz input", path, &err);
		if (fd < 0)
			abort();
		close(fd);
		if (!registered++)
			atexit(fuzz_remove_inputs);
	}
	fp = fopen(path->buf, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	return path->buf;
}

static const char *fuzz_write_input(const char *prefix, const uint8_t *data, size_t size)
{
	return fuzz_write_slot(0, prefix, data, size);
}

typedef int (*fuzz_run)(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
			struct bt_err *err);

/* Import path with run into an in-memory database, commit as the import
 * command does (its diagnostics saved), then make the slices an import
 * deferred, as the first reader of the slices table would. */
static void fuzz_import(fuzz_run run, const char *path, const struct bt_import_opts *o)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	int rc;

	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	rc = bt_db_begin(db, &err);
	if (!rc)
		rc = run(db, path, o, &diag, &err);
	if (!rc)
		rc = bt_diag_save(&diag, db, &err);
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		bt_db_rollback(db);
	else
		bt_db_need_slices(db, &err);
	bt_db_close(db);
}

#endif
