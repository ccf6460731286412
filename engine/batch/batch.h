/*
 * A batch (DESIGN §13): every trace found under some inputs analysed by a
 * pool of worker processes, each the tool's own 'analyze' on one trace,
 * so that a crash or an out-of-memory costs that trace only; a JSON report
 * per trace named by its content hash, and a manifest of what became of
 * every file found. Reruns resume; --shard takes a deterministic share.
 */
#ifndef BT_BATCH_H
#define BT_BATCH_H

#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

/* What a found file is: the name of the importer that reads path (a
 * static string), or NULL with the reason in why and *sidecar set when the
 * file goes beside a trace (a mapping). The caller's, since engine/ does
 * not see importers/. */
typedef const char *(*bt_batch_probe_fn)(const char *path, struct bt_buf *why, int *sidecar);

/* More arguments for a worker on a file of format (the probe's name): the
 * options that apply to that format, *n of them. The array is the
 * callee's, valid until the next call; its strings until the batch ends. */
typedef const char *const *(*bt_batch_args_fn)(void *ctx, const char *format, int *n);

struct bt_batch_opts {
	const char *outdir;         /* made if missing (its parent must exist) */
	const char *exe;            /* the binary a worker runs as "EXE analyze ..." */
	const char *const *args;    /* more arguments for every worker (--rules F ...) */
	int nargs;
	int jobs;                   /* workers at once, >= 1 */
	int db;                     /* keep each trace's database too, OUTDIR/db/HASH.db */
	int shard, nshards;         /* this run's share of the files; nshards 0: all */
	int retry_failed;           /* run again what an earlier run recorded as failed */
	int timeout;                /* seconds a worker may run, then killed; 0: no limit */
	int progress;               /* draw the progress line (a terminal, no -q) */
	bt_batch_probe_fn probe;
	bt_batch_args_fn format_args;   /* may be NULL: no more */
	void *format_ctx;
};

/* What a run did, for the summary line. */
struct bt_batch_sum {
	uint64_t traces;            /* files an importer takes, in this share */
	uint64_t ok, failed;        /* of the traces, including those of an earlier run */
	uint64_t earlier;           /* of ok and failed: recorded by an earlier run, not run now */
	uint64_t ran;               /* run now */
	uint64_t skipped;           /* other files: no trace, a duplicate, unreadable */
	uint64_t sidecars;          /* of skipped: mappings beside a trace */
	double seconds;             /* the run's wall time */
	char *manifest;             /* its path; the sum's, freed by bt_batch_sum_release */
};

/*
 * Find the files under inputs (files, and directories walked recursively;
 * names starting with '.' and the output directory itself left out), keep
 * this shard's, probe each with o->probe, and analyse every trace not
 * already done in OUTDIR with o->jobs workers: OUTDIR/reports/HASH.json
 * (and OUTDIR/db/HASH.db), written by the worker to a temporary name and
 * renamed, and a line per file in the manifest (docs/fleet.md, "Batch and Slurm").
 * BT_EBATCH when the batch ran but some trace failed (the manifest names
 * each with its error); BT_EIO/BT_EFORMAT for the batch's own failures
 * (an input or OUTDIR unreadable, a manifest it cannot read).
 */
int bt_batch_run(const struct bt_batch_opts *o, char *const *inputs, int ninputs,
		 struct bt_batch_sum *sum, struct bt_err *err);
void bt_batch_sum_release(struct bt_batch_sum *sum);

/* "I/N" (0 <= I < N <= 100000) into *shard and *nshards; -1 if malformed. */
int bt_batch_shard_parse(const char *s, int *shard, int *nshards);

/* The processors this process may run on (its affinity mask), >= 1. */
int bt_batch_cores(void);

#endif
