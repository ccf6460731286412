/*
 * libFuzzer harness for the Perfetto importer. It reads a path (plain or
 * gzip'd, through zlib), so each input is written to one temporary file,
 * made on the first call and removed at exit, and imported into an
 * in-memory database, committed as the import command does. Each
 * top-level packet of a plain input also goes through the hand decoder and
 * protobuf-c side by side (pf_wire_diff.h): a difference aborts.
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
#include "tests/fuzz/pf_wire_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The packets of a plain Trace encoding, each through both decoders. */
static void both_decoders(const uint8_t *b, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint64_t key = 0, len = 0;
		int shift;
		for (shift = 0; i < n && shift < 35; shift += 7) {
			key |= (uint64_t)(b[i] & 0x7f) << shift;
			if (!(b[i++] & 0x80))
				break;
		}
		if (key != 0x0A)
			return;
		for (shift = 0; i < n && shift < 35; shift += 7) {
			len |= (uint64_t)(b[i] & 0x7f) << shift;
			if (!(b[i++] & 0x80))
				break;
		}
		if (len > n - i)
			return;
		if (pf_wire_diff(b + i, (size_t)len) == 0)
			abort();
		i += (size_t)len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct bt_import_opts o = { NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	int rc;

	both_decoders(data, size);
	path = fuzz_write_input("fuzz-perfetto", data, size);
	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	rc = bt_db_begin(db, &err);
	if (!rc)
		rc = bt_imp_perfetto.run(db, path, &o, &diag, &err);
	if (!rc)
		rc = bt_diag_save(&diag, db, &err);
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		bt_db_rollback(db);
	bt_db_close(db);
	return 0;
}
