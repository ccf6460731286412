/*
 * The pipeline: the one way an input becomes a trace database that rules
 * and reports read (DESIGN §2). An importer decodes its bytes into rows;
 * the pipeline captures the records as they pass, links waits to their
 * wakers, reconstructs the slices (or takes a trace's own, through a
 * feed), builds the attribution profile and the Looper messages, and
 * passes every slice to the taps of the exports that want them, all in
 * one run. Importers implement the interface below; the command line
 * picks one (importers/importer.h) and hands it here.
 */
#ifndef BT_PIPELINE_H
#define BT_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/err.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/profile/tap.h"
#include "engine/recon/slice.h"

/*
 * What importers accept of a trace's numbers (DESIGN §11): a u64 field
 * beyond these is a diagnostic (value_out_of_range) and the record is
 * dropped, or an error with the offset. Times (timestamps, durations, CPU
 * times, in ns) stay below 2^62, 146 years: the difference of any two is
 * then an int64, and so is the sum of two. Counters (allocations, Perfetto
 * counter values) stay below 2^53, where a double still holds them
 * exactly. Sums over many records can still pass int64, so the engine adds
 * them with bt_sat_add (engine/base/alloc.h).
 */
#define BT_MAX_TIME_NS ((int64_t)1 << 62)
#define BT_MAX_COUNTER ((int64_t)1 << 53)

/* --process all: every process of a system trace, the app's leading. */
#define BT_PROCESS_ALL "all"

struct bt_import_opts {
	const char *mapping;   /* explicit mapping file, or NULL to search */
	const char *retrace;   /* ProGuard/R8 mapping.txt, or NULL */
	const char *symbols;   /* iOS address -> name map ("0xADDR name" lines), or NULL */
	/* Called now and then during long imports (may be NULL). */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
	/* Set by the pipeline: the taps a trace's own slices go to as well
	 * (bt_feed_new, feed.h). */
	const struct bt_taps *taps;
	int strict;            /* an input cut short is an error, not salvaged (bt_diag_partial) */
	const char *process;   /* Perfetto: the process to analyse (name or pid), BT_PROCESS_ALL, or NULL
				* to choose */
	int keep;              /* set by the pipeline: a kept database, whose slices are stored as rows
				* (a scratch one may defer a trace's own, bt_feed_defer) */
	/* Set by the pipeline for an input that joins others in one capture
	 * (BT_BRINGS_JOINS): the ids its frames, stack nodes and samples
	 * start after, the earlier inputs holding those below. */
	int64_t frame_base, node_base, sample_base;
};

/*
 * What an input format brings (struct bt_importer's brings), so that the
 * pipeline and the command line ask the importer instead of comparing it
 * or its format's name, and refuse an option that cannot apply to it.
 * "May" flags say what the format can hold; a trace of it may still lack
 * it (a Perfetto trace without the scheduler's events has no CPU time).
 */
enum {
	BT_BRINGS_SLICES = 1 << 0,     /* its own slices (a feed): none are reconstructed from samples
					* (--slice-policy does not apply) */
	BT_BRINGS_PROCESSES = 1 << 1,  /* may hold several processes, one of them analysed (--process) */
	BT_BRINGS_CPU = 1 << 2,        /* may give its threads' CPU time; without it every slice's is
					* unknown (--folded-metric cpu and offcpu do not apply) */
	BT_BRINGS_WAKERS = 1 << 3,     /* its samples hold waits and the records of who ended them,
					* linked by the pipeline (engine/recon/link.c) */
	BT_BRINGS_THROTTLE = 1 << 4,   /* its samples were taken under a capture throttle, which the
					* idle policy reads the gaps with (slice.c) */
	BT_BRINGS_MAPPING = 1 << 5,    /* its method names are in a mapping file beside it (--mapping) */
	BT_BRINGS_RETRACE = 1 << 6,    /* its Java names are de-obfuscated with a ProGuard/R8 mapping (--retrace) */
	BT_BRINGS_ADDRESSES = 1 << 7,  /* its frames are addresses an address map names (--symbols) */
	BT_BRINGS_JOINS = 1 << 8       /* one process of a capture on the boot clock, which can join the
					* others' inputs in one database (the io bases above) */
};

/* An input format. Importers decode bytes into rows through
 * engine/db/db.h inside the pipeline's transaction (a trace with slices
 * of its own opens and closes them on a feed); they never query, print
 * or call Lua. */
struct bt_importer {
	const char *name;   /* the format, as meta and the batch manifest give it */
	const char *noun;   /* the format for people, with its article ("a Perfetto trace") */
	unsigned brings;    /* BT_BRINGS_*: what the format brings */
	/* 1 if this importer reads path. head holds the file's first n bytes,
	 * or is NULL when path is a directory. */
	int (*probe)(const char *path, const unsigned char *head, size_t n);
	int (*run)(struct bt_db *db, const char *path, const struct bt_import_opts *o,
		   struct bt_diag *diag, struct bt_err *err);
};

struct bt_pipeline {
	const struct bt_importer *imp;
	const char *const *inputs;    /* one, or the processes of one capture (imp brings BT_BRINGS_JOINS) */
	size_t ninputs;
	const struct bt_importer *sys_imp;   /* with dumps: the system trace of the capture's time */
	const char *sys_input;               /* (BT_BRINGS_PROCESSES), or NULL (engine/recon/join.h) */
	struct bt_import_opts io;     /* io.taps is the pipeline's */
	enum bt_slice_policy policy;
	int keep;                     /* a kept database: samples, nodes and slices stored as rows */
	struct bt_taps taps;          /* borrowed; their done() runs before bt_pipeline_run returns */
};

/*
 * Run pl into db (new and empty) in one transaction, counting the
 * input's oddities in diag. Without keep, the samples and stack nodes stay
 * in memory and the slices are made again only if something reads the
 * slices table (db.h's bt_db_defer_slices). On error the database is left
 * part-written (its journal is off: no rollback undoes the importer's
 * writes) and must not be published; the caller discards it.
 */
int bt_pipeline_run(struct bt_db *db, const struct bt_pipeline *pl, struct bt_diag *diag,
		    struct bt_err *err);

/* The slices a database already holds, to taps: read in id order and
 * replayed as a run would give them (one part). BT_EFORMAT when a stored
 * slice's parent is not the slice enclosing it. */
int bt_pipeline_replay(struct bt_db *db, const struct bt_taps *taps, struct bt_err *err);

#endif
