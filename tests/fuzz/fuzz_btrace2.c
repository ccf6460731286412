/*
 * libFuzzer harness for the btrace 2.0 importer. One input holds both
 * files: a little-endian u32 whose low 28 bits give appTrace.bin's length
 * (bit 31 set: no mapping; bit 30: a kept database, the slices stored as
 * they pass, else deferred and then filled; bit 29: --strict), the trace's
 * bytes, then methodMapping.txt's, each imported from a temporary file.
 */
#include <stdint.h>
#include <string.h>

#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };
	const char *path;
	uint32_t head, n;

	if (size < 4)
		return 0;
	memcpy(&head, data, 4);
	n = head & 0x0FFFFFFF;
	if (n > size - 4)
		n = (uint32_t)(size - 4);
	path = fuzz_write_slot(0, "fuzz-b2trace", data + 4, n);
	o.mapping = head & 0x80000000u ? NULL : fuzz_write_slot(1, "fuzz-b2map", data + 4 + n, size - 4 - n);
	o.strict = (head & 0x20000000u) != 0;
	o.keep = (head & 0x40000000u) != 0;
	fuzz_import(bt_imp_btrace2.run, path, &o);
	return 0;
}
