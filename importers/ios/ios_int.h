/*
 * Internals shared by the iOS database importer's files (format spec
 * ios-database.md): decoded sample records (ios_blob.c, ios_tables.c),
 * stack interning with image+offset or --symbols names (ios_stack.c),
 * the time series (ios_series.c), gzip input (ios_gzip.c) and
 * lock/dispatch linking (ios_link.c).
 */
#ifndef BT_IOS_INT_H
#define BT_IOS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/hash.h"
#include "engine/db/rtype.h"

struct sqlite3;
struct sqlite3_stmt;

/* Sample types of iOS records in samples.type (names in record_types). */
enum {
	BT_IOS_CPU = 101,        /* CPU point sample */
	BT_IOS_CPU_RANGE = 102,  /* CPU interval (merged identical samples) */
	BT_IOS_MEM = 103,        /* malloc/free hook */
	BT_IOS_DATE = 104,       /* gettimeofday/clock_gettime/NSDate hook */
	BT_IOS_DISPATCH = 105,   /* dispatch_async, on the enqueuing thread */
	BT_IOS_LOCK = 106,       /* a lock call returned (no contention pair) */
	BT_IOS_LOCK_WAIT = BT_RTYPE_IOS_LOCK_WAIT,  /* main thread blocked on a lock: [wait, acquired] */
	BT_IOS_ASYNC = 108,      /* generic async (reader-only v1-3) */
	BT_IOS_PROFILE = 109,    /* profile sample (reader-only v4) */
	BT_IOS_RANGE = 110       /* time range (reader-only v4) */
};

/* Which optional time fields a record has (bt_ios_rec.has). */
enum { BT_IOS_HAS_END = 1, BT_IOS_HAS_END_CPU = 2, BT_IOS_HAS_TARGET = 4, BT_IOS_HAS_SIZE = 8 };

/* One decoded sample. Its time fields hold the stored u32 values until
 * bt_ios_times converts them to ns since the trace start. */
struct bt_ios_rec {
	int64_t tid, ts, end_ts, cpu, end_cpu;
	int64_t target_tid, target_ts;   /* dispatch/async */
	int64_t sample_id;               /* assigned when written */
	uint64_t lock_id;                /* lock */
	uint32_t alloc_mib, alloc_count;
	uint32_t mem_size;               /* memory: bytes allocated, 0 for a free */
	uint32_t stack_id, seq;          /* seq: order read */
	uint32_t node_id;                /* our leaf node, when written */
	uint16_t action;
	int16_t type;
	uint8_t has;                     /* BT_IOS_HAS_* */
};

struct bt_ios_recs {
	struct bt_ios_rec *v;
	size_t n, cap;
};

/* A record slot appended to r (zeroed, seq set). */
struct bt_ios_rec *bt_ios_recs_add(struct bt_ios_recs *r);
/* Sort r by (tid, ts), ties in the order read (records' seq = their index
 * before the sort). Tids are u32. */
void bt_ios_recs_sort(struct bt_ios_recs *r);

/* Where an input was cut short: imported as far as SQLite reads it,
 * table by table, unless --strict. */
struct bt_ios_cut {
	int strict;              /* in: refuse instead */
	int gz;                  /* the gzip stream ended early ... */
	uint64_t gz_at;          /* ... at this byte of the .gz file */
	int db;                  /* the database is shorter than its header says */
	uint64_t size, want;     /* its bytes, and the header's page count x page size */
	uint64_t page;           /* its page size */
	struct bt_buf tables;    /* "T after N rows, " for each table a read failed in */
};

/* What the importer knows while reading one database. */
struct bt_ios_ctx {
	const char *path;        /* the input as named by the user */
	struct sqlite3 *conn;    /* read-only connection to the (inflated) input */
	struct bt_diag *diag;
	int64_t trace_id, version, main_tid;
	int has_main_tid;
	struct bt_ios_cut cut;
};

/* Import the database open on c->conn (c->path and c->diag set) into db,
 * inside the caller's transaction; gz: it came gzip'd. */
struct bt_import_opts;
int bt_ios_import(struct bt_ios_ctx *c, struct bt_db *db, const struct bt_import_opts *o, int gz,
		  struct bt_err *err);

/*
 * The times of one stream of records (a batch row's blob, or a per-row
 * table in row order), which are in time order. Stored times are u32 and
 * wrap (10 us ticks after ~11.9 h, us after ~71 min; spec Q-4): a time
 * more than 2^31 below the previous one has wrapped, and one more than
 * 2^31 above it after a wrap is a late record from before the wrap.
 */
