/*
 * Internals of struct bt_db shared by the files of engine/db/, the only
 * part of the engine that includes <sqlite3.h> (the iOS and Perfetto
 * importers read SQLite files of their own).
 */
#ifndef BT_DB_INT_H
#define BT_DB_INT_H

#include <pthread.h>
#include <sqlite3.h>

#include "engine/base/hash.h"
#include "engine/db/db.h"

#define BT_DB_CHUNK 4096        /* rows handed to the writer thread at once */

/* A sample laid out as the 14 columns of the samples table, so the
 * writer's xColumn is one load; bit i of nulls makes column i NULL. */
struct bt_sample_row {
	int64_t col[14];
	uint32_t nulls;
};

/* A slice as the 23 columns of the slices table, ids explicit. */
struct bt_slice_row {
	int64_t col[23];
	uint32_t nulls;
};

/* Rows collected for the writer thread. */
struct bt_chunk {
	struct bt_sample_row *sample;
	size_t nsample;
	int64_t sample_id;          /* id of the last sample */
	int64_t (*node)[4];
	size_t nnode;
	struct bt_slice_row *slice;
	size_t nslice;
	int64_t (*state)[BT_DB_STATE_COLS];   /* bt_db_insert_thread_state's rows */
	size_t nstate;
	int64_t (*edge)[BT_DB_EDGE_COLS];     /* bt_db_insert_sleep_edge's */
	size_t nedge;
	char *text;                            /* the states' blocked functions, NUL-separated */
	size_t ntext, textcap;
};

/*
 * Bulk loading (db_bulk.c): the importer fills one chunk while the writer
 * thread inserts another and a third waits in the queue, so the writer
 * never waits for the importer. The writer alone uses the connection
 * while busy; every other call first waits for it (bt_db_bulk_idle).
 */
struct bt_bulk {
	struct bt_chunk chunk[3];
	const struct bt_chunk *writing;  /* what the bt_bulk tables show */
	int filling;               /* chunk the importer fills */
	int queued;                /* chunk waiting for the writer, or -1 */
	int inhand;                /* chunk the writer works on while busy */
	int started, busy, quit;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct bt_err err;         /* the writer's first error */
	struct bt_id_at { int64_t id; uint32_t at; } *by_id;   /* the writer's: the chunk's slices
				    * in the order it inserts them (write_chunk), then as much
				    * room for the sort */
};

/*
 * A kept database's slices as the pages of their table (db_pages.c): the
 * writer thread's while on, the commit's after.
 */
struct bt_leaf {
	unsigned char *pg;
	uint32_t ncell, top;       /* its cells, its content's start */
};

/* Cells held in memory: their bytes, and where each is. */
struct bt_cells {
	unsigned char *bytes;
	size_t nbytes, bcap;
	struct bt_cell { int64_t id; uint32_t at, len; } *v;
	size_t n, cap;
};

/* One table's leaves, in key order, in a file beside the database. */
struct bt_pagetab {
	const char *name;          /* the table's */
	int fd;
	char *path;                /* NULL: the table is left to SQL */
	int64_t at;                /* where in the database file the leaves begin; 0: in a file of their own (at path) */
	int64_t root;              /* its root page */
	uint32_t notnull;          /* bit i: column i NOT NULL (bit 0, the rowid, aside) */
	unsigned char *buf;        /* leaves not yet written, then the one being filled */
	size_t nbuf;
	struct bt_leaf leaf;
	int64_t last;              /* the largest id in the leaves */
	int64_t *maxkey;           /* each leaf's */
	size_t nleaf, leafcap;
	struct bt_cells late;      /* rows whose place is in a leaf made already */
};

struct bt_pages {
	int on;
	uint32_t size;             /* the page size */
	struct bt_pagetab slices, calltree;
	int64_t moved;             /* bytes taken out of the database file before the leaves: they moved down so */
	struct bt_cells fresh;     /* a chunk's slices */
	struct bt_cells carry;     /* and those held back for the next, in id order */
	struct bt_cells spare;
};

/* A chunk's slices rows[order[0..n).at], in id order, into the leaves. */
int bt_pages_chunk(struct bt_pages *p, const struct bt_slice_row *rows, const struct bt_id_at *order, size_t n,
		   struct bt_err *err);
/* Commit the transaction with the tables' pages in them, the late rows
 * merged in; the writer idle. */
int bt_pages_commit(struct bt_db *db, struct bt_err *err);
void bt_pages_release(struct bt_pages *p);
/* A memtab's rows as its table's pages where they can be (the call tree,
 * the slices written so): *done 1, else left to SQL. */
