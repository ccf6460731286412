/*
 * The fleet report's rows as text cells (fl_cells.c), shared by the
 * Markdown and HTML writers so they show the same figures.
 */
#ifndef BT_FLEET_CELLS_H
#define BT_FLEET_CELLS_H

#include "reports/fleet/fleet_report.h"

enum { BT_FV_VCOLS = 7, BT_FV_MCOLS = 6, BT_FV_WCOLS = 6, BT_FV_GCOLS = 6, BT_FV_CELLS = 7 /* the largest */ };
extern const char *const bt_fv_vhead[BT_FV_VCOLS];
extern const char *const bt_fv_mhead[BT_FV_MCOLS];
extern const char *const bt_fv_whead[BT_FV_WCOLS];
extern const char *const bt_fv_ghead[BT_FV_GCOLS];   /* the groups at a glance */

/* Init (1) or release (0) BT_FV_CELLS buffers. */
void bt_fv_cells(struct bt_buf *c, int init);
void bt_fv_value_cells(const struct bt_fl_item *it, struct bt_buf c[BT_FV_VCOLS]);
void bt_fv_method_cells(const struct bt_fleetrep_view *v, const struct bt_fv_group *g,
			const struct bt_fl_item *it, struct bt_buf c[BT_FV_MCOLS]);
void bt_fv_wait_cells(const struct bt_fleetrep_view *v, const struct bt_fv_group *g,
		      const struct bt_fl_item *it, struct bt_buf c[BT_FV_WCOLS]);
/* A group at a glance: its traces and time to initial display. */
void bt_fv_group_cells(const struct bt_fv_group *g, struct bt_buf c[BT_FV_GCOLS]);
/* "1000 traces; time to initial display (998 with a startup): p50 ...". */
void bt_fv_headline(const struct bt_fleetrep_view *v, struct bt_buf *b);
/* What the figures mean, one paragraph. */
extern const char bt_fv_note[];

#endif