struct bt_ios_clock {
	int64_t last;       /* the previous time, unwrapped; -1 before the first */
};
#define BT_IOS_CLOCK_INIT { -1 }

/* The unwrapped value of a stored u32 time v of the stream k. */
int64_t bt_ios_unwrap(struct bt_ios_clock *k, uint32_t v);
/* Per-version scale of sample time fields to ns (v3/v4: 10 us ticks). */
int64_t bt_ios_time_ns(const struct bt_ios_ctx *c, int64_t v);
/* Convert r's stored times to ns since the trace start: its time through
 * the stream's clock k, its end and target times as offsets from it
 * (an end up to 2^31 before the time stays before it), CPU times scaled. */
void bt_ios_times(const struct bt_ios_ctx *c, struct bt_ios_clock *k, struct bt_ios_rec *r);

/*
 * Field codes of a layout, one char per field, in storage order: t time,
 * c cpu, e end time, E end cpu, s stack_id, a alloc_size, n alloc_count,
 * A addr, z size, T target tid, g target time, i tid (all u32 in blobs),
 * L lock id u48 + action u16 (8 bytes). Times stay as stored until
 * bt_ios_times.
 */
void bt_ios_field(struct bt_ios_rec *r, char code, uint64_t v);
/* Size in bytes of one blob node of layout fields. */
size_t bt_ios_node_size(const char *fields);
/* Decode a blob of whole nodes (fields) into recs of type and thread tid
 * (a field 'i' overrides it), their times through the stream's clock k.
 * Errors name the table, row and byte offset. */
int bt_ios_blob(const struct bt_ios_ctx *c, struct bt_ios_clock *k, const char *table, int64_t row,
		const char *fields, int type, int64_t tid, const unsigned char *p, size_t len,
		struct bt_ios_recs *out, struct bt_err *err);

/* Tables (ios_tables.c): every sample table present into recs. */
int bt_ios_read_samples(struct bt_ios_ctx *c, struct bt_ios_recs *out, struct bt_err *err);
/* The field codes of table's layout in version, or NULL if the table is
 * not part of that version (spec I-5) or not a sample table; *cols (if
 * cols) gets a per-row table's columns, NULL for a batch table. */
const char *bt_ios_layout(const char *table, int64_t version, const char **cols);
/* Count the tables of the input the importer does not know (diagnostics). */
void bt_ios_note_unknown_tables(struct bt_ios_ctx *c);

/* Input (ios_input.c). BT_EFORMAT naming the file when SQLite cannot
 * read its schema (a damaged first page): SQLite, but nothing readable. */
int bt_ios_check_schema(struct bt_ios_ctx *c, struct bt_err *err);
/* 1 if the input has table. */
int bt_ios_has_table(struct bt_ios_ctx *c, const char *table);
/* Check a table's columns: BT_EFORMAT naming the missing one. */
int bt_ios_check_columns(struct bt_ios_ctx *c, const char *table, const char *const *cols,
			 struct bt_err *err);
/* Prepare sql, a read of table, binding ?1 (when it has it) to the trace
 * id; a failure is bt_ios_sql_error's. */
int bt_ios_prepare(struct bt_ios_ctx *c, const char *table, const char *sql, struct sqlite3_stmt **st,
		   struct bt_err *err);
/* BT_EFORMAT: "cannot read table T of F at row N" (row < 0: no row), with
 * SQLite's reason; BT_OK, the table noted in c->cut.tables, when the
 * database is cut short and the read ran into the missing pages. */
int bt_ios_sql_error(struct bt_ios_ctx *c, const char *table, int64_t row, struct bt_err *err);
/* 1 and column i of st in *out if it holds a u32 (or its signed int32
 * view); else 0, counted as bad_row_value naming table, row and column. */
int bt_ios_column_u32(struct bt_ios_ctx *c, struct sqlite3_stmt *st, int i, const char *table,
		      int64_t row, uint32_t *out);
/* Column i of st as UTF-8 into out (invalid bytes U+FFFD, counted);
 * 0 (out empty) if it is NULL. */
int bt_ios_column_text(struct bt_ios_ctx *c, struct sqlite3_stmt *st, int i, const char *table,
		       int64_t row, struct bt_buf *out);
/* Count table's rows of another trace id than the trace's (diagnostics). */
void bt_ios_count_other_traces(struct bt_ios_ctx *c, const char *table);

/* Stacks (ios_stack.c). */
struct bt_ios_image {
	uint64_t addr;
	size_t off;         /* basename offset in the strs buffer */
};

struct bt_ios_sym {
	uint64_t addr;
	size_t off;         /* name offset in the symbol buffer */
};

