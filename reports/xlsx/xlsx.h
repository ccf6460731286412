/*
 * What the xlsx writers (the report, rep_xlsx.c; compare, cmp_xlsx.c;
 * the fleet, fl_xlsx.c) share: a libxlsxwriter workbook written to a
 * temporary file and copied to the reporter's stream, the number formats by
 * unit, sheet names Excel accepts, column widths that follow the content,
 * and sheets that read whole in print (xlsx_print.c): headings over their
 * numbers, long text wrapped in rows tall enough, paragraphs.
 *
 * The bytes are the same for the same input: the document time is fixed
 * and libxlsxwriter stamps its zip entries with a constant date.
 */
#ifndef BT_XLSX_H
#define BT_XLSX_H

#include <stdio.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"
#include "engine/base/result.h"
#include "reports/xlsx/lxw.h"

/* The document's creation time: 2000-01-01T00:00:00Z, whatever the day. */
#define BT_XLSX_CREATED 946684800

#define BT_XLSX_MAX_ROWS 1048576   /* Excel's limit, header included */
#define BT_XLSX_MAX_COLS 64        /* columns whose widths are tracked */
#define BT_XLSX_MAX_WIDTH 60       /* a tracked column's widest, in characters */

enum bt_xlsx_fmt {
	BT_XF_TITLE, BT_XF_SECTION, BT_XF_HEAD, BT_XF_TEXT, BT_XF_INT, BT_XF_P,
	BT_XF_RED, BT_XF_GREEN, BT_XF_AMBER, BT_XF_BLUE,   /* verdict, severity and hot-cell fills */
	BT_XF_LINK,
	/* the shared part's own: */
	BT_XF_HEAD_NUM,      /* a header over numbers: right-aligned, over them */
	BT_XF_HEAD_FILTER,   /* and under an autofilter: clear of its button */
	BT_XF_WRAP,          /* long text, wrapped in its column */
	BT_XF_PARA,          /* a paragraph's merged cell */
	BT_XF_NA,            /* the dash of an unknown measure, under its column's numbers */
	BT_XF__COUNT
};

#define BT_XLSX_MAX_INDENT 15   /* Excel's deepest cell indent */

/* A header row and what the cells under it hold, column by column: the
 * rows below it, up to the first gap. */
struct bt_xlsx_head {
	int row, last;        /* the header's row; the last row under it so far */
	int ncols;
	char **text;          /* the headings; owned */
	int *nums, *texts;    /* per column: number and text cells under it */
};

/* A cell of wrapped text: its row is made tall enough at bt_xlsx_finish. */
struct bt_xlsx_wrap {
	int row, col;
	int lines;            /* at BT_XLSX_MAX_WIDTH, the width its column gets */
	int chars;
};

/* A paragraph: text over merged columns, laid out at bt_xlsx_finish. */
struct bt_xlsx_para {
	int row, first, last;
	char *text;           /* owned */
};

struct bt_xlsx_sheet {
	lxw_worksheet *ws;
	char *name;                       /* as Excel knows it; owned */
	double width[BT_XLSX_MAX_COLS];   /* widest cell so far, in characters */
	double set[BT_XLSX_MAX_COLS];     /* the width applied (0: Excel's default) */
	unsigned char folded[BT_XLSX_MAX_COLS];   /* 1: in a folded column group (hidden); 2: the
						   * column after one (its "+") */
	int ncols;
	int rows, cols;                   /* the used range, charts included: the print area */
	int filter_row;                   /* the autofilter's header row, or -1 */
	struct bt_xlsx_head *heads;
	size_t nheads;
	struct bt_xlsx_para *paras;
	size_t nparas;
	struct bt_xlsx_wrap *wraps;
	size_t nwraps, wrap_cap;
};

/* The tone of a number: plain, or the colour of a change for the worse
 * or for the better. */
enum bt_xlsx_tone { BT_XT_PLAIN, BT_XT_WORSE, BT_XT_BETTER };

struct bt_xlsx {
	lxw_workbook *wb;
	char *tmp;                 /* the workbook's temporary path */
	lxw_format *f[BT_XF__COUNT];
	lxw_format *num[BT_UNIT_COUNT + 1][2][3];   /* by unit, signed, tone; made on use */
	lxw_format *indent[BT_XLSX_MAX_INDENT + 1];   /* text indented by level; made on use */
	struct bt_xlsx_sheet **sheets;
	size_t nsheets;
};

/* A workbook on a temporary file, its formats and fixed properties
 * (title as given). */
int bt_xlsx_open(struct bt_xlsx *x, const char *title, struct bt_err *err);
/* Close the workbook and copy its bytes to out; the temporary file goes. */
int bt_xlsx_finish(struct bt_xlsx *x, FILE *out, struct bt_err *err);
/* Free everything and remove the temporary file (safe after finish). */
void bt_xlsx_discard(struct bt_xlsx *x);

