/*
 * The startup summary the reports open with: read from the startup
 * tables once, and written as text and Markdown here (HTML and xlsx
 * write the same fields in their own files).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/names.h"
#include "engine/db/rows.h"
#include "reports/markdown.h"
#include "reports/report.h"
#include "reports/report_startup.h"

static char *text_or_null(struct bt_rows *r, int col)
{
	const char *t = bt_rows_text(r, col, NULL);

	return t ? bt_xstrdup(t) : NULL;
}

static int64_t int_or_none(struct bt_rows *r, int col)
{
	return bt_rows_text(r, col, NULL) ? bt_rows_int(r, col) : BT_NONE;
}

static int load_row(struct bt_db *db, struct bt_startsum *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_REPORT_STARTUP, err))
		return err->code;
	if ((rc = bt_rows_next(r, err)) == 1) {
		s->found = 1;
		s->kind = text_or_null(r, 0);
		s->tid = bt_rows_int(r, 1);
		s->package = text_or_null(r, 2);
		s->ts = bt_rows_int(r, 3);
		s->end_ts = int_or_none(r, 4);
		s->ttid = int_or_none(r, 5);
		s->ttfd = int_or_none(r, 6);
		s->source = text_or_null(r, 7);
		s->end_source = text_or_null(r, 8);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int load_phases(struct bt_db *db, struct bt_startsum *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_REPORT_STARTUP_PHASES, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		struct bt_su_phase *p;
		BT_GROW(s->phases, s->nphases + 1, cap);
		p = &s->phases[s->nphases++];
		p->phase = text_or_null(r, 0);
		p->ts = bt_rows_int(r, 1);
		p->dur = bt_rows_int(r, 2);
		p->exact = (int)bt_rows_int(r, 3);
		p->cpu = int_or_none(r, 4);
		p->blocked = int_or_none(r, 5);
		p->idle = int_or_none(r, 6);
		p->unexplained = int_or_none(r, 7);
		p->runnable = int_or_none(r, 8);
		p->sleeping = int_or_none(r, 9);
		p->io = int_or_none(r, 10);
		p->uninterruptible = int_or_none(r, 11);
		s->have_states |= p->runnable != BT_NONE;
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

static int load_rest(struct bt_db *db, struct bt_startsum *s, struct bt_err *err)
{
	struct bt_rows *r = NULL;
	size_t cap = 0;
	int rc;

	if (bt_rows_open(&r, db, BT_SQL_REPORT_STARTUP_BLOCKING, err))
		return err->code;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(s->blocking, s->nblocking + 1, cap);
		s->blocking[s->nblocking].kind = text_or_null(r, 0);
		s->blocking[s->nblocking].count = bt_rows_int(r, 1);
		s->blocking[s->nblocking++].dur = bt_rows_int(r, 2);
	}
	bt_rows_close(r);
	if (rc < 0 || bt_rows_open(&r, db, BT_SQL_REPORT_STARTUP_METHODS, err))
		return err->code;
	cap = 0;
	while ((rc = bt_rows_next(r, err)) == 1) {
		BT_GROW(s->methods, s->nmethods + 1, cap);
		s->methods[s->nmethods].name = text_or_null(r, 0);
		s->methods[s->nmethods].self_cpu = int_or_none(r, 1);
		s->methods[s->nmethods++].self = int_or_none(r, 2);
	}
	bt_rows_close(r);
	return rc < 0 ? err->code : BT_OK;
}

int bt_startsum_load(struct bt_db *db, struct bt_startsum *s, struct bt_err *err)
{
	int rc;

	memset(s, 0, sizeof *s);
	rc = load_row(db, s, err);
	if (!rc && s->found)
		rc = load_phases(db, s, err);
	if (!rc && s->found)
		rc = load_rest(db, s, err);
	if (rc)
		bt_startsum_release(s);
	return rc;
}

void bt_startsum_release(struct bt_startsum *s)
{
	size_t i;

	free(s->kind);
	free(s->package);
	free(s->source);
	free(s->end_source);
	for (i = 0; i < s->nphases; i++)
		free(s->phases[i].phase);
	free(s->phases);
	for (i = 0; i < s->nblocking; i++)
		free(s->blocking[i].kind);
	free(s->blocking);
	for (i = 0; i < s->nmethods; i++)
		free(s->methods[i].name);
	free(s->methods);
	memset(s, 0, sizeof *s);
}

void bt_startsum_ms(int64_t ns, struct bt_buf *b)
{
	if (ns != BT_NONE)
		bt_buf_addf(b, "%.1f", (double)ns / 1e6);
	else
		bt_buf_adds(b, BT_UNKNOWN);   /* running time of a trace without CPU time */
}

