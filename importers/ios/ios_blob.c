/*
 * Decoding of the iOS database's sample blobs (format spec §10): fixed-size
 * little-endian nodes described by a field-code string, and the times of a
 * record: unwrapped (spec Q-4) and scaled by the version's unit (v1/v2 µs,
 * v3/v4 10 µs ticks) to ns.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/err.h"
#include "importers/ios/ios_int.h"
#include "importers/reader.h"

struct bt_ios_rec *bt_ios_recs_add(struct bt_ios_recs *r)
{
	struct bt_ios_rec *x;

	BT_GROW(r->v, r->n + 1, r->cap);
	x = &r->v[r->n];
	memset(x, 0, sizeof *x);
	x->seq = (uint32_t)r->n++;
	return x;
}

/* A record's sort key: 16 bytes instead of the record's 104 to move. */
struct key {
	int64_t ts;
	uint32_t tid, seq;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void bt_ios_recs_sort(struct bt_ios_recs *r)
{
	struct key *k;
	struct bt_ios_rec tmp;
	size_t i, j, from;

	if (r->n < 2)
		return;
	k = bt_xmalloc(r->n * sizeof *k);
	for (i = 0; i < r->n; i++) {
		k[i].ts = r->v[i].ts;
		k[i].tid = (uint32_t)r->v[i].tid;
		k[i].seq = (uint32_t)i;
	}
	qsort(k, r->n, sizeof *k, key_cmp);
	/* place each record once, following the permutation's cycles;
	 * k[j].seq is where position j's record is now, i.e. after the
	 * move j's is done */
	for (i = 0; i < r->n; i++) {
		if (k[i].seq == i)
			continue;
		tmp = r->v[i];
		for (j = i; (from = k[j].seq) != i; j = from) {
			r->v[j] = r->v[from];
			k[j].seq = (uint32_t)j;
		}
		r->v[j] = tmp;
		k[j].seq = (uint32_t)j;
	}
	free(k);
}

#define WRAP ((int64_t)1 << 32)
#define HALF ((int64_t)1 << 31)

int64_t bt_ios_unwrap(struct bt_ios_clock *k, uint32_t v)
{
	int64_t t;

	if (k->last < 0) {
		k->last = v;
		return v;
	}
	t = (k->last & ~(WRAP - 1)) | v;   /* in the previous time's epoch */
	if (t < k->last - HALF)
		t += WRAP;
	else if (t > k->last + HALF && t >= WRAP)
		t -= WRAP;
	k->last = t;
	return t;
}

int64_t bt_ios_time_ns(const struct bt_ios_ctx *c, int64_t v)
{
	return v * (c->version >= 3 ? 10000 : 1000);
}

/* The distance from stored time t to stored time v, in (-2^31, 2^31]. */
static int64_t offset(uint32_t t, uint32_t v)
{
	uint32_t d = v - t;

	return d <= (uint32_t)HALF ? (int64_t)d : (int64_t)d - WRAP;
}

void bt_ios_times(const struct bt_ios_ctx *c, struct bt_ios_clock *k, struct bt_ios_rec *r)
{
	uint32_t t = (uint32_t)r->ts;
	int64_t ts = bt_ios_unwrap(k, t);

	/* an end or target time follows its record's time by less than 2^31 */
	if (r->has & BT_IOS_HAS_END)
		r->end_ts = bt_ios_time_ns(c, ts + offset(t, (uint32_t)r->end_ts));
	if (r->has & BT_IOS_HAS_TARGET)
		r->target_ts = bt_ios_time_ns(c, ts + offset(t, (uint32_t)r->target_ts));
	r->ts = bt_ios_time_ns(c, ts);
	r->cpu = bt_ios_time_ns(c, r->cpu);
	r->end_cpu = bt_ios_time_ns(c, r->end_cpu);
}

void bt_ios_field(struct bt_ios_rec *r, char code, uint64_t v)
{
	uint32_t u = (uint32_t)v;

	switch (code) {
	case 't': r->ts = u; break;
	case 'c': r->cpu = u; break;
	case 'e': r->end_ts = u; r->has |= BT_IOS_HAS_END; break;
	case 'E': r->end_cpu = u; r->has |= BT_IOS_HAS_END_CPU; break;
	case 'g': r->target_ts = u; r->has |= BT_IOS_HAS_TARGET; break;
	case 's': r->stack_id = u; break;
	case 'a': r->alloc_mib = u; break;
	case 'n': r->alloc_count = u; break;
	case 'i': r->tid = u; break;
	case 'T': r->target_tid = u; break;
	case 'z': r->mem_size = u; r->has |= BT_IOS_HAS_SIZE; break;
	case 'L':
		r->lock_id = v & 0xFFFFFFFFFFFFull;
		r->action = (uint16_t)(v >> 48);
		break;
	default: break;   /* A (addr >> 4): nothing in the schema holds it */
	}
}

size_t bt_ios_node_size(const char *fields)
{
	size_t n = 0;

	for (; *fields; fields++)
		n += *fields == 'L' ? 8 : 4;
	return n;
}

int bt_ios_blob(const struct bt_ios_ctx *c, struct bt_ios_clock *k, const char *table, int64_t row,
		const char *fields, int type, int64_t tid, const unsigned char *p, size_t len,
		struct bt_ios_recs *out, struct bt_err *err)
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
			bt_ios_field(x, *f, *f == 'L' ? bt_rd_u64(&r) : bt_rd_u32(&r));
		bt_ios_times(c, k, x);
	}
	return BT_OK;
}
