/*
 * "btrace-analyze [analyze] INPUT": import (or reuse) a trace and write the
 * report, to stdout or atomically to -o in the format its extension or
 * --format names; --perfetto also exports the slices for Perfetto UI.
 */
#include "cmd.h"
#include "fileio.h"
#include "perfetto.h"
#include "report.h"

int bt_cmd_analyze(int argc, char **argv, struct bt_err *err)
{
	struct bt_opts o;
	struct bt_db *db = NULL;
	struct bt_out out = { NULL, NULL, NULL };
	const struct bt_reporter *rep = NULL;
	int rc = bt_opts_parse(&o, argc, argv, BT_OPT_DB | BT_OPT_OUT | BT_OPT_FORMAT |
			       BT_OPT_MAPPING | BT_OPT_RETRACE | BT_OPT_QUIET | BT_OPT_SLICE |
			       BT_OPT_PERFETTO, err);

	if (!rc && o.help) {
		bt_cmd_print_help("analyze");
		goto done;
	}
	if (!rc && o.ninputs == 0)
		rc = bt_err_set(err, BT_EUSAGE, "no input given");
	if (!rc && o.ninputs > 1)
		rc = bt_err_set(err, BT_EUSAGE, "analyze takes one input (got %d)", o.ninputs);
	if (!rc)
		rc = bt_report_pick(o.format, o.out, &rep, err);
	if (!rc)
		rc = bt_cmd_load(&o, o.inputs[0], 0, &db, err);
	if (!rc)
		rc = bt_out_open(&out, o.out, err);
	if (!rc)
		rc = rep->write(db, out.fp, err);
	if (!rc && o.perfetto)
		rc = bt_perfetto_write(db, o.perfetto, err);
	if (!rc)
		rc = bt_out_commit(&out, err);
	if (!rc)
		rc = bt_db_publish(db, err);
done:
	bt_out_abort(&out);
	bt_db_close(db);
	bt_opts_release(&o);
	return rc;
}
