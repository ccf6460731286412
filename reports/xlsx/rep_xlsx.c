/*
 * The report as an xlsx workbook for performance reviews (DESIGN §10):
 *   Summary         the trace's facts, the findings by severity, links to
 *                   the other sheets, the metrics and the diagnostics;
 *   Charts          native charts of the main thread's top methods by CPU
 *                   and off-CPU, all threads' top allocating methods, and
 *                   the main thread's blocked time by kind, beside their
 *                   data (read from the database, whatever the rules);
 *   Method metrics  the method.* metrics, one row per method;
 *   Frames          every display frame of the main thread, when the trace
 *                   has them (rep_xlsx_frames.c);
 *   one sheet per report table, its title above a frozen header with an
 *   autofilter, numbers in their unit's format and the hottest cells of
 *   each time and byte column highlighted.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/names.h"
#include "engine/compare/compare.h"
#include "reports/report.h"
#include "engine/db/rows.h"
#include "reports/report_startup.h"
#include "engine/base/utf8.h"
#include "reports/xlsx/rep_xlsx_int.h"

#define TOP_CHART 10   /* methods per chart */
#define TOP_HOT 10     /* highlighted cells per column */

/* ---- Summary ---- */

static int facts(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_facts *f)
{
	struct { const char *key; int64_t v; int show; enum bt_unit u; } nums[] = {
		{ "format version", f->version, 1, BT_UNIT_NONE },
		{ "pid", f->pid, f->has_pid, BT_UNIT_NONE },
		{ "main thread (tid)", f->main_tid, f->main_tid >= 0, BT_UNIT_NONE },
		{ "records", f->records, 1, BT_UNIT_COUNT },
		{ "samples", f->samples, 1, BT_UNIT_COUNT },
		{ "sampled threads", f->threads, f->threads >= 0, BT_UNIT_COUNT },
		{ "start (ns)", f->start_ns, 1, BT_UNIT_COUNT },   /* start with separators, end without: */
		{ "end (ns)", f->end_ns, 1, BT_UNIT_NONE },        /* as first written, bytes kept */
	};
	size_t i;

	bt_xlsx_text(x, s, row++, 0, "Trace", BT_XF_SECTION);
	if (f->partial) {
		bt_xlsx_text(x, s, row, 0, "PARTIAL", BT_XF_TEXT);
		bt_xlsx_text(x, s, row++, 1, f->partial, BT_XF_TEXT);
	}
	if (f->no_names) {
		bt_xlsx_text(x, s, row, 0, "NO NAMES", BT_XF_TEXT);
		bt_xlsx_text(x, s, row++, 1, f->no_names, BT_XF_TEXT);
	}
	if (f->no_threads) {
		bt_xlsx_text(x, s, row, 0, "NO THREADS", BT_XF_TEXT);
		bt_xlsx_text(x, s, row++, 1, f->no_threads, BT_XF_TEXT);
	}
	if (f->unrecorded) {
		bt_xlsx_text(x, s, row, 0, "not in this trace", BT_XF_TEXT);
		bt_xlsx_text(x, s, row++, 1, f->unrecorded, BT_XF_TEXT);
	}
	bt_xlsx_text(x, s, row, 0, "format", BT_XF_TEXT);
	bt_xlsx_text(x, s, row++, 1, f->format ? f->format : "", BT_XF_TEXT);
	bt_xlsx_text(x, s, row, 0, "source", BT_XF_TEXT);
	bt_xlsx_text(x, s, row++, 1, f->source ? f->source : "", BT_XF_TEXT);
	if (f->mapping) {
		bt_xlsx_text(x, s, row, 0, "mapping", BT_XF_TEXT);
		bt_xlsx_text(x, s, row++, 1, f->mapping, BT_XF_TEXT);
	}
	for (i = 0; i < sizeof nums / sizeof nums[0]; i++) {
		if (!nums[i].show)
			continue;
		bt_xlsx_text(x, s, row, 0, nums[i].key, BT_XF_TEXT);
		bt_xlsx_num(x, s, row++, 1, (double)nums[i].v, nums[i].u);
	}
	bt_xlsx_text(x, s, row, 0, "duration ms", BT_XF_TEXT);
	bt_xlsx_num(x, s, row++, 1, (double)(f->end_ns - f->start_ns), BT_UNIT_NS);
	return row + 1;
}

