/*
 * Internals of the systrace importer (st_import.c): ftrace text as atrace
 * and systrace write it, read line by line from whichever container holds
 * it (st_input.c), each line split into its fields (st_line.c) and turned
 * into events (st_event.c, with st_marker.c and st_kernel.c); a thread's events wait in the importers' store
 * (importers/spill.h, packed by st_store.c) until the whole trace is read, and are then
 * replayed thread by thread into slices, states and waits (st_thread.c).
 */
#ifndef BT_ST_INT_H
#define BT_ST_INT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/base/fileio.h"
#include "engine/base/hash.h"
#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/recon/feed.h"
#include "importers/binder_events.h"
#include "importers/spill.h"
#include "importers/importer.h"
#include "importers/inflate.h"
#include "importers/sched.h"

/* ---- input (st_input.c) */

/* What holds the text. */
enum st_container { ST_TEXT, ST_GZIP, ST_ZLIB };
/* How its lines read: as they are, inside an HTML page, or as the lines
 * of a JavaScript string ("...\n\" at each end: systrace's older form). */
enum st_html {
	ST_HTML_NONE, ST_HTML_OUT, ST_HTML_BLOCK_START, ST_HTML_BLOCK, ST_HTML_SKIP, ST_HTML_DUMP, ST_HTML_JS,
	ST_HTML_DONE
};

#define ST_MAX_LINE (1u << 20)   /* longer is no ftrace text */

struct st_in {
	const char *path;
	struct bt_fmap map;
	enum st_container kind;
	size_t pos;                 /* file bytes consumed (text: the cursor) */
	/* inflating (z.end: no more; z.trailing, z.cut, z.cut_at for meta and messages) */
	struct bt_inflate z;
	unsigned char *buf;
	size_t start, end, cap;     /* the unread text is buf[start, end) */
	uint64_t base;              /* text offset of buf[0] */
	/* lines */
	uint64_t line_no;
	uint64_t line_off;          /* text offset of the current line */
	int last_unterminated;      /* the current line had no newline: the text's last */
	/* containers inside the text */
	enum st_html html;
	int js;                     /* every line ends in \n\ (a JavaScript string's lines) */
	int looked;                 /* the first line that is not blank was seen */
	int have_ftrace;            /* a page's ftrace text was found */
	int blocks_seen, blocks_skipped, blocks_extra;
	int dump;                   /* the current line is of a PROCESS DUMP block */
	char *unesc;                /* a JavaScript line unescaped */
	size_t unesc_cap;
};

/* Open path (mapped; its container found from its first bytes). */
int st_in_open(struct st_in *in, const char *path, struct bt_err *err);
/* The next line of ftrace text into *line, *len (no newline; valid until
 * the next call): 1 a line, 0 the end, or an error code (negative: never;
 * errors return -1 with err set). */
int st_in_line(struct st_in *in, const char **line, size_t *len, struct bt_err *err);
void st_in_close(struct st_in *in);
/* The container's name for meta ("text", "gzip", "zlib"), and the page's
 * ("html", "html-js") or NULL. */
const char *st_in_container(const struct st_in *in);
const char *st_in_page(const struct st_in *in);

/* ---- one line (st_line.c) */

#define ST_MAX_CPUS 4096   /* a CPU column past it is no ftrace line */

struct st_line {
	const char *task;          /* the comm column, as ftrace printed it */
	size_t task_len;
	int64_t pid;               /* the thread's tid */
	int64_t tgid;              /* -1: not printed or "-----" */
	int64_t cpu;
	int64_t ts;                /* ns */
	const char *event, *args;
	size_t event_len, args_len;
};

enum { ST_LINE_OK = 0, ST_LINE_BAD = 1, ST_LINE_RANGE = 2 };
/* Split one line; ST_LINE_BAD if it is no ftrace event line, ST_LINE_RANGE
 * if its timestamp is past BT_MAX_TIME_NS. */
int st_line_parse(const char *s, size_t n, struct st_line *l);
/* The value after "key" in args (key includes its '='), up to the next
 * space, or up to the text " stop" when stop is not NULL (values with
 * spaces: comm). NULL when absent. */
