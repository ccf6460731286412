/*
 * The HTML timeline's frames track (see html_int.h): the main thread's
 * display frames (ui_frames), the first BT_HTML_FRAMES in time order, as
 * timeline.js draws them above that thread's lane. Times are from t0 and
 * kept inside the trace, so a hostile row cannot stretch the timeline or
 * hand the script numbers a double cannot hold.
 */
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/html/html_int.h"

#define JS_INT 9007199254740991LL   /* 2^53 - 1: the largest integer a double holds exactly */
#define FRAME_MAX_NS 1000000000000LL   /* 1000 s: past any frame's vsync, deadline or draw */

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A cause line of at most BT_HTML_CAUSE bytes, cut at a character's
 * start with an ellipsis. */
static void cause(struct bt_rows *r, int col, struct bt_jsonw *w, struct bt_buf *b)
{
	size_t len, n;
	const char *s;

	if (bt_rows_type(r, col) == BT_ROWS_NULL) {
		bt_jsonw_null(w);
		return;
	}
	s = bt_rows_text(r, col, &len);
	if (len <= BT_HTML_CAUSE) {
		bt_jsonw_str(w, s, len);
		return;
	}
	for (n = BT_HTML_CAUSE; n && ((unsigned char)s[n] & 0xC0) == 0x80; n--)
		;
	bt_buf_reset(b);
	bt_buf_add(b, s, n);
	bt_buf_adds(b, "\xe2\x80\xa6");
	bt_jsonw_str(w, b->buf, b->len);
}

/* One frame's twelve values, in the order html_int.h gives; r is a row
 * of BT_SQL_UI_FRAMES_ALL. */
static void frame(struct bt_rows *r, int64_t t0, int64_t span, struct bt_jsonw *w, struct bt_buf *b)
{
	int64_t at = bt_rows_int(r, 2), ts = clamp(bt_sat_sub(at, t0), 0, span);
	int64_t end = clamp(bt_sat_sub(bt_rows_int(r, 5), t0), ts, span);
	int draw = bt_rows_type(r, 11) != BT_ROWS_NULL && bt_rows_type(r, 12) != BT_ROWS_NULL;

	bt_jsonw_int(w, ts);
	bt_jsonw_int(w, end - ts);
	bt_jsonw_int(w, clamp(bt_rows_int(r, 4), 0, FRAME_MAX_NS));
	bt_jsonw_int(w, clamp(bt_sat_sub(at, bt_rows_int(r, 7)), -FRAME_MAX_NS, FRAME_MAX_NS));
	bt_jsonw_int(w, clamp(bt_sat_sub(bt_rows_int(r, 8), at), -FRAME_MAX_NS, FRAME_MAX_NS));
	bt_jsonw_int(w, bt_rows_int(r, 9) != 0);
	bt_jsonw_int(w, clamp(bt_rows_int(r, 10), 0, 1000000));
	bt_jsonw_int(w, clamp(bt_rows_int(r, 0), -JS_INT, JS_INT));
	if (bt_rows_type(r, 3) == BT_ROWS_NULL)
		bt_jsonw_null(w);
	else
		bt_jsonw_int(w, clamp(bt_rows_int(r, 3), -JS_INT, JS_INT));
	if (draw) {
		bt_jsonw_int(w, clamp(bt_sat_sub(bt_rows_int(r, 11), at), -FRAME_MAX_NS, FRAME_MAX_NS));
		bt_jsonw_int(w, clamp(bt_rows_int(r, 12), 0, FRAME_MAX_NS));
	} else {
		bt_jsonw_null(w);
		bt_jsonw_null(w);
	}
	cause(r, 13, w, b);
}

int bt_html_frames_write(struct bt_db *db, const struct bt_facts *f, struct bt_jsonw *w, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	struct bt_buf b = BT_BUF_INIT;
	int64_t n = 0, janky = 0, missed = 0, tid = 0, period = 0, span = bt_sat_sub(f->end_ns, f->start_ns);
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_UI_FRAMES_ALL, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		if (!n) {
			tid = bt_rows_int(r, 1);
			period = bt_rows_int(r, 6);
			bt_jsonw_key(w, "frames");
			bt_jsonw_begin_object(w);
			bt_jsonw_key(w, "rows");
			bt_jsonw_begin_array(w);
		}
		janky += bt_rows_int(r, 9) != 0;
		missed = bt_sat_add(missed, clamp(bt_rows_int(r, 10), 0, 1000000));
		if (n++ < BT_HTML_FRAMES)
			frame(r, f->start_ns, span > 0 ? span : 0, w, &b);
	}
	bt_rows_close(r);
	bt_buf_release(&b);
	if (!n)
		return rc < 0 ? err->code : BT_OK;
	bt_jsonw_end_array(w);
	bt_jsonw_key(w, "tid");
	bt_jsonw_int(w, tid);
	bt_jsonw_key(w, "period_ns");
	bt_jsonw_int(w, clamp(period, 0, FRAME_MAX_NS));
	bt_jsonw_key(w, "total");
	bt_jsonw_int(w, n);
	bt_jsonw_key(w, "janky");
	bt_jsonw_int(w, janky);
	bt_jsonw_key(w, "missed");
	bt_jsonw_int(w, missed);
	bt_jsonw_end_object(w);
	return rc < 0 ? err->code : BT_OK;
}
