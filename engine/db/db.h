/*
 * The trace database: one SQLite connection with every statement of
 * queries/ prepared up front, bulk-load pragmas, and publish-by-rename so a
 * failed run never leaves a half-written database behind.
 */
#ifndef BT_DB_H
#define BT_DB_H

#include <stddef.h>
#include <stdint.h>

#include "gen/bt_sql.h"
#include "engine/base/err.h"

struct bt_db;

/* Schema version written to meta; bump when tables change incompatibly. */
#define BT_DB_SCHEMA_VERSION 1

/*
 * Create a new trace database with the schema. path NULL: a scratch file
 * in $TMPDIR, unlinked at once so it never outlives the process; ":memory:"
 * keeps it in memory. Otherwise the data goes to a temporary file beside
 * path, which only bt_db_publish() renames to path; bt_db_close() before
 * that removes it.
 */
int bt_db_create(struct bt_db **out, const char *path, struct bt_err *err);

/* Open a database this tool wrote. readonly also sets query_only. */
int bt_db_open(struct bt_db **out, const char *path, int readonly, struct bt_err *err);

/* 1 if path is an SQLite file holding a btrace-analyze trace, else 0. */
int bt_db_is_trace_db(const char *path);

/* Rename the temporary file to its final path (no-op in memory). */
int bt_db_publish(struct bt_db *db, struct bt_err *err);

/* Close and free; an unpublished temporary file is deleted. NULL is ok. */
void bt_db_close(struct bt_db *db);

const char *bt_db_path(const struct bt_db *db);

int bt_db_begin(struct bt_db *db, struct bt_err *err);
/* Size the page cache for the tables of n inputs imported together (a
 * B-tree n times as large: with one input's cache its inserts would reread
 * pages from the file; 3 inputs of 1M records imported 3.4 times as slowly
 * as one). */
int bt_db_cache_inputs(struct bt_db *db, int n, struct bt_err *err);
int bt_db_commit(struct bt_db *db, struct bt_err *err);
void bt_db_rollback(struct bt_db *db);

/*
 * Run a registered statement to completion. types has one letter per
 * parameter: 'i' int64_t, 'd' double, 't' const char *
 * (NULL binds NULL), 's' const char * and size_t length (NULL binds NULL),
 * 'b' const void * and size_t length (a blob; NULL binds NULL),
 * 'n' NULL (no argument consumed), 'm' int64_t that may be missing
 * (INT64_MIN binds NULL). Strings need only live until it returns.
 * Statements of queries/scratch_*.sql, on temporary tables, are prepared
 * when first run.
 */
int bt_db_exec(struct bt_db *db, enum bt_sql_id id, struct bt_err *err, const char *types, ...);

/* Run every statement of a registered scratch_*.sql script (no parameters). */
int bt_db_script(struct bt_db *db, enum bt_sql_id id, struct bt_err *err);

/* Run a registered statement whose n parameters are all integers. */
int bt_db_exec_ints(struct bt_db *db, enum bt_sql_id id, const int64_t *v, int n, struct bt_err *err);
/* The same, parameter i bound NULL where bit i of nulls is set (n <= 64). */
int bt_db_exec_ints_nulls(struct bt_db *db, enum bt_sql_id id, const int64_t *v, int n, uint64_t nulls,
			  struct bt_err *err);

/* A decoded stack record, as stored in the samples table. */
struct bt_sample {
	int64_t id, tid, type, ts, end_ts, cpu_ns, end_cpu_ns, msg_id, node_id;
	int64_t alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw;
};

/*
 * Bulk inserts, the hot path of every importer: rows are buffered and
 * written in batches, so they become visible only after bt_db_flush(),
 * which bt_db_commit() and bt_rows_open() call. Ids must be dense and
 * increasing from 1 (checked). end_ts/end_cpu_ns 0 -> NULL.
 */
int bt_db_insert_sample(struct bt_db *db, const struct bt_sample *s, struct bt_err *err);
/* parent_id 0 -> NULL (an outermost frame). */
int bt_db_insert_node(struct bt_db *db, int64_t id, int64_t parent_id, int64_t frame_id,
		      int64_t depth, struct bt_err *err);
int bt_db_flush(struct bt_db *db, struct bt_err *err);
/* From now to the commit, a new file's slices (and its call tree, when
 * stored) are written as the pages of their tables, not inserted
 * (db_pages.c): the tables read empty until then. Nothing changes where
 * the file is not one this run made, or a table has rows already. */
int bt_db_slices_as_pages(struct bt_db *db, struct bt_err *err);
/* Their leaves wait in the database file itself where its file system
 * can take a range out of a file (ext4, XFS), else in the temporary's
 * path with "-" and the table's name added. */
#define BT_DB_PAGED_TABLES { "slices", "calltree" }

