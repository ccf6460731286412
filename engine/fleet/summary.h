/*
 * A trace's mergeable summary (engine/fleet/README.md, part 1): values,
 * the startup's main-thread top methods and the waits behind it, with
 * exact "other" sums, and what a fleet groups the trace by. Loaded from a
 * trace database, written into the JSON report (or a file of its own),
 * read back by merge.
 */
#ifndef BT_SUMMARY_H
#define BT_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/base/jsonr.h"
#include "engine/base/jsonw.h"
#include "engine/db/db.h"
#include "engine/fleet/sketch.h"

#define BT_SUMMARY_SCHEMA "btrace-analyze/summary@1"
#define BT_SUMMARY_METHODS 32   /* K: the app methods a trace keeps */
#define BT_SUMMARY_WAITS 16     /* K: the waits (kind, holder) a trace keeps */

struct bt_sum_kv {
	char *key, *value;
};

struct bt_sum_value {
	char *name;
	int64_t v;
};

struct bt_sum_method {
	char *name;
	int64_t self_cpu, self, incl;
};

struct bt_sum_wait {
	char *kind, *holder;
	int64_t waits, ns;
};

/* Everything owned; arrays sorted as the README says (groups and values
 * by name, methods by self CPU, waits by ns). */
struct bt_summary {
	char *source;                      /* NULL: not said */
	struct bt_sum_kv *groups;
	size_t ngroups;
	struct bt_sum_value *values;
	size_t nvalues;
	int has_methods;                   /* the trace has a startup */
	struct bt_sum_method *methods;
	size_t nmethods;
	int64_t other_self_cpu, other_self;
	int has_waits;
	struct bt_sum_wait *waits;
	size_t nwaits;
	int64_t other_waits, other_ns;
	int has_frames;                    /* the trace has display frames (ui_frames) */
	struct bt_dist frames;             /* their frame times */
};

void bt_summary_init(struct bt_summary *s);
void bt_summary_release(struct bt_summary *s);

/* Read db's summary into s (initialised here). BT_ESQL on a failed query. */
int bt_summary_load(struct bt_db *db, struct bt_summary *s, struct bt_err *err);

/* Set groups.key to value (NULL or "": remove it), keeping the order. */
void bt_summary_set_group(struct bt_summary *s, const char *key, const char *value);
/* groups.key, or NULL. Valid while s is unchanged. */
const char *bt_summary_group(const struct bt_summary *s, const char *key);

/* Write s as a JSON object (its "schema" first) at w's position. */
void bt_summary_write(struct bt_jsonw *w, const struct bt_summary *s);
/* Read the object at r's position into s (initialised here): BT_EFORMAT
 * naming the file and offset for anything that is not a summary@1
 * (negative values included); members it does not know are skipped. */
int bt_summary_read(struct bt_jr *r, struct bt_summary *s);

#endif
