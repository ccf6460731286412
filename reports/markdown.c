/*
 * Markdown table primitives (markdown.h), for every report written as
 * Markdown: the analysis's, the comparison's, the fleet's, startup's.
 */
#include <string.h>

#include "reports/markdown.h"

void bt_md_put(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else if (strchr("\\`*_|<>[]#", *s))
			fprintf(out, "\\%c", *s);
		else
			fputc(*s, out);
	}
}

void bt_md_head(FILE *out, const char *const *h, int n, const char *align)
{
	int k;

	for (k = 0; k < n; k++) {
		fputs("| ", out);
		bt_md_put(out, h[k]);
		fputc(' ', out);
	}
	fputs("|\n", out);
	for (k = 0; k < n; k++)
		fputs(align[k] == 'r' ? "|---:" : "|---", out);
	fputs("|\n", out);
}

void bt_md_row(FILE *out, const struct bt_buf *cell, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		fputs("| ", out);
		bt_md_put(out, cell[k].buf);
		fputc(' ', out);
	}
	fputs("|\n", out);
}

size_t bt_md_lines_within(const char *text, size_t len, size_t room)
{
	size_t n = 0, i;

	for (i = 0; i < len && i < room; i++)
		if (text[i] == '\n')
			n = i + 1;
	return n;
}
