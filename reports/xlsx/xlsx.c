/*
 * The xlsx writers' shared part (see xlsx.h). libxlsxwriter 1.1 writes
 * only to a named file, so the workbook goes to a temporary file that is
 * then copied to the reporter's stream, which the caller renames into
 * place: a failed run still leaves nothing behind.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/temps.h"
#include "engine/base/utf8.h"
#include "reports/report.h"
#include "reports/xlsx/xlsx.h"
#include "reports/xlsx/xlsx_int.h"

#define MAX_CELL_CHARS 32767   /* Excel's limit on a cell's text */
#define MAX_WIDTH ((double)BT_XLSX_MAX_WIDTH)
#define MIN_WIDTH 6.0
#define PAPER_A4 9
#define CHART_COLS 8    /* a chart at scale 1 covers about 8 columns ... */
#define CHART_ROWS 15   /* ... and 15 rows */

/* Every format puts its cells at the top of the row: a row made tall by
 * wrapped text reads line by line, its other cells beside the first. */
static lxw_format *fmt(lxw_workbook *wb, const char *num, int bold)
{
	lxw_format *f = workbook_add_format(wb);

	format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
	if (num)
		format_set_num_format(f, num);
	if (bold)
		format_set_bold(f);
	return f;
}

static lxw_format *fill(lxw_workbook *wb, lxw_color_t bg, lxw_color_t fg)
{
	lxw_format *f = fmt(wb, NULL, 0);

	format_set_bg_color(f, bg);
	format_set_font_color(f, fg);
	return f;
}

static lxw_format *head(lxw_workbook *wb)
{
	lxw_format *f = fmt(wb, NULL, 1);

	format_set_bg_color(f, 0xD9E1F2);
	format_set_bottom(f, LXW_BORDER_THIN);
	return f;
}

/* A heading over numbers keeps an indent (about 3 spaces) from its right
 * edge, apart from the next column's left-aligned heading; 2 beside
 * Excel's filter button, which covers a cell's right ~17 px. */
#define HEAD_INDENT 1
#define FILTER_INDENT 2

static void formats(struct bt_xlsx *x)
{
	lxw_workbook *wb = x->wb;

	x->f[BT_XF_TITLE] = fmt(wb, NULL, 1);
	format_set_font_size(x->f[BT_XF_TITLE], 14);
	x->f[BT_XF_SECTION] = fmt(wb, NULL, 1);
	format_set_font_size(x->f[BT_XF_SECTION], 12);
	x->f[BT_XF_HEAD] = head(wb);
	x->f[BT_XF_TEXT] = fmt(wb, NULL, 0);
	x->f[BT_XF_INT] = fmt(wb, "0", 0);
	x->f[BT_XF_P] = fmt(wb, "0.0000", 0);
	x->f[BT_XF_RED] = fill(wb, 0xFFC7CE, 0x9C0006);
	x->f[BT_XF_GREEN] = fill(wb, 0xC6EFCE, 0x006100);
	x->f[BT_XF_AMBER] = fill(wb, 0xFFEB9C, 0x9C5700);
	x->f[BT_XF_BLUE] = fill(wb, 0xDDEBF7, 0x1F4E78);
	x->f[BT_XF_LINK] = fmt(wb, NULL, 0);
	format_set_font_color(x->f[BT_XF_LINK], LXW_COLOR_BLUE);
	format_set_underline(x->f[BT_XF_LINK], LXW_UNDERLINE_SINGLE);
	x->f[BT_XF_HEAD_NUM] = head(wb);
	format_set_align(x->f[BT_XF_HEAD_NUM], LXW_ALIGN_RIGHT);
	format_set_indent(x->f[BT_XF_HEAD_NUM], HEAD_INDENT);
	x->f[BT_XF_HEAD_FILTER] = head(wb);
	format_set_align(x->f[BT_XF_HEAD_FILTER], LXW_ALIGN_RIGHT);
	format_set_indent(x->f[BT_XF_HEAD_FILTER], FILTER_INDENT);
	x->f[BT_XF_WRAP] = fmt(wb, NULL, 0);
	format_set_text_wrap(x->f[BT_XF_WRAP]);
	x->f[BT_XF_PARA] = fmt(wb, NULL, 0);
	format_set_text_wrap(x->f[BT_XF_PARA]);
	x->f[BT_XF_NA] = fmt(wb, NULL, 0);
	format_set_align(x->f[BT_XF_NA], LXW_ALIGN_RIGHT);
}