struct bt_ios_stacks {
	struct bt_db *db;
	struct bt_diag *diag;
	const char *path;
	struct bt_map64 trie;           /* stack_id -> entry index + 1 */
	struct bt_ios_node {
		uint32_t id, parent;
		uint64_t addr;
		uint32_t row, off;          /* where it is in the table, for messages */
	} *entries;
	size_t nentries;
	struct bt_map64 trie_node;      /* stack_id -> our node id */
	struct bt_ios_image *images;
	size_t nimages;
	struct bt_ios_sym *syms;        /* sorted by address */
	size_t nsyms;
	struct bt_buf strs;             /* image and symbol names, NUL-separated */
	struct bt_strmap frame_of;      /* name -> frame id */
	struct bt_map64 node_id;        /* parent << 32 | frame -> node id */
	uint32_t nframes, nnodes;
	uint32_t *depth;                /* by our node id */
	size_t depth_cap;
	uint32_t unresolved;            /* node of "<unresolved stack>", or 0 */
	uint32_t nostack;               /* node of "<no stack>", or 0 */
	struct bt_buf name;
	uint64_t symbolized;
};

void bt_ios_stacks_init(struct bt_ios_stacks *s, struct bt_db *db, struct bt_diag *diag,
			const char *path);
void bt_ios_stacks_release(struct bt_ios_stacks *s);
/* Load CallStackTableModel and ImageInfoModel for the trace. */
int bt_ios_stacks_load(struct bt_ios_stacks *s, struct bt_ios_ctx *c, struct bt_err *err);
/* Load an address -> name file ("0xADDR name" lines, atos output). */
int bt_ios_symbols_load(struct bt_ios_stacks *s, const char *file, struct bt_err *err);
/* The same from the n bytes at data, named file in messages; BT_EFORMAT
 * names the line. Entries add to those already loaded. */
int bt_ios_symbols_parse(struct bt_ios_stacks *s, const char *data, size_t n, const char *file,
			 struct bt_err *err);
/* Our leaf node id for a trie stack_id (interning the path). */
int bt_ios_stack_node(struct bt_ios_stacks *s, uint32_t stack_id, uint32_t *out, struct bt_err *err);

/* Time series (ios_series.c): what one TimeSeriesModel info JSON says. */
enum { BT_IOS_SERIES_NONE, BT_IOS_SERIES_COUNTER, BT_IOS_SERIES_SLICE, BT_IOS_SERIES_UNKNOWN };
struct bt_ios_series {
	int kind;                          /* from perfetto_type; NONE without it */
	int has_val, has_begin, has_end;   /* the member was there, a number */
	double val, begin_us, end_us;
};
/* Parse info text (len bytes) into out; BT_EFORMAT when it is not a JSON
 * object, the message starting with where and giving the byte offset. */
int bt_ios_series_parse(const char *text, size_t len, const char *where, struct bt_ios_series *out,
			struct bt_err *err);
/* TimeSeriesModel into counters and track_slices; start_us is the trace
 * start (BTraceModel.start_time), the zero of counter timestamps. */
int bt_ios_read_series(struct bt_ios_ctx *c, int64_t start_us, struct bt_db *db, struct bt_err *err);

/* gzip (ios_gzip.c): 1 if the bytes look like a gzip'd SQLite file. */
int bt_ios_gz_is_sqlite(const char *path);
/* Inflate path into a new temporary file (unlinked by the caller) whose
 * name goes to *tmp (caller frees); at most cap bytes of output. A stream
 * that ends early keeps what inflated, noted in cut (unless cut->strict). */
int bt_ios_gunzip(const char *path, uint64_t cap, struct bt_ios_cut *cut, char **tmp,
		  struct bt_err *err);
/* Note in cut whether the SQLite file at path is shorter than its header
 * says (c->cut.db, size, want); 1 if it is. */
int bt_ios_check_size(const char *path, struct bt_ios_cut *cut);
/* The name of a VFS that shows SQLite a file cut short only up to its
 * last whole page (bt_ios_check_size called first), so a half page is
 * missing rather than zeros read as rows. */
const char *bt_ios_cut_vfs(const struct bt_ios_cut *cut);

/* Linking (ios_link.c): pair main-thread contention samples into waits
 * (in place: the pair becomes one BT_IOS_LOCK_WAIT record, the other
 * marked type 0), done before samples are written. */
void bt_ios_pair_locks(struct bt_ios_recs *r, struct bt_diag *diag);
/* After samples are written (sample_id set): blocking_edges from lock
 * waits to unlock-contention records, dispatches from dispatch records. */
int bt_ios_link(const struct bt_ios_recs *r, struct bt_db *db, struct bt_diag *diag,
		struct bt_err *err);

#endif
