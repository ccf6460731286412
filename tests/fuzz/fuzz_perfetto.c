/*
 * libFuzzer harness for the Perfetto importer: each input (plain or
 * gzip'd, read through zlib) is imported from its temporary file.
 */
#include <stdint.h>

#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };

	fuzz_import(bt_imp_perfetto.run, fuzz_write_input("fuzz-perfetto", data, size), &o);
	return 0;
}