/* The startup summary (reports/report_startup.h), before the findings. */
static int startup(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_startsum *su)
{
	static const char *const heads[] = { "phase", "start ms", "dur ms", "running ms", "blocked ms",
					     "idle ms", "unexplained ms", "bounds" };
	static const char *const heads_states[] = { "phase", "start ms", "dur ms", "running ms", "blocked ms",
						    "idle ms", "unexplained ms", "runnable ms", "sleeping ms",
						    "io ms", "uninterruptible ms", "bounds" };
	int nv = su->have_states ? 10 : 6;   /* the states' columns before the bounds */
	struct bt_buf b = BT_BUF_INIT;
	size_t i;
	int k;

	if (!su->found)
		return row;
	bt_xlsx_text(x, s, row++, 0, "Startup", BT_XF_SECTION);
	bt_startsum_headline(su, &b);
	bt_xlsx_text(x, s, row++, 0, b.buf, BT_XF_TEXT);
	bt_buf_release(&b);
	bt_xlsx_header(x, s, row++, su->have_states ? heads_states : heads, nv + 2);
	for (i = 0; i < su->nphases; i++, row++) {
		const struct bt_su_phase *p = &su->phases[i];
		int64_t v[10] = { p->ts - su->ts, p->dur, p->cpu, p->blocked, p->idle, p->unexplained,
				  p->runnable, p->sleeping, p->io, p->uninterruptible };
		bt_xlsx_text(x, s, row, 0, p->phase ? p->phase : "?", BT_XF_TEXT);
		for (k = 0; k < nv; k++)
			if (v[k] != BT_NONE)
				bt_xlsx_num(x, s, row, k + 1, (double)v[k], BT_UNIT_NS);
		bt_xlsx_text(x, s, row, nv + 1, p->exact ? "exact" : "sampled", BT_XF_TEXT);
	}
	return row + 1;
}

static const enum bt_xlsx_fmt sev_fill[BT_SEV__COUNT] = { BT_XF_BLUE, BT_XF_AMBER, BT_XF_RED };

/* "key: value; ..." with method names as names has them (NULL: in full). */
static void evidence(const struct bt_finding *f, int64_t t0, const struct bt_namer *names, struct bt_buf *b)
{
	int k;

	for (k = 0; k < f->nev; k++) {
		if (k)
			bt_buf_adds(b, "; ");
		bt_buf_adds(b, f->ev[k].key);
		bt_buf_adds(b, ": ");
		bt_format_evidence(f->ev[k].key, &f->ev[k].v, t0, names, b);
	}
}

/* The evidence with short names in its cell, and in full as the cell's
 * comment when they differ. */
static void evidence_cell(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col,
			  const struct bt_finding *f, int64_t t0, const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT, full = BT_BUF_INIT;

	evidence(f, t0, names, &b);
	bt_xlsx_text(x, s, row, col, b.buf, BT_XF_TEXT);
	evidence(f, t0, NULL, &full);
	if (strcmp(b.buf, full.buf))
		bt_xlsx_comment(s, row, col, full.buf);
	bt_buf_release(&b);
	bt_buf_release(&full);
}

static int findings(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_result *res,
		    int64_t start, const struct bt_namer *names)
{
	static const char *const head[] = { "severity", "rule", "message", "tid", "at ms", "duration ms",
					    "evidence" };
	struct bt_buf b = BT_BUF_INIT;
	size_t i, n[BT_SEV__COUNT] = { 0 };
	int sev;

	for (i = 0; i < res->nfindings; i++)
		n[res->findings[i].severity]++;
	bt_xlsx_text(x, s, row++, 0, "Findings", BT_XF_SECTION);
	bt_buf_addf(&b, "%zu error, %zu warning, %zu info", n[BT_SEV_ERROR], n[BT_SEV_WARNING], n[BT_SEV_INFO]);
	bt_xlsx_text(x, s, row++, 0, b.buf, BT_XF_TEXT);
	if (!res->nfindings) {
		bt_buf_release(&b);
		return row + 1;
	}
	bt_xlsx_header(x, s, row++, head, 7);
	{   /* in the result's order (bt_result_sort), as every format: headlines, then most severe */
		for (i = 0; i < res->nfindings; i++) {
			const struct bt_finding *f = &res->findings[i];
			sev = (int)f->severity;
			bt_xlsx_text(x, s, row, 0, bt_severity_name[sev], sev_fill[sev]);
			bt_xlsx_text(x, s, row, 1, f->rule, BT_XF_TEXT);
			bt_xlsx_text(x, s, row, 2, f->message, BT_XF_TEXT);
			if (f->has_tid)
				bt_xlsx_num(x, s, row, 3, (double)f->tid, BT_UNIT_NONE);
			if (f->has_ts)
				bt_xlsx_num(x, s, row, 4, (double)bt_sat_sub(f->ts, start), BT_UNIT_NS);
			if (f->has_dur)
				bt_xlsx_num(x, s, row, 5, (double)f->dur, BT_UNIT_NS);
			evidence_cell(x, s, row++, 6, f, start, names);
		}
	}
	bt_buf_release(&b);
	return row + 1;
}

