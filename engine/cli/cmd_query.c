/*
 * "btrace-analyze query INPUT|trace.db SQL [--format F]": read-only SQL
 * against a trace, importing a dump first when given one.
 */
#include "engine/cli/cmd.h"
#include "engine/base/fileio.h"
#include "reports/report.h"
#include "engine/db/rows.h"

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
		rc = bt_rows_open_sql(&r, db, o.inputs[1], 0, err);
	if (!rc)
		rc = bt_out_open(&out, o.out, err);
	if (!rc)
		rc = bt_rep_rows_write(r, f, out.fp, err);
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
