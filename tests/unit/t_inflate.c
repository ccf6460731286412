/*
 * The importers' one gzip/zlib reader (importers/inflate.h): members and
 * zlib streams one after another come back whole through any window, a
 * stream's end hands its bytes over, trailing bytes are counted, the cap
 * stops a bomb, a cut input is no error but says where, a corrupt one
 * names the file and the offset, and the probe's head read tells damage.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "importers/inflate.h"
#include "tests/tap.h"

#define TEXT 200000   /* bytes of each stream's text: many windows */

/* The i-th byte of stream k's text: compressible, not constant. */
static unsigned char byte(int k, size_t i)
{
	return (unsigned char)("abcdefgh\n"[(i * 7 + (size_t)k) % 9] + (i % 977 == 0 ? k : 0));
}

/* Deflate stream k's text onto out (gzip or zlib wrapper); returns out's new length. */
static size_t deflate_onto(unsigned char *out, size_t at, size_t cap, int k, enum bt_inflate_wrap wrap)
{
	unsigned char *text = malloc(TEXT);
	z_stream z;
	size_t i;

	for (i = 0; i < TEXT; i++)
		text[i] = byte(k, i);
	memset(&z, 0, sizeof z);
	deflateInit2(&z, 6, Z_DEFLATED, wrap == BT_INFLATE_GZIP ? 31 : 15, 8, Z_DEFAULT_STRATEGY);
	z.next_in = text;
	z.avail_in = TEXT;
	z.next_out = out + at;
	z.avail_out = (uInt)(cap - at);
	deflate(&z, Z_FINISH);
	at = cap - z.avail_out;
	deflateEnd(&z);
	free(text);
	return at;
}

/* Read all of z in windows of room bytes; 1 if it is streams 0..n-1's texts. */
static int reads_back(struct bt_inflate *z, size_t room, int n, struct bt_err *err)
{
	unsigned char *buf = malloc(room);
	size_t got, i = 0, k = 0;
	int same = 1;

	while (!z->end && !bt_inflate_read(z, buf, room, &got, err))
		for (size_t j = 0; j < got; j++, i++) {
			if (i == TEXT)
				i = 0, k++;
			same = same && (int)k < n && buf[j] == byte((int)k, i);
		}
	free(buf);
	return same && err->code == BT_OK && (int)k == n - 1 && i == TEXT;
}

static void members(unsigned char *gz, size_t len, size_t one, size_t junk)
{
	struct bt_inflate z;
	struct bt_err err = BT_ERR_INIT;
	unsigned char buf[1 << 18];
	size_t got;

	bt_inflate_init(&z, "two.gz", gz, len, BT_INFLATE_GZIP, 0);
	ok(reads_back(&z, 4093, 2, &err), "two gzip members read back whole through odd windows");
	is_int(z.streams, 2, "both members begun");
	is_int(z.trailing, junk, "the junk after them counted as trailing");
	is_int(z.cut, 0, "no cut");
	is_int(z.total, 2 * TEXT, "total is both texts");
	bt_inflate_release(&z);

	bt_inflate_init(&z, "two.gz", gz, len, BT_INFLATE_GZIP, 0);
	bt_inflate_read(&z, buf, sizeof buf, &got, &err);
	is_int(got, TEXT, "a member's end hands its bytes over before the next begins");
	is_int(z.pos, one, "... having taken the first member's bytes exactly");
	bt_inflate_release(&z);

	bt_inflate_init(&z, "two.gz", gz, len, BT_INFLATE_GZIP, BT_INFLATE_ONE);
	ok(reads_back(&z, 65536, 1, &err), "BT_INFLATE_ONE: the first member only");
	is_int(z.trailing, 0, "BT_INFLATE_ONE: what follows is not read, nor counted");
	bt_inflate_release(&z);
}