static int metrics(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_result *res,
		   const struct bt_metric *const *m)
{
	static const char *const head[] = { "metric", "value", "unit" };
	size_t i, methods = 0;

	bt_xlsx_text(x, s, row++, 0, "Metrics", BT_XF_SECTION);
	if (!res->nmetrics) {
		bt_xlsx_text(x, s, row++, 0, "(none)", BT_XF_TEXT);
		return row + 1;
	}
	bt_xlsx_header(x, s, row++, head, 3);
	for (i = 0; i < res->nmetrics; i++) {
		enum bt_unit u = bt_unit_of(m[i]->name, BT_UNIT_COUNT);
		if (bt_metric_per_method(m[i]->name)) {
			methods++;
			continue;
		}
		bt_xlsx_text(x, s, row, 0, m[i]->name, BT_XF_TEXT);
		bt_xlsx_value(x, s, row, 1, &m[i]->v, u);
		bt_xlsx_text(x, s, row++, 2, bt_xlsx_unit_name(u), BT_XF_TEXT);
	}
	if (methods) {
		struct bt_buf b = BT_BUF_INIT;
		bt_buf_addf(&b, "and %zu per-method metrics: method.* in the sheet Method metrics, "
			    "the gate's (startup.main.method.*, ...) in the JSON report", methods);
		bt_xlsx_text(x, s, row++, 0, b.buf, BT_XF_TEXT);
		bt_buf_release(&b);
	}
	return row + 1;
}

static int diagnostics(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct bt_report_ctx *c)
{
	static const char *const head[] = { "code", "count", "detail" };
	size_t i;

	bt_xlsx_text(x, s, row++, 0, "Diagnostics", BT_XF_SECTION);
	if (!c->ndiag) {
		bt_xlsx_text(x, s, row++, 0, "(none)", BT_XF_TEXT);
		return row;
	}
	bt_xlsx_header(x, s, row++, head, 3);
	for (i = 0; i < c->ndiag; i++) {
		bt_xlsx_text(x, s, row, 0, c->diag[i].code, BT_XF_TEXT);
		bt_xlsx_num(x, s, row, 1, (double)c->diag[i].count, BT_UNIT_COUNT);
		bt_xlsx_text(x, s, row++, 2, c->diag[i].detail, BT_XF_TEXT);
	}
	return row;
}

/* ---- one sheet per table ---- */

#define OUTLINE_MAX 7   /* Excel's deepest outline level */

/* A call tree's rows (a table whose name ends in "calltree") indent the
 * method column by two spaces per depth. In the workbook the depth
 * becomes the row's outline level, so a reviewer folds a subtree with
 * Excel's controls, and a cell indent, which keeps the shape in print and
 * past the outline's 7 levels; the text itself loses the spaces, so it
 * filters and copies as the method's name. */
static int is_calltree(const struct bt_rtable *t)
{
	size_t n = strlen(t->name);

	return n >= 8 && !strcmp(t->name + n - 8, "calltree");
}

static void tree_cell(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, int col, const char *text,
		      const struct bt_namer *names)
{
	lxw_row_col_options opt;
	int depth = 0;

	while (text[0] == ' ' && text[1] == ' ') {
		text += 2;
		depth++;
	}
	memset(&opt, 0, sizeof opt);
	opt.level = (uint8_t)(depth > OUTLINE_MAX ? OUTLINE_MAX : depth);
	if (opt.level)
		worksheet_set_row_opt(s->ws, (lxw_row_t)row, LXW_DEF_ROW_HEIGHT, NULL, &opt);
	bt_xlsx_text_indent(x, s, row, col, bt_namer_get(names, text), depth);
}

