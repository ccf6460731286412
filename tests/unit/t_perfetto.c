/*
 * Unit tests of the Perfetto export's encoding (reports/export/perfetto.c):
 * the wire writer's varints, fixed fields and nested lengths (one byte,
 * then more once the message outgrows it), and the key that interns a
 * byte count's text: equal keys must mean the text bt_format_bytes writes
 * is equal, ties of its rounding included. (The importer's modules have
 * their own: t_pf_kinds, t_pf_threads, t_pf_names.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/export/pbw.h"
#include "reports/export/perfetto_int.h"
#include "reports/report.h"
#include "tests/tap.h"

/* The text a key stands for, made from the key alone. */
static void key_text(uint64_t key, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = (unsigned)(key >> 56);
	uint64_t q = key & (((uint64_t)1 << 56) - 1);

	if (!u)
		snprintf(buf, len, "%llu B", (unsigned long long)q);
	else
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)(q / 10), (unsigned long long)(q % 10), units[u]);
}

/* key_text(pfw_bytes_key(n)) is what bt_format_bytes writes for n. */
static int same_text(int64_t n)
{
	struct bt_buf b = BT_BUF_INIT;
	char k[64];
	int same;

	bt_format_bytes((double)n, &b);
	key_text(pfw_bytes_key(n), k, sizeof k);
	same = !strcmp(b.buf, k);
	if (!same)
		printf("# %lld: bt_format_bytes '%s', key '%s'\n", (long long)n, b.buf, k);
	bt_buf_release(&b);
	return same;
}

static void bytes_keys(void)
{
	int64_t n, unit;
	int u, k, bad = 0;
	uint64_t seed = 42;

	for (n = 0; n < 300000 && !bad; n++)
		bad += !same_text(n);
	ok(!bad, "byte keys: every count below 300000");
	for (u = 1, unit = 1024; u <= 4 && !bad; u++, unit *= 1024)
		for (k = 0; k < 4000 && !bad; k++) {   /* x.x5 exactly, and either side */
			int64_t tie = unit * (4 * k + 1) / 4, tie2 = unit * (4 * k + 3) / 4;
			bad += !same_text(tie) + !same_text(tie - 1) + !same_text(tie + 1) + !same_text(tie2) +
			       !same_text(unit * k + unit / 20) + !same_text(unit * (k + 1) - 1);
		}
	ok(!bad, "byte keys: the rounding's ties and unit edges, KiB to TiB");
	for (k = 0; k < 200000 && !bad; k++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		bad += !same_text((int64_t)(seed >> (5 + k % 50)) & (((int64_t)1 << 59) - 1));
	}
	ok(!bad, "byte keys: random counts up to 2^59");
	ok(pfw_bytes_key(1023) != pfw_bytes_key(1024) && pfw_bytes_key(1024) == pfw_bytes_key(1025),
	   "byte keys: 1023 B apart from 1.0 KiB, which 1025 shares");
}

static void wire(void)
{
	struct bt_pbw w = BT_PBW_INIT;
	static const uint8_t small[] = { 0x08, 0x96, 0x01, 0x12, 0x02, 0x18, 0x00, 0x19, 1, 0, 0, 0, 0, 0, 0, 0 };
	char filler[200];
	size_t i;

	bt_pbw_varint(&w, 1, 150);
	bt_pbw_open(&w, 2);
	bt_pbw_varint(&w, 3, 0);
	bt_pbw_close(&w);
	bt_pbw_fixed64(&w, 3, 1);
	ok(w.n == sizeof small && !memcmp(w.b, small, sizeof small), "wire: varint, a nested message's length, fixed64");
	w.n = 0;
	memset(filler, 'x', sizeof filler);
	bt_pbw_open(&w, 1);
	bt_pbw_open(&w, 2);
	bt_pbw_bytes(&w, 3, filler, sizeof filler);
	bt_pbw_close(&w);
	bt_pbw_close(&w);
	/* 0x0A len(2 bytes) 0x12 len(2 bytes) 0x1A len(2 bytes) 200 bytes */
	ok(w.n == 1 + 2 + 1 + 2 + 1 + 2 + 200 && w.b[1] == (uint8_t)(0x80 | (206 & 0x7F)) && w.b[2] == 206 >> 7 &&
	   w.b[4] == (uint8_t)(0x80 | (203 & 0x7F)) && w.b[5] == 203 >> 7 && w.b[7] == (uint8_t)(0x80 | 200 % 128) &&
	   w.b[9] == 'x' && w.b[w.n - 1] == 'x', "wire: messages past 127 bytes get longer lengths, contents moved intact");
	for (i = 0; i < 10; i++)
		bt_pbw_varint(&w, 536870911, UINT64_MAX);   /* the largest field number, the longest value */
	ok(w.n == 209 + 10 * 15, "wire: a 5-byte key and a 10-byte value");
	bt_pbw_release(&w);
}

int main(void)
{
	wire();
	bytes_keys();
	return done_testing();
}
