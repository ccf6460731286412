/*
 * Markdown as a terminal shows it (md_term.h): what a command writes as
 * Markdown by default (merge) reads on a terminal as the text reports do.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/text/grid.h"
#include "reports/text/md_term.h"

/* s[0..n) without Markdown's backslash escapes and emphasis markers. */
static void plain(const char *s, size_t n, struct bt_buf *b)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n)
			bt_buf_addc(b, s[++i]);
		else if (s[i] != '*' && s[i] != '`')
			bt_buf_addc(b, s[i]);
	}
}

static int is_rule_row(const char *s, size_t n)
{
	return n > 1 && s[0] == '|' && strspn(s, "|-: ") == n;
}

/* The cells of "| a | b \\| c |" (at most BT_MD_TERM_COLS). */
static int row_cells(const char *s, size_t n, struct bt_buf *cells)
{
	size_t i, start = 1, a, z;
	int k = 0;

	while (n && s[n - 1] == ' ')
		n--;
	if (n > 1 && s[n - 1] == '|' && s[n - 2] != '\\')
		n--;   /* the closing bar */
	for (i = 1; i <= n && k < BT_MD_TERM_COLS; i++) {
		if (i < n && s[i] == '\\') {
			i++;
			continue;
		}
		if (i < n && s[i] != '|')
			continue;
		for (a = start, z = i; a < z && s[a] == ' '; a++)
			;
		while (z > a && s[z - 1] == ' ')
			z--;
		bt_buf_reset(&cells[k]);
		plain(s + a, z - a, &cells[k]);
		bt_buf_addc(&cells[k++], '\0');
		start = i + 1;
	}
	return k;
}

static void table(const char *const *line, const size_t *len, size_t n, FILE *out, size_t width)
{
	struct bt_buf cells[BT_MD_TERM_COLS];
	struct bt_grid g;
	int ncols, k;
	size_t i;

	for (k = 0; k < BT_MD_TERM_COLS; k++)
		bt_buf_init(&cells[k]);
	ncols = row_cells(line[0], len[0], cells);
	bt_grid_init(&g, ncols);
	for (i = 0; i < n; i++) {
		int got;
		if (is_rule_row(line[i], len[i]))
			continue;
		got = row_cells(line[i], len[i], cells);
		for (k = 0; k < ncols; k++) {
			const char *c = k < got ? cells[k].buf : "";
			if (i && *c && strspn(c, "0123456789.,+-% msuKMGiBx~e") != strlen(c))
				g.numeric[k] = 0;
			bt_grid_add(&g, c, strlen(c));
		}
	}
	bt_grid_print_fit(&g, out, width);
	bt_grid_release(&g);
	for (k = 0; k < BT_MD_TERM_COLS; k++)
		bt_buf_release(&cells[k]);
}

void bt_md_term(const char *md, size_t len, FILE *out, size_t width)
{
	const char **line = NULL;
	size_t *llen = NULL, n = 0, cap = 0, lcap = 0, i = 0, at = 0;
	struct bt_buf b = BT_BUF_INIT;

	while (at < len) {   /* lines */
		const char *nl = memchr(md + at, '\n', len - at);
		size_t l = nl ? (size_t)(nl - (md + at)) : len - at;
		BT_GROW(line, n + 1, cap);
		BT_GROW(llen, n + 1, lcap);
		line[n] = md + at;
		llen[n++] = l;
		at += l + 1;
	}
	while (i < n) {
		if (llen[i] && line[i][0] == '|') {   /* a table: its run of rows */
			size_t j = i;
			while (j < n && llen[j] && line[j][0] == '|')
				j++;
			table(line + i, llen + i, j - i, out, width);
			i = j;
			continue;
		}
		bt_buf_reset(&b);
		plain(line[i], llen[i], &b);
		bt_buf_addc(&b, '\0');
		if (!llen[i])
			fputc('\n', out);
		else
			bt_text_wrap(out, "", "  ", b.buf, width);
		i++;
	}
	bt_buf_release(&b);
	free(line);
	free(llen);
}