/* The column of a call tree's indented names: "method", else the first. */
static int tree_column(const struct bt_rtable *t)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->columns[c], "method"))
			return c;
	return 0;
}

/* The text of a cell, without a call tree's indent, and whether it is a
 * frame name that reads short. */
static const char *name_text(const struct bt_value *v, const struct bt_namer *names, int *is_short)
{
	const char *text = v->type == BT_V_TEXT ? v->u.s + strspn(v->u.s, " ") : NULL;

	*is_short = text && strcmp(bt_namer_get(names, text), text) != 0;
	return text;
}

/* The columns whose rows hold names that read short (into sig); how many. */
static int signature_columns(const struct bt_rtable *t, size_t shown, const struct bt_namer *names, int *sig)
{
	int c, n = 0, is_short = 0;
	size_t r;

	for (c = 0; c < t->ncols; c++) {
		for (r = 0, is_short = 0; r < shown && !is_short; r++)
			name_text(&t->cells[r * (size_t)t->ncols + (size_t)c], names, &is_short);
		if (is_short)
			sig[n++] = c;
	}
	return n;
}

static void table_cells(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_rtable *t, size_t shown,
			int64_t t0, const struct bt_namer *names, const int *sig, int nsig)
{
	int tree = is_calltree(t) ? tree_column(t) : -1, c, k, is_short;
	struct bt_buf b = BT_BUF_INIT;
	size_t r;

	if (tree >= 0)   /* a parent's row, above its children, holds the fold control */
		worksheet_outline_settings(s->ws, LXW_TRUE, LXW_FALSE, LXW_TRUE, LXW_FALSE);
	for (r = 0; r < shown; r++) {
		for (c = 0; c < t->ncols; c++) {
			const struct bt_value *v = &t->cells[r * (size_t)t->ncols + (size_t)c];
			if (c == tree && v->type == BT_V_TEXT)
				tree_cell(x, s, (int)r + 2, c, v->u.s, names);
			else if (v->type == BT_V_TEXT) {
				bt_buf_reset(&b);
				bt_format_name(names, v->u.s, &b);
				bt_xlsx_text(x, s, (int)r + 2, c, b.buf, BT_XF_TEXT);
			} else if (v->type == BT_V_INT && bt_rep_is_ts(t->columns[c])) {   /* since the start */
				struct bt_value at = *v;
				at.u.i = bt_sat_sub(at.u.i, t0);
				bt_xlsx_value(x, s, (int)r + 2, c, &at, BT_UNIT_NS);
			} else
				bt_xlsx_value(x, s, (int)r + 2, c, v, t->units[c]);
		}
		for (k = 0; k < nsig; k++) {
			const char *text = name_text(&t->cells[r * (size_t)t->ncols + (size_t)sig[k]], names, &is_short);
			if (text)
				bt_xlsx_text(x, s, (int)r + 2, t->ncols + k, text, BT_XF_TEXT);
		}
	}
	bt_buf_release(&b);
}

#define XLSX_COLS 16384   /* a sheet's columns in Excel */

/*
 * A table's sheet. Method names read short; a column holding them gets a
 * "<column> signature" column of the full signatures at the end, folded
 * away (Excel's outline "+" above shows them; they do not print), and
 * under the autofilter with the rest.
 */