const char *st_arg(const char *args, size_t n, const char *key, const char *stop, size_t *len);
/* A decimal integer of s[0..n) (an optional '-'); 0 if it is none. */
int st_int(const char *s, size_t n, int64_t *out);

/* ---- events as a thread's store keeps them (st_store.c) */

enum st_kind {
	ST_EV_BEGIN = 1,       /* a: frame */
	ST_EV_END,
	ST_EV_RUN,             /* switched in; a: cpu */
	ST_EV_STOP,            /* switched out; a: cpu, b: state (BT_STATE_*) */
	ST_EV_WAKEUP,          /* sched_wakeup(_new); a: the waker's tid */
	ST_EV_WAKING,          /* sched_waking; a: the waker's tid */
	ST_EV_BLOCKED          /* sched_blocked_reason; a: the caller's st_str id (0 none), b: iowait */
};
/* The scheduler's kinds are importers/sched.h's, in the same order. */
#define ST_SCHED_KIND(k) ((k) - ST_EV_RUN + BT_SCHED_RUN)

struct st_ev {
	int64_t ts;
	uint32_t a;
	uint16_t kind, b;
};

/* A thread: what the trace said of it, and its events. */
struct st_thread {
	int64_t tid, tgid;          /* tgid -1: unknown */
	uint32_t name;              /* index + 1 into st.names; 0 none */
	uint32_t dump_name;         /* the same, from a page's PROCESS DUMP (weaker) */
	uint32_t begins, ends;      /* B and E markers */
	struct st_ev first_switch;  /* its first ST_EV_RUN or ST_EV_STOP in time (kind 0: none) */
};

/* An async slice (S, G) still open. */
struct st_async {
	uint32_t track, name;       /* frame-pool ids (names) */
	int64_t tgid, cookie, ts;
	uint32_t slot;
	int open;
};

/* A track of async slices and instants: its depths, each open slice in
 * the lowest one free when it began. */
struct st_track {
	uint32_t *free;             /* a min-heap of the free depths below used */
	size_t nfree, cap;
	uint32_t used;              /* depths ever taken */
};

struct st {
	struct bt_db *db;
	const char *path;
	const struct bt_import_opts *o;
	struct bt_diag *diag;
	int all;                        /* --process all */
	struct st_in in;
	/* threads, by tid */
	struct st_thread *threads;
	size_t nthreads, tcap;
	struct bt_map64 thread_of;      /* tid -> index + 1 */
	uint32_t last_thread;           /* the index + 1 st_thread_of gave last */
	char **names;                   /* thread names */
	size_t nnames, ncap;
	struct bt_strmap name_of;       /* thread name -> index + 1 */
	struct bt_map64 process_of;     /* pid -> its name's index + 1 into names (PROCESS DUMP) */
	int dump_form;                  /* the PROCESS DUMP's columns: 0 unknown, 1 long, 2 short */
	/* slice names (frames) and other strings (tracks, counters, callers) */
	struct bt_strmap frame_of, str_of;
	char **frames, **strs;
	size_t nframes, fcap, nstrs, scap;
	unsigned char *frame_type;      /* by frame id: what a wait marker is (st_wait_type) */
	int64_t *frame_obj;             /* by frame id: its lock id or owner tid, or -1 */
	size_t ftcap;                   /* of both */
	/* async slices and tracks */
	struct st_async *async;
	size_t nasync, acap;
	struct bt_strmap async_of;      /* tgid|name|cookie -> index + 1 */
	struct st_track *tracks;        /* by track string id - 1 */
	size_t ntracks, trcap;
	/* the threads' events (st_store.c) */
	struct bt_spill *store;         /* NULL: none yet */
	int64_t seq;                    /* events added: their order as they came */
	struct st_ev peek;              /* read back, the next thread's first (peeked) */
	int64_t peek_k;
	int peeked;
	/* what the read saw */
	int64_t first_ts, last_ts;       /* the span of the events but clock syncs */
	uint64_t spanned;               /* events in it */
	uint64_t lines, events, markers, bad_lines, bad_markers, range, other_events;
	struct bt_bevents *binder; /* --process all: the binder tracepoints (binder_events.h) */
	uint64_t binder_bad;            /* of them, without the fields they need */
	uint64_t first_bad_off;
	char first_bad[80];
	uint64_t switches, wakeups, wakings, unmatched_async, sched_bad;
	int64_t *cpu_first;             /* by cpu: ts of its first event, -1 none */
	size_t ncpus;
	uint64_t entries, written;      /* the header's entries-in-buffer/entries-written */
	/* after the read */
	int64_t pid, main_tid;          /* the app: --process, else the one with most slices; its main thread */
	const char *choice;             /* why: "--process" or "most slices" */
	uint64_t slices, unfinished, unmatched_end, deep, cpu_unknown, not_running, edges, unlinked;
	uint64_t states;
	int slices_begun;               /* some thread has B markers */
};