int bt_xlsx_open(struct bt_xlsx *x, const char *title, struct bt_err *err)
{
	lxw_doc_properties props;
	struct bt_buf path = BT_BUF_INIT;
	int fd;

	memset(x, 0, sizeof *x);
	if (bt_lxw_load(err))
		return err->code;
	fd = bt_temp_file("btrace-analyze-xlsx", "a temporary file for the xlsx workbook", &path, err);
	if (fd < 0)
		return err->code;
	close(fd);
	x->tmp = bt_buf_detach(&path, NULL);
	x->wb = workbook_new(x->tmp);
	if (!x->wb) {
		bt_err_set(err, BT_EIO, "cannot start the xlsx workbook '%s': %s", x->tmp,
			   errno ? strerror(errno) : "out of memory");
		bt_xlsx_discard(x);
		return err->code;
	}
	memset(&props, 0, sizeof props);
	props.title = (char *)title;
	props.author = (char *)"btrace-analyze";
	props.created = BT_XLSX_CREATED;
	workbook_set_properties(x->wb, &props);
	formats(x);
	return BT_OK;
}

static int copy_out(const char *path, FILE *out, struct bt_err *err)
{
	FILE *in = fopen(path, "rb");
	char buf[1 << 16];
	size_t n;
	int bad = 0;

	if (!in)
		return bt_err_set(err, BT_EIO, "cannot read back the xlsx workbook '%s': %s", path,
				  strerror(errno));
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		bad |= fwrite(buf, 1, n, out) != n;
	bad |= ferror(in);
	fclose(in);
	return bad ? bt_err_set(err, BT_EIO, "cannot write the xlsx workbook: %s", strerror(errno)) : BT_OK;
}

/* Each sheet prints its used range, charts included, and nothing more. */
static void print_areas(struct bt_xlsx *x)
{
	size_t i;

	for (i = 0; i < x->nsheets; i++) {
		const struct bt_xlsx_sheet *s = x->sheets[i];
		if (s->rows > 0 && s->cols > 0)
			worksheet_print_area(s->ws, 0, 0, (lxw_row_t)(s->rows - 1), (lxw_col_t)(s->cols - 1));
	}
}

int bt_xlsx_finish(struct bt_xlsx *x, FILE *out, struct bt_err *err)
{
	lxw_error e;
	size_t i;
	int rc;

	for (i = 0; i < x->nsheets; i++)
		bt_xlsx_print_lay_out(x, x->sheets[i]);
	print_areas(x);
	e = workbook_close(x->wb);

	x->wb = NULL;
	if (e != LXW_NO_ERROR)
		rc = bt_err_set(err, BT_EIO, "cannot write the xlsx workbook to '%s': %s (%s)", x->tmp,
				lxw_strerror(e), errno ? strerror(errno) : "no system error");
	else
		rc = copy_out(x->tmp, out, err);
	bt_xlsx_discard(x);
	return rc;
}

void bt_xlsx_discard(struct bt_xlsx *x)
{
	size_t i;

	if (x->wb)   /* libxlsxwriter frees a workbook only by closing it */
		workbook_close(x->wb);
	if (x->tmp)
		bt_temps_remove(x->tmp);
	free(x->tmp);
	for (i = 0; i < x->nsheets; i++) {
		bt_xlsx_print_release(x->sheets[i]);
		free(x->sheets[i]->name);
		free(x->sheets[i]);
	}
	free(x->sheets);
	memset(x, 0, sizeof *x);
}

