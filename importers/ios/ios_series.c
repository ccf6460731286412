/*
 * TimeSeriesModel of an iOS database (format spec §8): rows whose info
 * JSON says perfetto_type "counter" become counters rows (the value as
 * recorded: bytes for mem_usage), "slice" rows become track_slices; the
 * other event types are counted in meta. Malformed rows are skipped and
 * counted in diagnostics.
 */
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "importers/ios/ios_int.h"
#include "engine/base/jsonr.h"
#include "engine/recon/pipeline.h"

#define MAX_US 9007199254740.0   /* 2^53 ns in us: beyond it ns lose precision */

/* One member's value into out when it is a number (anything else is skipped). */
static int number(struct bt_jr *r, double *out, int *has)
{
	if (bt_jr_peek(r) != BT_J_NUMBER)
		return bt_jr_skip(r);
	*has = 1;
	return bt_jr_number(r, out);
}

int bt_ios_series_parse(const char *text, size_t len, const char *where, struct bt_ios_series *out,
			struct bt_err *err)
{
	struct bt_buf key = BT_BUF_INIT, val = BT_BUF_INIT;
	struct bt_jr r;
	int rc, more;

	memset(out, 0, sizeof *out);
	bt_jr_init(&r, text, len, where, err);
	if (bt_jr_peek(&r) != BT_J_OBJECT)
		return bt_jr_fail(&r, "expected a JSON object");
	rc = bt_jr_object(&r);
	while (!rc && (more = bt_jr_key(&r, &key)) == 1) {
		if (!strcmp(key.buf, "perfetto_type") && bt_jr_peek(&r) == BT_J_STRING) {
			rc = bt_jr_string(&r, &val);
			out->kind = !strcmp(val.buf, "counter") ? BT_IOS_SERIES_COUNTER :
				    !strcmp(val.buf, "slice") ? BT_IOS_SERIES_SLICE : BT_IOS_SERIES_UNKNOWN;
		} else if (!strcmp(key.buf, "val")) {
			rc = number(&r, &out->val, &out->has_val);
		} else if (!strcmp(key.buf, "begin_time")) {
			rc = number(&r, &out->begin_us, &out->has_begin);
		} else if (!strcmp(key.buf, "end_time")) {
			rc = number(&r, &out->end_us, &out->has_end);
		} else {
			rc = bt_jr_skip(&r);
		}
	}
	if (!rc && more < 0)
		rc = err->code ? err->code : BT_EFORMAT;
	if (!rc)
		rc = bt_jr_finish(&r);
	bt_buf_release(&key);
	bt_buf_release(&val);
	return rc;
}

struct series {
	struct bt_ios_ctx *c;
	struct bt_db *db;
	int64_t start_us, row;
	struct bt_buf track;
	int64_t counters, slices, other;
};

/* A counter at wall timestamp_us; 1 if written. */
static int counter(struct series *s, int64_t timestamp_us, const struct bt_ios_series *x,
		   struct bt_err *err)
{
	double us = (double)timestamp_us - (double)s->start_us;

	/* counters stay below 2^53 (pipeline.h's bound), NaN and infinities too */
	if (!x->has_val || !(fabs(x->val) < (double)BT_MAX_COUNTER) || fabs(us) > MAX_US) {
		bt_diag_warn(s->c->diag, "bad_time_series", "'%s' table 'TimeSeriesModel' row %lld: counter '%s' %s; skipped",
			     s->c->path, (long long)s->row, s->track.buf,
			     !x->has_val ? "has no numeric 'val'" : !isfinite(x->val) ? "value is not finite" :
			     !(fabs(x->val) < (double)BT_MAX_COUNTER) ? "value is beyond 2^53" :
			     "is far from the trace start");
		return BT_OK;
	}
	s->counters++;
	return bt_db_exec(s->db, BT_SQL_INSERT_COUNTER, err, "tid", s->track.buf,
			  (timestamp_us - s->start_us) * 1000, x->val);
}