/* st_event.c: one parsed line. */
int st_event(struct st *s, const struct st_line *l, struct bt_err *err);
/* A '#' comment line of the header. */
void st_header(struct st *s, const char *line, size_t n);
/* A line of a systrace page's PROCESS DUMP ("USER PID PPID VSZ RSS WCHAN
 * PC S NAME COMMAND" rows: process names; "USER PID TID CMD": thread
 * names and processes), for the threads the trace has. */
void st_dump(struct st *s, const char *line, size_t n);
/* The index + 1 of name in the thread names. */
uint32_t st_name_id(struct st *s, const char *name, size_t len);
/* Thread tid (made on first sight). */
struct st_thread *st_thread_of(struct st *s, int64_t tid);
void st_thread_name(struct st *s, int64_t tid, const char *name, size_t len);
/* A string's id (1..), interned. */
uint32_t st_frame(struct st *s, const char *name, size_t len);
uint32_t st_str(struct st *s, const char *str, size_t len);
/* A thread's event into its store. */
int st_add(struct st *s, int64_t tid, int64_t ts, int kind, uint32_t a, unsigned b, struct bt_err *err);
void st_event_release(struct st *s);

/* st_marker.c: an atrace marker m (n bytes) of thread tid. */
int st_marker(struct st *s, int64_t tid, int64_t ts, const char *m, size_t n, struct bt_err *err);
/* The async slices still open at the end: closed at the trace's end. */
int st_async_finish(struct st *s, struct bt_err *err);

/* st_kernel.c: sched_switch; sched_wakeup(_new) and sched_waking (kind
 * ST_EV_WAKEUP or ST_EV_WAKING); sched_blocked_reason; a task's new name
 * (the text after key, up to stop); binder_transaction(_received). */
int st_sched_switch(struct st *s, const struct st_line *l, struct bt_err *err);
int st_sched_wakeup(struct st *s, const struct st_line *l, int kind, struct bt_err *err);
int st_blocked_reason(struct st *s, const struct st_line *l, struct bt_err *err);
void st_task_name(struct st *s, const struct st_line *l, const char *key, const char *stop);
int st_binder_event(struct st *s, const struct st_line *l, int received);

/* st_store.c: events added as they come; once all have, st_store_order,
 * then each thread's read back in ascending tid order (a thread passed
 * over is not read), in time order, ties in the order they came. */
int st_store_add(struct st *s, struct st_thread *t, const struct st_ev *e, struct bt_err *err);
int st_store_order(struct st *s, struct bt_err *err);

struct st_reader {
	struct st *s;
	struct st_thread *t;
	struct st_ev ev;            /* the event st_store_next gave */
	struct st_ev first_switch;  /* the thread's first RUN or STOP in time (kind 0: none) */
};
int st_store_begin(struct st *s, struct st_thread *t, struct st_reader *rd, struct bt_err *err);
/* The next event into *e: 1, 0 at the end, or the error code (negative
 * never; err set). */
int st_store_next(struct st_reader *rd, const struct st_ev **e, struct bt_err *err);
void st_store_end(struct st_reader *rd);
void st_store_close(struct st *s);

/* st_thread.c: every thread's events into slices, states and waits. */
int st_threads(struct st *s, struct bt_err *err);

/* Wait markers (ART's, btrace 2.0's, the kernel's binder slices), by the
 * record type they stand for (engine/db/rtype.h numbering), or 0. */
enum { ST_WAIT_NONE = 0 };
int st_wait_type(const char *name, int64_t *obj);

#endif
