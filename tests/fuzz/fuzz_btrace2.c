/*
 * libFuzzer harness for the btrace 2.0 importer. One input holds both
 * files: a little-endian u32 whose low 28 bits give appTrace.bin's length
 * (bit 31 set: no mapping; bit 30: a kept database, the slices stored as
 * they pass, else deferred and then filled; bit 29: --strict), the trace's bytes, then
 * methodMapping.txt's. The importer reads paths, so each goes to a
 * temporary file (made on the first call, removed at exit), imported into
 * an in-memory database, committed as the import command does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/fileio.h"
#include "importers/importer.h"
#include "tests/fuzz/fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct bt_buf map_path = BT_BUF_INIT;

static void remove_mapping(void)
{
	if (map_path.len)
		unlink(map_path.buf);
	bt_buf_release(&map_path);
}

static const char *write_mapping(const uint8_t *data, size_t size)
{
	struct bt_err err = BT_ERR_INIT;
	FILE *fp;

	if (!map_path.len) {
		int fd = bt_temp_file("fuzz-b2map", "a fuzz mapping", &map_path, &err);
		if (fd < 0)
			abort();
		close(fd);
		atexit(remove_mapping);
	}
	fp = fopen(map_path.buf, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	return map_path.buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0 };
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	const char *path;
	uint32_t head, n;
	int rc;

	if (size < 4)
		return 0;
	memcpy(&head, data, 4);
	n = head & 0x0FFFFFFF;
	if (n > size - 4)
		n = (uint32_t)(size - 4);
	path = fuzz_write_input("fuzz-b2trace", data + 4, n);
	o.mapping = head & 0x80000000u ? NULL : write_mapping(data + 4 + n, size - 4 - n);
	o.strict = (head & 0x20000000u) != 0;
	o.keep = (head & 0x40000000u) != 0;
	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	rc = bt_db_begin(db, &err);
	if (!rc)
		rc = bt_imp_btrace2.run(db, path, &o, &diag, &err);
	if (!rc)
		rc = bt_diag_save(&diag, db, &err);
	if (!rc)
		rc = bt_db_commit(db, &err);
	if (rc)
		bt_db_rollback(db);
	else
		bt_db_need_slices(db, &err);
	bt_db_close(db);
	return 0;
}
