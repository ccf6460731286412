/*
 * A trace's content hash, which names its outputs: 128 bits from four
 * 64-bit lanes taking 32 bytes a round (xxHash64's round and constants,
 * two different finishes), several GB/s, so hashing a fleet costs little
 * beside analysing it. Not cryptographic.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

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

/* The 32-byte blocks of p[0..len) (len a multiple of 32) into the lanes. */
static void blocks(uint64_t v[4], const unsigned char *p, size_t len)
{
	size_t i, k;

	for (i = 0; i < len; i += 32)
		for (k = 0; k < 4; k++)
			v[k] = round64(v[k], le64(p + i + 8 * k));
}

/* The tail (under 32 bytes, zero-padded) and the total length into the
 * two halves: the length tells "ab" from "ab\0". */
static void finish(uint64_t v[4], const unsigned char *tail, size_t n, uint64_t len, char hex[BT_CHASH_HEX])
{
	unsigned char last[32];
	uint64_t h[2];
	size_t i;

	memset(last, 0, sizeof last);
	if (n)
		memcpy(last, tail, n);
	blocks(v, last, 32);
	h[0] = fmix(rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18) + len * P3);
	h[1] = fmix((v[0] * P4) ^ rotl(v[1] * P3, 17) ^ rotl(v[2] * P2, 29) ^ rotl(v[3] * P1, 43) ^ (len + P4));
	for (i = 0; i < 32; i++)
		hex[i] = "0123456789abcdef"[h[i / 16] >> (60 - 4 * (i % 16)) & 15];
	hex[32] = 0;
}

#define SEED { P1 + P2, P2, 0, 0 - P1 }

void bt_chash_bytes(const void *data, size_t len, char hex[BT_CHASH_HEX])
{
	uint64_t v[4] = SEED;
	size_t full = len / 32 * 32;

	blocks(v, data, full);
	finish(v, (const unsigned char *)data + full, len - full, len, hex);
}

/* Read, not mapped: the batch's own RSS stays small, and Linux counts it
 * into the peak RSS of every worker it starts afterwards. */
int bt_chash_file(const char *path, char hex[BT_CHASH_HEX], uint64_t *size, struct bt_err *err)
{
	enum { CHUNK = 1 << 18 };
	static unsigned char buf[CHUNK];
	uint64_t v[4] = SEED, len = 0;
	size_t have = 0, full;
	ssize_t got;
	int fd;

	if (bt_input_check(path, 0, err))
		return err->code;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return bt_err_set(err, BT_EIO, "cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		got = read(fd, buf + have, CHUNK - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
		len += (uint64_t)got;
		full = have / 32 * 32;
		blocks(v, buf, full);
		memmove(buf, buf + full, have - full);
		have -= full;
	}
	if (got < 0) {
		bt_err_set(err, BT_EIO, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return err->code;
	}
	close(fd);
	finish(v, buf, have, len, hex);
	*size = len;
	return BT_OK;
}
