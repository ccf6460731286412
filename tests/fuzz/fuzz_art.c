/*
 * libFuzzer harness for the ART method trace importer: an input of even
 * length through the importer's own path (the file mapped, the slices
 * deferred as for a scratch analysis, then made by reading them back),
 * one of odd length from its bytes with every slice stored as for a kept
 * database.
 */
#include <stdint.h>

#include "importers/art/art_int.h"
#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *input;
static size_t input_len;

static int from_bytes(struct bt_db *db, const char *path, const struct bt_import_opts *o, struct bt_diag *diag,
		      struct bt_err *err)
{
	return bt_art_import_bytes(db, path, input, input_len, NULL, o, diag, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };
	const char *path = fuzz_write_input("fuzz-art", data, size);

	o.keep = (int)(size & 1);
	input = data;
	input_len = size;
	fuzz_import(o.keep ? from_bytes : bt_imp_art.run, path, &o);
	return 0;
}