void bt_startsum_headline(const struct bt_startsum *s, struct bt_buf *b)
{
	bt_buf_addf(b, "%s start of %s: initial display ", s->kind ? s->kind : "?",
		    s->package ? s->package : "the app");
	if (s->ttid == BT_NONE)
		bt_buf_adds(b, "not found");
	else
		bt_format_duration((double)s->ttid, b);
	if (s->ttfd != BT_NONE) {
		bt_buf_adds(b, ", full display ");
		bt_format_duration((double)s->ttfd, b);
	}
}

/* "monitor 120.0 ms (3), binder 60.0 ms (2)": time and waits */
void bt_startsum_kinds(const struct bt_startsum *s, struct bt_buf *b)
{
	size_t i;

	for (i = 0; i < s->nblocking; i++) {
		bt_buf_addf(b, "%s%s ", i ? ", " : "", s->blocking[i].kind ? s->blocking[i].kind : "?");
		bt_format_duration((double)s->blocking[i].dur, b);
		bt_buf_addf(b, " (%lld)", (long long)s->blocking[i].count);
	}
}

const char *const bt_startsum_cols[8] = { "phase", "start ms", "dur ms", "running ms", "blocked ms",
				     "idle ms", "unexplained ms", "bounds" };

void bt_startsum_phase_cells(const struct bt_su_phase *p, int64_t t0, struct bt_buf c[8])
{
	int k;

	for (k = 0; k < 8; k++)
		bt_buf_reset(&c[k]);
	bt_buf_adds(&c[0], p->phase ? p->phase : "?");
	bt_startsum_ms(bt_sat_sub(p->ts, t0), &c[1]);
	bt_startsum_ms(p->dur, &c[2]);
	bt_startsum_ms(p->cpu, &c[3]);
	bt_startsum_ms(p->blocked, &c[4]);
	bt_startsum_ms(p->idle, &c[5]);
	bt_startsum_ms(p->unexplained, &c[6]);
	bt_buf_adds(&c[7], p->exact ? "exact" : "sampled");
}

const char *const bt_startsum_state_cols[4] = { "runnable ms", "sleeping ms", "io ms", "uninterruptible ms" };

void bt_startsum_state_cells(const struct bt_su_phase *p, struct bt_buf c[4])
{
	const int64_t v[4] = { p->runnable, p->sleeping, p->io, p->uninterruptible };
	int k;

	for (k = 0; k < 4; k++) {
		bt_buf_reset(&c[k]);
		bt_startsum_ms(v[k], &c[k]);
	}
}

void bt_startsum_md(FILE *out, const struct bt_startsum *s)
{
	struct bt_buf b = BT_BUF_INIT, c[12];
	size_t i;
	int k;

	if (!s->found)
		return;
	bt_startsum_headline(s, &b);
	fputs("\n## Startup\n\n**", out);
	bt_md_put(out, b.buf);
	fputs("**", out);
	if (s->nblocking) {
		bt_buf_reset(&b);
		bt_startsum_kinds(s, &b);
		fputs(" · blocked: ", out);
		bt_md_put(out, b.buf);
	}
	fputs("\n\n| phase | start ms | dur ms | running ms | blocked ms | idle ms | unexplained ms | ", out);
	if (s->have_states)   /* the states' columns before the bounds */
		fputs("runnable ms | sleeping ms | io ms | uninterruptible ms | ", out);
	fputs("bounds |\n|---|---:|---:|---:|---:|---:|---:|", out);
	fputs(s->have_states ? "---:|---:|---:|---:|---|\n" : "---|\n", out);
	for (k = 0; k < 12; k++)
		bt_buf_init(&c[k]);
	for (i = 0; i < s->nphases; i++) {
		bt_startsum_phase_cells(&s->phases[i], s->ts, c);
		bt_startsum_state_cells(&s->phases[i], &c[8]);
		for (k = 0; k < 12; k++) {
			int at = k < 7 ? k : k < 11 ? k + 1 : 7;   /* c[7], the bounds, last */
			if (!s->have_states && k >= 7 && k < 11)
				continue;
			fputs("| ", out);
			bt_md_put(out, c[at].buf);
			fputs(" ", out);
		}
		fputs("|\n", out);
	}
	for (k = 0; k < 12; k++)
		bt_buf_release(&c[k]);
	bt_buf_release(&b);
}
