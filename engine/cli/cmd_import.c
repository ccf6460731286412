/*
 * "btrace-analyze import INPUT... -o trace.db": import a dump (or the
 * dumps of several processes of one capture) into a kept trace database
 * for later queries and analyses.
 */
#include <stddef.h>

#include "engine/cli/cmd.h"

int bt_cmd_import(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	int rc = bt_opts_parse(&o, &bt_optab_import, argc, argv, err);

	if (!rc && o.help) {
		bt_cmd_print_help("import");
		goto out;
	}
	if (!rc && !o.out)
		o.out = o.db;
	o.db = o.out;
	if (!rc && o.ninputs < 1)
		rc = bt_err_set(err, BT_EUSAGE, "import takes an input, or the dumps of several processes of one capture");
	if (!rc && !o.out)
		rc = bt_err_set(err, BT_EUSAGE, "import needs an output database: -o trace.db");
	if (!rc)
		rc = bt_cmd_load_many(&o, (const char *const *)o.inputs, o.ninputs, 0, NULL, &db, err);
	if (!rc)
		rc = bt_db_publish(db, err);
out:
	bt_db_close(db);
	bt_opts_release(&o, &bt_optab_import);
	return rc;
}
