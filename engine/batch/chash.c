/*
 * A trace's content hash, which names its outputs: 128 bits from four
 * 64-bit lanes taking 32 bytes a round (xxHash64's round and constants,
 * two different finishes), several GB/s, so hashing a fleet costs little
 * beside analysing it. Not cryptographic.
 */
#include <string.h>

#include "engine/base/fileio.h"
#include "engine/batch/batch_int.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL

static uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static uint64_t round64(uint64_t acc, uint64_t in)
{
	return rotl(acc + in * P2, 31) * P1;
}

/* murmur3's finish: every input bit reaches every output bit */
static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ h >> 33;
}

void bt_chash_bytes(const void *data, size_t len, char hex[BT_CHASH_HEX])
{
	const unsigned char *p = data;
	unsigned char last[32];
	uint64_t v[4] = { P1 + P2, P2, 0, 0 - P1 }, h[2];
	size_t i, k, full = len / 32 * 32;

	for (i = 0; i < full; i += 32)
		for (k = 0; k < 4; k++)
			v[k] = round64(v[k], le64(p + i + 8 * k));
	/* the tail, zero-padded; the length in the finish tells "ab" from "ab\0" */
	memset(last, 0, sizeof last);
	if (len > full)
		memcpy(last, p + full, len - full);
	for (k = 0; k < 4; k++)
		v[k] = round64(v[k], le64(last + 8 * k));
	h[0] = fmix(rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18) + (uint64_t)len * P3);
	h[1] = fmix((v[0] * P4) ^ rotl(v[1] * P3, 17) ^ rotl(v[2] * P2, 29) ^ rotl(v[3] * P1, 43) ^
		    ((uint64_t)len + P4));
	for (i = 0; i < 32; i++)
		hex[i] = "0123456789abcdef"[h[i / 16] >> (60 - 4 * (i % 16)) & 15];
	hex[32] = 0;
}

int bt_chash_file(const char *path, char hex[BT_CHASH_HEX], uint64_t *size, struct bt_err *err)
{
	struct bt_fmap m;
	int rc = bt_fmap_open(&m, path, err);

	if (rc)
		return rc;
	bt_chash_bytes(m.data ? m.data : (const unsigned char *)"", m.len, hex);
	*size = m.len;
	bt_fmap_release(&m);
	return BT_OK;
}
