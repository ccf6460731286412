/*
 * The SQL aggregate bt_percentile(x, q): the nearest-rank q-th percentile
 * of the integers x (the value of rank max(1, ceil(n * q / 100)) in
 * ascending order), NULL with no value; NULLs are left out. One sort per
 * group where a window function (row_number over the sorted rows, then a
 * join on the rank) costs several: the frame-time percentiles of a long
 * scroll read 200k frames.
 */
#ifndef BT_PERCENTILE_H
#define BT_PERCENTILE_H

struct bt_db;

/* Register bt_percentile on db's connection (an SQLite result code). */
int bt_db_register_percentile(struct bt_db *db);

#endif