static void table(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_rtable *t, int64_t t0,
		  const struct bt_namer *names)
{
	struct bt_buf b = BT_BUF_INIT;
	size_t shown = t->nrows;
	char **heads;
	int c, last, *sig = bt_xcalloc((size_t)t->ncols + 1, sizeof *sig), nsig;

	if (shown > BT_XLSX_MAX_ROWS - 3)
		shown = BT_XLSX_MAX_ROWS - 3;
	nsig = signature_columns(t, shown, names, sig);
	bt_xlsx_text(x, s, 0, 0, t->title, BT_XF_SECTION);
	heads = bt_xcalloc((size_t)(t->ncols + nsig) + 1, sizeof *heads);
	for (c = 0; c < t->ncols + nsig; c++) {
		bt_buf_reset(&b);
		if (c < t->ncols && bt_rep_is_ts(t->columns[c]))   /* "ts" -> "at ms", "waker_ts" -> "waker_at ms" */
			bt_buf_addf(&b, "%.*sat ms", (int)strlen(t->columns[c]) - 2, t->columns[c]);
		else if (c < t->ncols)
			bt_xlsx_heading(t->columns[c], t->units[c], &b);
		else
			bt_buf_addf(&b, "%s signature", t->columns[sig[c - t->ncols]]);
		heads[c] = bt_xstrdup(b.buf);
	}
	bt_xlsx_header(x, s, 1, (const char *const *)heads, t->ncols + nsig);
	for (c = 0; c < t->ncols + nsig; c++)
		free(heads[c]);
	free(heads);
	if (nsig)   /* before the cells: folded text does not wrap */
		bt_xlsx_fold_columns(s, t->ncols, t->ncols + nsig - 1);
	table_cells(x, s, t, shown, t0, names, sig, nsig);
	last = (int)shown + 1;
	if (shown < t->nrows) {
		bt_buf_reset(&b);
		bt_buf_addf(&b, "(%zu more rows: Excel holds %d)", t->nrows - shown, BT_XLSX_MAX_ROWS);
		bt_xlsx_text(x, s, last + 1, 0, b.buf, BT_XF_TEXT);
	}
	if (t->ncols + nsig > XLSX_COLS) {   /* the cells past it are not written: say so */
		bt_buf_reset(&b);
		bt_buf_addf(&b, "(%d more columns, from '%s' on: Excel holds %d)", t->ncols + nsig - XLSX_COLS,
			    XLSX_COLS < t->ncols ? t->columns[XLSX_COLS] : "the signatures", XLSX_COLS);
		bt_xlsx_text(x, s, last + 1 + (shown < t->nrows), 0, b.buf, BT_XF_TEXT);
	}
	bt_xlsx_table_frame(s, 1, last, t->ncols + nsig);
	for (c = 0; c < t->ncols; c++)
		if (t->units[c] == BT_UNIT_NS || t->units[c] == BT_UNIT_BYTES)
			bt_xlsx_hot(x, s, c, 2, last, TOP_HOT);
	free(sig);
	bt_buf_release(&b);
}

/* ---- sheet names people read ---- */

/* The built-in tables' sheets (lua/attribution.lua), short enough for
 * Excel's 31 characters; tests/fixtures/check_xlsx.py keeps the same list. */
static const struct { const char *table, *sheet; } known_sheet[] = {
	{ "threads", "Threads" },
	{ "blocking", "Blocked time by kind" },
	{ "main_methods", "Main thread inclusive time" },
	{ "main_self", "Main thread self time" },
	{ "main_calltree", "Main thread call tree" },
	{ "methods", "All threads self time" },
	{ "alloc", "Allocations by method" },
	{ "faults", "Faults and context switches" },
	{ "main_waits", "Main thread waits" },
	{ "main_messages", "Main thread messages" },
	{ "frames", "Worst frames" },
};

/* A table's sheet name: the built-in's, else its title without a
 * parenthesised tail or colons, cut at a word within 31 characters;
 * bt_xlsx_sheet makes it one Excel accepts, and unique. */
static void sheet_name(const struct bt_rtable *t, struct bt_buf *b)
{
	const char *p;
	size_t i, chars = 0, cut = 0;

	for (i = 0; i < sizeof known_sheet / sizeof known_sheet[0]; i++) {
		if (!strcmp(t->name, known_sheet[i].table)) {
			bt_buf_adds(b, known_sheet[i].sheet);
			return;
		}
	}
	p = t->title && *t->title ? t->title : t->name;
	bt_utf8_sanitize(b, p, strlen(p));
	if ((p = strstr(b->buf, " (")) && p > b->buf)
		bt_buf_setlen(b, (size_t)(p - b->buf));
	while ((p = strstr(b->buf, ": ")))
		memmove((char *)p, p + 1, strlen(p + 1) + 1);   /* "Main thread: x" -> "Main thread x" */
	b->len = strlen(b->buf);
	for (i = 0; i < b->len && chars <= 31; i++) {
		if (((unsigned char)b->buf[i] & 0xC0) == 0x80)
			continue;
		if (b->buf[i] == ' ' && i > 0)
			cut = i;
		chars++;
	}
	if (chars > 31 && cut)
		bt_buf_setlen(b, cut);
}

/* ---- Method metrics: method.<symbol>.<field>, one row per symbol ---- */

#define N_FIELDS (2 * BT_MS__COUNT)   /* column k: measure k / 2, self or inclusive by k % 2 */
#define FIELD(k) bt_method_field[(k) / 2][(k) % 2]

