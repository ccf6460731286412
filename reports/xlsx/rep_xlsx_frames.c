/*
 * The report workbook's Frames sheet (see rep_xlsx_int.h): every row of
 * ui_frames, one a row, under a frozen header with an autofilter, so a
 * review can sort and filter all the frames, not only the worst the
 * frames table lists.
 */
#include "reports/xlsx/rep_xlsx_int.h"

#define NCOLS 12
#define TOP_HOT 10   /* the longest frames highlighted */

static const char *const heads[NCOLS] = { "frame", "vsync", "at ms", "frame ms", "main thread ms",
					  "expected at ms", "deadline at ms", "janky", "missed vsyncs",
					  "draw at ms", "draw ms", "cause" };

/* Frame r (a row of BT_SQL_UI_FRAMES_ALL) at row. */
static void frame(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, struct bt_rows *r, int64_t t0)
{
	int64_t ts = bt_rows_int(r, 2);
	int janky = bt_rows_int(r, 9) != 0;

	bt_xlsx_num(x, s, row, 0, (double)bt_rows_int(r, 0), BT_UNIT_NONE);
	if (bt_rows_type(r, 3) != BT_ROWS_NULL)
		bt_xlsx_num(x, s, row, 1, (double)bt_rows_int(r, 3), BT_UNIT_NONE);
	bt_xlsx_num(x, s, row, 2, (double)bt_sat_sub(ts, t0), BT_UNIT_NS);
	bt_xlsx_num(x, s, row, 3, (double)bt_sat_sub(bt_rows_int(r, 5), ts), BT_UNIT_NS);
	bt_xlsx_num(x, s, row, 4, (double)bt_rows_int(r, 4), BT_UNIT_NS);
	bt_xlsx_num(x, s, row, 5, (double)bt_sat_sub(bt_rows_int(r, 7), t0), BT_UNIT_NS);
	bt_xlsx_num(x, s, row, 6, (double)bt_sat_sub(bt_rows_int(r, 8), t0), BT_UNIT_NS);
	bt_xlsx_text(x, s, row, 7, janky ? "yes" : "no", janky ? BT_XF_RED : BT_XF_TEXT);
	bt_xlsx_num(x, s, row, 8, (double)bt_rows_int(r, 10), BT_UNIT_COUNT);
	if (bt_rows_type(r, 11) != BT_ROWS_NULL && bt_rows_type(r, 12) != BT_ROWS_NULL) {
		bt_xlsx_num(x, s, row, 9, (double)bt_sat_sub(bt_rows_int(r, 11), t0), BT_UNIT_NS);
		bt_xlsx_num(x, s, row, 10, (double)bt_rows_int(r, 12), BT_UNIT_NS);
	}
	if (bt_rows_type(r, 13) != BT_ROWS_NULL)
		bt_xlsx_text(x, s, row, 11, bt_rows_text(r, 13, NULL), BT_XF_TEXT);
}

/* The title, once the rows are counted: as the frames table's. */
static void title(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int64_t n, int64_t janky)
{
	struct bt_buf b = BT_BUF_INIT;

	bt_buf_addf(&b, "Frames: %lld of %lld janky (%.1f %%), the main thread's display frames in time order",
		    (long long)janky, (long long)n, 100.0 * (double)janky / (double)n);
	bt_xlsx_text(x, s, 0, 0, b.buf, BT_XF_SECTION);
	bt_buf_release(&b);
}

int bt_rep_xlsx_frames_write(struct bt_xlsx *x, struct bt_db *db, int64_t t0, struct bt_xlsx_sheet **out,
			     struct bt_err *err)
{
	struct bt_xlsx_sheet *s = NULL;
	struct bt_rows *r = NULL;
	struct bt_buf b = BT_BUF_INIT;
	int64_t n = 0, janky = 0;
	int rc, last;

	*out = NULL;
	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		if (!s) {
			s = bt_xlsx_sheet(x, "Frames");
			bt_xlsx_header(x, s, 1, heads, NCOLS);
		}
		janky += bt_rows_int(r, 9) != 0;
		if (n++ < BT_XLSX_MAX_ROWS - 3)
			frame(x, s, (int)n + 1, r, t0);
	}
	bt_rows_close(r);
	if (rc < 0 || !s)
		return rc < 0 ? err->code : BT_OK;
	title(x, s, n, janky);
	last = n < BT_XLSX_MAX_ROWS - 3 ? (int)n + 1 : BT_XLSX_MAX_ROWS - 2;
	if (n > BT_XLSX_MAX_ROWS - 3) {
		bt_buf_addf(&b, "(%lld more frames: Excel holds %d rows)", (long long)(n - (BT_XLSX_MAX_ROWS - 3)),
			    BT_XLSX_MAX_ROWS);
		bt_xlsx_text(x, s, last + 1, 0, b.buf, BT_XF_TEXT);
		bt_buf_release(&b);
	}
	bt_xlsx_table_frame(s, 1, last, NCOLS);
	bt_xlsx_hot(x, s, 3, 2, last, TOP_HOT);
	bt_xlsx_widths(s);
	*out = s;
	return BT_OK;
}
