/*
 * Slice reconstruction: turning the sampled stacks of each thread into
 * frame executions (DESIGN §5). The "btrace" policy reproduces the upstream
 * converter exactly (format spec §7-§8), quirks included, so the numbers
 * reconcile with what users saw in Perfetto UI.
 */
#ifndef BT_SLICE_H
#define BT_SLICE_H

#include "db.h"
#include "diag.h"

struct bt_capture;

enum bt_slice_policy {
	BT_SLICE_BTRACE,   /* upstream's boundaries: a frame ends 10 ns after its last sample */
	BT_SLICE_MIDPOINT  /* frames change halfway between samples, exactly at duration
			    * records' ends; message changes split frames below the loop */
};

/* Parse a --slice-policy name. BT_EUSAGE for an unknown one. */
int bt_slice_policy_parse(const char *name, enum bt_slice_policy *out, struct bt_err *err);

/* Fill slices from the captured samples of a freshly imported Android
 * trace (other formats bring their own slices). */
int bt_slice_build(const struct bt_capture *cap, struct bt_db *db, enum bt_slice_policy policy,
		   struct bt_diag *diag, struct bt_err *err);

#endif
