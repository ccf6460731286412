/*
 * The batch's parts, shared by its files: the files found (find.c), their
 * content hash (chash.c), the worker pool (pool.c) and the manifest
 * (manifest.c), which batch.c puts together.
 */
#ifndef BT_BATCH_INT_H
#define BT_BATCH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/base/alloc.h"
#include "engine/base/err.h"

enum bt_batch_status { BT_BATCH_TODO, BT_BATCH_OK, BT_BATCH_FAILED, BT_BATCH_SKIPPED };

#define BT_CHASH_HEX 33    /* 32 hex digits and the NUL */

/* A file found under the inputs, and what became of it. */
struct bt_batch_item {
	char *path;                 /* as found: an input, or an input and the names below it */
	uint64_t size;
	dev_t dev;
	ino_t ino;
	char hash[BT_CHASH_HEX];    /* "" until hashed (only traces are) */
	const char *importer;       /* the probe's; NULL: no trace */
	enum bt_batch_status status;
	int sidecar;
	int exit_code;              /* the worker's exit status; -1: none (not run, or a signal) */
	char *error;                /* failed or skipped: why; owned */
	double seconds;             /* the worker's wall time; < 0: not run */
	long peak_kb;               /* its peak RSS; < 0: unknown */
	int earlier;                /* the record is an earlier run's */
};

struct bt_batch_list {
	struct bt_batch_item *v;
	size_t n, cap;
};

void bt_batch_list_release(struct bt_batch_list *l);

/*
 * Every file under inputs into l, sorted by path, each file once (by
 * device and inode); directories walked recursively, entries whose name
 * starts with '.' and the directory skip (if not NULL) left out, symbolic
 * links followed (a directory loop is walked once). BT_EIO when an input
 * does not exist or a directory cannot be read.
 */
int bt_batch_find(char *const *inputs, int ninputs, const char *skip, struct bt_batch_list *l,
		  struct bt_err *err);

/* Whether path is in shard of nshards: by a hash of the file's size and
 * first 64 KiB, so copies of one trace share a shard (by the path's bytes
 * when it cannot be read). */
int bt_batch_in_shard(const char *path, int shard, int nshards);

/*
 * The content hash of the file at path: 128 bits, as 32 lowercase hex
 * digits into hex, its size into *size. Not cryptographic: it names a
 * trace's outputs. BT_EIO if the file cannot be read.
 */
int bt_chash_file(const char *path, char hex[BT_CHASH_HEX], uint64_t *size, struct bt_err *err);
/* The same over len bytes in memory. */
void bt_chash_bytes(const void *p, size_t len, char hex[BT_CHASH_HEX]);

/* How a worker ended. */
struct bt_pool_end {
	size_t tag;                 /* the spawn's */
	int exit_code;              /* -1 when killed by a signal */
	int sig;                    /* the signal, or 0 */
	int timed_out;              /* stopped by the pool for running past its timeout */
	int killed;                 /* ... with SIGKILL: it did not stop when told to */
	long pid;
	double seconds;             /* wall, spawn to reap */
	long peak_kb;               /* peak RSS (wait4's ru_maxrss) */
	struct bt_buf tail;         /* the end of what it wrote to stderr (up to 8 KiB) */
};

struct bt_pool;

/* A pool of at most jobs workers. BT_EIO if the error captures cannot be
 * made (one temporary file per worker, removed at once). */
int bt_pool_new(struct bt_pool **out, int jobs, struct bt_err *err);
/* Kill (SIGTERM) and reap the workers still running; NULL is fine. */
void bt_pool_free(struct bt_pool *p);
/* Kill (SIGKILL) a worker that runs longer than seconds; 0: no limit. */
void bt_pool_timeout(struct bt_pool *p, int seconds);
/* Workers running now. */
int bt_pool_running(const struct bt_pool *p);
int bt_pool_full(const struct bt_pool *p);
/* Run argv (argv[0] a path) as a worker, its stdin and stdout /dev/null,
 * its stderr captured, SIGTERM'd if the batch dies first; the pool must
 * not be full. BT_EIO if it cannot be forked; one that cannot be exec'd
 * ends with status 127 and says so on its stderr. */
int bt_pool_spawn(struct bt_pool *p, char *const argv[], size_t tag, struct bt_err *err);
/* Wait for a worker to end (one must be running); end->tail is reset
 * first. BT_EIO if waiting fails. */
int bt_pool_reap(struct bt_pool *p, struct bt_pool_end *end, struct bt_err *err);

/* One manifest line for it (JSON, '\n' ended) appended to b. */
void bt_manifest_line(const struct bt_batch_item *it, int db, struct bt_buf *b);
/*
 * The records of a manifest (an earlier run's) into l: only the lines
 * of traces (those with a hash), later lines overriding earlier ones of
 * the same hash; a last line without its '\n' (a run killed while
 * writing it) is ignored. A missing file is an empty list. BT_EFORMAT
 * naming the line for any other line that is no record.
 */
int bt_manifest_load(const char *path, struct bt_batch_list *l, struct bt_err *err);

#endif
