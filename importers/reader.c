/*
 * Bounds checking for the byte reader (see reader.h).
 */
#include "importers/reader.h"

void bt_rd_init(struct bt_reader *r, const unsigned char *p, size_t len, const char *path)
{
	r->p = p;
	r->len = p ? len : 0;
	r->off = 0;
	r->path = path;
}

int bt_rd_need(struct bt_reader *r, size_t n, const char *what, struct bt_err *err)
{
	if (n <= r->len - r->off)
		return BT_OK;
	return bt_err_set(err, BT_EFORMAT, "truncated %s in '%s' at offset %zu: need %zu bytes, %zu left",
			  what, r->path, r->off, n, r->len - r->off);
}
