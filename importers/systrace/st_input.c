/*
 * The lines of an ftrace text, whichever container holds them: the text
 * itself (mapped, read in place), gzip'd (members one after another),
 * atrace's compressed output ("TRACE:" then zlib streams one after
 * another: atrace -z), a systrace HTML page (the trace in a
 * <script class="trace-data"> block, or, in the older form, in a
 * JavaScript string "var linuxPerfData = "...\n\" whose lines end in
 * \n\), or such a string's lines on their own. Offsets in messages are of
 * the file, or of the inflated text for a compressed one.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "importers/inflate.h"
#include "importers/systrace/st_int.h"

#define CHUNK (1u << 20)          /* inflated text per fill */
#define LOOKAHEAD 4096            /* where "TRACE:" may be */
#define DROP_EVERY (64u << 20)    /* mapped bytes dropped behind the cursor */

/* Where the text after atrace's "TRACE:" line begins, or 0 if none is
 * near the start (what precedes it is atrace's chatter). */
static size_t after_trace_marker(const unsigned char *b, size_t n)
{
	size_t lim = n < LOOKAHEAD ? n : LOOKAHEAD, i;

	for (i = 0; i + 7 <= lim; i++) {
		if (b[i] != 'T' || memcmp(b + i, "TRACE:", 6) || (i && b[i - 1] != '\n' && b[i - 1] != ' '))
			continue;
		i += 6;
		while (i < n && b[i] == '\r')
			i++;
		if (i < n && b[i] == '\n')
			return i + 1;
	}
	return 0;
}

int st_in_open(struct st_in *in, const char *path, struct bt_err *err)
{
	const unsigned char *b;
	size_t n, at;

	memset(in, 0, sizeof *in);
	in->path = path;
	if (bt_fmap_open(&in->map, path, err))
		return err->code;
	b = in->map.data;
	n = in->map.len;
	if (bt_inflate_is(b, n, BT_INFLATE_GZIP)) {
		in->kind = ST_GZIP;
	} else if ((at = after_trace_marker(b, n)) != 0) {
		size_t z = at;
		while (z < n && (b[z] == '\r' || b[z] == '\n'))
			z++;   /* adb's line ends before the compressed bytes */
		in->kind = bt_inflate_is(b + z, n - z, BT_INFLATE_ZLIB) ? ST_ZLIB : ST_TEXT;
		in->pos = in->kind == ST_ZLIB ? z : at;
	}
	if (in->kind == ST_TEXT)
		return BT_OK;
	bt_inflate_init(&in->z, path, b, n, in->kind == ST_GZIP ? BT_INFLATE_GZIP : BT_INFLATE_ZLIB, 0);
	in->z.pos = in->pos;
	in->cap = CHUNK;
	in->buf = bt_xmalloc(in->cap);
	return BT_OK;
}

void st_in_close(struct st_in *in)
{
	bt_inflate_release(&in->z);
	free(in->buf);
	free(in->unesc);
	bt_fmap_release(&in->map);
	memset(in, 0, sizeof *in);
}

const char *st_in_container(const struct st_in *in)
{
	return in->kind == ST_GZIP ? "gzip" : in->kind == ST_ZLIB ? "zlib" : "text";
}

const char *st_in_page(const struct st_in *in)
{
	if (in->html == ST_HTML_NONE)
		return in->js ? "javascript-string" : NULL;
	return in->js ? "html-linuxPerfData" : "html-trace-data";
}

/* Inflate more text after buf[start, end) (moved to the front). */
static int inflate_more(struct st_in *in, struct bt_err *err)
{
	if (in->start) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->base += in->start;
		in->end -= in->start;
		in->start = 0;
	}
	if (in->end == in->cap) {
		if (in->cap >= ST_MAX_LINE)
			return bt_err_set(err, BT_EFORMAT, "a line of more than %u bytes in '%s' at byte offset %llu of the inflated text: not ftrace text",
					  ST_MAX_LINE, in->path, (unsigned long long)in->base);
		in->cap *= 2;
		in->buf = bt_xrealloc(in->buf, in->cap);
	}
	while (in->end < in->cap && !in->z.end) {
		size_t got;
		int rc = bt_inflate_read(&in->z, in->buf + in->end, in->cap - in->end, &got, err);
		in->end += got;
		in->pos = in->z.pos;
		if (rc)
			return rc;
	}
	return BT_OK;
}

/* The next raw line (no newline, no trailing \r), 1; 0 at the end. */
static int raw_line(struct st_in *in, const char **line, size_t *len, struct bt_err *err)
{
	const char *s, *nl;
	size_t n;

	if (in->kind == ST_TEXT) {
		if (in->pos >= in->map.len)
			return 0;
		s = (const char *)in->map.data + in->pos;
		n = in->map.len - in->pos;
		nl = memchr(s, '\n', n < ST_MAX_LINE + 1 ? n : ST_MAX_LINE + 1);
		if (!nl && n > ST_MAX_LINE)
			return bt_err_set(err, BT_EFORMAT, "a line of more than %u bytes in '%s' at byte offset %zu: not ftrace text",
					  ST_MAX_LINE, in->path, in->pos), -1;
		in->line_off = in->pos;
		in->last_unterminated = !nl;
		n = nl ? (size_t)(nl - s) : n;
		if ((in->pos / DROP_EVERY) != ((in->pos + n + 1) / DROP_EVERY))
			bt_fmap_drop(&in->map, in->pos);
		in->pos += n + 1;
	} else {
		for (;;) {
			s = (const char *)in->buf + in->start;
			nl = memchr(s, '\n', in->end - in->start);
			if (nl || in->z.end)
				break;
			if (inflate_more(in, err))
				return -1;
		}
		n = nl ? (size_t)(nl - s) : in->end - in->start;
		if (!nl && !n)
			return 0;
		in->line_off = in->base + in->start;
		in->last_unterminated = !nl;
		in->start += n + (nl != NULL);
	}
	while (n && s[n - 1] == '\r')
		n--;
	*line = s;
	*len = n;
	in->line_no++;
	return 1;
}