/* ---- sheets ---- */

static int taken(const struct bt_xlsx *x, const char *name)
{
	size_t i;

	if (!strcasecmp(name, "History"))   /* Excel keeps it for itself */
		return 1;
	for (i = 0; i < x->nsheets; i++)
		if (!strcasecmp(x->sheets[i]->name, name))   /* Excel's names ignore case */
			return 1;
	return 0;
}

/* Pages people print: landscape A4, one page wide (tables grow down, not
 * across), narrow margins, the sheet's name and the page in the footer. */
static void page_setup(lxw_worksheet *ws)
{
	worksheet_set_landscape(ws);
	worksheet_set_paper(ws, PAPER_A4);
	worksheet_fit_to_pages(ws, 1, 0);
	worksheet_set_margins(ws, 0.4, 0.4, 0.5, 0.6);
	worksheet_set_footer(ws, "&L&A&RPage &P of &N");
}

/* The first max characters of s (UTF-8), cut at a character boundary. */
static size_t utf8_prefix(const char *s, size_t max)
{
	size_t i = 0, chars = 0;

	while (s[i] && chars < max) {
		i++;
		while (((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

struct bt_xlsx_sheet *bt_xlsx_sheet(struct bt_xlsx *x, const char *name)
{
	struct bt_buf clean = BT_BUF_INIT, b = BT_BUF_INIT;
	struct bt_xlsx_sheet *s;
	size_t i;
	int k;

	bt_utf8_sanitize(&clean, name, strlen(name));
	for (i = 0; i < clean.len; i++)
		if (strchr("[]:*?/\\", clean.buf[i]) || (unsigned char)clean.buf[i] < 0x20)
			clean.buf[i] = '_';
	if (clean.len && clean.buf[0] == '\'')
		clean.buf[0] = '_';
	for (k = 1;; k++) {
		char suffix[16] = "";
		bt_buf_reset(&b);
		if (k > 1)
			snprintf(suffix, sizeof suffix, " (%d)", k);
		bt_buf_add(&b, clean.buf, utf8_prefix(clean.buf, 31 - strlen(suffix)));
		if (!b.len)
			bt_buf_adds(&b, "Sheet");
		while (b.len && b.buf[b.len - 1] == '\'')   /* nor end with a quote */
			b.buf[--b.len] = '\0';
		bt_buf_adds(&b, suffix);
		if (!taken(x, b.buf))
			break;
	}
	bt_buf_release(&clean);
	s = bt_xcalloc(1, sizeof *s);   /* by pointer: callers keep it across new sheets */
	s->name = bt_buf_detach(&b, NULL);
	s->filter_row = -1;
	s->ws = workbook_add_worksheet(x->wb, s->name);
	for (k = 1; !s->ws; k++) {   /* a name libxlsxwriter refuses after all */
		bt_buf_reset(&b);
		bt_buf_addf(&b, "Sheet%zu.%d", x->nsheets + 1, k);
		free(s->name);
		s->name = bt_xstrdup(b.buf);
		s->ws = workbook_add_worksheet(x->wb, s->name);
	}
	bt_buf_release(&b);
	page_setup(s->ws);
	x->sheets = bt_xrealloc(x->sheets, (x->nsheets + 1) * sizeof *x->sheets);
	x->sheets[x->nsheets++] = s;
	return s;
}

/* ---- cells ---- */

void bt_xlsx_used(struct bt_xlsx_sheet *s, int row, int col)
{
	if (row >= s->rows)
		s->rows = row + 1;
	if (col >= s->cols)
		s->cols = col + 1;
}

void bt_xlsx_widen(struct bt_xlsx_sheet *s, int row, int col, double chars)
{
	bt_xlsx_used(s, row, col);
	if (col < 0 || col >= BT_XLSX_MAX_COLS)
		return;
	if (col >= s->ncols)
		s->ncols = col + 1;
	if (chars > s->width[col])
		s->width[col] = chars;
}

size_t bt_xlsx_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

const char *bt_xlsx_cell_text(const char *text, struct bt_buf *b)
{
	size_t len = strlen(text);

	if (!bt_utf8_valid(text, len)) {
		bt_utf8_sanitize(b, text, len);
		text = b->buf;
	}
	if (bt_xlsx_chars(text) > MAX_CELL_CHARS) {
		if (text != b->buf)
			bt_buf_add(b, text, len);
		b->len = utf8_prefix(b->buf, MAX_CELL_CHARS);
		b->buf[b->len] = '\0';
		text = b->buf;
	}
	return text;
}

void bt_xlsx_text(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const char *text,
		  enum bt_xlsx_fmt f)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t n;

	if (row >= BT_XLSX_MAX_ROWS)
		return;
	text = bt_xlsx_cell_text(text, &b);
	n = bt_xlsx_chars(text);
	if (f == BT_XF_TEXT && n >= BT_XLSX_MAX_WIDTH && col < BT_XLSX_MAX_COLS && s->folded[col] != 1) {
		f = BT_XF_WRAP;   /* longer than its column may be: cut by the next cell or the page */
		bt_xlsx_print_wrap(s, row, col, text, n);
	}
	worksheet_write_string(s->ws, (lxw_row_t)row, (lxw_col_t)col, text, x->f[f]);
	bt_xlsx_widen(s, row, col, (double)n * (f == BT_XF_HEAD || f == BT_XF_SECTION ? 1.2 : 1.0));
	bt_xlsx_print_count(s, row, col, 0);
	bt_buf_release(&b);
}

void bt_xlsx_text_indent(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const char *text,
			 int level)
{
	struct bt_buf b = BT_BUF_INIT;
	lxw_format **f;

	if (row >= BT_XLSX_MAX_ROWS)
		return;
	level = level < 0 ? 0 : level > BT_XLSX_MAX_INDENT ? BT_XLSX_MAX_INDENT : level;
	f = &x->indent[level];
	if (!*f) {
		*f = fmt(x->wb, NULL, 0);
		format_set_indent(*f, (uint8_t)level);
	}
	text = bt_xlsx_cell_text(text, &b);
	worksheet_write_string(s->ws, (lxw_row_t)row, (lxw_col_t)col, text, *f);
	bt_xlsx_widen(s, row, col, (double)bt_xlsx_chars(text) + 2.0 * level);   /* an indent is about 2 characters */
	bt_xlsx_print_count(s, row, col, 0);
	bt_buf_release(&b);
}

void bt_xlsx_heading(const char *column, enum bt_unit u, struct bt_buf *b)
{
	size_t n = strlen(column);

	if (u != BT_UNIT_BYTES) {
		bt_format_heading(column, u, b);
		return;
	}
	if (n > 6 && !strcmp(column + n - 6, "_bytes"))
		n -= 6;
	else if (!strcmp(column, "bytes"))
		n = 0;
	bt_buf_add(b, column, n);
	bt_buf_adds(b, n ? " MiB" : "MiB");
}

double bt_xlsx_scale(double v, enum bt_unit u)
{
	if (u == BT_UNIT_NS)
		return v / 1e6;
	if (u == BT_UNIT_BYTES)
		return v / BT_XLSX_MIB;
	if (u == BT_UNIT_PCT)
		return v / 100;
	return v;
}

const char *bt_xlsx_unit_name(enum bt_unit u)
{
	return u == BT_UNIT_NS ? "ms" : u == BT_UNIT_BYTES ? "MiB" : bt_unit_name(u);
}

/* Numbers read as the text reports them: ms with thousands separators,
 * bytes in MiB (binary, as every report has them: Excel's ',' scaling
 * divides only by 1000, so the value is MiB, bytes / 2^20 exactly),
 * percentages. A change shows its sign. */
static const char *const num_format[BT_UNIT_COUNT + 1][2] = {
	[BT_UNIT_NONE] = { "#,##0.####", "+#,##0.####;-#,##0.####;0" },
	[BT_UNIT_NS] = { "#,##0.00", "+#,##0.00;-#,##0.00;0.00" },
	[BT_UNIT_BYTES] = { "#,##0.0\" MiB\"", "+#,##0.0\" MiB\";-#,##0.0\" MiB\";0.0\" MiB\"" },
	[BT_UNIT_PCT] = { "0.0%", "+0.0%;-0.0%;0.0%" },
	[BT_UNIT_COUNT] = { "#,##0", "+#,##0;-#,##0;0" },
};

lxw_format *bt_xlsx_unit_format(struct bt_xlsx *x, enum bt_unit u, int sign, enum bt_xlsx_tone t)
{
	static const lxw_color_t tone_color[3] = { 0, 0xC00000, 0x00B050 };
	lxw_format **f = &x->num[u][sign != 0][t];

	if (!*f) {
		*f = fmt(x->wb, num_format[u][sign != 0], 0);
		if (t != BT_XT_PLAIN)
			format_set_font_color(*f, tone_color[t]);
	}
	return *f;
}

void bt_xlsx_num_fmt(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v,
		     lxw_format *f, int chars)
{
	(void)x;
	if (row >= BT_XLSX_MAX_ROWS)
		return;
	worksheet_write_number(s->ws, (lxw_row_t)row, (lxw_col_t)col, v, f);
	bt_xlsx_widen(s, row, col, chars);
	bt_xlsx_print_count(s, row, col, 1);
}

/* About how many characters the number shows in its format. */
static int shown_chars(double v, enum bt_unit u)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof tmp, u == BT_UNIT_NS ? "%.2f" : u == BT_UNIT_BYTES ? "%.1f" : "%.0f", v);

	return n + n / 3 + 1;   /* thousands separators, a unit */
}

void bt_xlsx_num(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v, enum bt_unit u)
{
	double shown = bt_xlsx_scale(v, u);

	bt_xlsx_num_fmt(x, s, row, col, shown, u == BT_UNIT_NONE && shown == floor(shown) &&
			fabs(shown) < 1e15 ? x->f[BT_XF_INT] : bt_xlsx_unit_format(x, u, 0, BT_XT_PLAIN),
			shown_chars(shown, u) + (u == BT_UNIT_BYTES ? 4 : 0));   /* " MiB" */
}

void bt_xlsx_value(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col,
		   const struct bt_value *v, enum bt_unit u)
{
	switch (v->type) {
	case BT_V_NULL:
		if (u != BT_UNIT_NONE && row < BT_XLSX_MAX_ROWS) {   /* a measure the trace does not give
								       * (CPU time): never 0, and under the
								       * others' numbers, counted as none */
			worksheet_write_string(s->ws, (lxw_row_t)row, (lxw_col_t)col, BT_UNKNOWN, x->f[BT_XF_NA]);
			bt_xlsx_widen(s, row, col, 1);
		}
		return;
	case BT_V_INT:
		bt_xlsx_num(x, s, row, col, (double)v->u.i, u);
		return;
	case BT_V_REAL:
		bt_xlsx_num(x, s, row, col, v->u.d, u);
		return;
	default:
		bt_xlsx_text(x, s, row, col, v->u.s, BT_XF_TEXT);
	}
}

void bt_xlsx_comment(struct bt_xlsx_sheet *s, int row, int col, const char *text)
{
	struct bt_buf b = BT_BUF_INIT;

	if (row < BT_XLSX_MAX_ROWS)
		worksheet_write_comment(s->ws, (lxw_row_t)row, (lxw_col_t)col, bt_xlsx_cell_text(text, &b));
	bt_buf_release(&b);
}

void bt_xlsx_fold_columns(struct bt_xlsx_sheet *s, int first, int last)
{
	int c;

	for (c = first; c <= last && c < BT_XLSX_MAX_COLS; c++)
		s->folded[c] = 1;
	if (last + 1 < BT_XLSX_MAX_COLS)
		s->folded[last + 1] = 2;
	if (last + 2 > s->ncols && last + 1 < BT_XLSX_MAX_COLS)
		s->ncols = last + 2;
}

void bt_xlsx_widths(struct bt_xlsx_sheet *s)
{
	lxw_row_col_options opt;
	int c;

	for (c = 0; c < s->ncols; c++) {
		double w = s->width[c] + 1;
		w = w < MIN_WIDTH ? MIN_WIDTH : w > MAX_WIDTH ? MAX_WIDTH : w;
		memset(&opt, 0, sizeof opt);
		opt.hidden = opt.level = s->folded[c] == 1;
		opt.collapsed = s->folded[c] == 2;
		worksheet_set_column_opt(s->ws, (lxw_col_t)c, (lxw_col_t)c, w, NULL, &opt);
		s->set[c] = w;
	}
}

void bt_xlsx_table_frame(struct bt_xlsx_sheet *s, int head, int last, int ncols)
{
	if (ncols > 0)
		s->filter_row = head;
	worksheet_freeze_panes(s->ws, (lxw_row_t)(head + 1), 0);
	worksheet_repeat_rows(s->ws, 0, (lxw_row_t)head);   /* the title and the header */
	if (ncols > 0)
		worksheet_autofilter(s->ws, (lxw_row_t)head, 0, (lxw_row_t)(last < head ? head : last),
				     (lxw_col_t)(ncols - 1));
}

void bt_xlsx_chart(struct bt_xlsx_sheet *s, int row, int col, lxw_chart *ch, double x_scale, double y_scale)
{
	lxw_chart_options opt;

	memset(&opt, 0, sizeof opt);
	opt.x_scale = x_scale;
	opt.y_scale = y_scale;
	worksheet_insert_chart_opt(s->ws, (lxw_row_t)row, (lxw_col_t)col, ch, &opt);
	bt_xlsx_used(s, row + (int)ceil(CHART_ROWS * y_scale), col + (int)ceil(CHART_COLS * x_scale));
}

void bt_xlsx_hot(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int col, int first, int last, int n)
{
	lxw_conditional_format cf;

	if (last < first)
		return;
	memset(&cf, 0, sizeof cf);
	cf.type = LXW_CONDITIONAL_TYPE_TOP;
	cf.value = n;
	cf.format = x->f[BT_XF_RED];
	worksheet_conditional_format_range(s->ws, (lxw_row_t)first, (lxw_col_t)col, (lxw_row_t)last,
					   (lxw_col_t)col, &cf);
}

void bt_xlsx_link(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col,
		  const struct bt_xlsx_sheet *to, const char *text)
{
	struct bt_buf url = BT_BUF_INIT, b = BT_BUF_INIT;
	const char *p;

	text = bt_xlsx_cell_text(text, &b);
	bt_buf_adds(&url, "internal:'");
	for (p = to->name; *p; p++) {
		if (*p == '\'')   /* a quote in a quoted sheet name doubles */
			bt_buf_addc(&url, '\'');
		bt_buf_addc(&url, *p);
	}
	bt_buf_adds(&url, "'!A1");
	worksheet_write_url_opt(s->ws, (lxw_row_t)row, (lxw_col_t)col, url.buf, x->f[BT_XF_LINK], text, NULL);
	bt_xlsx_widen(s, row, col, (double)bt_xlsx_chars(text));
	bt_xlsx_print_count(s, row, col, 0);
	bt_buf_release(&url);
	bt_buf_release(&b);
}
