/*
 * libFuzzer harness for the Perfetto importer: each input (plain or
 * gzip'd, read through zlib) is imported from its temporary file. Each
 * top-level packet of a plain input also goes through the hand decoder and
 * protobuf-c side by side (pf_wire_diff.h): a difference aborts.
 */
#include <stdint.h>

#include "tests/fuzz/harness.h"
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
	struct bt_import_opts o = { 0 };

	both_decoders(data, size);
	if (size && (data[size - 1] & 1))   /* every process (and the binder calls), half the time */
		o.process = BT_PROCESS_ALL;
	fuzz_import(bt_imp_perfetto.run, fuzz_write_input("fuzz-perfetto", data, size), &o);
	return 0;
}
