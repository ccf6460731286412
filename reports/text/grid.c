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

void bt_grid_print(const struct bt_grid *g, FILE *out)
{
	size_t n = (size_t)g->ncols, *w, i, k;
	int c;

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
	for (i = 0; i < g->ncells; i++) {
		const char *s = g->text.buf + g->off[i];
		size_t pad = w[i % n] - width(s, strlen(s));
		c = (int)(i % n);
		if (i >= n && g->numeric[c])
			fprintf(out, "%*s%s", (int)pad, "", s);
		else
			fprintf(out, "%s%*s", s, c == g->ncols - 1 ? 0 : (int)pad, "");
		fputs(c == g->ncols - 1 ? "\n" : "  ", out);
		if (i == n - 1) {
			for (c = 0; c < g->ncols; c++) {
				for (k = 0; k < w[c]; k++)
					fputc('-', out);
				fputs(c == g->ncols - 1 ? "\n" : "  ", out);
			}
		}
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
