/*
 * Aligned text tables (see grid.h).
 */
#include <stdlib.h>
#include <string.h>

#include "reports/text/grid.h"

/* Display width of UTF-8 text: one column per code point. */
static size_t width(const char *s, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

void bt_grid_init(struct bt_grid *g, int ncols)
{
	memset(g, 0, sizeof *g);
	g->ncols = ncols;
	bt_buf_init(&g->text);
	g->numeric = bt_xcalloc((size_t)ncols + 1, 1);
	memset(g->numeric, 1, (size_t)ncols);
}

void bt_grid_add(struct bt_grid *g, const char *s, size_t len)
{
	BT_GROW(g->off, g->ncells + 1, g->cap);
	g->off[g->ncells++] = g->text.len;
	bt_buf_add(&g->text, s, len);
	bt_buf_addc(&g->text, '\0');
}

#define MIN_TEXT_COLS 28

/* Narrow the widest text column by one until the line fits width; then
 * leave out columns from the right (the tables put what matters first).
 * Returns how many columns are kept (one at least). */
static size_t fit(const struct bt_grid *g, size_t *w, size_t width)
{
	size_t n = (size_t)g->ncols, total = 2 * (n - 1), c;

	for (c = 0; c < n; c++)
		total += w[c];
	while (total > width) {
		size_t widest = n;
		for (c = 0; c < n; c++)
			if (!g->numeric[c] && w[c] > MIN_TEXT_COLS && (widest == n || w[c] > w[widest]))
				widest = c;
		if (widest == n)
			break;
		w[widest]--;
		total--;
	}
	while (n > 1 && total > width)
		total -= w[--n] + 2;
	return n;
}

/* s in at most cols columns: its head, "…", its tail. */
static void put_cut(FILE *out, const char *s, size_t cols)
{
	size_t len = strlen(s), n = width(s, len), head = (cols - 1) / 2, tail = cols - 1 - head, i, col = 0;
	const char *p;

	if (n <= cols) {
		fputs(s, out);
		return;
	}
	for (p = s; *p && col < head; p++)   /* head code points */
		if ((col += ((unsigned char)*p & 0xC0) != 0x80) <= head)
			fputc(*p, out);
		else
			break;
	while (*p && ((unsigned char)*p & 0xC0) == 0x80)
		fputc(*p++, out);
	fputs("\xe2\x80\xa6", out);
	for (i = len, col = 0; i > 0 && col < tail; i--)   /* the last tail code points */
		col += ((unsigned char)s[i - 1] & 0xC0) != 0x80;
	fputs(s + i, out);
}

void bt_grid_print(const struct bt_grid *g, FILE *out)
{
	bt_grid_print_fit(g, out, 0);
}

void bt_grid_print_fit(const struct bt_grid *g, FILE *out, size_t limit)
{
	size_t n = (size_t)g->ncols, *w, i, k, keep;
	int c, last;

	if (!n)
		return;
	if (g->ncells <= n) {
		fputs("(no rows)\n", out);
		return;
	}
	w = bt_xcalloc(n, sizeof *w);
	for (i = 0; i < g->ncells; i++) {
		const char *s = g->text.buf + g->off[i];
		size_t cw = width(s, strlen(s));
		if (cw > w[i % n])
			w[i % n] = cw;
	}
	keep = limit ? fit(g, w, limit) : n;
	last = (int)keep - 1;
	for (i = 0; i < g->ncells; i++) {
		const char *s = g->text.buf + g->off[i];
		size_t sw = width(s, strlen(s)), pad = sw < w[i % n] ? w[i % n] - sw : 0;
		c = (int)(i % n);
		if (c > last)
			continue;
		if (i >= n && g->numeric[c]) {
			fprintf(out, "%*s%s", (int)pad, "", s);
		} else {
			put_cut(out, s, w[c]);
			fprintf(out, "%*s", c == last ? 0 : (int)pad, "");
		}
		fputs(c == last ? "\n" : "  ", out);
		if (i == n - 1) {
			for (c = 0; c <= last; c++) {
				for (k = 0; k < w[c]; k++)
					fputc('-', out);
				fputs(c == last ? "\n" : "  ", out);
			}
		}
	}
	if (keep < n) {
		fprintf(out, "(left out to fit %zu columns:", limit);
		for (k = keep; k < n; k++)
			fprintf(out, " %s", g->text.buf + g->off[k]);
		fputs("; --width widens)\n", out);
	}
	free(w);
}

void bt_grid_release(struct bt_grid *g)
{
	bt_buf_release(&g->text);
	free(g->off);
	free(g->numeric);
	memset(g, 0, sizeof *g);
}

void bt_text_wrap(FILE *out, const char *first, const char *indent, const char *text, size_t cols)
{
	size_t col = width(first, strlen(first)), lead = width(indent, strlen(indent)), len, w;
	int fresh = 1;   /* no word on this line yet */

	fputs(first, out);
	while (*(text += strspn(text, " "))) {
		if (*text == '\n') {   /* the text's own line breaks stay */
			fputc('\n', out);
			fputs(indent, out);
			col = lead;
			fresh = 1;
			text++;
			continue;
		}
		len = strcspn(text, " \n");
		w = width(text, len);
		if (!fresh && cols && col + 1 + w > cols) {
			fputc('\n', out);
			fputs(indent, out);
			col = lead;
		} else if (!fresh) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, len, out);
		col += w;
		fresh = 0;
		text += len;
	}
	fputc('\n', out);
}
