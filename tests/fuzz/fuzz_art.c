/*
 * libFuzzer harness for the ART method trace importer. Each input is
 * imported into an in-memory database, committed as the import command
 * does: an input of even length through the importer's own path (the
 * file mapped, the slices deferred as for a scratch analysis, then made
 * by reading them back), one of odd length from its bytes with every
 * slice stored as for a kept database.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/fileio.h"
#include "importers/art/art_int.h"
#include "importers/importer.h"
#include "tests/fuzz/fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const char *path, const uint8_t *data, size_t size, int keep)
{
	struct bt_import_opts o = { .keep = keep };
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	int rc;

	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	rc = bt_db_begin(db, &err);
	if (!rc)
		rc = keep ? bt_art_import_bytes(db, path, data, size, NULL, &o, &diag, &err)
			  : bt_imp_art.run(db, path, &o, &diag, &err);
	if (!rc)
		rc = bt_diag_save(&diag, db, &err);
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		bt_db_rollback(db);
	else
		bt_db_need_slices(db, &err);   /* the deferred slices, made */
	bt_db_close(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_input("fuzz-art", data, size);

	one(path, data, size, (int)(size & 1));
	return 0;
}
