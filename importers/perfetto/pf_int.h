/*
 * Internals of the Perfetto importer (pf_import.c). The trace is read
 * packet by packet (pf_stream.c); each packet updates what is known of
 * tracks, threads and sequences and spills its events into a scratch
 * table (pf_packet.c, pf_spill.c); events are then paired per thread in
 * time order into slices on the pipeline's feed (pf_pair.c), and waits
 * linked to who ended them (pf_import.c). Memory stays bounded: the events
 * wait in SQLite, not in RAM.
 */
#ifndef BT_PF_INT_H
#define BT_PF_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/recon/feed.h"
#include "engine/base/hash.h"
#include "importers/importer.h"
#include "gen/perfetto_trace.pb-c.h"

/* Values a slice's debug annotations can give (upstream's keys, §8.5 of
 * the Android spec, and the iOS tool's), by bit in pf_args.has. */
enum pf_arg {
	PF_CPU, PF_SELF_CPU, PF_BLOCK, PF_MSG, PF_COUNT, PF_OBJS, PF_BYTES, PF_MAJFLT, PF_NVCSW,
	PF_NIVCSW, PF_TYPE, PF_WAKEUP, PF_GAP, PF_GAP_CPU,
	PF_IDLE,         /* our --perfetto's idle slices (1) */
	PF_WAIT_TIME,    /* our --perfetto's: the length of the wait an arrow ends */
	PF_FLOW_IN,      /* a terminating flow id (our --perfetto's waker arrows) */
	PF_BLOCKED_IN,   /* our --perfetto's waits: the frame (pf_frame id) a wait was in, */
	PF_CALLER,       /* its caller, */
	PF_WAKER_FRAME,  /* and the frame that ended it */
	PF__NARGS
};

struct pf_args {
	uint32_t has;
	int64_t v[PF__NARGS];
};

/* The most an annotation's value may be (in ns, bytes or a count), and all
 * of a kind together: attribution sums them in int64 (pf_pair.c). */
#define PF_MAX_VALUE ((int64_t)1 << 60)

/* What a slice's name says (pf_names.c): the atrace markers of btrace 2.0
 * and ART, parsed once per distinct name. */
enum pf_marker { PF_PLAIN, PF_WAIT, PF_NOTIFY, PF_MONITOR, PF_BINDER, PF_PTHREAD };

struct pf_frame {
	enum pf_marker marker;
	int64_t value;          /* obj (wait, notify), owner tid (monitor), code (binder), new tid */
	uint32_t iface_off, iface_len, method_off, method_len;   /* binder, into the name */
	int has_code, has_method;
	int used;               /* a slice of the app's was made of it */
	char *name;
};

/* Event kinds as spilled. */
enum { PF_EV_BEGIN = 1, PF_EV_END = 2, PF_EV_INSTANT = 3, PF_EV_COUNTER = 4 };
/* Where an event came from: thread slices of two sources nest into one tree. */
enum { PF_SRC_TRACK = 0, PF_SRC_ATRACE = 1 };

/* An event as spilled (pf_spill.c). */
struct pf_event {
	int64_t seq, k, ts;
	uint64_t uuid;
	int known;              /* k is known (the track was described) */
	int kind, src;
	uint32_t frame;
	double v;               /* a counter's value */
	const void *args;       /* packed pf_args, nargs bytes */
	size_t nargs;
};

/* Markers on a process's main thread that say an app start ran there. */
enum { PF_MARK_BIND = 1, PF_MARK_START = 2, PF_MARK_RESUME = 4 };

/* A launch system_server announced: its "launching: PKG" async slice, an
 * atrace S/F pair (by cookie) or a slice on a track (uuid). */
struct pf_launch {
	char *pkg;
	int64_t ts, end_ts;     /* end_ts -1: never ended */
	int64_t cookie;
	int track;              /* on a track (uuid), else atrace (cookie) */
	uint64_t uuid;
	int depth;              /* the track's slices open inside it */
	int open;
};

/* A track as its descriptor says. */
struct pf_track {
	uint64_t uuid;
	int64_t tid, pid;       /* tid > 0 for a thread's track, pid for a process's */
	int pending;            /* events came before any descriptor */
	char *name;
};

/* A sequence-scoped clock (ids 64-127) as a ClockSnapshot of its
 * sequence set it: an incremental one's timestamps are deltas. */
struct pf_clock {
	uint32_t id;
	int incremental;
	int64_t mult;           /* ns per unit */
	int64_t now;            /* incremental: its time, in ns */
	int64_t offset;         /* its time + offset = the trace clock's */
};

#define PF_SEQ_CLOCKS 4

/* Interned strings, defaults and clocks of one trusted_packet_sequence_id. */
struct pf_seq {
	int cleared;            /* incremental state valid */
	uint64_t track;         /* TrackEventDefaults.track_uuid */
	int has_track;
	uint32_t clock_id;      /* TracePacketDefaults.timestamp_clock_id; 0: none */
	int64_t legacy_tid;     /* from a ThreadDescriptor packet */
	int interned;           /* the maps below exist (made on first use) */
	struct bt_map64 names, ann_names, strings, cats;   /* iid -> offset + 1 into pool */
	char *pool;
	size_t plen, pcap;
	struct pf_clock clocks[PF_SEQ_CLOCKS];
	int nclocks;
};

