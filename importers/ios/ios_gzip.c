/*
 * gzip'd iOS databases (the debug server's sqlite.gz, format spec §1):
 * recognised by inflating the first bytes (a stream too damaged to tell
 * is claimed, so the error names the damage), and inflated as a stream into
 * a private temporary file with a size cap before SQLite opens it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "importers/ios/ios_int.h"

#define CHUNK 65536

int bt_ios_gz_is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char head[16];
	gzFile gz = gzopen(path, "rb");
	int n, yes, zerr = Z_OK;

	if (!gz)
		return 0;
	n = gzread(gz, head, sizeof head);
	if (n == (int)sizeof head)
		yes = !memcmp(head, magic, sizeof head);
	else {   /* a damaged stream: claim it, so the error says what is wrong */
		gzerror(gz, &zerr);
		yes = zerr == Z_DATA_ERROR || zerr == Z_BUF_ERROR || n < 0;
	}
	gzclose(gz);
	return yes;
}

static int inflate_to(FILE *in, FILE *out, const char *path, const char *tmp, uint64_t cap,
		      struct bt_ios_cut *cut, struct bt_err *err)
{
	unsigned char *ibuf = bt_xmalloc(CHUNK), *obuf = bt_xmalloc(CHUNK);
	z_stream z;
	uint64_t total = 0, consumed = 0;
	int zr = Z_OK, rc = BT_OK;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK)   /* gzip wrapper only */
		rc = bt_err_set(err, BT_EIO, "cannot inflate '%s': zlib would not start", path);
	while (!rc && zr != Z_STREAM_END) {
		z.avail_in = (uInt)fread(ibuf, 1, CHUNK, in);
		z.next_in = ibuf;
		if (!z.avail_in && !cut->strict) {   /* keep what inflated */
			cut->gz = 1;
			cut->gz_at = consumed;
			break;
		}
		if (!z.avail_in) {
			rc = bt_err_set(err, BT_EFORMAT, "truncated gzip stream in '%s' at byte offset %llu",
					path, (unsigned long long)consumed);
			break;
		}
		while (!rc && z.avail_in && zr != Z_STREAM_END) {
			uInt before = z.avail_in;
			size_t got;
			z.next_out = obuf;
			z.avail_out = CHUNK;
			zr = inflate(&z, Z_NO_FLUSH);
			consumed += before - z.avail_in;
			if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
				rc = bt_err_set(err, BT_EFORMAT, "corrupt gzip stream in '%s' near byte offset %llu: %s",
						path, (unsigned long long)consumed, z.msg ? z.msg : "inflate failed");
				break;
			}
			got = CHUNK - z.avail_out;
			total += got;
			if (total > cap)
				rc = bt_err_set(err, BT_EFORMAT, "gzip'd '%s' inflates to more than %llu bytes (the cap)",
						path, (unsigned long long)cap);
			else if (got && fwrite(obuf, 1, got, out) != got)
				rc = bt_err_set(err, BT_EIO, "cannot write the inflated copy of '%s' to '%s': %s",
						path, tmp, strerror(errno));
		}
	}
	inflateEnd(&z);
	free(ibuf);
	free(obuf);
	return rc;
}

int bt_ios_gunzip(const char *path, uint64_t cap, struct bt_ios_cut *cut, char **tmp,
		  struct bt_err *err)
{
	struct bt_buf name = BT_BUF_INIT, what = BT_BUF_INIT;
	FILE *in = NULL, *out = NULL;
	int fd, rc = BT_OK;

	*tmp = NULL;
	in = fopen(path, "rb");
	if (!in)
		return bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno));
	bt_buf_addf(&what, "a temporary file for '%s'", path);
	fd = bt_temp_file("btrace-ios", what.buf, &name, err);
	bt_buf_release(&what);
	if (fd < 0) {
		rc = err->code;
		goto out;
	}
	if (!(out = fdopen(fd, "wb"))) {
		rc = bt_err_set(err, BT_EIO, "cannot create a temporary file for '%s': %s", path, strerror(errno));
		close(fd);
		bt_temps_remove(name.buf);
		goto out;
	}
	rc = inflate_to(in, out, path, name.buf, cap, cut, err);
	if (fclose(out) && !rc)
		rc = bt_err_set(err, BT_EIO, "cannot write the inflated copy of '%s' to '%s': %s", path,
				name.buf, strerror(errno));
	if (rc)
		bt_temps_remove(name.buf);
	else
		*tmp = bt_buf_detach(&name, NULL);
out:
	fclose(in);
	bt_buf_release(&name);
	return rc;
}
