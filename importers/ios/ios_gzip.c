/*
 * gzip'd iOS databases (the debug server's sqlite.gz, format spec §1):
 * recognised by inflating the first bytes (a stream too damaged to tell
 * is claimed, so the error names the damage), and inflated through the
 * importers' one reader (importers/inflate.h) into a private temporary
 * file, up to its cap, before SQLite opens it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "importers/inflate.h"
#include "importers/ios/ios_int.h"

#define CHUNK 65536

int bt_ios_gz_is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char head[16];
	int damaged, n = bt_inflate_head(path, head, sizeof head, &damaged);

	if (n == (int)sizeof head)
		return !memcmp(head, magic, sizeof head);
	return damaged;   /* a damaged stream: claim it, so the error says what is wrong */
}

/* Inflate the mapped gzip file into out, a chunk at a time. */
static int inflate_to(const struct bt_fmap *map, FILE *out, const char *path, const char *tmp, uint64_t cap,
		      struct bt_ios_cut *cut, struct bt_err *err)
{
	unsigned char *buf = bt_xmalloc(CHUNK);
	struct bt_inflate z;
	size_t got;
	int rc = BT_OK;

	bt_inflate_init(&z, path, map->data, map->len, BT_INFLATE_GZIP, BT_INFLATE_ONE);
	z.cap = cap;
	while (!z.end && !(rc = bt_inflate_read(&z, buf, CHUNK, &got, err))) {
		if (got && fwrite(buf, 1, got, out) != got)
			rc = bt_err_set(err, BT_EIO, "cannot write the inflated copy of '%s' to '%s': %s",
					path, tmp, strerror(errno));
		if (rc)
			break;
	}
	if (!rc && z.cut && cut->strict)
		rc = bt_inflate_cut_error(&z, err);
	else if (!rc && z.cut) {   /* keep what inflated */
		cut->gz = 1;
		cut->gz_at = z.cut_at;
	}
	bt_inflate_release(&z);
	free(buf);
	return rc;
}

int bt_ios_gunzip(const char *path, uint64_t cap, struct bt_ios_cut *cut, char **tmp,
		  struct bt_err *err)
{
	struct bt_buf name = BT_BUF_INIT, what = BT_BUF_INIT;
	struct bt_fmap map;
	FILE *out = NULL;
	int fd, rc = BT_OK;

	*tmp = NULL;
	if (bt_fmap_open(&map, path, err))
		return err->code;
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
	rc = inflate_to(&map, out, path, name.buf, cap, cut, err);
	if (fclose(out) && !rc)
		rc = bt_err_set(err, BT_EIO, "cannot write the inflated copy of '%s' to '%s': %s", path,
				name.buf, strerror(errno));
	if (rc)
		bt_temps_remove(name.buf);
	else
		*tmp = bt_buf_detach(&name, NULL);
out:
	bt_fmap_release(&map);
	bt_buf_release(&name);
	return rc;
}
