/*
 * Printing query results as an aligned table, CSV (RFC 4180), TSV (with
 * \t \n \\ escapes) or JSON (an array of objects; integers stay integers).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/base/alloc.h"
#include "reports/text/grid.h"
#include "engine/base/jsonw.h"
#include "reports/report.h"
#include "reports/text/rep_rows.h"

int bt_rowfmt_parse(const char *name, enum bt_rowfmt *out, struct bt_err *err)
{
	static const char *const names[] = { "table", "csv", "tsv", "json" };
	int i;

	*out = BT_FMT_TABLE;
	if (!name)
		return BT_OK;
	for (i = 0; i < 4; i++) {
		if (!strcmp(name, names[i])) {
			*out = (enum bt_rowfmt)i;
			return BT_OK;
		}
	}
	return bt_err_set(err, BT_EUSAGE, "unknown query format '%s' (known: table, csv, tsv, json)", name);
}

int bt_rowfmt_pick(const char *name, const char *path, enum bt_rowfmt *out, struct bt_err *err)
{
	static const char *const ext[] = { ".txt", ".csv", ".tsv", ".json" };
	const char *dot = path ? strrchr(path, '.') : NULL;
	int i;

	if (path && !*path)   /* as every command's outputs (bt_out_distinct) */
		return bt_err_set(err, BT_EUSAGE, "an output path is empty");
	if (name || !path || !strcmp(path, "-"))
		return bt_rowfmt_parse(name, out, err);
	for (i = 0; dot && !strchr(dot, '/') && i < 4; i++)
		if (!strcmp(dot, ext[i])) {
			*out = (enum bt_rowfmt)i;
			return BT_OK;
		}
	return bt_err_set(err, BT_EUSAGE, "-o %s: no query format has the extension '%s' (known: .txt, .csv, "
			  ".tsv, .json; --format names one for any path)", path,
			  dot && !strchr(dot, '/') ? dot : "");
}

/* Cell text as it appears in table/csv/tsv output; NULL becomes "". */
static void cell(struct bt_rows *r, int col, struct bt_buf *b)
{
	size_t len, i;
	const char *s;

	switch (bt_rows_type(r, col)) {
	case BT_ROWS_NULL:
		return;
	case BT_ROWS_INT:
		bt_buf_addf(b, "%lld", (long long)bt_rows_int(r, col));
		return;
	case BT_ROWS_REAL:
		bt_buf_addf(b, "%.15g", bt_rows_real(r, col));
		return;
	case BT_ROWS_BLOB:
		s = bt_rows_text(r, col, &len);   /* hex keeps binary out of terminals */
		for (i = 0; i < len; i++)
			bt_buf_addf(b, "%02x", (unsigned char)s[i]);
		return;
	default:
		s = bt_rows_text(r, col, &len);
		bt_buf_add(b, s, len);
	}
}

static void put_csv(FILE *out, const char *s, size_t len)
{
	size_t i;

	if (!strpbrk(s, ",\"\r\n")) {
		fwrite(s, 1, len, out);
		return;
	}
	fputc('"', out);
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void put_tsv(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\t')
			fputs("\\t", out);
		else if (s[i] == '\n')
			fputs("\\n", out);
		else if (s[i] == '\r')
			fputs("\\r", out);
		else if (s[i] == '\\')
			fputs("\\\\", out);
		else
			fputc(s[i], out);
	}
}

static void put_delimited(FILE *out, enum bt_rowfmt f, const char *s, size_t len, int last)
{
	if (f == BT_FMT_CSV)
		put_csv(out, s, len);
	else
		put_tsv(out, s, len);
	fputs(last ? (f == BT_FMT_CSV ? "\r\n" : "\n") : (f == BT_FMT_CSV ? "," : "\t"), out);
}

static int write_delimited(struct bt_rows *r, enum bt_rowfmt f, FILE *out, struct bt_err *err)
{
	struct bt_buf b = BT_BUF_INIT;
	int n = bt_rows_ncols(r), i, rc;

	for (i = 0; i < n; i++)
		put_delimited(out, f, bt_rows_name(r, i), strlen(bt_rows_name(r, i)), i == n - 1);
	while ((rc = bt_rows_next(r, err)) == 1) {
		for (i = 0; i < n; i++) {
			bt_buf_reset(&b);
			cell(r, i, &b);
			put_delimited(out, f, b.buf, b.len, i == n - 1);
		}
	}
	bt_buf_release(&b);
	return rc < 0 ? err->code : BT_OK;
}

static int write_json(struct bt_rows *r, FILE *out, struct bt_err *err)
{
	struct bt_jsonw w;
	struct bt_buf b = BT_BUF_INIT;
	int n = bt_rows_ncols(r), i, rc;
	size_t len;

	bt_jsonw_init(&w, out, 0);
	bt_jsonw_begin_array(&w);
	while ((rc = bt_rows_next(r, err)) == 1) {
		bt_jsonw_begin_object(&w);
		for (i = 0; i < n; i++) {
			bt_jsonw_key(&w, bt_rows_name(r, i));
			switch (bt_rows_type(r, i)) {
			case BT_ROWS_NULL: bt_jsonw_null(&w); break;
			case BT_ROWS_INT: bt_jsonw_int(&w, bt_rows_int(r, i)); break;
			case BT_ROWS_REAL: bt_jsonw_real(&w, bt_rows_real(r, i)); break;
			case BT_ROWS_TEXT: {
				const char *s = bt_rows_text(r, i, &len);
				bt_jsonw_str(&w, s, len);
				break;
			}
			default:
				bt_buf_reset(&b);
				cell(r, i, &b);
				bt_jsonw_str(&w, b.buf, b.len);
			}
		}
		bt_jsonw_end_object(&w);
	}
	bt_jsonw_end_array(&w);
	fputc('\n', out);
	bt_buf_release(&b);
	return rc < 0 ? err->code : BT_OK;
}

static int write_table(struct bt_rows *r, FILE *out, size_t width, struct bt_err *err)
{
	struct bt_grid g;
	struct bt_buf b = BT_BUF_INIT;
	int n = bt_rows_ncols(r), i, rc;

	bt_grid_init(&g, n);
	for (i = 0; i < n; i++)
		bt_grid_add(&g, bt_rows_name(r, i), strlen(bt_rows_name(r, i)));
	while ((rc = bt_rows_next(r, err)) == 1) {
		for (i = 0; i < n; i++) {
			int type = bt_rows_type(r, i);
			if (type != BT_ROWS_INT && type != BT_ROWS_REAL && type != BT_ROWS_NULL)
				g.numeric[i] = 0;
			bt_buf_reset(&b);
			cell(r, i, &b);
			bt_grid_add(&g, b.buf, b.len);
		}
	}
	if (rc == 0 && n > 0)
		bt_grid_print_fit(&g, out, width);
	bt_buf_release(&b);
	bt_grid_release(&g);
	return rc < 0 ? err->code : BT_OK;
}

int bt_rep_rows_write(struct bt_rows *r, enum bt_rowfmt f, FILE *out, size_t width, struct bt_err *err)
{
	switch (f) {
	case BT_FMT_JSON: return write_json(r, out, err);
	case BT_FMT_TABLE: return write_table(r, out, width, err);
	default: return write_delimited(r, f, out, err);
	}
}