/* A new sheet named after name: characters Excel refuses become '_', the
 * length is cut to 31, and a clash gets a " (2)" suffix. Never NULL.
 * Every sheet prints landscape on A4, one page wide and as many tall, with
 * its name and page numbers in the footer; bt_xlsx_finish sets each print
 * area to its used range. */
struct bt_xlsx_sheet *bt_xlsx_sheet(struct bt_xlsx *x, const char *name);

/* Cells. Widths are tracked; bt_xlsx_widths applies them. Every cell sits
 * at the top of its row, so a row made tall by wrapped text reads line by
 * line. Plain text (BT_XF_TEXT) of BT_XLSX_MAX_WIDTH characters or more in
 * a tracked column wraps there, and bt_xlsx_finish makes its row as tall
 * as its lines (LibreOffice fits no row to wrapped text on its own), so it
 * is never cut by the next cell or the page's edge; unless the column is
 * folded away: it does not print. */
void bt_xlsx_text(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const char *text,
		  enum bt_xlsx_fmt f);
/* A number in unit u: ns shown as ms, bytes as MiB, pct (0-100) as a
 * percentage. */
void bt_xlsx_num(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v, enum bt_unit u);
/* A number with an explicit format (a fill over a unit's format, say). */
void bt_xlsx_num_fmt(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, double v,
		     lxw_format *f, int chars);
void bt_xlsx_value(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col,
		   const struct bt_value *v, enum bt_unit u);
/* Text indented by level (capped at BT_XLSX_MAX_INDENT), e.g. a call
 * tree's method under its caller. */
void bt_xlsx_text_indent(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const char *text,
			 int level);
/* A header row of ncols cells at row. A heading over a column of numbers
 * (more number cells than text under it, down to the first empty row) is
 * right-aligned over them, as people print tables: bt_xlsx_finish decides,
 * when every cell is written. */
void bt_xlsx_header(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const char *const *heads,
		    int ncols);
/* A paragraph: text in one cell merged over columns first..last of row,
 * wrapped, and the row as tall as its lines, for a headline or a note
 * longer than its columns (Excel fits no merged cell's row to its text).
 * Laid out by bt_xlsx_finish, at the columns' widths then. */
void bt_xlsx_para(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int first, int last,
		  const char *text);
/* Columns first..last this wide (in characters), untracked. */
void bt_xlsx_column(struct bt_xlsx_sheet *s, int first, int last, double width);
/* A link at (row, col) showing text that opens sheet to. */
void bt_xlsx_link(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col,
		  const struct bt_xlsx_sheet *to, const char *text);
/* A note on a cell (Excel's comment, shown on hover). */
void bt_xlsx_comment(struct bt_xlsx_sheet *s, int row, int col, const char *text);
/* Fold columns first..last away: one outline group, collapsed (hidden,
 * not printed; Excel's "+" shows them). bt_xlsx_widths applies it. Call it
 * before writing the columns' cells: their text does not wrap. */
void bt_xlsx_fold_columns(struct bt_xlsx_sheet *s, int first, int last);
/* Column widths from the widest cells (capped), applied once at the end. */
void bt_xlsx_widths(struct bt_xlsx_sheet *s);
/* Freeze the rows down to the header at head, print them on every page
 * and put an autofilter over rows head..last. */
void bt_xlsx_table_frame(struct bt_xlsx_sheet *s, int head, int last, int ncols);
/* Insert chart ch at (row, col), scaled; the print area grows to hold it. */
void bt_xlsx_chart(struct bt_xlsx_sheet *s, int row, int col, lxw_chart *ch, double x_scale, double y_scale);
/* Highlight the top n cells of a numeric column in rows first..last. */
void bt_xlsx_hot(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int col, int first, int last, int n);

/* The format of unit u's numbers, with a sign (for changes) or not, in a
 * tone. Unit none shows integers whole. */
lxw_format *bt_xlsx_unit_format(struct bt_xlsx *x, enum bt_unit u, int sign, enum bt_xlsx_tone t);
/* Bytes are shown in MiB: the cell holds bytes / 2^20, exactly (a power of
 * two), so the bytes are the value times BT_XLSX_MIB. */
#define BT_XLSX_MIB 1048576.0

/* A column heading: bt_format_heading's, and bytes columns say MiB
 * ("alloc_bytes" reads "alloc MiB"), as their cells hold MiB. */
void bt_xlsx_heading(const char *column, enum bt_unit u, struct bt_buf *b);
/* The value shown for v in unit u (ns -> ms, bytes -> MiB, pct -> fraction). */
double bt_xlsx_scale(double v, enum bt_unit u);
/* What a sheet calls unit u's values: "ms", "MiB", else its name. */
const char *bt_xlsx_unit_name(enum bt_unit u);

#endif