/* Called with every sample and node passed to bt_db_insert_sample and
 * bt_db_insert_node, on the caller's thread, so a consumer can keep what
 * it needs without reading the tables back. Either function may be NULL;
 * NULL o stops observing. */
struct bt_observer {
	void (*sample)(void *ctx, const struct bt_sample *s);
	void (*node)(void *ctx, int64_t id, int64_t parent_id, int64_t frame_id);
	void *ctx;
};
void bt_db_observe(struct bt_db *db, const struct bt_observer *o);

/* A reconstructed slice, as stored in the slices table. */
struct bt_slice {
	int64_t id, tid, depth, parent_id, frame_id, ts, dur, cpu_dur, self_dur, self_cpu_dur;
	int64_t block_dur, msg_id, sample_count;
	int64_t alloc_objects, alloc_bytes, majflt, nvcsw, nivcsw;
	int64_t type, wakeup_tid, gap_dur, gap_cpu_dur;
	int64_t idle;   /* 1: the thread waited for work here (the idle policy) */
	int64_t cpu_unknown;   /* 1: the trace does not say its CPU time (cpu_dur and self_cpu_dur NULL) */
};

/* The idle time of an idle slice (else 0): the off-CPU part of its own
 * time, which no method's time includes. */
static inline int64_t bt_slice_idle_part(const struct bt_slice *s)
{
	int64_t v = s->self_dur - s->self_cpu_dur;

	return !s->idle || v < 0 ? 0 : v > s->self_dur ? s->self_dur : v;
}

/* A thread's scheduler state, buffered like samples (importers/sched.c):
 * v is tid, ts, dur, the state's index (insert_thread_states_bulk.sql
 * names them), cpu, waker tid, io_wait (-1: NULL); fn its blocked
 * function or NULL. Rows keep the order they are given in. */
#define BT_DB_STATE_COLS 8
int bt_db_insert_thread_state(struct bt_db *db, const int64_t v[7], const char *fn, struct bt_err *err);
/* A sleep's kernel-waker edge into blocking_edges, buffered: v is
 * waiter tid, kind (0 sleep, 1 io), ts, dur, waker tid, waker ts (-1:
 * NULL). Their ids follow the order they are given in, after rows
 * inserted directly before the buffer is written. */
#define BT_DB_EDGE_COLS 6
int bt_db_insert_sleep_edge(struct bt_db *db, const int64_t v[BT_DB_EDGE_COLS], struct bt_err *err);

/* Insert one slice, buffered like samples; ids are explicit and may come
 * in any order. parent_id 0 and wakeup_tid 0 become NULL, type < 0 too,
 * and cpu_dur and self_cpu_dur when cpu_unknown. */
int bt_db_insert_slice(struct bt_db *db, const struct bt_slice *s, struct bt_err *err);

/*
 * Slices on demand: a 1M-record trace has some 3.5M slices, and storing
 * them costs more than everything else an analysis does. So a scratch
 * database may leave the slices table empty and register fn, which fills
 * it (with bt_db_insert_slice) the first time bt_db_need_slices() is
 * called: by a cursor whose statement reads slices, or an exporter.
 * release(ctx) runs after fn, or at close if fn never ran.
 */
typedef int (*bt_slices_fn)(void *ctx, struct bt_db *db, struct bt_err *err);
void bt_db_defer_slices(struct bt_db *db, bt_slices_fn fn, void (*release)(void *), void *ctx);
int bt_db_need_slices(struct bt_db *db, struct bt_err *err);
/* 1 while slices are deferred and not yet filled. */
int bt_db_slices_deferred(const struct bt_db *db);

/*
 * A table whose rows stay in memory with their owner (the profile's call
 * tree, the display frames): rows are ids 1..nrows(data), some of them
 * holes (exists() 0); column() gives one value of a row (column 0 is the
 * id, column 1 the tid); tid_rows() gives the ids [*first, *end) of one
 * thread's rows (0 if it has none), which are contiguous and, when
 * tid_sorted, in ascending tid order from thread to thread. Columns whose
 * bit is set in zero_null read NULL for 0; those set in text_cols are
 * text(), NULL for NULL (the string stays the owner's).
 */
#define BT_MEMTAB_MAX_COLS 32
/* A memtab column's value that reads as NULL (a value the table does not
 * know: CPU time a trace does not give). */
#define BT_MEMTAB_NULL INT64_MIN

struct bt_memtab {
	const char *name;         /* the table's, in queries/schema.sql; a static string */
	const char *schema;       /* "CREATE TABLE x(...)", the same columns */
	size_t (*nrows)(const void *data);
	int (*exists)(const void *data, size_t id);
	int64_t (*column)(const void *data, size_t id, int col);
	int (*tid_rows)(const void *data, int64_t tid, size_t *first, size_t *end);
	void (*release)(void *data);   /* at close; may be NULL */
	void *data;
	uint32_t zero_null;
	int tid_sorted;
	const char *(*text)(const void *data, size_t id, int col);
	uint32_t text_cols;
};

