/*
 * The fleet report as JSON: the fleet summary itself (fleet@1), which
 * merge reads back, so a merge of merges equals the merge of all.
 */
#include "reports/fleet/fleet_report.h"

static int write_json(const struct bt_fleetrep_view *v, FILE *out, struct bt_err *err)
{
	return bt_fleet_write_json(v->f, out, err);
}

const struct bt_fleetrep_reporter bt_fleetrep_json = { "json", ".json", write_json };
