/*
 * A fleet summary (engine/fleet/README.md, part 2): per group, the
 * traces' values as exact distributions, the startup's methods and waits
 * with their sums and distributions, the frame times of all the traces'
 * display frames in one sketch, each table bounded by a limit that
 * keeps the keys of smallest hash and folds the rest into exact "other"
 * sums, so that adding summaries and merging fleets is associative and
 * commutative and memory does not grow with the number of traces.
 */
#ifndef BT_FLEET_H
#define BT_FLEET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/base/err.h"
#include "engine/base/hash.h"
#include "engine/base/jsonr.h"
#include "engine/fleet/sketch.h"
#include "engine/fleet/summary.h"

#define BT_FLEET_SCHEMA "btrace-analyze/fleet@1"
#define BT_FLEET_METHODS 2048      /* method items per group */
#define BT_FLEET_WAITS 512         /* wait items per group */
#define BT_FLEET_GROUP_VALUES 256  /* values per group key */
#define BT_FLEET_VALUES 512        /* value names per group (past it: dropped) */
#define BT_FLEET_KEYS 32           /* group keys (past it: dropped) */

struct bt_fl_group;
struct bt_fl_table;

/* What a table's folded items become. */
enum bt_fl_fold { BT_FL_SUMS, BT_FL_GROUPS, BT_FL_DROP };

/* One keyed item: a value's distribution; a method's or wait's sums and
 * distribution; or a group key's value and its group. */
struct bt_fl_item {
	char *key;
	size_t len;
	uint64_t hash;
	int64_t traces;
	int64_t s[3];               /* methods: self_cpu, self, incl; waits: waits, ns */
	struct bt_dist d;
	struct bt_fl_group *g;      /* BT_FL_GROUPS: the value's group */
	struct bt_fl_table *sub;    /* the keys table: the key's values */
};

/* Items by key, at most limit of them once cut (0: no limit). */
struct bt_fl_table {
	struct bt_fl_item *v;
	size_t n, cap, limit;
	enum bt_fl_fold fold;
	struct bt_strmap map;       /* key -> index + 1 */
	int cut;                    /* a prune happened: keys after (cut_hash, cut_key) fold */
	uint64_t cut_hash;
	char *cut_key;
	size_t cut_len;
	int64_t other[3];           /* BT_FL_SUMS: the folded items' sums */
	struct bt_fl_group *other_group;   /* BT_FL_GROUPS: the folded values' traces */
	int64_t folded;             /* items folded or dropped here (told, not written) */
};

struct bt_fl_group {
	int64_t traces;
	struct bt_fl_table values, methods, waits;
	struct bt_dist frames;      /* every display frame's time, of every trace */
};

struct bt_fleet {
	struct bt_fl_group all;
	struct bt_fl_table keys;    /* group keys; each item's sub holds its values */
};

void bt_fleet_init(struct bt_fleet *f);
void bt_fleet_release(struct bt_fleet *f);

/* Add one trace's summary (borrowed). */
void bt_fleet_add(struct bt_fleet *f, const struct bt_summary *s);
/* Merge o (unchanged) into f. */
void bt_fleet_merge(struct bt_fleet *f, struct bt_fleet *o);
/* Put o's traces under key=value: its "all" becomes that value's group
 * (o's own groups under key are dropped). Before bt_fleet_merge. */
void bt_fleet_regroup(struct bt_fleet *o, const char *key, const char *value);
/* Cut every table to its limit: before writing or reading results. */
void bt_fleet_finish(struct bt_fleet *f);
/* Items folded or dropped so far, in all tables (for a warning). */
int64_t bt_fleet_folded(const struct bt_fleet *f);

/* Items of t sorted by key (bytes), borrowed: an array of n pointers the
 * caller frees. */
struct bt_fl_item **bt_fl_sorted(const struct bt_fl_table *t);
/* The item of key, or NULL. */
const struct bt_fl_item *bt_fl_find(const struct bt_fl_table *t, const char *key);

/* The fleet as JSON (finished first), pretty, keys sorted: equal states
 * give equal bytes. */
int bt_fleet_write_json(struct bt_fleet *f, FILE *out, struct bt_err *err);
/* Read a fleet@1 object at r's position into f (initialised here). */
int bt_fleet_read(struct bt_jr *r, struct bt_fleet *f);

#endif
