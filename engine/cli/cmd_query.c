/*
 * "btrace-analyze query INPUT|trace.db SQL [--format F]": read-only SQL
 * against a trace, importing a dump first when given one.
 */
#include <string.h>
#include <unistd.h>

#include "engine/cli/cmd.h"
#include "engine/cli/outset.h"
#include "engine/base/fileio.h"
#include "reports/report.h"
#include "engine/db/rows.h"
#include "reports/text/rep_rows.h"
#include "reports/text/safe.h"

/* ".tables", as sqlite3's shell has it: the tables and views a query can
 * read, with their columns. */
#define TABLES_SQL \
	"SELECT m.name, m.type, group_concat(c.name, ', ') AS columns FROM sqlite_master m " \
	"JOIN pragma_table_info(m.name) c WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' " \
	"GROUP BY m.name ORDER BY m.name"

static int is_tables(const char *sql)
{
	size_t n;

	sql += strspn(sql, " \t\n");
	n = strcspn(sql, " \t\n;");
	return n == 7 && !strncmp(sql, ".tables", 7) && !sql[n + strspn(sql + n, " \t\n;")];
}

struct query_ctx {
	struct bt_db *db;
	const char *sql;
	int width;   /* --width, 0: the terminal's when writing to one */
};

/* Each output runs the statement again: a cursor is read once. */
static int write_rows(void *ctx, const struct bt_outset_item *it, FILE *fp, struct bt_err *err)
{
	const struct query_ctx *q = ctx;
	const enum bt_rowfmt *f = it->format;
	struct bt_rows *r = NULL;
	int rc = bt_rows_open_sql(&r, q->db, q->sql, 0, err);

	if (!rc)
		rc = bt_rep_rows_write(r, *f, fp, q->width > 0 ? (size_t)q->width : (size_t)bt_tty_width(it->out.fp), err);
	bt_rows_close(r);
	return rc;
}

int bt_cmd_query(int argc, char **argv, struct bt_err *err)
{
	static const enum bt_rowfmt formats[] = { BT_FMT_TABLE, BT_FMT_CSV, BT_FMT_TSV, BT_FMT_JSON };
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_rows *r = NULL;
	struct bt_outset outs = { NULL, 0, 0 };
	struct query_ctx q = { NULL, NULL, 0 };
	int k, rc = bt_opts_parse(&o, &bt_optab_query, argc, argv, err);

	if (!rc && o.help) {
		bt_cmd_print_help("query");
		goto done;
	}
	if (!rc && o.ninputs != 2)
		rc = bt_err_set(err, BT_EUSAGE, "query takes an input and one SQL statement (got %d arguments)",
				o.ninputs);
	for (k = 0; !rc && k < (o.nouts ? o.nouts : 1); k++) {
		const char *path = o.nouts ? o.outs[k] : NULL;
		enum bt_rowfmt f;
		if (!(rc = bt_rowfmt_pick(o.format, path, &f, err)))   /* a table, or rows on a terminal: a person's */
			bt_outset_add(&outs, path, &formats[f], f == BT_FMT_TABLE || (f != BT_FMT_JSON && (!path || !strcmp(path, "-")) &&
					isatty(STDOUT_FILENO)) ? BT_READ_PERSON : BT_READ_PROGRAM);
	}
	if (!rc)
		rc = bt_outset_check(&outs, o.format, err);
	if (!rc)
		rc = bt_cmd_load(&o, o.inputs[0], 1, NULL, &db, err);
	if (!rc) {   /* a statement that cannot run is told before any output is opened */
		q.db = db;
		q.width = o.width;
		q.sql = is_tables(o.inputs[1]) ? TABLES_SQL : o.inputs[1];
		rc = bt_rows_open_sql(&r, db, q.sql, 0, err);
		bt_rows_close(r);
	}
	if (!rc)
		rc = bt_outset_write(&outs, write_rows, &q, err);
	if (!rc && !o.quiet)
		bt_outset_tell(&outs, stderr);
	if (!rc && o.db)
		rc = bt_db_publish(db, err);
done:
	bt_outset_release(&outs);
	bt_db_close(db);
	bt_opts_release(&o, &bt_optab_query);
	return rc;
}
