/*
 * Binder calls followed from the client into the server, across the
 * processes of one capture (binder.c): each client binder record gets a
 * binder_calls row and, where another process's binder thread was seen
 * serving it, a blocking edge of kind binder whose waker is that thread.
 */
#ifndef BT_BINDER_H
#define BT_BINDER_H

#include <stddef.h>

#include "engine/db/diag.h"
#include "engine/recon/capture.h"
#include "engine/recon/join.h"
#include "engine/recon/slice.h"

/* With sys (the calls a system trace of the capture's time pairs,
 * engine/recon/join.h), each of those is the call instead, its dump's
 * record where one was written, its server's stack where its dump
 * sampled it serving. *spans (malloc'd, *nspans of them) get each served
 * call's span on its server thread, for the slicer (bt_slicer_spans). */
int bt_binder_link(const struct bt_capture *cap, const struct bt_process *procs, size_t np,
		   const struct bt_sys_calls *sys, struct bt_db *db, struct bt_diag *diag,
		   struct bt_slice_span **spans, size_t *nspans, struct bt_err *err);

#endif