struct pf {
	struct bt_db *db;
	const char *path;
	const struct bt_import_opts *o;
	struct bt_diag *diag;
	/* tracks, by uuid */
	struct pf_track *tracks;
	size_t ntracks, tcap;
	struct bt_map64 track_of;        /* uuid -> index + 1 */
	/* threads and processes seen anywhere */
	struct bt_map64 tgid_of;         /* tid -> tgid + 1 (tgid < 2^31) */
	struct bt_map64 thread_name;     /* tid -> index + 1 into names */
	struct bt_map64 process_name;    /* pid -> index + 1 into names */
	struct bt_map64 begins;          /* pid -> slices begun on its threads */
	char **names;
	size_t nnames, ncap;
	/* frames, by name */
	struct bt_strmap frame_of;
	struct pf_frame *frames;         /* by id - 1 */
	size_t nframes, fcap;
	/* sequences */
	struct pf_seq *seqs;
	size_t nseqs, scap;
	struct bt_map64 seq_of;          /* sequence id -> index + 1 */
	/* spill */
	int64_t seq;                     /* events so far: their file order */
	int64_t packets;
	int inflating;                   /* inside compressed_packets */
	uint64_t inflated, empty;        /* compressed_packets' bytes, empty packets: both capped */
	sqlite3 *spill;                  /* pf_spill.c */
	sqlite3_stmt *ins, *res;
	int flavor_atrace, flavor_track;
	int64_t pid;                     /* the app's, chosen after the read (pf_choose.c) */
	const char *choice;              /* why: "--process", "launching: PKG", a marker, "most slices" */
	char *choice_buf;
	struct bt_map64 marks;           /* pid -> PF_MARK_* seen on its main thread */
	struct pf_launch *launches, *launch;   /* launch: the chosen one's, if any */
	size_t nlaunches, lcap;
	int open_launches;
	struct bt_strmap type_of;        /* record type name -> type, for the Type annotation */
	/* What the annotations say at all (pf_packet.c): a thread none of whose
	 * slices gives its CPU time has it unknown (pf_pair.c); kinds of
	 * counters no slice gives are not in the trace (meta no_*). */
	struct bt_map64 cpu_keys, cpu_tracks;   /* keys, track uuids with a CPU annotation */
	int64_t cpu_key;                 /* the last put (when cpu_put): a thread's events come
					  * together, so most need no lookup */
	uint64_t cpu_track;
	int cpu_put;
	uint32_t args_seen;              /* pf_args bits of any event */
};

/* pf_stream.c: read every TracePacket of path, calling pf_packet(). */
int pf_stream(struct pf *p, struct bt_err *err);
/* The packets of a compressed_packets field (zlib) at byte offset off. */
int pf_stream_inflate(struct pf *p, const uint8_t *data, size_t len, uint64_t off, struct bt_err *err);

/* pf_spill.c: the events, kept in a file until all are read. */
int pf_spill_open(struct pf *p, struct bt_err *err);
void pf_spill_close(struct pf *p);
int pf_spill_event(struct pf *p, const struct pf_event *e, struct bt_err *err);
/* Events of track uuid spilled before its descriptor get key k. */
int pf_spill_resolve(struct pf *p, uint64_t uuid, int64_t k, struct bt_err *err);
/* A statement giving k, ts, kind, src, frame, v, a in pairing order;
 * pf_spill_next steps it: 1 a row, 0 the end, -1 an error. */
int pf_spill_order(struct pf *p, sqlite3_stmt **out, struct bt_err *err);
int pf_spill_next(struct pf *p, sqlite3_stmt *st, struct bt_err *err);

/* pf_packet.c */
int pf_packet(struct pf *p, const uint8_t *data, size_t len, uint64_t off, struct bt_err *err);
void pf_release(struct pf *p);

/* pf_names.c */
uint32_t pf_frame(struct pf *p, const char *name, size_t len);
const char *pf_name(const struct pf *p, struct bt_map64 *m, int64_t key);
void pf_name_put(struct pf *p, struct bt_map64 *m, int64_t key, const char *s, size_t len);
int pf_annotation(const struct pf *p, struct pf_args *a, const char *name, const Perfetto__Protos__DebugAnnotation *d,
		  const char *str);
/* The record type a Type annotation or our export's category names. */
int pf_type(const struct pf *p, struct pf_args *a, const char *str);

/* pf_choose.c: what the read saw of app starts, and the choice of the app. */
void pf_mark(struct pf *p, int64_t pid, int64_t tid, const char *name, size_t len);
int pf_is_launch(const char *name, size_t len);
/* uuid: the track of a track event's launch; NULL for atrace's. */
void pf_launch_begin(struct pf *p, const char *name, size_t len, int64_t ts, int64_t cookie,
		     const uint64_t *uuid);
void pf_launch_end(struct pf *p, const char *name, size_t len, int64_t cookie, int64_t ts);
void pf_launch_track(struct pf *p, uint64_t uuid, int kind, int64_t ts);
/* Sets p->pid and p->choice; BT_EUSAGE if --process names no process
 * with slices (the message lists those with most). */
int pf_choose(struct pf *p, struct bt_err *err);
int pf_choose_meta(struct pf *p, struct bt_err *err);
void pf_choose_release(struct pf *p);

/* pf_pair.c: spilled events into slices, track slices and counters. */
int pf_pair(struct pf *p, struct bt_map64 *threads, struct bt_err *err);

#endif