/* Make t the table t->name: its rows copied into the stored table if
 * keep, else seen through a temp view of the memory. The database owns
 * t->data from here on (release runs at close), also on error. */
int bt_db_attach_memtab(struct bt_db *db, const struct bt_memtab *t, int keep, struct bt_err *err);

/* Samples and stack nodes of a scratch analysis stay in memory: with on,
 * inserted samples and nodes reach only the observer (the capture), and
 * bt_db_attach_samples() then makes the capture's array (n samples, ids
 * 1..n in order) the samples table, bt_db_attach_nodes() its parent and
 * frame arrays (by node id 1..n, parents first) the nodes table, as
 * virtual tables in temp; the database owns the arrays from then on. A
 * sample's id is its position + 1 (the capture checks it), so it is not
 * kept: 8 bytes a record. Nor is its end: most records are points, and
 * the few that end later (a duration, a waker) have their end time and
 * CPU in a struct bt_cends beside the array: 64 bytes a record. */
struct bt_csample {
	int64_t tid, ts, cpu;
	int64_t alloc_objects, alloc_bytes;
	uint32_t majflt, nvcsw, nivcsw;   /* u32 on disk (format spec §4.2) */
	uint32_t node_id, msg_id;
	int32_t type;
};

/* The end time and CPU of the records that have either (0 for none), by
 * ascending record index (position in the array). */
struct bt_cends {
	size_t *at;
	int64_t (*v)[2];    /* end_ts, end_cpu */
	size_t n, cap;
};
/* Record i's after the last added (index order); both 0 adds nothing. */
void bt_cends_add(struct bt_cends *e, size_t i, int64_t end_ts, int64_t end_cpu);
void bt_cends_release(struct bt_cends *e);
/* Where record i's end is, or would be: the first k with at[k] >= i. */
size_t bt_cends_from(const struct bt_cends *e, size_t i);

/* Record i's end time and CPU ({0, 0}: a point); *k where the search
 * starts (bt_cends_from's, or 0), moved on: ascending i is a scan. */
static inline const int64_t *bt_cends_next(const struct bt_cends *e, size_t i, size_t *k)
{
	static const int64_t none[2] = { 0, 0 };

	while (*k < e->n && e->at[*k] < i)
		++*k;
	return *k < e->n && e->at[*k] == i ? e->v[*k] : none;
}

/* The same for any i: a binary search. */
static inline const int64_t *bt_cends_of(const struct bt_cends *e, size_t i)
{
	size_t k = bt_cends_from(e, i);

	return bt_cends_next(e, i, &k);
}
void bt_db_rows_in_memory(struct bt_db *db, int on);
/* Whether rows are kept in the stored tables (not a scratch analysis's,
 * bt_db_rows_in_memory: its in-memory tables are read where they are). */
int bt_db_rows_kept(const struct bt_db *db);
/* Takes s and *ends (left empty). */
int bt_db_attach_samples(struct bt_db *db, struct bt_csample *s, size_t n, struct bt_cends *ends,
			 struct bt_err *err);
int bt_db_attach_nodes(struct bt_db *db, uint32_t *parent, uint32_t *frame, size_t n,
		       struct bt_err *err);

/* A Looper message's row (queries/schema.sql's messages; cpu
 * BT_MEMTAB_NULL where the trace has no CPU time). A second row of the
 * same (tid, msg_id) widens the first to both spans and adds its sums. A
 * scratch analysis keeps them in memory (db_messages.c), read through
 * temp.messages. */
struct bt_message_row {
	int64_t tid, msg_id, ts, dur, cpu, block, idle, alloc;
};
int bt_db_insert_message(struct bt_db *db, const struct bt_message_row *m, struct bt_err *err);

int bt_db_set_meta_text(struct bt_db *db, const char *key, const char *value, struct bt_err *err);
/* A meta value as text into buf ("" when absent), or as an integer (def when absent). */
int bt_db_meta_text(struct bt_db *db, const char *key, char *buf, size_t len, struct bt_err *err);
int bt_db_meta_int(struct bt_db *db, const char *key, int64_t def, int64_t *out, struct bt_err *err);
/* The tid of the thread marked main, or -1. */
int bt_db_main_tid(struct bt_db *db, int64_t *out, struct bt_err *err);
int bt_db_set_meta_int(struct bt_db *db, const char *key, int64_t value, struct bt_err *err);

/* Make the connection refuse writes (PRAGMA query_only). */
int bt_db_query_only(struct bt_db *db, struct bt_err *err);

#endif
