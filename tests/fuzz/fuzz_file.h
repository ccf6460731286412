/*
 * For harnesses whose code under test reads a path: each input is written
 * to one temporary file, made on the first call and removed at exit.
 * Included by one harness per program (its functions are static).
 */
#ifndef BT_FUZZ_FILE_H
#define BT_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"

static struct bt_buf fuzz_path = BT_BUF_INIT;

static void fuzz_remove_input(void)
{
	if (fuzz_path.len)
		unlink(fuzz_path.buf);
	bt_buf_release(&fuzz_path);
}

/* The input's bytes in the temporary file named prefix-*, its path
 * returned; aborts if it cannot be written. */
static const char *fuzz_write_input(const char *prefix, const uint8_t *data, size_t size)
{
	struct bt_err err = BT_ERR_INIT;
	FILE *fp;

	if (!fuzz_path.len) {
		int fd = bt_temp_file(prefix, "a fuzz input", &fuzz_path, &err);
		if (fd < 0)
			abort();
		close(fd);
		atexit(fuzz_remove_input);
	}
	fp = fopen(fuzz_path.buf, "wb");
	if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	return fuzz_path.buf;
}

#endif
