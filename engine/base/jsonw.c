/*
 * Streaming JSON writer (see jsonw.h). Strings are escaped per RFC 8259;
 * non-finite numbers become null since JSON has no NaN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/base/jsonw.h"
#include "engine/base/utf8.h"

void bt_jsonw_init(struct bt_jsonw *w, FILE *fp, int pretty)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->pretty = pretty;
	w->first[0] = 1;
}

/*
 * A separator in one write: the comma (comma), then in pretty output a
 * newline and two spaces per level. Reports write hundreds of thousands
 * of elements, and a write per space took each its FILE's lock: a
 * third of what compare's -o spent writing.
 */
static void sep(struct bt_jsonw *w, int comma)
{
	static const char s[] = ",\n" /* then 2 * BT_JSONW_DEPTH spaces */
		"                                                                ";
	size_t n = w->pretty ? 2 + 2 * (size_t)w->depth : 1;

	_Static_assert(sizeof s - 3 >= 2 * BT_JSONW_DEPTH, "two spaces a level");
	if (comma)
		fwrite(s, 1, n, w->fp);
	else if (w->pretty)
		fwrite(s + 1, 1, n - 1, w->fp);
}

/* Separator before a value that is an array element (keys handle their own). */
static void element(struct bt_jsonw *w, int after_key)
{
	int comma;

	if (after_key)
		return;
	comma = !w->first[w->depth];
	w->first[w->depth] = 0;
	if (w->depth)
		sep(w, comma);
	else if (comma)
		fputc(',', w->fp);
}

static void open_(struct bt_jsonw *w, char c)
{
	element(w, w->after_key);
	w->after_key = 0;
	fputc(c, w->fp);
	if (w->depth + 1 < BT_JSONW_DEPTH)
		w->depth++;
	w->first[w->depth] = 1;
}

static void close_(struct bt_jsonw *w, char c)
{
	int empty = w->first[w->depth];

	if (w->depth)
		w->depth--;
	if (!empty)
		sep(w, 0);
	fputc(c, w->fp);
	if (!w->depth && w->pretty)
		fputc('\n', w->fp);
}

void bt_jsonw_begin_object(struct bt_jsonw *w) { open_(w, '{'); }
void bt_jsonw_end_object(struct bt_jsonw *w) { close_(w, '}'); }
void bt_jsonw_begin_array(struct bt_jsonw *w) { open_(w, '['); }
void bt_jsonw_end_array(struct bt_jsonw *w) { close_(w, ']'); }

/* Runs of characters that need no escape go out in one fwrite: reports
 * hold megabytes of symbol names. */
static void raw_str(const struct bt_jsonw *w, const char *s, size_t len)
{
	struct bt_buf clean = BT_BUF_INIT;
	FILE *fp = w->fp;
	size_t i, run = 0;

	if (!bt_utf8_valid(s, len)) {   /* a rule's bytes; JSON is UTF-8 */
		bt_utf8_sanitize(&clean, s, len);
		s = clean.buf;
		len = clean.len;
	}
	fputc('"', fp);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\' && !(w->html && (c == '<' || c == '>' || c == '&')))
			continue;
		fwrite(s + run, 1, i - run, fp);
		run = i + 1;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c == '\t')
			fputs("\\t", fp);
		else if (c == '\r')
			fputs("\\r", fp);
		else
			fprintf(fp, "\\u%04x", c);
	}
	fwrite(s + run, 1, len - run, fp);
	fputc('"', fp);
	bt_buf_release(&clean);
}

/* A key of printable ASCII, quoted with its colon in one write (the
 * report's keys are); else as any string. */
void bt_jsonw_key(struct bt_jsonw *w, const char *key)
{
	char b[128];
	size_t n = 0;

	element(w, 0);
	b[n++] = '"';
	for (; *key && n < sizeof b - 4; key++) {
		unsigned char c = (unsigned char)*key;
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || (w->html && (c == '<' || c == '>' || c == '&')))
			break;
		b[n++] = (char)c;
	}
	if (*key) {
		raw_str(w, key - (n - 1), strlen(key) + n - 1);
		fputs(w->pretty ? ": " : ":", w->fp);
	} else {
		b[n++] = '"';
		b[n++] = ':';
		if (w->pretty)
			b[n++] = ' ';
		fwrite(b, 1, n, w->fp);
	}
	w->after_key = 1;
}

static void scalar(struct bt_jsonw *w)
{
	element(w, w->after_key);
	w->after_key = 0;
}

void bt_jsonw_str(struct bt_jsonw *w, const char *s, size_t len)
{
	scalar(w);
	raw_str(w, s, len);
}

void bt_jsonw_cstr(struct bt_jsonw *w, const char *s)
{
	if (!s) {
		bt_jsonw_null(w);
		return;
	}
	bt_jsonw_str(w, s, strlen(s));
}

/* Digits by hand: a report writes integers by the hundred thousand, and
 * fprintf's format parsing was most of their cost. */
static void write_int(struct bt_jsonw *w, int64_t v)
{
	char d[24];
	size_t n = sizeof d;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		d[--n] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		d[--n] = '-';
	fwrite(d + n, 1, sizeof d - n, w->fp);
}

void bt_jsonw_int(struct bt_jsonw *w, int64_t v)
{
	scalar(w);
	write_int(w, v);
}

/* The shortest of %.15g and %.17g that reads back as v. */
void bt_jsonw_real(struct bt_jsonw *w, double v)
{
	char buf[40];

	scalar(w);
	if (!isfinite(v)) {
		fputs("null", w->fp);
		return;
	}
	if (fabs(v) < 1e15 && v == (double)(int64_t)v && (v != 0 || !signbit(v))) {
		write_int(w, (int64_t)v);   /* what %.15g prints for a whole number of 15 digits or fewer */
		return;
	}
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	fputs(buf, w->fp);
}

void bt_jsonw_bool(struct bt_jsonw *w, int v)
{
	scalar(w);
	fputs(v ? "true" : "false", w->fp);
}

void bt_jsonw_raw(struct bt_jsonw *w, const char *json)
{
	scalar(w);
	fputs(json, w->fp);
}

void bt_jsonw_null(struct bt_jsonw *w)
{
	scalar(w);
	fputs("null", w->fp);
}

void bt_jsonw_int_or_null(struct bt_jsonw *w, int have, int64_t v)
{
	if (have)
		bt_jsonw_int(w, v);
	else
		bt_jsonw_null(w);
}
