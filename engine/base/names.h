/*
 * Method names as people read them. A frame's name is a full signature
 * ("com.example.app.ui.feed.FeedViewHolder com.example.app.ui.feed.
 * FeedAdapter.onCreateViewHolder(android.view.ViewGroup, int)", or a C++
 * "void art::Monitor::Lock(art::Thread*)"); a report shows
 * "FeedAdapter.onCreateViewHolder" and keeps the full signature for
 * tooltips, JSON and SQL.
 *
 * Short names must not merge two methods: a namer knows every name in
 * scope and lengthens only those that collide, step by step (levels):
 *   0  FeedAdapter.bind                     class and method
 *   1  FeedAdapter.bind(View, int)          + simple parameter types
 *   2  com.example.FeedAdapter.bind(View, int)   + the package
 *   3  the full signature
 * A name that is no signature (no parameter list: "<unknown 0x1f>",
 * "-[NSObject init]", "libc.so!read"; or words before a parenthesis:
 * "inflate (activity_main)") reads as it is at every level.
 */
#ifndef BT_NAMES_H
#define BT_NAMES_H

#include <stddef.h>

#include "engine/base/alloc.h"

/* Append name[0..len) at level (0..3) to b. */
void bt_name_short(const char *name, size_t len, int level, struct bt_buf *b);

struct bt_namer;

struct bt_namer *bt_namer_new(void);
void bt_namer_free(struct bt_namer *n);
/* Put name in scope (duplicates are one name), then, once all are in,
 * settle the short names: after bt_namer_done, n is read-only and
 * threads may share it. */
void bt_namer_add(struct bt_namer *n, const char *name);
void bt_namer_done(struct bt_namer *n);
/* The shortest name that no other name in scope shares; the string lives
 * as long as n. A name not in scope, or NULL n (--full-names): the name
 * itself. */
const char *bt_namer_get(const struct bt_namer *n, const char *name);

#endif
