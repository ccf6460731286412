/*
 * Internals of struct bt_db shared by db.c and rows.c, the only files that
 * include <sqlite3.h>.
 */
#ifndef BT_DB_INT_H
#define BT_DB_INT_H

#include <sqlite3.h>

#include "db.h"

#define BT_DB_SAMPLE_BATCH 16   /* rows of insert_samples_batch.sql */
#define BT_DB_NODE_BATCH 32     /* rows of insert_nodes_batch.sql */

struct bt_db {
	sqlite3 *conn;
	struct bt_sample pend_sample[BT_DB_SAMPLE_BATCH];
	int npend_sample;
	int64_t pend_node[BT_DB_NODE_BATCH][4];
	int npend_node;
	sqlite3_stmt *stmt[BT_SQL__COUNT];
	char *path;      /* final path, NULL in memory */
	char *tmp_path;  /* where the data is until published */
	int published;
};

#endif