struct method_row {
	const char *sym;   /* in the metric's name */
	size_t len;
	double v[N_FIELDS];
	unsigned has;      /* bit per field */
};

static int by_self_wall(const void *a, const void *b)
{
	const struct method_row *p = a, *q = b;
	size_t n = p->len < q->len ? p->len : q->len;
	int c;

	if (p->v[0] != q->v[0])
		return p->v[0] < q->v[0] ? 1 : -1;
	c = memcmp(p->sym, q->sym, n);
	return c ? c : (p->len > q->len) - (p->len < q->len);
}

static void method_metrics(struct bt_xlsx *x, struct bt_xlsx_sheet *s, const struct bt_result *res,
			   const struct bt_namer *names)
{
	struct bt_strmap index;
	struct method_row *rows = NULL;
	const char *heads[N_FIELDS + 2];
	struct bt_buf b[N_FIELDS];
	enum bt_unit unit[N_FIELDS];   /* one per column: values, heading and hot cells agree */
	size_t i, n = 0, cap = 0;
	int k;

	bt_strmap_init(&index);
	for (i = 0; i < res->nmetrics; i++) {
		const struct bt_metric *m = &res->metrics[i];
		const char *sym;
		size_t len;
		enum bt_measure ms;
		int incl;
		uint32_t at;
		if (!bt_method_metric(m->name, &sym, &len, &ms, &incl))
			continue;
		k = 2 * (int)ms + incl;
		if (!(at = bt_strmap_get(&index, sym, len))) {
			BT_GROW(rows, n + 1, cap);
			memset(&rows[n], 0, sizeof rows[n]);
			rows[n].sym = sym;
			rows[n].len = len;
			at = (uint32_t)++n;
			bt_strmap_put(&index, sym, len, at);
		}
		rows[at - 1].v[k] = m->v.type == BT_V_INT ? (double)m->v.u.i : m->v.u.d;
		rows[at - 1].has |= 1u << k;
	}
	bt_strmap_release(&index);
	if (n)
		qsort(rows, n, sizeof *rows, by_self_wall);
	bt_xlsx_text(x, s, 0, 0, "Method metrics (method.<symbol>.<field>), by self time", BT_XF_SECTION);
	heads[0] = "method";
	for (k = 0; k < N_FIELDS; k++) {
		bt_buf_init(&b[k]);
		unit[k] = bt_unit_of(FIELD(k), BT_UNIT_COUNT);
		bt_xlsx_heading(FIELD(k), unit[k], &b[k]);
		heads[k + 1] = b[k].buf;
	}
	heads[N_FIELDS + 1] = "signature";
	bt_xlsx_header(x, s, 1, heads, N_FIELDS + 1 + (names != NULL));
	if (names)   /* the signatures folded away, as a table's (table()) */
		bt_xlsx_fold_columns(s, N_FIELDS + 1, N_FIELDS + 1);
	for (i = 0; i < n && i < BT_XLSX_MAX_ROWS - 2; i++) {
		struct bt_buf sym = BT_BUF_INIT;
		bt_buf_add(&sym, rows[i].sym, rows[i].len);
		bt_xlsx_text(x, s, (int)i + 2, 0, bt_namer_get(names, sym.buf), BT_XF_TEXT);
		if (names)
			bt_xlsx_text(x, s, (int)i + 2, N_FIELDS + 1, sym.buf, BT_XF_TEXT);
		bt_buf_release(&sym);
		for (k = 0; k < N_FIELDS; k++)
			if (rows[i].has & 1u << k)
				bt_xlsx_num(x, s, (int)i + 2, k + 1, rows[i].v[k], unit[k]);
	}
	bt_xlsx_table_frame(s, 1, (int)i + 1, N_FIELDS + 1 + (names != NULL));
	for (k = 0; k < N_FIELDS; k++) {
		if (unit[k] != BT_UNIT_COUNT)
			bt_xlsx_hot(x, s, k + 1, 2, (int)i + 1, TOP_HOT);
		bt_buf_release(&b[k]);
	}
	free(rows);
}

/* ---- Charts ---- */

struct chart_spec {
	const char *title, *axis;
	enum bt_unit unit;
	int pie;
};

#define CHART_ROWS 21   /* rows between charts: one is ~15 rows high, scaled 1.2 */

/* The rows r of a query (name, value) as a data block at row, and its
 * chart beside it. Returns the next block's row. */
