/*
 * Several processes of one capture in one database (issue 40): the
 * dumps of an app's processes, imported one after another into one
 * capture and one transaction. Each input's ids follow the ones before
 * (frames are interned per process), its threads and frames get its pid,
 * its meta is kept as its process's, and the lead process (the app's
 * main one) describes the capture in meta. Inputs that cannot be one
 * capture are refused: no process id, one process twice, a thread in two
 * processes, spans on the boot clock that do not meet.
 */
#ifndef BT_JOIN_H
#define BT_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/recon/capture.h"
#include "engine/recon/pipeline.h"

/* One process of the capture as imported. */
struct bt_process {
	const char *path;
	int64_t pid, main_tid, version;
	size_t lo, hi;            /* its records in the capture: [lo, hi) */
	int64_t first, last;      /* their span on the boot clock (first > last: no record) */
	int64_t threads;
	char name[64];            /* its main thread's name, or "" */
	int lead;
};

/* Import the n inputs of imp (n > 1: it brings BT_BRINGS_JOINS) into db
 * through io, the capture watching; *procs (n, freed by the caller) says
 * where each process is. The processes table is written. */
int bt_join_import(struct bt_db *db, const struct bt_importer *imp, const char *const *inputs, size_t n,
		   struct bt_import_opts *io, struct bt_capture *cap, struct bt_diag *diag,
		   struct bt_process **procs, struct bt_err *err);

#endif