int bt_pages_memtab(struct bt_db *db, const struct bt_memtab *m, int *done, struct bt_err *err);

/* Fetch the row of the slice AHEAD after the i-th of n in order: they
 * are scattered in the chunk. */
#define BT_SLICE_AHEAD 8
static inline void bt_slice_fetch_ahead(const struct bt_slice_row *rows, const struct bt_id_at *order, size_t i,
					size_t n)
{
#if defined(__GNUC__)
	if (i + BT_SLICE_AHEAD < n) {
		const char *row = (const char *)&rows[order[i + BT_SLICE_AHEAD].at];
		__builtin_prefetch(row);
		__builtin_prefetch(row + 64);
		__builtin_prefetch(row + 128);
	}
#endif
}

struct bt_db {
	sqlite3 *conn;
	struct bt_bulk bulk;
	struct bt_pages pages;
	struct bt_observer observe;
	bt_slices_fn slices_fn;     /* fills slices on first use, then NULL */
	void (*slices_release)(void *ctx);
	void *slices_ctx;
	int query_only;
	int rows_mem;               /* samples and nodes go to the observer only */
	struct bt_msgtab *msgs;     /* a scratch analysis's messages (db_messages.c; the connection owns it) */
	sqlite3_stmt *stmt[BT_SQL__COUNT];
	sqlite3_stmt *app_up;       /* bt_app_node's step up a stack (appcode.c) */
	struct bt_map64 app_memo;   /* and its answers: node + 1 -> app node + 1 */
	const uint32_t *node_parent, *node_frame;   /* a scratch analysis's nodes in memory
						     * (db_nodes.c: temp.nodes), by id 1..node_n,
						     * which bt_app_node walks without SQL */
	size_t node_n;
	sqlite3_stmt *app_name;     /* a frame's name, for the walk in memory */
	struct bt_map64 app_frame;  /* frame id + 1 -> 1 not the app's, 2 the app's, 3 no such frame */
	char *path;      /* final path, NULL in memory */
	char *tmp_path;  /* where the data is until published */
	int published;
	int opened;      /* an existing file (bt_db_open), not one this run made */
};

/* Count what SQLite allocates (rows.c), so a rule's statements can be
 * held to its memory account; before SQLite is initialised. */
void bt_rows_heap_install(void);

/* Run fixed SQL text (a pragma, BEGIN, COMMIT) with no parameters. */
int bt_db_run_sql(struct bt_db *db, const char *sql, struct bt_err *err);

/* Step a registered statement to completion and reset it. */
int bt_db_step_done(struct bt_db *db, enum bt_sql_id id, struct bt_err *err);

void bt_db_bulk_init(struct bt_db *db);
/* Register the bt_bulk module and create the temp.bulk_* tables. */
int bt_db_bulk_register(struct bt_db *db, struct bt_err *err);

/* In-memory virtual tables (db_vtab.c): a table of schema over data. */
struct bt_mem_vtab {
	sqlite3_vtab base;
	void *data;
};
int bt_vtab_connect(sqlite3 *conn, const char *schema, void *data, sqlite3_vtab **out);
int bt_vtab_disconnect(sqlite3_vtab *vt);
/* A zeroed cursor of size bytes (a struct starting with sqlite3_vtab_cursor). */
int bt_vtab_cursor(size_t size, sqlite3_vtab_cursor **out);
int bt_vtab_close(sqlite3_vtab_cursor *cur);
/* xUpdate of a read-only table: present so that a write prepares and
 * sqlite3_stmt_readonly() turns it away with the usual message; never
 * reached. */
/* Narrow the ids [*lo, *hi) a scan covers to the one v names: none if v
 * is no integer id in that range (the BT_VTAB_BY_ID constraint). */
void bt_vtab_only_id(sqlite3_value *v, size_t *lo, size_t *hi);
int bt_vtab_update_readonly(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite3_int64 *rowid);
/* Index choice for rows in id order: "id = ?" (idxNum BT_VTAB_BY_ID) is a
 * lookup, "tid = ?" (BT_VTAB_BY_TID, first in argv) yields tid_rows at
 * tid_cost; ORDER BY id comes free. */
enum { BT_VTAB_BY_TID = 1, BT_VTAB_BY_ID = 2 };
int bt_vtab_best_index(sqlite3_index_info *info, int id_col, int tid_col, double rows, double tid_rows,
		       double tid_cost);
/* Wait until the writer thread is not using the connection. */
int bt_db_bulk_idle(struct bt_db *db, struct bt_err *err);
/* Stop and join the writer thread; pending rows are dropped. */
void bt_db_bulk_stop(struct bt_db *db);

#endif