static int chart_block(struct bt_xlsx *x, struct bt_xlsx_sheet *s, int row, const struct chart_spec *cs,
		       struct bt_rows *r, int value_col, const struct bt_namer *names, struct bt_err *err)
{
	static const char *const head[] = { "method", "value", "signature" };
	lxw_chart *ch;
	lxw_chart_series *se;
	int n = 0, rc;

	bt_xlsx_text(x, s, row, 0, cs->title, BT_XF_SECTION);
	bt_xlsx_header(x, s, row + 1, head, 3);
	if (cs->pie)
		worksheet_write_string(s->ws, (lxw_row_t)row + 1, 0, "kind", x->f[BT_XF_HEAD]);
	while ((rc = bt_rows_next(r, err)) == 1) {
		const char *name = bt_rows_text(r, 0, NULL);
		if (!name)
			name = "";
		bt_xlsx_text(x, s, row + 2 + n, 0, cs->pie ? name : bt_namer_get(names, name), BT_XF_TEXT);
		bt_xlsx_num(x, s, row + 2 + n, 1, (double)bt_rows_int(r, value_col), cs->unit);
		if (!cs->pie)
			bt_xlsx_text(x, s, row + 2 + n, 2, name, BT_XF_TEXT);
		n++;
	}
	if (rc < 0)
		return -1;
	if (!n) {
		bt_xlsx_text(x, s, row + 2, 0, "(no data)", BT_XF_TEXT);
		return row + 4;
	}
	ch = workbook_add_chart(x->wb, cs->pie ? LXW_CHART_PIE : LXW_CHART_BAR);
	se = chart_add_series(ch, NULL, NULL);
	chart_series_set_categories(se, s->name, (lxw_row_t)row + 2, 0, (lxw_row_t)(row + 1 + n), 0);
	chart_series_set_values(se, s->name, (lxw_row_t)row + 2, 1, (lxw_row_t)(row + 1 + n), 1);
	chart_series_set_name(se, cs->axis);
	chart_title_set_name(ch, cs->title);
	if (cs->pie) {
		chart_series_set_labels(se);
		chart_series_set_labels_percentage(se);
		chart_legend_set_position(ch, LXW_CHART_LEGEND_RIGHT);
	} else {   /* in a bar chart y is the category axis, x the values' */
		chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
		chart_axis_set_reverse(ch->y_axis);   /* the largest on top */
		chart_axis_set_crossing_max(ch->y_axis);   /* and the values below */
		chart_axis_set_name(ch->x_axis, cs->axis);
		if (cs->unit == BT_UNIT_BYTES)
			chart_axis_set_num_format(ch->x_axis, "#,##0.0\" MiB\"");
	}
	bt_xlsx_chart(s, row, 4, ch, 1.5, 1.2);   /* wide: room for the method names */
	return row + (n + 3 > CHART_ROWS ? n + 3 : CHART_ROWS);
}

static int charts(struct bt_xlsx *x, struct bt_xlsx_sheet *s, struct bt_db *db, int64_t main_tid,
		  int nocpu, const struct bt_namer *names, struct bt_err *err)
{
	static const struct chart_spec wall = { "Main thread: top methods by self wall time (CPU time not in "
						"this trace)", "self ms", BT_UNIT_NS, 0 };
	static const struct chart_spec top[3] = {
		{ "Main thread: top methods by self CPU time", "self CPU ms", BT_UNIT_NS, 0 },
		{ "Main thread: top methods by self off-CPU time", "self off-CPU ms", BT_UNIT_NS, 0 },
		{ "All threads: top methods by allocated bytes", "allocated MiB", BT_UNIT_BYTES, 0 },
	};
	static const struct chart_spec kinds = { "Main thread: blocked time by kind", "blocked ms",
						 BT_UNIT_NS, 1 };
	struct bt_rows *r = NULL;
	int row = 0, k;

	bt_xlsx_fold_columns(s, 2, 2);   /* the signatures, folded away as a table's */
	for (k = 0; k < 3 && row >= 0; k++) {
		if (bt_rows_open(&r, db, BT_SQL_XLSX_TOP_METHODS, err))
			return err->code;
		if (k == 2 || main_tid < 0)
			bt_rows_bind_null(r, 1);
		else
			bt_rows_bind_int(r, 1, main_tid);
		bt_rows_bind_int(r, 2, k == 1 && nocpu ? 3 : k);   /* off-CPU unknown: wall instead */
		bt_rows_bind_int(r, 3, TOP_CHART);
		row = chart_block(x, s, row, k == 1 && nocpu ? &wall : &top[k], r, 1, names, err);
		bt_rows_close(r);
	}
	if (row >= 0 && main_tid >= 0) {
		if (bt_rows_open(&r, db, BT_SQL_XLSX_BLOCKING_KINDS, err))
			return err->code;
		bt_rows_bind_int(r, 1, main_tid);
		row = chart_block(x, s, row, &kinds, r, 2, names, err);
		bt_rows_close(r);
	}
	return row < 0 ? err->code : BT_OK;
}

