/*
 * Internals of the ART method trace importer (art.c): TraceView's .trace
 * files that Debug.startMethodTracing, `am profile` and Android Studio
 * write, in their three layouts (legacy text key + SLOW data, streaming
 * packets, format V2). The file is mapped once; the text key and packets
 * give the methods and threads (art_text.c), one pass over the data
 * validates its framing and notes where each thread's records lie
 * (art_scan.c), and the records are then paired per thread into slices
 * on the pipeline's feed (art_pair.c).
 */
#ifndef BT_ART_INT_H
#define BT_ART_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/recon/feed.h"
#include "importers/importer.h"

#define ART_MAGIC 0x574f4c53u    /* "SLOW" */
#define ART_HEADER_LEN 32        /* the binary header every writer pads to */
#define ART_MAX_DEPTH 1024       /* deeper calls are paired but not sliced (counted) */

enum art_layout { ART_LEGACY, ART_STREAM, ART_V2 };
/* What the records' time fields hold (the key's clock= option). */
enum art_clock { ART_CLOCK_DUAL, ART_CLOCK_WALL, ART_CLOCK_CPU };
enum art_action { ART_ENTER = 0, ART_EXIT = 1, ART_UNROLL = 2 };

/* A method the trace names (or a placeholder for an id it does not). */
struct art_method {
	uint64_t id;
	size_t name;             /* offset into art.pool: the PrettyMethod-like name */
	uint32_t frame;          /* frame id once a record used it, else 0 */
};

/* Where a thread's records lie: runs of consecutive records (legacy and
 * streaming), or entries packets (V2), each packed as offset << 24 |
 * count (count 0 for a V2 packet, whose header says it). */
#define ART_RUN_MAX ((1u << 24) - 1)
#define ART_RUN(off, n) ((uint64_t)(off) << 24 | (uint64_t)(n))

struct art_thread {
	int64_t tid;
	size_t name;             /* offset + 1 into art.pool, 0: unnamed */
	uint64_t *runs;
	size_t nruns, rcap;
	uint64_t records;
	/* found by the first pairing pass (art_pair.c) */
	uint64_t *callers;       /* methods already on the stack at the start, innermost first */
	size_t ncallers, ccap;
};

struct art {
	char *path;
	const unsigned char *data;
	size_t len;
	struct bt_fmap map;      /* the file, when the importer mapped it (else data is borrowed) */
	struct bt_db *db;
	struct bt_diag *diag;
	const struct bt_import_opts *o;

	enum art_layout layout;
	enum art_clock clock;
	int version;             /* 1..5, without the streaming bit */
	int clock_known;         /* a clock= option was read, at offset clock_at */
	size_t clock_at;
	int tid_bits;            /* 8, 16 or 32: what a record's tid holds */
	int v2_first;            /* V2 as ART first wrote it (art_scan.c): us, 4-byte method ids */
	int v2_keyed;            /* ... to a file: the key's text first, no names */
	/* ... entries packets whose u2 count and size ART wrote modulo 65536
	 * (art_scan.c): their true ones, by packet offset */
	struct bt_map64 wrapped;      /* offset -> index + 1 into wraps */
	struct { uint32_t count; size_t size; } *wraps;
	size_t nwraps, wcap;
	size_t rec_size;         /* legacy and streaming records */
	size_t data_off;         /* first byte after the binary header */
	int64_t start_ns;        /* the header's start time */

	/* the text key's and summary's options */
	int64_t pid, elapsed_ns, method_calls;
	int has_pid, has_elapsed, has_method_calls, overflow, summary;
	char vm[32];

	/* names: methods by id, threads by tid, their strings in one pool */
	struct art_method *methods;
	size_t nmethods, mcap;
	struct bt_map64 method_of;    /* id -> index + 1 */
	struct art_thread *threads;
	size_t nthreads, tcap;
	struct bt_map64 thread_of;    /* tid -> index + 1 */
	struct bt_buf pool;
	uint32_t nframes;

	/* the records */
	uint64_t records;
	size_t touched;               /* bytes read since the mapping's pages were last dropped */
	int64_t last_ns;              /* the latest wall time of any record (if end_ns needs it) */
	int64_t end_ns;               /* when tracing stopped: calls still open end there */
	struct { int yes; size_t at, start; const char *what; } cut;

	/* what the pairing found */
	uint64_t gaps, small_gaps;    /* per-thread steps between distinct wall times */
	int64_t min_gap;
	uint64_t unknown_methods, backwards, range, deep, mismatched, unroll, synthetic, open_at_end;
};

/* A trace of ART's sampling mode: its stacks, diffed, give the records
 * at each sample, so no thread's records are closer than the interval
 * (seen on the wall clock of the second pass). */
static inline int art_sampled(const struct art *a)
{
	return a->gaps >= 3 && !a->small_gaps;
}

