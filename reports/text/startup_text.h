/*
 * The startup summary (reports/report_startup.h) as the text report's
 * lines.
 */
#ifndef BT_STARTUP_TEXT_H
#define BT_STARTUP_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "reports/report_startup.h"

/* The startup as text lines, wrapped within width columns (0: no limit),
 * method names short by names (engine/base/names.h; NULL: in full);
 * nothing without one. */
void bt_startsum_text(FILE *out, const struct bt_startsum *s, const struct bt_namer *names,
			 size_t width);

#endif