/* A slice from begin_time to end_time, µs since the trace start. */
static int slice(struct series *s, const struct bt_ios_series *x, struct bt_err *err)
{
	const char *why = !x->has_begin || !x->has_end ? "lacks a numeric begin_time or end_time" :
			  !(x->begin_us >= 0 && x->end_us <= MAX_US) ? "begins before the trace or ends far after it" :
			  x->end_us < x->begin_us ? "ends before it begins" : NULL;
	int64_t ts, end;

	if (why) {
		bt_diag_warn(s->c->diag, "bad_time_series_slice", "'%s' table 'TimeSeriesModel' row %lld: slice '%s' %s; skipped",
			     s->c->path, (long long)s->row, s->track.buf, why);
		return BT_OK;
	}
	ts = llround(x->begin_us * 1000);
	end = llround(x->end_us * 1000);
	s->slices++;
	return bt_db_exec(s->db, BT_SQL_INSERT_TRACK_SLICE, err, "ttiii", s->track.buf, s->track.buf, ts,
			  end - ts, (int64_t)0);
}

static int one_row(struct series *s, sqlite3_stmt *st, struct bt_err *err)
{
	const char *info = (const char *)sqlite3_column_text(st, 2);
	struct bt_ios_series x;
	struct bt_buf where = BT_BUF_INIT;
	struct bt_err bad = BT_ERR_INIT;
	int has_type = bt_ios_column_text(s->c, st, 1, "TimeSeriesModel", s->row, &s->track);

	if (!has_type || !info) {
		bt_diag_warn(s->c->diag, "bad_time_series", "'%s' table 'TimeSeriesModel' row %lld has no %s; skipped",
			     s->c->path, (long long)s->row, has_type ? "info" : "type");
		return BT_OK;
	}
	bt_buf_addf(&where, "'%s' table 'TimeSeriesModel' row %lld info", s->c->path, (long long)s->row);
	if (bt_ios_series_parse(info, (size_t)sqlite3_column_bytes(st, 2), where.buf, &x, &bad)) {
		bt_diag_warn(s->c->diag, "bad_time_series", "%s; skipped", bad.msg);
		bt_buf_release(&where);
		return BT_OK;
	}
	bt_buf_release(&where);
	if (x.kind == BT_IOS_SERIES_COUNTER)
		return counter(s, sqlite3_column_int64(st, 0), &x, err);
	if (x.kind == BT_IOS_SERIES_SLICE)
		return slice(s, &x, err);
	s->other++;
	return BT_OK;
}

int bt_ios_read_series(struct bt_ios_ctx *c, int64_t start_us, struct bt_db *db, struct bt_err *err)
{
	static const char *const cols[] = { "trace_id,timestamp,type,info", NULL };
	struct series s;
	sqlite3_stmt *st = NULL;
	int rc, step = SQLITE_DONE;

	if (!bt_ios_has_table(c, "TimeSeriesModel"))
		return BT_OK;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.db = db;
	s.start_us = start_us;
	bt_buf_init(&s.track);
	rc = bt_ios_check_columns(c, "TimeSeriesModel", cols, err);
	if (!rc)
		rc = bt_ios_prepare(c, "TimeSeriesModel", "SELECT timestamp, type, info FROM TimeSeriesModel "
				    "WHERE trace_id=?1 ORDER BY rowid", &st, err);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
		rc = one_row(&s, st, err);
		s.row++;
	}
	if (!rc && step != SQLITE_DONE)
		rc = bt_ios_sql_error(c, "TimeSeriesModel", s.row, err);
	sqlite3_finalize(st);
	bt_buf_release(&s.track);
	if (!rc)
		bt_ios_count_other_traces(c, "TimeSeriesModel");
	if (!rc)
		rc = bt_db_set_meta_int(db, "counter_values", s.counters, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "track_slices", s.slices, err);
	if (!rc)
		rc = bt_db_set_meta_int(db, "time_series_other", s.other, err);
	return rc;
}