/* ---- the workbook ---- */

static int write_xlsx(const struct bt_export *ex, FILE *out, struct bt_err *err)
{
	struct bt_db *db = ex->db;
	const struct bt_result *res = ex->res;
	struct bt_report_ctx c;
	struct bt_startsum su;
	struct bt_xlsx x;
	struct bt_xlsx_sheet *sum, *chart, *meth = NULL, *frames = NULL, **tabs;
	size_t i, nmeth = 0;
	int row, rc;

	if (bt_report_ctx_load(db, res, &c, err))
		return err->code;
	if (bt_startsum_load(db, &su, err)) {
		bt_report_ctx_release(&c);
		return err->code;
	}
	if (bt_xlsx_open(&x, "btrace-analyze report", err)) {
		bt_startsum_release(&su);
		bt_report_ctx_release(&c);
		return err->code;
	}
	for (i = 0; i < res->nmetrics; i++)
		nmeth += !strncmp(res->metrics[i].name, "method.", 7);
	sum = bt_xlsx_sheet(&x, "Summary");
	chart = bt_xlsx_sheet(&x, "Charts");
	if (nmeth)
		meth = bt_xlsx_sheet(&x, "Method metrics");
	rc = bt_rep_xlsx_frames_write(&x, db, c.facts.start_ns, &frames, err);   /* the sheet if any, written */
	tabs = bt_xcalloc(res->ntables + 1, sizeof *tabs);
	for (i = 0; i < res->ntables; i++) {
		struct bt_buf name = BT_BUF_INIT;
		sheet_name(&res->tables[i], &name);
		tabs[i] = bt_xlsx_sheet(&x, name.buf);
		bt_buf_release(&name);
	}

	bt_xlsx_text(&x, sum, 0, 0, "btrace-analyze report", BT_XF_TITLE);
	row = facts(&x, sum, 2, &c.facts);
	row = startup(&x, sum, row, &su);   /* the review's headline, before the findings */
	bt_startsum_release(&su);
	row = findings(&x, sum, row, res, c.facts.start_ns, ex->names);
	bt_xlsx_text(&x, sum, row++, 0, "Sheets", BT_XF_SECTION);
	bt_xlsx_link(&x, sum, row++, 0, chart, "Charts: top methods and blocked time");
	if (meth)
		bt_xlsx_link(&x, sum, row++, 0, meth, "Method metrics");
	if (frames)
		bt_xlsx_link(&x, sum, row++, 0, frames, "Frames: every display frame");
	for (i = 0; i < res->ntables; i++)
		bt_xlsx_link(&x, sum, row++, 0, tabs[i], res->tables[i].title);
	row = metrics(&x, sum, row + 1, res, c.metrics);
	diagnostics(&x, sum, row, &c);
	bt_xlsx_widths(sum);

	if (!rc)
		rc = charts(&x, chart, db, c.facts.main_tid, c.facts.cpu_time == BT_CPU_UNKNOWN, ex->names, err);
	bt_xlsx_widths(chart);
	if (meth) {
		method_metrics(&x, meth, res, ex->names);
		bt_xlsx_widths(meth);
	}
	for (i = 0; i < res->ntables; i++) {
		table(&x, tabs[i], &res->tables[i], c.facts.start_ns, ex->names);
		bt_xlsx_widths(tabs[i]);
	}
	free(tabs);
	bt_report_ctx_release(&c);
	if (rc) {
		bt_xlsx_discard(&x);
		return rc;
	}
	return bt_xlsx_finish(&x, out, err);
}

const struct bt_exporter bt_rep_xlsx = { "xlsx", ".xlsx", BT_NEED_RESULT, write_xlsx };
