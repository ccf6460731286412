/*
 * Internals of struct bt_db shared by db.c and rows.c, the only files that
 * include <sqlite3.h>.
 */
#ifndef BT_DB_INT_H
#define BT_DB_INT_H

#include <sqlite3.h>

#include "db.h"

struct bt_db {
	sqlite3 *conn;
	sqlite3_stmt *stmt[BT_SQL__COUNT];
	char *path;      /* final path, NULL in memory */
	char *tmp_path;  /* where the data is until published */
	int published;
};

#endif
