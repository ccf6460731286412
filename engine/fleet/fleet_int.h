/*
 * What the fleet reader (fleet_read.c) adds to a fleet besides summaries:
 * items, "other" sums and whole groups as a file holds them, each merged
 * as bt_fleet_merge would (fleet.c).
 */
#ifndef BT_FLEET_INT_H
#define BT_FLEET_INT_H

#include "engine/fleet/fleet.h"

void bt_fl_group_init(struct bt_fl_group *g);
void bt_fl_group_release(struct bt_fl_group *g);
/* Add an item's traces, sums (NULL: none) and distribution to t's key. */
void bt_fleet_put_item(struct bt_fl_table *t, const char *key, size_t len, int64_t traces,
		       const int64_t s[3], const struct bt_dist *d);
/* Add to t's "other" sums. */
void bt_fleet_put_other(struct bt_fl_table *t, const int64_t s[3]);
/* Merge g into f's group key=value (value NULL: the key's other group). */
void bt_fleet_put_group(struct bt_fleet *f, const char *key, size_t klen, const char *value, size_t vlen,
			struct bt_fl_group *g);

#endif