static void cap(unsigned char *gz, size_t len)
{
	struct bt_inflate z;
	struct bt_err err = BT_ERR_INIT;
	unsigned char buf[65536];
	size_t got;
	int rc = BT_OK;
	char want[200];

	bt_inflate_init(&z, "bomb.gz", gz, len, BT_INFLATE_GZIP, 0);
	z.cap = 100000;
	while (!z.end && !(rc = bt_inflate_read(&z, buf, sizeof buf, &got, &err)))
		;
	is_int(rc, BT_EFORMAT, "past the cap: BT_EFORMAT");
	is_int(z.failed, BT_INFLATE_OVER, "past the cap: failed says so");
	ok(z.total > 100000 && z.total <= 100000 + sizeof buf, "past the cap: stopped within a window of it");
	snprintf(want, sizeof want, "gzip'd 'bomb.gz' inflates to more than 100000 bytes (the cap) at byte offset %llu",
		 (unsigned long long)z.pos);
	is_str(err.msg, want, "past the cap: the message names the file, the cap and the offset");
	bt_inflate_release(&z);

	bt_inflate_init(&z, "bomb.gz", gz, len, BT_INFLATE_GZIP, 0);
	is_int(z.cap, BT_INFLATE_CAP, "the cap is the one cap unless changed");
	z.cap = 2 * TEXT;
	bt_err_clear(&err);
	ok(reads_back(&z, 65536, 2, &err), "exactly the cap is not past it");
	bt_inflate_release(&z);
}

static void cut(unsigned char *gz, size_t one)
{
	struct bt_inflate z;
	struct bt_err err = BT_ERR_INIT;
	unsigned char *buf = malloc(TEXT);
	size_t got, n = 0, half = one / 2, i;
	int same = 1;
	char want[200];

	bt_inflate_init(&z, "cut.gz", gz, half, BT_INFLATE_GZIP, BT_INFLATE_GZMSG);
	while (!z.end && !bt_inflate_read(&z, buf + n, TEXT - n, &got, &err))
		n += got;
	is_int(err.code, BT_OK, "a cut stream is no error");
	ok(z.cut && z.end, "a cut stream: cut and end");
	is_int(z.cut_at, half, "a cut stream: cut at the input's end");
	ok(n > 0 && n < TEXT, "a cut stream: some of the text");
	for (i = 0; i < n; i++)
		same = same && buf[i] == byte(0, i);
	ok(same, "a cut stream: what inflated is the text's start");
	bt_inflate_cut_error(&z, &err);
	snprintf(want, sizeof want, "truncated gzip stream in 'cut.gz' at byte offset %zu: cut.gz: unexpected end of file", half);
	is_str(err.msg, want, "a cut stream, as gzread words it");
	bt_inflate_release(&z);

	bt_err_clear(&err);
	bt_inflate_init(&z, "cut.gz", gz, one - 4, BT_INFLATE_GZIP, 0);
	while (!z.end && !bt_inflate_read(&z, buf, TEXT, &got, &err))
		;
	ok(z.cut, "a member without its length trailer is cut");
	bt_inflate_cut_error(&z, &err);
	snprintf(want, sizeof want, "truncated gzip stream in 'cut.gz' at byte offset %zu", one - 4);
	is_str(err.msg, want, "a cut stream: the file and the offset");
	bt_inflate_release(&z);
	free(buf);
}

static void corrupt(unsigned char *gz, size_t len)
{
	struct bt_inflate z;
	struct bt_err err = BT_ERR_INIT;
	unsigned char buf[65536];
	size_t got;
	int rc = BT_OK, style;

	memset(gz + 40, 0xff, 8);
	for (style = 0; style < 2; style++) {
		bt_err_clear(&err);
		bt_inflate_init(&z, "bad.gz", gz, len, BT_INFLATE_GZIP, style ? BT_INFLATE_GZMSG : 0);
		while (!z.end && !(rc = bt_inflate_read(&z, buf, sizeof buf, &got, &err)))
			;
		is_int(rc, BT_EFORMAT, "corrupt: BT_EFORMAT");
		is_int(z.failed, BT_INFLATE_CORRUPT, "corrupt: failed says so");
		ok(z.zmsg != NULL, "corrupt: zlib's reason kept");
		ok(z.pos >= 40 && z.pos < len, "corrupt: the offset is at the damage or after");
		ok(!strncmp(err.msg, "corrupt gzip stream in 'bad.gz' near byte offset ", 49) &&
			   strstr(err.msg, style ? ": bad.gz: " : ": ") && strstr(err.msg, z.zmsg),
		   style ? "corrupt, as gzread words it: the path before zlib's reason" : "corrupt: the file, the offset, zlib's reason");
		bt_inflate_release(&z);
	}
}

