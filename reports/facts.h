/*
 * The trace's facts that head every report, its diagnostics as the
 * reports list them, and what every reporter shows besides the rules'
 * results, read through engine/db/rows.h (facts.c).
 */
#ifndef BT_FACTS_H
#define BT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/base/result.h"
#include "engine/db/db.h"

/* Facts about the trace that head every report. Strings owned by f. */
struct bt_facts {
	char *format, *source, *mapping;
	char *partial;             /* why the input was cut short and salvaged; NULL: intact */
	char *no_names;            /* why frames and threads have no names (no mapping); NULL: named */
	char *no_threads;          /* why the thread tables are empty and where the data is; NULL: not so */
	char *process;             /* the process's name (meta process_name); NULL: unknown */
	int64_t version, pid, main_tid, records, samples, threads, start_ns, end_ns;
	int64_t slices;
	int imported;              /* the trace brought its slices (Perfetto): no samples */
	int has_pid;
	int cpu_time;              /* BT_CPU_*: the threads' CPU time known (meta cpu_unknown) */
	int no_alloc, no_faults, no_csw;   /* the trace records no allocations, page faults,
					    * context switches (meta no_*: the importer knows) */
	int64_t other_processes;   /* processes besides the app's whose threads' slices are here
				    * too, in every figure (a systrace's) */
	int no_waits, no_idle;     /* nor when threads waited or idled (meta no_*: the profile's
				    * store, for slices that came with the trace) */
	char *unrecorded;          /* what of these it does not record, for people ("CPU
				    * time, allocations"); NULL: all recorded */
};

enum { BT_CPU_KNOWN, BT_CPU_PARTIAL /* some threads' */, BT_CPU_UNKNOWN };

int bt_facts_load(struct bt_db *db, struct bt_facts *f, struct bt_err *err);
void bt_facts_release(struct bt_facts *f);

/* A diagnostic, as the report lists it. Strings owned. */
struct bt_diagrow {
	char *code, *detail;
	int64_t count;
};

int bt_diagrows_load(struct bt_db *db, struct bt_diagrow **out, size_t *n, struct bt_err *err);
void bt_diagrows_free(struct bt_diagrow *d, size_t n);

/* What every reporter shows besides the rules' results. */
struct bt_report_ctx {
	struct bt_facts facts;
	struct bt_diagrow *diag;
	size_t ndiag;
	const struct bt_metric **metrics;   /* sorted by name */
};

int bt_report_ctx_load(struct bt_db *db, const struct bt_result *res, struct bt_report_ctx *c,
		       struct bt_err *err);
void bt_report_ctx_release(struct bt_report_ctx *c);

#endif
