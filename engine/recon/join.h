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

/* A binder call a system trace of the capture's time gives, its tids
 * the capture's (a dump keeps 16 bits of a tid): the client's wait from
 * ts to end, its server from recv to reply (oneway: no reply). */
struct bt_sys_call {
	int64_t client, ts, end, server, server_pid, recv, reply, blocked;
	int oneway;
	char why[16];
};

struct bt_sys_calls {
	struct bt_sys_call *v;
	size_t n, cap;
};

/* Import the system trace path (imp brings BT_BRINGS_PROCESSES) of the
 * capture's time alone, every process of it, and copy into db what it
 * says of the capture's threads: their scheduler states, and its binder
 * calls whose client is one of them (*calls, freed by the caller).
 * BT_EFORMAT when its span does not meet the capture's. */
int bt_join_system(struct bt_db *db, const struct bt_importer *imp, const char *path, const struct bt_import_opts *io,
		   const struct bt_process *procs, size_t n, struct bt_diag *diag, struct bt_sys_calls *calls,
		   struct bt_err *err);

/* Import the n inputs of imp (n > 1: it brings BT_BRINGS_JOINS) into db
 * through io, the capture watching; *procs (n, freed by the caller) says
 * where each process is. The processes table is written. */
int bt_join_import(struct bt_db *db, const struct bt_importer *imp, const char *const *inputs, size_t n,
		   struct bt_import_opts *io, struct bt_capture *cap, struct bt_diag *diag,
		   struct bt_process **procs, struct bt_err *err);

#endif
