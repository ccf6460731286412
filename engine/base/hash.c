/*
 * Linear-probing hash maps (see hash.h). Tables stay at most half full so
 * probes are short; they grow by doubling and never shrink.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "engine/base/hash.h"

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

uint64_t bt_hash_bytes(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL;  /* FNV-1a, then a final mix */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return mix64(h ^ len);
}

/* The plain strmap calls' hash: eight bytes a step (FNV-1a's byte a step
 * was a tenth of a Perfetto import, hashing frame names), then the final
 * mix. Only in memory, so free to differ from bt_hash_bytes, whose values
 * choose shards and fold fleet tables. */
static uint64_t key_hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, len);
	return mix64(h ^ w);
}

static size_t pow2_at_least(size_t n)
{
	size_t c = 16;

	while (c < n)
		c <<= 1;
	return c;
}

void bt_map64_init(struct bt_map64 *m, size_t hint)
{
	m->cap = pow2_at_least(hint * 2);
	m->len = 0;
	m->slots = bt_xcalloc(m->cap, sizeof *m->slots);
}

void bt_map64_release(struct bt_map64 *m)
{
	free(m->slots);
	memset(m, 0, sizeof *m);
}

uint32_t bt_map64_get(const struct bt_map64 *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = mix64(key) & mask;

	while (m->slots[i].val) {
		if (m->slots[i].key == key)
			return m->slots[i].val;
		i = (i + 1) & mask;
	}
	return 0;
}

static void map64_grow(struct bt_map64 *m)
{
	struct bt_map64 old = *m;
	size_t i;

	bt_map64_init(m, old.cap);
	for (i = 0; i < old.cap; i++)
		if (old.slots[i].val)
			bt_map64_put(m, old.slots[i].key, old.slots[i].val);
	bt_map64_release(&old);
}

void bt_map64_put(struct bt_map64 *m, uint64_t key, uint32_t val)
{
	size_t mask, i;

	if ((m->len + 1) * 2 > m->cap)
		map64_grow(m);
	mask = m->cap - 1;
	i = mix64(key) & mask;
	while (m->slots[i].val) {
		if (m->slots[i].key == key) {
			m->slots[i].val = val;
			return;
		}
		i = (i + 1) & mask;
	}
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->len++;
}

void bt_strmap_init(struct bt_strmap *m)
{
	memset(m, 0, sizeof *m);
	m->cap = 64;
	m->slots = bt_xcalloc(m->cap, sizeof *m->slots);
}

void bt_strmap_release(struct bt_strmap *m)
{
	free(m->slots);
	free(m->pool);
	memset(m, 0, sizeof *m);
}

static struct bt_strmap_slot *strmap_find(const struct bt_strmap *m, const char *s,
					  size_t len, uint64_t h)
{
	size_t mask = m->cap - 1, i = h & mask;

	while (m->slots[i].val) {
		struct bt_strmap_slot *e = &m->slots[i];
		if (e->hash == h && e->len == len && !memcmp(m->pool + e->off, s, len))
			return e;
		i = (i + 1) & mask;
	}
	return &m->slots[i];
}

uint32_t bt_strmap_get(const struct bt_strmap *m, const char *s, size_t len)
{
	return strmap_find(m, s, len, key_hash(s, len))->val;
}

uint32_t bt_strmap_get_h(const struct bt_strmap *m, const char *s, size_t len, uint64_t h)
{
	return strmap_find(m, s, len, h)->val;
}

static void strmap_grow(struct bt_strmap *m)
{
	struct bt_strmap_slot *old = m->slots;
	size_t i, oldcap = m->cap;

	m->cap *= 2;
	m->slots = bt_xcalloc(m->cap, sizeof *m->slots);
	for (i = 0; i < oldcap; i++) {
		size_t j;
		if (!old[i].val)
			continue;
		j = old[i].hash & (m->cap - 1);
		while (m->slots[j].val)
			j = (j + 1) & (m->cap - 1);
		m->slots[j] = old[i];
	}
	free(old);
}

void bt_strmap_put(struct bt_strmap *m, const char *s, size_t len, uint32_t val)
{
	bt_strmap_put_h(m, s, len, key_hash(s, len), val);
}

void bt_strmap_put_h(struct bt_strmap *m, const char *s, size_t len, uint64_t h, uint32_t val)
{
	struct bt_strmap_slot *e;

	if ((m->len + 1) * 2 > m->cap)
		strmap_grow(m);
	e = strmap_find(m, s, len, h);
	if (e->val) {
		e->val = val;
		return;
	}
	BT_GROW(m->pool, m->pool_len + len + 1, m->pool_cap);
	memcpy(m->pool + m->pool_len, s, len);
	e->hash = h;
	e->off = (uint32_t)m->pool_len;
	e->len = (uint32_t)len;
	e->val = val;
	m->pool_len += len;
	m->len++;
}
