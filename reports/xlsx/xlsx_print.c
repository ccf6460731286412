/*
 * How the xlsx writers' sheets read on screen and in print (see xlsx.h):
 * a heading over its column's numbers, right-aligned as they are; long
 * text wrapped in its column, its row made as tall as its lines, as
 * LibreOffice does not on its own; paragraphs merged over columns.
 * LibreOffice's PDF is how reviewers print (tests/sh/6050-xlsx-print.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/xlsx/xlsx.h"
#include "reports/xlsx/xlsx_int.h"

/* ---- headers over their columns ---- */

void bt_xlsx_print_count(struct bt_xlsx_sheet *s, int row, int col, int is_num)
{
	struct bt_xlsx_head *h;
	size_t i = s->nheads;

	while (i > 0 && s->heads[i - 1].row >= row)
		i--;
	if (!i)
		return;
	h = &s->heads[i - 1];
	if (row > h->last + 1 || col < 0 || col >= h->ncols)
		return;
	if (row > h->last)
		h->last = row;
	if (is_num)
		h->nums[col]++;
	else
		h->texts[col]++;
}

#define XLSX_COLS 16384   /* a sheet's columns in Excel */

void bt_xlsx_header(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const char *const *heads,
		    int ncols)
{
	struct bt_xlsx_head *h;
	int c;

	if (row >= BT_XLSX_MAX_ROWS)
		return;
	if (ncols > XLSX_COLS)   /* the cells past it are not written */
		ncols = XLSX_COLS;
	s->heads = bt_xrealloc(s->heads, (s->nheads + 1) * sizeof *s->heads);
	h = &s->heads[s->nheads++];
	h->row = h->last = row;
	h->ncols = ncols;
	h->text = bt_xcalloc((size_t)ncols + 1, sizeof *h->text);
	h->nums = bt_xcalloc((size_t)ncols + 1, sizeof *h->nums);
	h->texts = bt_xcalloc((size_t)ncols + 1, sizeof *h->texts);
	for (c = 0; c < ncols; c++) {
		struct bt_buf b = BT_BUF_INIT;
		const char *text = bt_xlsx_cell_text(heads[c], &b);
		worksheet_write_string(s->ws, (lxw_row_t)row, (lxw_col_t)c, text, x->f[BT_XF_HEAD]);
		bt_xlsx_widen(s, row, c, (double)bt_xlsx_chars(text) * 1.2 + 3);   /* room for the filter button */
		h->text[c] = bt_xstrdup(text);
		bt_buf_release(&b);
	}
}

/* Headings over numbers, right-aligned over them: left-aligned, a heading
 * reads as the previous column's, whose numbers end beside it. */
static void align_heads(struct bt_xlsx *x, struct bt_xlsx_sheet *s)
{
	size_t i;
	int c;

	for (i = 0; i < s->nheads; i++) {
		const struct bt_xlsx_head *h = &s->heads[i];
		lxw_format *f = x->f[h->row == s->filter_row ? BT_XF_HEAD_FILTER : BT_XF_HEAD_NUM];
		for (c = 0; c < h->ncols; c++)
			if (h->nums[c] > h->texts[c])
				worksheet_write_string(s->ws, (lxw_row_t)h->row, (lxw_col_t)c, h->text[c], f);
	}
}

/* ---- widths ---- */

/* Column col's width, in digits (the unit of widths). */
static double col_width(const struct bt_xlsx_sheet *s, int col)
{
	return col >= BT_XLSX_MAX_COLS || !s->set[col] ? LXW_DEF_COL_WIDTH : s->set[col];
}

void bt_xlsx_column(struct bt_xlsx_sheet *s, int first, int last, double width)
{
	int c;

	worksheet_set_column(s->ws, (lxw_col_t)first, (lxw_col_t)last, width, NULL);
	for (c = first; c <= last && c < BT_XLSX_MAX_COLS; c++)
		s->set[c] = width;
}

/* ---- wrapped text ---- */

#define LINE_POINTS 15.0   /* a line of 11-point text, as Excel's default row */

/* The characters a line holds in a column this wide. Text averages 1.2
 * characters a digit's width in Calibri, and in the fonts LibreOffice puts
 * for it; 1.1 keeps a margin: a line to spare rather than one cut. */
static int per_line(double column)
{
	int n = (int)((column - 2) * 1.1);   /* less the cell's margins */

	return n < 1 ? 1 : n;
}

/* The lines text takes wrapped in a column this wide, breaking at spaces
 * (and a word longer than a line anywhere, as Excel does). */
static int text_lines(const char *text, double column)
{
	int lines = 1, at = 0, width = per_line(column);

	while (*text) {
		size_t len = strcspn(text, " \n"), i;
		int n = 0;
		for (i = 0; i < len; i++)
			n += ((unsigned char)text[i] & 0xC0) != 0x80;
		if (at && at + 1 + n > width) {   /* the word on a new line */
			lines++;
			at = 0;
		}
		at += (at ? 1 : 0) + n;
		while (at > width) {   /* a word longer than a line */
			lines++;
			at -= width;
		}
		text += len;
		if (*text == '\n') {
			lines++;
			at = 0;
		}
		if (*text)
			text++;
	}
	return lines;
}