static int contains(const char *s, size_t n, const char *what)
{
	size_t k = strlen(what), i;

	for (i = 0; i + k <= n; i++)
		if (s[i] == what[0] && !memcmp(s + i, what, k))
			return (int)i + 1;
	return 0;
}

static int ends_with(const char *s, size_t n, const char *what)
{
	size_t k = strlen(what);

	return n >= k && !memcmp(s + n - k, what, k);
}

static int blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	return !n;
}

/* A JavaScript string's line: the \n\ (or the closing \n"; of the last)
 * off, its escapes undone. Sets *last for the closing line. */
static void js_line(struct st_in *in, const char **line, size_t *len, int *last)
{
	const char *s = *line;
	size_t n = *len, i, o = 0;

	*last = 0;
	if (ends_with(s, n, "\\n\\"))
		n -= 3;
	else if (ends_with(s, n, "\\n\";"))
		n -= 4, *last = 1;
	else if (ends_with(s, n, "\";"))
		n -= 2, *last = 1;
	else if (ends_with(s, n, "\\"))
		n -= 1;
	if (!memchr(s, '\\', n)) {
		*len = n;
		return;
	}
	BT_GROW(in->unesc, n + 1, in->unesc_cap);
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			c = s[++i];
			c = c == 'n' ? ' ' : c == 't' ? '\t' : c == 'r' ? ' ' : c;
		}
		in->unesc[o++] = c;
	}
	*line = in->unesc;
	*len = o;
}

/* The first line says what the text is: an HTML page, or a JavaScript
 * string's lines. */
static void first_line(struct st_in *in, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
		s += 3, n -= 3;
	if (n >= 2 && s[0] == '<' && (s[1] == '!' || s[1] == 'h' || s[1] == 'H'))
		in->html = ST_HTML_OUT;   /* not "<...>-123" nor "<idle>-0": a task column */
	else if (ends_with(s, n, "\\n\\"))
		in->js = 1;
}

/* A trace-data block's first line says whether it holds ftrace text:
 * systrace writes JSON, process and cgroup dumps in blocks of their own. */
static int ftrace_block(const char *s, size_t n)
{
	struct st_line l;

	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	return (n && s[0] == '#') || (n >= 6 && !memcmp(s, "TRACE:", 6)) || st_line_parse(s, n, &l) != ST_LINE_BAD;
}

/* One line of an HTML page: 1 if it is trace text (*line, *len set to
 * it), 0 if not. Only the first block of ftrace text is read (as
 * systrace's viewer and Perfetto do); later ones are counted. */
static int html_line(struct st_in *in, const char **line, size_t *len)
{
	const char *s = *line;
	size_t n = *len;
	int at, last;

	switch (in->html) {
	case ST_HTML_OUT:
		if (contains(s, n, "<script class=\"trace-data\"")) {
			in->blocks_seen++;
			in->html = ST_HTML_BLOCK_START;
		} else if (!in->have_ftrace && contains(s, n, "linuxPerfData = \"")) {
			in->have_ftrace = in->js = 1;
			in->html = ST_HTML_JS;
		}
		return 0;
	case ST_HTML_JS:
		if (contains(s, n, "</script>")) {
			in->html = ST_HTML_DONE;
			return 0;
		}
		js_line(in, line, len, &last);
		if (last)
			in->html = ST_HTML_DONE;
		return 1;
	case ST_HTML_DUMP:
		if ((at = contains(s, n, "</script>")) != 0) {
			in->html = ST_HTML_OUT;
			*len = n = (size_t)at - 1;
		}
		in->dump = !blank(s, n);
		return in->dump;
	case ST_HTML_BLOCK_START:
	case ST_HTML_BLOCK:
	case ST_HTML_SKIP:
		if ((at = contains(s, n, "</script>")) != 0)
			*len = n = (size_t)at - 1;
		if (in->html == ST_HTML_BLOCK_START && !blank(s, n)) {
			if (n >= 12 && !memcmp(s, "PROCESS DUMP", 12))
				in->html = ST_HTML_DUMP;
			else if (!ftrace_block(s, n))
				in->blocks_skipped++, in->html = ST_HTML_SKIP;
			else if (in->have_ftrace)
				in->blocks_extra++, in->html = ST_HTML_SKIP;
			else
				in->have_ftrace = 1, in->html = ST_HTML_BLOCK;
		}
		last = in->html == ST_HTML_BLOCK && !blank(s, n);
		if (at)
			in->html = ST_HTML_OUT;
		return last;
	default:
		return 0;
	}
}

int st_in_line(struct st_in *in, const char **line, size_t *len, struct bt_err *err)
{
	int rc, last;

	in->dump = 0;
	for (;;) {
		if ((rc = raw_line(in, line, len, err)) <= 0)
			return rc;
		if (!in->looked && !blank(*line, *len)) {
			in->looked = 1;
			first_line(in, *line, *len);
		}
		if (in->html == ST_HTML_NONE) {
			if (in->js)
				js_line(in, line, len, &last);
			return 1;
		}
		if (html_line(in, line, len))
			return 1;
	}
}
