/*
 * What the HTML report needs from the run besides the database: every
 * slice of every thread for its timeline, packed by a tap as the slices
 * end (html_int.h says how).
 */
#ifndef BT_HTML_H
#define BT_HTML_H

#include "engine/profile/tap.h"

struct bt_html_timeline;

struct bt_html_timeline *bt_html_timeline_new(void);
/* The tap that fills t; t must outlive the run. */
struct bt_slice_tap bt_html_timeline_tap(struct bt_html_timeline *t);
void bt_html_timeline_free(struct bt_html_timeline *t);

#endif