/* art.c: import a trace held in data[0..len) (the fuzzer's entry, map
 * NULL: data is borrowed), or in map (taken over: released by the
 * importer, perhaps only at the database's close when its slices are
 * deferred). */
int bt_art_import_bytes(struct bt_db *db, const char *path, const unsigned char *data, size_t len,
			struct bt_fmap *map, const struct bt_import_opts *o, struct bt_diag *diag,
			struct bt_err *err);

/* art_text.c: the text key and summaries. */

/* Parse the key or summary at text[0..len), which is at file offset
 * base: version, options, threads, methods, up to its "*end" line, whose
 * end is *used bytes in. BT_EFORMAT naming the offset for what cannot be
 * read (no "*version" or "*end", another version, an unknown clock). */
int art_text_key(struct art *a, const char *text, size_t len, size_t base, size_t *used,
		 struct bt_err *err);
/* A method line ("0x...\tclass\tname\tsignature\tfile[\tline]") at
 * offset at; with_id 0 for a V2 line, whose id comes from its packet. */
void art_text_method(struct art *a, const char *line, size_t len, size_t at, int with_id, uint64_t id);
void art_text_thread(struct art *a, int64_t tid, const char *name, size_t len, size_t at);
/* The thread of tid (created unnamed if new). */
struct art_thread *art_thread_get(struct art *a, int64_t tid);
/* The method of id, or NULL. */
struct art_method *art_method_find(struct art *a, uint64_t id);
/* A method the trace does not name: a placeholder "<unknown method 0x...>". */
struct art_method *art_method_placeholder(struct art *a, uint64_t id);
/* A string of the pool (offset as stored). */
static inline const char *art_str(const struct art *a, size_t off)
{
	return a->pool.buf + off;
}
/* Copy s[0..len) into the pool, invalid UTF-8 replaced (and counted,
 * naming what it is and its offset at), and return its offset. */
size_t art_intern(struct art *a, const char *s, size_t len, size_t at, const char *what);

/* art_scan.c: the binary part, framing checked, records located. */
int art_scan(struct art *a, struct bt_err *err);

/* art_read.c: one thread's records in order. */
struct art_ev {
	uint64_t method;         /* action bits clear */
	int action;
	int64_t wall, cpu;       /* ns (wall: on the trace's clock; cpu: the thread's) */
};

struct art_cursor {
	struct art *a;
	const struct art_thread *t;
	size_t run, off, block_start, block_end;
	size_t dropped;                             /* the mapping's pages before it dropped */
	uint32_t left;                              /* records left in the run or packet */
	int times, k;                               /* times wanted; V2 values per record */
	int first_in_block, started, any;
	uint64_t acc_method, acc_wall, acc_cpu;     /* V2: the values so far */
	uint64_t wall_hi, cpu_hi;                   /* V1: 32-bit wraps so far */
	uint32_t wall_raw, cpu_raw;
	uint32_t first_enc, first_wall, first_cpu;  /* V2 first layout: the packet's first record */
	int first_pending;                          /* ... still to give (it is in the header) */
	uint32_t wall_first, cpu_first;             /* ... the last record's times (32-bit us) */
	uint32_t count;                             /* V2: the packet's records */
	int64_t wall, cpu;                          /* the last record's, ns */
	uint64_t backwards, range;                  /* times held at the last (counted) */
};

/* Read t's records, with their times or (times 0) methods only. */
void art_cursor_init(struct art_cursor *c, struct art *a, const struct art_thread *t, int times);
/* The next records into e[0..max): how many, 0 at the thread's end, -1 on
 * an error (a bad LEB128 value, an entries packet its records do not
 * fill; BT_EFORMAT naming the offset). */
int art_cursor_read(struct art_cursor *c, struct art_ev *e, int max, struct bt_err *err);
/* The same, the methods and actions only (a cursor without times). */
int art_cursor_methods(struct art_cursor *c, struct art_ev *e, int max, struct bt_err *err);

/* art_pair.c: the records of every thread paired, in ascending tid order
 * (the threads are sorted). The first pass finds each thread's callers
 * from before the trace, the trace's end and the frames the records use
 * (methods' frame ids); the second gives the slices to the feed. */
int art_pair_first(struct art *a, struct bt_err *err);
/* defer: store no slices now, but make them again when the slices table
 * is first read; a then belongs to the feed (and the database), which
 * frees it with art_free. The main thread's start is modeled as its
 * slices pass (engine/startup/startup.h). */
int art_pair_feed(struct art *a, int defer, struct bt_err *err);

/* art.c: free a and what it holds (its mapping too). */
void art_free(struct art *a);
/* Let the kernel drop the mapping's pages before upto (when the importer
 * mapped the file): a large trace's pages do not all stay resident. */
void art_drop(struct art *a, size_t upto);
#define ART_DROP_EVERY ((size_t)16 << 20)

#endif
