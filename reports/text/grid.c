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
	g->spare = bt_xcalloc((size_t)ncols + 1, 1);
}

void bt_grid_add(struct bt_grid *g, const char *s, size_t len)
{
	BT_GROW(g->off, g->ncells + 1, g->cap);
	g->off[g->ncells++] = g->text.len;
	bt_buf_add(&g->text, s, len);
	bt_buf_addc(&g->text, '\0');
}

#define MIN_TEXT_COLS 28   /* the first column's: it names the row */
#define MIN_MORE_COLS 16   /* another text column's */

/* A column with nothing to say: no data cell but "", "—" or "-". */
static int empty_column(const struct bt_grid *g, size_t c)
{
	size_t i, n = (size_t)g->ncols;

	for (i = n + c; i < g->ncells; i += n) {
		const char *s = g->text.buf + g->off[i];
		if (*s && strcmp(s, "\xe2\x80\x94") && strcmp(s, "-"))
			return 0;
	}
	return 1;
}

/* Which columns fit width: columns with no values go first, then those
 * the table calls spare (right to left); then the widest text column
 * narrows by one at a time (the first not under MIN_TEXT_COLS, the others
 * not under MIN_MORE_COLS); then numbers leave from the right, and only
 * then text (text columns say what a row is: a wait's waker, a method's
 * caller). keep[c] is 1 for a column shown; the first is always kept. */
static void fit(const struct bt_grid *g, size_t *w, size_t width, unsigned char *keep)
{
	size_t n = (size_t)g->ncols, total = 0, c, shown = n;
	int pass;

	for (c = 0; c < n; c++) {
		keep[c] = 1;
		total += w[c] + (c ? 2 : 0);
	}
	for (pass = 0; pass < 2; pass++)
		for (c = n; c-- > 1 && total > width;)
			if (keep[c] && (pass ? g->spare[c] : empty_column(g, c))) {
				keep[c] = 0;
				total -= w[c] + 2;
				shown--;
			}
	while (total > width) {
		size_t widest = n;
		for (c = 0; c < n; c++)
			if (keep[c] && !g->numeric[c] && w[c] > (c ? MIN_MORE_COLS : MIN_TEXT_COLS) &&
			    (widest == n || w[c] > w[widest]))
				widest = c;
		if (widest == n)
			break;
		w[widest]--;
		total--;
	}
	for (pass = 0; pass < 2; pass++)   /* numbers, then text */
		for (c = n; c-- > 1 && total > width && shown > 1;)
			if (keep[c] && (pass || g->numeric[c])) {
				keep[c] = 0;
				total -= w[c] + 2;
				shown--;
			}
}

/* s in at most cols columns. An indented cell (a call tree's) keeps its
 * indentation, at most a third of the width; the rest is cut as its head,
 * "…", and a tail twice as long: the end of a name (the method) tells two
 * names apart more often than its start. */
static void put_cut(FILE *out, const char *s, size_t cols)
{
	size_t len = strlen(s), n = width(s, len), lead = strspn(s, " "), head, tail, i, col = 0;
	const char *p;

	if (n <= cols) {
		fputs(s, out);
		return;
	}
	if (lead) {
		size_t keep = lead < cols / 3 ? lead : cols / 3;
		fprintf(out, "%*s", (int)keep, "");
		s += lead;
		len -= lead;
		n -= lead;
		cols -= keep;
		if (n <= cols) {
			fputs(s, out);
			return;
		}
	}
	head = (cols - 1) / 3;
	tail = cols - 1 - head;
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
	size_t n = (size_t)g->ncols, *w, i, k, row;
	unsigned char *keep;
	struct bt_buf left = BT_BUF_INIT;
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
	keep = bt_xcalloc(n, 1);
	if (limit)
		fit(g, w, limit, keep);
	else
		memset(keep, 1, n);
	for (last = (int)n - 1; last > 0 && !keep[last]; last--)
		;
	for (row = 0; row * n < g->ncells; row++) {
		const char *name = g->text.buf + g->off[row * n];
		int own = row && g->name_lines && width(name, strlen(name)) > w[0];
		if (own) {
			put_cut(out, name, limit);
			fputc('\n', out);
		}
		for (c = 0; c <= last; c++) {
			const char *s = c || !own ? g->text.buf + g->off[row * n + (size_t)c] : "";
			size_t sw = width(s, strlen(s)), pad = sw < w[c] ? w[c] - sw : 0;
			if (!keep[c])
				continue;
			if (row && g->numeric[c]) {
				fprintf(out, "%*s%s", (int)pad, "", s);
			} else {
				put_cut(out, s, w[c]);
				fprintf(out, "%*s", c == last ? 0 : (int)pad, "");
			}
			fputs(c == last ? "\n" : "  ", out);
		}
		for (c = 0; !row && c <= last; c++) {   /* the rule under the header */
			if (!keep[c])
				continue;
			for (k = 0; k < w[c]; k++)
				fputc('-', out);
			fputs(c == last ? "\n" : "  ", out);
		}
	}
	for (k = 0; k < n; k++)
		if (!keep[k])
			bt_buf_addf(&left, " %s", *(g->text.buf + g->off[k]) ? g->text.buf + g->off[k] : "(unnamed)");
	if (left.len) {
		bt_buf_adds(&left, "; --width widens)");
		{
			char lead[48];
			snprintf(lead, sizeof lead, "(left out to fit %zu columns: ", limit);
			bt_text_wrap(out, lead, " ", left.buf, limit);
		}
	}
	bt_buf_release(&left);
	free(keep);
	free(w);
}

void bt_grid_release(struct bt_grid *g)
{
	bt_buf_release(&g->text);
	free(g->off);
	free(g->numeric);
	free(g->spare);
	memset(g, 0, sizeof *g);
}

void bt_text_put(FILE *out, const char *first, const char *indent, const char *text, size_t cols)
{
	if (cols)
		bt_text_wrap(out, first, indent, text, cols);
	else
		fprintf(out, "%s%s\n", first, text);
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
