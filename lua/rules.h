/*
 * Running rule files (DESIGN §7): each file in its own sandbox with the
 * bt API (api.c), its registered rules one by one. A rule or file that
 * fails (an error or a limit hit) ends the run with BT_ELUA, the message
 * naming file and line; so do an unreadable file and a bad --set (usage).
 */
#ifndef BT_RULES_H
#define BT_RULES_H

struct bt_namer;

#include "engine/db/db.h"
#include "engine/base/result.h"

struct bt_rules_opts {
	const char *const *files;   /* --rules in order; none: the built-in "attribution" */
	int nfiles;
	const char *const *sets;    /* --set key=value */
	int nsets;
	const struct bt_namer *names;   /* what bt.short reads (engine/base/names.h); NULL: level 0 */
	int full_names;             /* --full-names: bt.short gives the name as it is */
};

int bt_rules_run(struct bt_db *db, const struct bt_rules_opts *o, struct bt_result *res,
		 struct bt_err *err);

#endif
