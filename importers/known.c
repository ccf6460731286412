/*
 * Inputs we recognise but do not read: named in the error, with what to
 * do instead, rather than "bytes 00 00 00 00 match no supported format".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "importers/known.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int starts(const unsigned char *head, size_t n, const char *magic)
{
	size_t k = strlen(magic);

	return n >= k && !memcmp(head, magic, k);
}

/* btrace's sampling-mapping (format spec §6): u64 0, u32 version 1, u32
 * count, then a method entry: u64 pointer, u16 length, the symbol's text. */
static int is_sampling_mapping(const unsigned char *h, size_t n)
{
	size_t len, i;

	if (n < 18 || memcmp(h, "\0\0\0\0\0\0\0\0", 8) || le32(h + 8) != 1)
		return 0;
	if (le32(h + 12) == 0)
		return n == 16;
	len = (size_t)h[24] | (size_t)h[25] << 8;
	for (i = 26; i < n && i < 26 + len; i++)
		if (h[i] < 0x20 || h[i] >= 0x7f)
			return 0;
	return n >= 26;
}

/* A ProGuard/R8 mapping.txt: comments, then "a.b.C -> x.y:" lines. */
static int is_proguard_mapping(const unsigned char *h, size_t n)
{
	const char *s = (const char *)h, *end = s + n, *nl, *arrow;

	while (s < end && *s == '#') {           /* "# compiler: R8" ... */
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return 0;
		s = nl + 1;
	}
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl || nl == s)
		return 0;
	arrow = s;
	while (arrow + 4 <= nl && memcmp(arrow, " -> ", 4))
		arrow++;
	return arrow + 4 <= nl && nl[-1] == ':';
}

/* A methodMapping.txt of btrace 2.0 or Tencent Matrix: '#' lines, then
 * "id,access,pkg.Class method ..." (the 64 bytes may end inside it). */
static int is_method_mapping(const unsigned char *h, size_t n)
{
	const unsigned char *s = h, *end = h + n, *nl;
	int k, len, dots;

	while (s < end && *s == '#') {           /* btrace's "#UUID" */
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return 0;
		s = nl + 1;
	}
	for (k = 0; k < 2; k++) {               /* id, then access flags */
		for (len = 0; s < end && *s >= '0' && *s <= '9'; s++)
			len++;
		if (!len || s == end || *s++ != ',')
			return 0;
	}
	for (len = 0, dots = 0; s < end && *s > ' ' && *s < 0x7f && *s != ','; s++)   /* the class */
		len++, dots += *s == '.';
	return len > 0 && (s == end || (dots && *s == ' ' && (s + 1 == end || s[1] > ' ')));
}

/* A Perfetto trace in protobuf's text format (Perfetto's test inputs): '#'
 * comment lines and blank ones, then "packet {". */
static int is_textproto(const char *s, size_t n)
{
	const char *end = s + n;

	for (;;) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
			s++;
		if (s == end || *s != '#')
			break;
		s = memchr(s, '\n', (size_t)(end - s));
		if (!s)
			return 0;
	}
	if ((size_t)(end - s) < 6 || memcmp(s, "packet", 6))
		return 0;
	for (s += 6; s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'); s++)
		;
	return s < end && (*s == '{' || *s == ':');
}

const char *bt_known_text(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	if (is_textproto(buf, n))
		return "this is a Perfetto trace in protobuf's text format (a .textproto, as Perfetto's tests "
		       "write them), not a trace file; encode it first: protoc --encode=perfetto.protos.Trace "
		       "perfetto_trace.proto < IN.textproto > OUT.pb";
	return NULL;
}

int bt_known_sidecar(const unsigned char *h, size_t n)
{
	return is_sampling_mapping(h, n) || is_method_mapping(h, n) || is_proguard_mapping(h, n);
}

int bt_known_sidecar_file(const char *path)
{
	unsigned char h[64];
	size_t n = 0;
	FILE *f = fopen(path, "rb");

	if (f) {
		n = fread(h, 1, sizeof h, f);
		fclose(f);
	}
	return n && bt_known_sidecar(h, n);
}

const char *bt_known_format(const unsigned char *h, size_t n)
{
	if (is_sampling_mapping(h, n))
		return "this is a sampling-mapping file (btrace's method names); pass the sampling.bin "
		       "beside it: the mapping is found next to it, or give it with --mapping";
	if (is_method_mapping(h, n))
		return "this is a methodMapping.txt (btrace 2.0's or Matrix's method names); pass the "
		       "appTrace.bin beside it, or their directory: the mapping is found next to it, or "
		       "give it with --mapping";
	if (is_proguard_mapping(h, n))
		return "this is a ProGuard/R8 mapping.txt; pass the trace and give this file with --retrace";
	if (starts(h, n, "SIMPLEPERF"))
		return "this is a simpleperf perf.data file; not supported";
	if (starts(h, n, "PERFILE2"))
		return "this is a Linux perf.data file; not supported";
	if (starts(h, n, "JAVA PROFILE 1.0"))
		return "this is a Java heap dump (hprof); not supported";
	if (starts(h, n, "PK\3\4"))
		return "this is a zip archive; unpack it and pass the trace inside";
	if (starts(h, n, "\x1f\x8b"))
		return "this is a gzip file, but not of a trace this tool reads (Perfetto, iOS database, "
		       "systrace text); gunzip it and pass the trace inside";
	if (starts(h, n, "SQLite format 3"))
		return "this is an SQLite database, but not a btrace iOS database (no samples table "
		       "of its layout)";
	return NULL;
}
