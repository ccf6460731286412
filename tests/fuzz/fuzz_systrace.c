/*
 * libFuzzer harness for the systrace importer: each input (ftrace text,
 * gzip'd, atrace's TRACE: + zlib, a systrace HTML page: found by content)
 * is imported from its temporary file; inputs of odd length with --strict,
 * every other pair of lengths with --process all (and the binder calls).
 */
#include <stdint.h>

#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_import_opts o = { 0 };

	o.strict = (int)(size & 1);
	if (size & 2)
		o.process = BT_PROCESS_ALL;
	fuzz_import(bt_imp_systrace.run, fuzz_write_input("fuzz-systrace", data, size), &o);
	return 0;
}
