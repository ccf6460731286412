/*
 * An in-memory copy of the samples of a trace being imported, taken as
 * they pass through bt_db_insert_sample. Reconstruction and linking work
 * from it instead of scanning and sorting the samples table.
 */
#ifndef BT_CAPTURE_H
#define BT_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/db/db.h"

/* struct bt_csample, a captured sample, is the in-memory samples table's
 * row (engine/db/db.h). */

struct bt_capture {
	struct bt_db *db;       /* watched until release */
	struct bt_csample *s;   /* in insertion (file) order: sample id = index + 1 */
	size_t n, cap;
	struct bt_cends ends;   /* their end times and CPU, where they have one */
	int64_t bad_id;         /* the first sample whose id was not its position + 1 */
	size_t bad_at;          /* and that position (1 up), or 0: every id dense */
	uint32_t *parent, *frame;   /* the stack tree by node id */
	size_t nnodes, ncap;
};

/* Start copying the samples and the stack tree inserted into db, which
 * linking and reconstruction work from. */
void bt_capture_begin(struct bt_capture *c, struct bt_db *db);
/* Stop watching and free the copy. */
void bt_capture_release(struct bt_capture *c);

#endif
