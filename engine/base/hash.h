/*
 * Open-addressing hash maps used to deduplicate frames and stack nodes
 * during import without per-entry allocation: u64 key -> u32 value, and
 * byte-string key -> u32 value. Value 0 means "absent", so store ids >= 1.
 */
#ifndef BT_HASH_H
#define BT_HASH_H

#include <stddef.h>
#include <stdint.h>

struct bt_map64 {
	struct bt_map64_slot { uint64_t key; uint32_t val; } *slots;  /* one cache line per probe */
	size_t cap;     /* power of two */
	size_t len;
};

void bt_map64_init(struct bt_map64 *m, size_t hint);
void bt_map64_release(struct bt_map64 *m);
/* Value stored under key, or 0. */
uint32_t bt_map64_get(const struct bt_map64 *m, uint64_t key);
/* Store val (>= 1) under key, replacing any previous value. */
void bt_map64_put(struct bt_map64 *m, uint64_t key, uint32_t val);

struct bt_strmap {
	struct bt_strmap_slot { uint64_t hash; uint32_t off, len, val; } *slots;
	size_t cap;
	size_t len;
	char *pool;     /* copies of the keys */
	size_t pool_len, pool_cap;
};

void bt_strmap_init(struct bt_strmap *m);
void bt_strmap_release(struct bt_strmap *m);
uint32_t bt_strmap_get(const struct bt_strmap *m, const char *s, size_t len);
void bt_strmap_put(struct bt_strmap *m, const char *s, size_t len, uint32_t val);
/* The same with the caller's hash h of (s, len) (a key looked up in many
 * maps is hashed once): a map used with these is used only with these,
 * and one hash function, as the plain ones hash keys their own way. */
uint32_t bt_strmap_get_h(const struct bt_strmap *m, const char *s, size_t len, uint64_t h);
void bt_strmap_put_h(struct bt_strmap *m, const char *s, size_t len, uint64_t h, uint32_t val);

uint64_t bt_hash_bytes(const void *p, size_t len);

#endif
