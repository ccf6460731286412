/*
 * libFuzzer harness for the systrace importer. It reads a path (ftrace
 * text, gzip'd, atrace's TRACE: + zlib, a systrace HTML page: found by
 * content), so each input is written to one temporary file, made on the
 * first call and removed at exit, and imported into an in-memory
 * database, committed as the import command does; inputs of odd length
 * with --strict.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/fileio.h"
#include "importers/importer.h"
#include "tests/fuzz/fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct bt_import_opts o = { NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL };
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	int rc;

	path = fuzz_write_input("fuzz-systrace", data, size);
	o.strict = (int)(size & 1);
	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	rc = bt_db_begin(db, &err);
	if (!rc)
		rc = bt_imp_systrace.run(db, path, &o, &diag, &err);
	if (!rc)
		rc = bt_diag_save(&diag, db, &err);
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		bt_db_rollback(db);
	bt_db_close(db);
	return 0;
}
