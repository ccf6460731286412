/*
 * "btrace-analyze query INPUT|trace.db SQL [--format F]": read-only SQL
 * against a trace, importing a dump first when given one.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/cmd.h"
#include "engine/base/fileio.h"
#include "reports/report.h"
#include "engine/db/rows.h"
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

int bt_cmd_query(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_rows *r = NULL;
	struct bt_out out = { NULL, NULL, NULL };
	enum bt_rows_format f;
	int rc = bt_opts_parse(&o, &bt_optab_query, argc, argv, err);

	if (!rc && o.help) {
		bt_cmd_print_help("query");
		goto done;
	}
	if (!rc && o.ninputs != 2)
		rc = bt_err_set(err, BT_EUSAGE, "query takes an input and one SQL statement (got %d arguments)",
				o.ninputs);
	if (!rc)
		rc = bt_rows_format_parse(o.format, &f, err);
	if (!rc)
		rc = bt_cmd_load(&o, o.inputs[0], 1, NULL, &db, err);
	if (!rc)
		rc = bt_rows_open_sql(&r, db, is_tables(o.inputs[1]) ? TABLES_SQL : o.inputs[1], 0, err);
	if (!rc)
		rc = bt_out_open(&out, o.out, err);
	if (!rc) {   /* a table, or rows on a terminal, is read by a person: no control characters */
		int people = f == BT_FMT_TABLE || (f != BT_FMT_JSON && isatty(fileno(out.fp)));
		FILE *fp = people ? bt_safe_open(out.fp, 0) : out.fp;
		rc = bt_rep_rows_write(r, f, fp, err);
		if (bt_safe_close(fp, out.fp) && !rc)
			rc = bt_err_set(err, BT_EIO, "cannot write '%s': %s", o.out && strcmp(o.out, "-") ? o.out : "stdout",
					errno ? strerror(errno) : "write error");
	}
	if (!rc)
		rc = bt_out_commit(&out, err);
	if (!rc && o.db)
		rc = bt_db_publish(db, err);
done:
	bt_out_abort(&out);
	bt_rows_close(r);
	bt_db_close(db);
	bt_opts_release(&o);
	return rc;
}
