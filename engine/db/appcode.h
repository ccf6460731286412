/*
 * Whose code a frame is: the app's (its own classes and the libraries it
 * ships) or the platform's (framework, runtime, synthetic frames). One
 * notion for every place that names where a wait happened or who ended it:
 * the waits table, the startup findings, the gate's holders, the exports.
 */
#ifndef BT_APPCODE_H
#define BT_APPCODE_H

#include <stddef.h>

struct bt_db;

/* 1 if name is a method of the app: a Java-like signature ("void a.B.c(int)")
 * whose class is outside the platform's packages. Synthetic frames
 * ("Monitor:Lock", "(idle)"), native runtime frames ("art::…") and names
 * with no parameter list (iOS symbols, atrace labels) are not. */
int bt_frame_is_app(const char *name);

/* The same with a package: the app's methods are that package's (a.b and
 * a.b.*, a.b$*); NULL or "" falls back to bt_frame_is_app. */
int bt_frame_in_package(const char *name, const char *package);

/* Register the SQL function bt_app_node(node_id) on db's connection: the
 * innermost node of that stack whose frame is the app's, or node_id itself
 * when none is (NULL for NULL). */
int bt_db_register_appcode(struct bt_db *db);
void bt_db_appcode_release(struct bt_db *db);

#endif
