/*
 * Decoding of the iOS database's sample blobs (format spec §10): fixed-size
 * little-endian nodes described by a field-code string, with the version's
 * time scaling (v1/v2 µs, v3/v4 10 µs ticks) applied as fields are stored.
 */
#include <string.h>

#include "err.h"
#include "ios_int.h"
#include "reader.h"

struct bt_ios_rec *bt_ios_recs_add(struct bt_ios_recs *r)
{
	struct bt_ios_rec *x;

	BT_GROW(r->v, r->n + 1, r->cap);
	x = &r->v[r->n];
	memset(x, 0, sizeof *x);
	x->seq = (uint32_t)r->n++;
	return x;
}

int64_t bt_ios_time_ns(const struct bt_ios_ctx *c, uint32_t v)
{
	return (int64_t)v * (c->version >= 3 ? 10000 : 1000);
}

void bt_ios_field(const struct bt_ios_ctx *c, struct bt_ios_rec *r, char code, uint64_t v)
{
	switch (code) {
	case 't': r->ts = bt_ios_time_ns(c, (uint32_t)v); break;
	case 'c': r->cpu = bt_ios_time_ns(c, (uint32_t)v); break;
	case 'e': r->end_ts = bt_ios_time_ns(c, (uint32_t)v); break;
	case 'E': r->end_cpu = bt_ios_time_ns(c, (uint32_t)v); break;
	case 'g': r->target_ts = bt_ios_time_ns(c, (uint32_t)v); break;
	case 's': r->stack_id = (uint32_t)v; break;
	case 'a': r->alloc_mib = (int64_t)(uint32_t)v; break;
	case 'n': r->alloc_count = (int64_t)(uint32_t)v; break;
	case 'i': r->tid = (int64_t)(uint32_t)v; break;
	case 'T': r->target_tid = (int64_t)(uint32_t)v; break;
	case 'L':
		r->lock_id = v & 0xFFFFFFFFFFFFull;
		r->action = (uint16_t)(v >> 48);
		break;
	default: break;   /* A (addr >> 4) and z (size) are not stored */
	}
}

size_t bt_ios_node_size(const char *fields)
{
	size_t n = 0;

	for (; *fields; fields++)
		n += *fields == 'L' ? 8 : 4;
	return n;
}

int bt_ios_blob(const struct bt_ios_ctx *c, const char *table, int64_t row, const char *fields,
		int type, int64_t tid, const unsigned char *p, size_t len, struct bt_ios_recs *out,
		struct bt_err *err)
{
	size_t size = bt_ios_node_size(fields), whole = len / size * size;
	struct bt_reader r;
	const char *f;

	if (len % size)
		return bt_err_set(err, BT_EFORMAT,
				  "truncated blob in '%s' table '%s' row %lld at byte offset %zu: %zu bytes is not a whole number of %zu-byte nodes (version %lld)",
				  c->path, table, (long long)row, whole, len, size, (long long)c->version);
	bt_rd_init(&r, p, len, c->path);
	while (bt_rd_left(&r)) {
		struct bt_ios_rec *x = bt_ios_recs_add(out);
		x->type = (int16_t)type;
		x->tid = tid;
		for (f = fields; *f; f++)
			bt_ios_field(c, x, *f, *f == 'L' ? bt_rd_u64(&r) : bt_rd_u32(&r));
	}
	return BT_OK;
}
