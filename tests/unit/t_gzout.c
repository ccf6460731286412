/*
 * Unit tests of the buffered, optionally gzip'd writer (engine/base/gzout.h):
 * bytes put and written in place come back whole, plain and through zlib's
 * reader, across many buffer fills; a failing stream is the first error,
 * named by what was written, at close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "engine/base/gzout.h"
#include "tests/tap.h"

#define N 300000   /* lines, about 4.6 MB: many 64 KiB buffers */

/* The i-th line of the test text. */
static int line(char *p, int i)
{
	return sprintf(p, "line %d of the text %x\n", i, (unsigned)i * 2654435761u);
}

/* Write the text to path through gzout (in place every third line). */
static int write_text(const char *path, int gz)
{
	struct bt_gzout o;
	struct bt_err err = BT_ERR_INIT;
	FILE *fp = fopen(path, "wb");
	char buf[64];
	int i, rc;

	if (!fp || bt_gzout_open(&o, fp, gz, 65536, "the test text", &err))
		return -1;
	for (i = 0; i < N; i++)
		if (i % 3 == 0) {
			char *at = bt_gzout_room(&o, 64);
			bt_gzout_used(&o, (size_t)line(at, i));
		} else {
			bt_gzout_put(&o, buf, (size_t)line(buf, i));
		}
	rc = bt_gzout_close(&o);
	return fclose(fp) || rc ? -1 : 0;
}

/* 1 if path reads back (through gzread, which takes plain files too) as the text. */
static int reads_back(const char *path)
{
	gzFile gz = gzopen(path, "rb");
	char want[64], got[64];
	int i, n, same = gz != NULL;

	for (i = 0; same && i < N; i++) {
		n = line(want, i);
		same = gzread(gz, got, (unsigned)n) == n && !memcmp(got, want, (size_t)n);
	}
	same = same && gzread(gz, got, 1) == 0;
	if (gz)
		gzclose(gz);
	return same;
}

int main(void)
{
	char plain[] = "/tmp/t_gzout_plain_XXXXXX", packed[] = "/tmp/t_gzout_gz_XXXXXX";
	struct bt_gzout o;
	struct bt_err err = BT_ERR_INIT;
	unsigned char magic[2] = { 0, 0 };
	FILE *fp;
	int fd;

	if ((fd = mkstemp(plain)) < 0 || close(fd) || (fd = mkstemp(packed)) < 0 || close(fd))
		return 1;
	is_int(write_text(plain, 0), 0, "plain: written");
	ok(reads_back(plain), "plain: every byte back, in order");
	is_int(write_text(packed, 1), 0, "gzip: written");
	fp = fopen(packed, "rb");
	ok(fp && fread(magic, 1, 2, fp) == 2 && magic[0] == 0x1f && magic[1] == 0x8b, "gzip: a gzip stream");
	if (fp)
		fclose(fp);
	ok(reads_back(packed), "gzip: zlib reads every byte back");

	fp = fopen("/dev/full", "wb");
	if (fp) {
		char buf[64];
		int i;
		bt_gzout_open(&o, fp, 1, 4096, "the full file", &err);
		for (i = 0; i < 20000; i++)
			bt_gzout_put(&o, buf, (size_t)line(buf, i));
		is_int(bt_gzout_close(&o), BT_EIO, "a full device: the close says the write failed");
		ok(strstr(err.msg, "cannot write the full file") != NULL, "... naming what was written");
		fclose(fp);
	}
	remove(plain);
	remove(packed);
	return done_testing();
}