void bt_xlsx_print_wrap(struct bt_xlsx_sheet *s, int row, int col, const char *text, size_t n)
{
	struct bt_xlsx_wrap *w;

	BT_GROW(s->wraps, s->nwraps + 1, s->wrap_cap);
	w = &s->wraps[s->nwraps++];
	w->row = row;
	w->col = col;
	w->lines = text_lines(text, BT_XLSX_MAX_WIDTH);
	w->chars = n > 1000000 ? 1000000 : (int)n;
}

static int by_row(const void *a, const void *b)
{
	const struct bt_xlsx_wrap *p = a, *q = b;

	if (p->row != q->row)
		return p->row < q->row ? -1 : 1;
	return (p->col > q->col) - (p->col < q->col);
}

/* Each row of wrapped text as tall as its cell of most lines: counted when
 * written, at the width a column of such text gets (bt_xlsx_widths); in a
 * column made another width, from its characters, a line to spare for the
 * breaks at words. */
static void fit_rows(struct bt_xlsx_sheet *s)
{
	size_t i, j;

	if (s->nwraps)
		qsort(s->wraps, s->nwraps, sizeof *s->wraps, by_row);
	for (i = 0; i < s->nwraps; i = j) {
		int lines = 1;
		for (j = i; j < s->nwraps && s->wraps[j].row == s->wraps[i].row; j++) {
			const struct bt_xlsx_wrap *w = &s->wraps[j];
			double cw = col_width(s, w->col);
			int n = cw == BT_XLSX_MAX_WIDTH ? w->lines : (w->chars + per_line(cw) - 1) / per_line(cw) + 1;
			if (n > lines)
				lines = n;
		}
		if (lines > 1)
			worksheet_set_row(s->ws, (lxw_row_t)s->wraps[i].row, LINE_POINTS * lines, NULL);
	}
}

/* ---- paragraphs ---- */

void bt_xlsx_para(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int first, int last,
		  const char *text)
{
	struct bt_buf b = BT_BUF_INIT;
	struct bt_xlsx_para *p;

	(void)x;
	if (row >= BT_XLSX_MAX_ROWS)
		return;
	s->paras = bt_xrealloc(s->paras, (s->nparas + 1) * sizeof *s->paras);
	p = &s->paras[s->nparas++];
	p->row = row;
	p->first = first;
	p->last = last < first ? first : last;
	p->text = bt_xstrdup(bt_xlsx_cell_text(text, &b));
	bt_xlsx_used(s, row, p->last);
	bt_buf_release(&b);
}

/* Each paragraph merged over its columns, and its row as tall as its lines
 * at their widths (Excel fits no merged cell's row to its text). */
static void lay_paras(struct bt_xlsx *x, struct bt_xlsx_sheet *s)
{
	size_t i;
	int c;

	for (i = 0; i < s->nparas; i++) {
		const struct bt_xlsx_para *p = &s->paras[i];
		double w = 0;
		int lines;
		for (c = p->first; c <= p->last; c++)
			w += col_width(s, c);
		lines = text_lines(p->text, w);
		if (p->first == p->last)
			worksheet_write_string(s->ws, (lxw_row_t)p->row, (lxw_col_t)p->first, p->text,
					       x->f[BT_XF_PARA]);
		else
			worksheet_merge_range(s->ws, (lxw_row_t)p->row, (lxw_col_t)p->first, (lxw_row_t)p->row,
					      (lxw_col_t)p->last, p->text, x->f[BT_XF_PARA]);
		if (lines > 1)
			worksheet_set_row(s->ws, (lxw_row_t)p->row, LINE_POINTS * lines, NULL);
	}
}

/* ---- the sheet, when every cell is written ---- */

void bt_xlsx_print_lay_out(struct bt_xlsx *x, struct bt_xlsx_sheet *s)
{
	align_heads(x, s);
	lay_paras(x, s);
	fit_rows(s);
}

void bt_xlsx_print_release(struct bt_xlsx_sheet *s)
{
	size_t k;
	int c;

	for (k = 0; k < s->nheads; k++) {
		for (c = 0; c < s->heads[k].ncols; c++)
			free(s->heads[k].text[c]);
		free(s->heads[k].text);
		free(s->heads[k].nums);
		free(s->heads[k].texts);
	}
	for (k = 0; k < s->nparas; k++)
		free(s->paras[k].text);
	free(s->heads);
	free(s->paras);
	free(s->wraps);
	s->heads = NULL;
	s->paras = NULL;
	s->wraps = NULL;
	s->nheads = s->nparas = s->nwraps = s->wrap_cap = 0;
}
