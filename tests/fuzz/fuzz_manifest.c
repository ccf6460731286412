/*
 * libFuzzer harness for batch's manifest reader (engine/batch/manifest.c):
 * each input, as a file, is loaded as an earlier run's manifest; what it
 * loads is written back a line per record and loaded again, and must give
 * the same records (the journal a resumed batch reads is the one it wrote).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/batch/batch_int.h"
#include "tests/fuzz/harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int eq(const char *a, const char *b)
{
	return !a || !b ? a == b : !strcmp(a, b);
}

static int same(const struct bt_batch_item *a, const struct bt_batch_item *b)
{
	return eq(a->path, b->path) && !strcmp(a->hash, b->hash) && a->status == b->status &&
	       a->size == b->size && a->exit_code == b->exit_code && a->peak_kb == b->peak_kb &&
	       eq(a->error, b->error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_err err = BT_ERR_INIT;
	struct bt_batch_list l, back;
	struct bt_buf lines = BT_BUF_INIT;
	size_t i;

	memset(&l, 0, sizeof l);
	memset(&back, 0, sizeof back);
	if (bt_manifest_load(fuzz_write_input("fuzz-manifest", data, size), &l, &err) == BT_OK) {
		for (i = 0; i < l.n; i++)
			bt_manifest_line(&l.v[i], 0, &lines);
		bt_err_clear(&err);
		if (bt_manifest_load(fuzz_write_slot(1, "fuzz-manifest-back", (const uint8_t *)(lines.buf ? lines.buf : ""),
						     lines.len),
				     &back, &err) != BT_OK || back.n != l.n)
			abort();   /* what batch writes, batch reads */
		for (i = 0; i < l.n; i++)
			if (!same(&l.v[i], &back.v[i]))
				abort();
	}
	bt_buf_release(&lines);
	bt_batch_list_release(&l);
	bt_batch_list_release(&back);
	return 0;
}
