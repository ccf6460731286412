/*
 * Internals shared by the Android sampling importer's files: the decoded
 * mapping file (android_mapping.c) and stack interning (android_stack.c).
 */
#ifndef BT_ANDROID_INT_H
#define BT_ANDROID_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/base/alloc.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/hash.h"

struct bt_retrace;

#define BT_ANDROID_MAX_DEPTH 128   /* MAX_STACK_DEPTH of the writer */

/* The sampling-mapping file: method pointer -> symbol, tid -> name. */
struct bt_amap {
	struct bt_map64 index;        /* ptr -> entry number + 1 */
	struct bt_amap_entry {
		const char *sym;      /* points into the mapped file */
		uint32_t len;
	} *entries;
	size_t n, cap;
	struct bt_amap_thread {
		uint16_t tid;
		char *name;           /* UTF-8, trailing newline stripped */
	} *threads;
	size_t nthreads, threads_cap;
	uint32_t declared;            /* method count in the header */
	/* Set when bt_amap_load failed because the file ends inside an entry:
	 * what was read before it is kept, and the caller may go on. */
	struct bt_amap_cut {
		int yes;
		const char *section;  /* "header", "method" or "thread-name" */
		size_t at;            /* where the cut entry starts */
		uint32_t index;       /* its number in the section */
	} cut;
};

void bt_amap_init(struct bt_amap *m);
void bt_amap_release(struct bt_amap *m);
/* Decode a mapping file held in p[0..len). A file cut short is
 * BT_EFORMAT with m->cut set and the entries before the cut kept. */
int bt_amap_load(struct bt_amap *m, const unsigned char *p, size_t len, const char *path,
		 struct bt_diag *diag, struct bt_err *err);
/* Entry for ptr, or NULL when the mapping lacks it. */
const struct bt_amap_entry *bt_amap_find(const struct bt_amap *m, uint64_t ptr);

/* Interning of recorded stacks into frames and nodes rows. */
struct bt_android_stacks {
	struct bt_db *db;
	const struct bt_amap *map;         /* NULL when there is no mapping */
	const struct bt_retrace *retrace;  /* NULL unless --retrace */
	struct bt_diag *diag;
	struct bt_map64 ptr_frame;         /* ptr -> frame id */
	struct bt_strmap sym_frame;        /* symbol -> frame id */
	struct bt_map64 node_id;           /* parent << 32 | frame -> node id */
	struct bt_memo { uint64_t ptr[2]; uint32_t child[2]; } *memo;  /* per node: the last two children found */
	size_t memo_cap;
	uint32_t nframes, nnodes;          /* local ids, from 1 */
	int64_t frame_base, node_base;     /* what the database's ids add (another process's below) */
	struct bt_tstack *last[65536];     /* previous stack per tid */
	struct bt_buf name, scratch;
	/* frames rows wait here until bt_android_stacks_finish(): writing
	 * them as they appear would make the importer wait for the bulk writer */
	struct bt_buf names;               /* NUL-separated symbols */
	struct bt_frame_row { uint64_t ptr; size_t off, len; } *frames;
	size_t frames_cap;
	uint64_t retraced;
};

void bt_android_stacks_init(struct bt_android_stacks *s, struct bt_db *db,
			    const struct bt_amap *map, const struct bt_retrace *rt, struct bt_diag *diag);
/* *leaf and the local ids are from 1; the database's are these plus the
 * bases an input joining others is given (struct bt_import_opts). */
void bt_android_stacks_release(struct bt_android_stacks *s);
/*
 * Intern a stack of depth frame pointers stored leaf-first at frames (raw
 * little-endian u64s) for thread tid; *leaf gets its leaf node id.
 */
int bt_android_stacks_intern(struct bt_android_stacks *s, uint16_t tid,
			     const unsigned char *frames, uint32_t depth, uint32_t *leaf,
			     struct bt_err *err);
/* Write the frames rows collected so far. */
int bt_android_stacks_finish(struct bt_android_stacks *s, struct bt_err *err);

/* The bytes of one dump: the sampling file and its mapping (path NULL: none). */
struct bt_android_input {
	const char *path;
	const unsigned char *data;
	size_t len;
	const char *mapping_path;
	const unsigned char *mapping;
	size_t mapping_len;
	/* Optional: called now and then with the offset decoded so far. */
	void (*consumed)(void *ctx, size_t upto);
	void *consumed_ctx;
};

struct bt_import_opts;

/* Import a dump held in memory (what run() does after mapping the files). */
int bt_android_import_bytes(struct bt_db *db, const struct bt_android_input *in,
			    const struct bt_import_opts *o, struct bt_diag *diag, struct bt_err *err);

#endif
