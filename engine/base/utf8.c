/*
 * UTF-8 validation and repair (see utf8.h), following the Unicode
 * "maximal subpart" rule: each bad byte run becomes one U+FFFD.
 */
#include <stdint.h>
#include <string.h>

#include "engine/base/utf8.h"

/* Length of the valid sequence at s, or 0 if it is not valid. */
static size_t seq_len(const unsigned char *s, size_t left)
{
	unsigned c = s[0];
	size_t n, i;
	unsigned lo = 0x80, hi = 0xBF;

	if (c >= 0x01 && c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (left < n)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return n;
}

/* The end of the run of valid UTF-8 at p[i..len): ASCII (not NUL) eight
 * bytes a step, where report text spends nearly all its bytes. */
static size_t valid_run(const unsigned char *p, size_t i, size_t len)
{
	size_t n;

	for (;;) {
		while (len - i >= 8) {
			uint64_t w;
			memcpy(&w, p + i, 8);
			/* a byte 0x80 and above, or a NUL (the maximal-subpart rule's bad byte) */
			if ((w | ((w - 0x0101010101010101u) & ~w)) & 0x8080808080808080u)
				break;
			i += 8;
		}
		if (i >= len || !(n = seq_len(p + i, len - i)))
			return i;
		i += n;
	}
}

int bt_utf8_valid(const char *s, size_t len)
{
	return valid_run((const unsigned char *)s, 0, len) == len;
}

void bt_utf8_sanitize(struct bt_buf *b, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, end;

	while (i < len) {
		end = valid_run(p, i, len);
		if (end > i) {   /* the valid run whole, not a character at a time */
			bt_buf_add(b, p + i, end - i);
			i = end;
			continue;
		}
		bt_buf_adds(b, "\xEF\xBF\xBD");
		i++;
		while (i < len && (p[i] & 0xC0) == 0x80 && !seq_len(p + i, len - i))
			i++;
	}
}
