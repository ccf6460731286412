/*
 * libFuzzer harness for the Android sampling importer. One input holds
 * both files: a little-endian u32 giving the sampling file's length (bit 31
 * set: no mapping file), the sampling bytes, then the mapping bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importers/android/android_int.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "importers/importer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };
	struct bt_android_input in;
	struct bt_err err = BT_ERR_INIT;
	struct bt_diag diag;
	struct bt_db *db = NULL;
	uint32_t head, n;

	if (size < 4)
		return 0;
	memcpy(&head, data, 4);
	n = head & 0x7FFFFFFF;
	if (n > size - 4)
		n = (uint32_t)(size - 4);
	in.path = "fuzz-sampling";
	in.data = data + 4;
	in.len = n;
	in.mapping_path = head & 0x80000000u ? NULL : "fuzz-mapping";
	in.mapping = data + 4 + n;
	in.mapping_len = size - 4 - n;
	in.consumed = NULL;
	in.consumed_ctx = NULL;
	bt_diag_init(&diag);
	if (bt_db_create(&db, ":memory:", &err))
		abort();
	if (!bt_db_begin(db, &err))
		bt_android_import_bytes(db, &in, &o, &diag, &err);
	bt_db_close(db);
	return 0;
}
