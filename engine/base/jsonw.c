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

static void indent(struct bt_jsonw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->fp);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->fp);
}

/* Separator before a value that is an array element (keys handle their own). */
static void element(struct bt_jsonw *w, int after_key)
{
	if (after_key)
		return;
	if (!w->first[w->depth])
		fputc(',', w->fp);
	w->first[w->depth] = 0;
	if (w->depth)
		indent(w);
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
		indent(w);
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

void bt_jsonw_key(struct bt_jsonw *w, const char *key)
{
	element(w, 0);
	raw_str(w, key, strlen(key));
	fputs(w->pretty ? ": " : ":", w->fp);
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
void bt_jsonw_int(struct bt_jsonw *w, int64_t v)
{
	char d[24];
	size_t n = sizeof d;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	scalar(w);
	do
		d[--n] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		d[--n] = '-';
	fwrite(d + n, 1, sizeof d - n, w->fp);
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