static void zlib_streams(void)
{
	size_t cap = 1 << 20, len = 0;
	unsigned char *b = malloc(cap);
	struct bt_inflate z;
	struct bt_err err = BT_ERR_INIT;
	int k;

	for (k = 0; k < 3; k++)
		len = deflate_onto(b, len, cap, k, BT_INFLATE_ZLIB);
	ok(bt_inflate_is(b, len, BT_INFLATE_ZLIB) && !bt_inflate_is(b, len, BT_INFLATE_GZIP), "a zlib header is zlib's, not gzip's");
	ok(!bt_inflate_is(b, 1, BT_INFLATE_ZLIB) && !bt_inflate_is((const unsigned char *)"TRACE:", 6, BT_INFLATE_ZLIB),
	   "one byte or text is no zlib header");
	bt_inflate_init(&z, "z", b, len, BT_INFLATE_ZLIB, 0);
	ok(reads_back(&z, 100000, 3, &err), "three zlib streams read back whole");
	is_int(z.streams, 3, "three zlib streams begun");
	bt_inflate_release(&z);
	memcpy(b, "xy", 2);   /* the first stream's header is zlib's to judge */
	bt_inflate_init(&z, "z", b, len, BT_INFLATE_ZLIB, BT_INFLATE_ONE);
	ok(reads_back(&z, 100000, 1, &err) == 0 && z.failed == BT_INFLATE_CORRUPT && !strcmp(z.zmsg, "incorrect header check"),
	   "a first stream with no header: zlib's incorrect header check");
	bt_inflate_release(&z);
	bt_err_clear(&err);
	bt_inflate_init(&z, "z", b, 0, BT_INFLATE_ZLIB, BT_INFLATE_ONE);
	reads_back(&z, 100, 1, &err);
	ok(err.code == BT_OK && z.cut && z.cut_at == 0, "no bytes at all: cut at 0");
	bt_inflate_release(&z);
	free(b);
}

static void head(unsigned char *gz, size_t one)
{
	char path[] = "/tmp/t_inflate-XXXXXX";
	unsigned char buf[64];
	int fd = mkstemp(path), damaged = -1, n;

	ok(fd >= 0 && write(fd, gz, one / 2) == (ssize_t)(one / 2), "a temporary gzip file");
	close(fd);
	n = bt_inflate_head(path, buf, sizeof buf, &damaged);
	ok(n == (int)sizeof buf && !damaged && buf[0] == byte(0, 0) && buf[63] == byte(0, 63), "head: the first inflated bytes");
	fd = open(path, O_WRONLY | O_TRUNC);
	ok(fd >= 0 && write(fd, gz, 15) == 15, "a gzip file cut inside its first block");
	close(fd);
	n = bt_inflate_head(path, buf, sizeof buf, &damaged);
	ok(n < (int)sizeof buf && damaged, "head: a stream ending early is damaged");
	unlink(path);
	is_int(bt_inflate_head(path, buf, sizeof buf, &damaged), -1, "head: no file, -1");
}

int main(void)
{
	size_t room = 1 << 20, one, len;
	unsigned char *gz = malloc(room);

	one = deflate_onto(gz, 0, room, 0, BT_INFLATE_GZIP);
	len = deflate_onto(gz, one, room, 1, BT_INFLATE_GZIP);
	memcpy(gz + len, "junk after it\n", 14);
	members(gz, len + 14, one, 14);
	cap(gz, len);
	cut(gz, one);
	head(gz, one);
	corrupt(gz, len);
	zlib_streams();
	free(gz);
	return done_testing();
}
