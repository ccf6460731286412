/*
 * Internals of the Perfetto importer (pf_import.c). The trace is read
 * packet by packet (pf_stream.c); each packet updates what is known of
 * tracks, threads and sequences and spills its events into a scratch
 * table (pf_packet.c, pf_spill.c); events are then paired per thread in
 * time order into slices on the pipeline's feed (pf_pair.c), and waits
 * linked to who ended them (pf_import.c). Memory stays bounded: the events
 * wait in sorted runs on disk, not in RAM.
 */
#ifndef BT_PF_INT_H
#define BT_PF_INT_H

#include <stdint.h>

#include "engine/db/db.h"
#include "engine/db/diag.h"
#include "engine/base/fileio.h"
#include "engine/recon/feed.h"
#include "engine/recon/link.h"
#include "engine/base/hash.h"
#include "importers/binder_events.h"
#include "importers/importer.h"
#include "importers/sched.h"
#include "importers/spill.h"
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
	PF_COOKIE,       /* an async slice's cookie or id (pf_kinds.c) */
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
enum pf_marker { PF_PLAIN, PF_WAIT, PF_NOTIFY, PF_MONITOR, PF_BINDER, PF_PTHREAD, PF_LOCK, PF_MUTEX, PF_PARK,
		 PF_UNPARK };

/* PF_MONITOR is ART's "monitor contention with owner NAME (N)": N is ART's
 * thread id, not the kernel's; PF_LOCK its "Lock contention on a monitor
 * lock (owner tid: T)", T the kernel's tid (0: unknown); PF_MUTEX ART's
 * contention on one of its own locks, "Lock contention on thread list
 * lock (owner tid: T)" and the like: a lock wait (T as PF_LOCK's).
 * PF_PARK and PF_UNPARK are btrace 2.0's "Unsafe#park(obj:H, time:N)" and
 * "Unsafe#unpark(obj:H)": H the identity hash of the thread parked. */
struct pf_frame {
	enum pf_marker marker;
	int64_t value;          /* obj (wait, notify, park, unpark), N or T (monitor, lock, mutex), code (binder),
				 * new tid */
	uint32_t iface_off, iface_len, method_off, method_len;   /* binder; iface: a monitor's NAME, method
								 * the one its owner locked in; into the name */
	int has_code, has_method;
	uint32_t held;          /* a monitor's: the frame of the method its owner locked in, or 0 (pf_pair.c) */
	int holds;              /* a monitor names it: its slices' ends may be the owner's release */
	int used;               /* a slice of the app's was made of it */
	char *name;
};

/* Event kinds as spilled. */
enum { PF_EV_BEGIN = 1, PF_EV_END = 2, PF_EV_INSTANT = 3, PF_EV_COUNTER = 4,
       PF_EV_ASYNC_BEGIN = 5, PF_EV_ASYNC_END = 6,     /* async: paired by cookie (pf_kinds.c) */
       PF_EV_SAMPLE = 7,     /* a callstack sample: frame its stack (pf_samples.c) */
       PF_EV_SCHED = 8 };    /* + importers/sched.h's kind (pf_sched.c): frame its a, src its b */
/* Where an event came from: thread slices of two sources nest into one tree. */
enum { PF_SRC_TRACK = 0, PF_SRC_ATRACE = 1 };

/* An event as spilled (pf_spill.c). */
struct pf_event {
	int64_t seq, k, ts;
	int pending;            /* k is the index of a track not yet described */
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

/* A launch as API 32+ system_servers trace it, which Perfetto's
 * android_startups reads: the "launchingActivity#N" async slice (from the
 * intent) and its "launchingActivity#N:completed[-KIND]:PKG" instant. */
struct pf_alaunch {
	int64_t id, ts, end_ts;  /* end_ts -1: never ended */
	char *pkg;               /* NULL: not completed */
	int track;               /* a TrackEvent slice on uuid (else atrace prints) */
	uint64_t uuid;
	int depth;               /* the track's slices open inside it */
};

/* A track as its descriptor says. */
struct pf_track {
	uint64_t uuid;
	int64_t tid, pid;       /* tid > 0 for a thread's track, pid for a process's */
	int pending;            /* events came before any descriptor */
	int resolved;           /* such events have a key now: */
	int64_t rkey;
	char *name;
	/* pf_kinds.c: a counter track's, and tracks made for atrace's and
	 * legacy events' async slices, counters and instants */
	uint64_t parent;        /* parent_uuid, when has_parent */
	int has_parent, counter, incremental, ctype, synth;
	int64_t mult;           /* a counter's unit_multiplier (0: 1) */
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
	uint32_t gen;           /* times cleared: incremental counters restart (pf_kinds.c) */
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

/* Where a packet's unpacked messages live (pf_packet.c). */
struct pf_arena_block {
	unsigned char *p;
	size_t cap;
};

struct pf_arena {
	struct pf_arena_block *b;
	size_t nb, bcap, cur, used;   /* in use: blocks before cur, used bytes of cur */
	size_t kept;                  /* bytes of all blocks */
};

struct pf {
	struct bt_db *db;
	const char *path;
	const struct bt_import_opts *o;
	struct bt_diag *diag;
	struct bt_link_notes notes;   /* the notifies and unparks, for the waits they ended (pf_link) */
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
	int64_t seq_unused;              /* numbers kept for scheduler events never spilled (pf_later.c) */
	uint32_t sched_seq;              /* the sequence of the bundle being read again (its kernel symbols) */
	int64_t packets;
	int inflating;                   /* inside compressed_packets */
	uint64_t inflated, empty;        /* compressed_packets' bytes, empty packets: both capped */
	struct bt_spill *spill;          /* pf_spill.c */
	int flavor_atrace, flavor_track;
	int64_t pid;                     /* the app's, chosen after the read (pf_choose.c) */
	int all;                         /* --process all: every process's threads and slices are
					  * imported (the app still chosen: it leads, its start is modeled) */
	struct bt_bevents *binder; /* --process all: the binder tracepoints (pf_binder.c) */
	uint64_t *wanted;                /* pf_wanted_index's: two bits a tid, known and the app's */
	const char *choice;              /* why: "--process", "launching: PKG", a marker, "most slices" */
	char *choice_buf;
	struct bt_map64 marks;           /* pid -> PF_MARK_* seen on its main thread */
	struct pf_launch *launches, *launch;   /* launch: the chosen one's, if any */
	size_t nlaunches, lcap;
	int open_launches;
	struct pf_alaunch *alaunches;    /* pf_alaunch.c */
	size_t nalaunches, alcap, open_alaunches;   /* open: TrackEvent ones not ended */
	struct bt_strmap type_of;        /* record type name -> type, for the Type annotation */
	struct pf_kinds *kinds;          /* pf_kinds.c */
	int64_t end_ts;                  /* the last event's time (async slices open at the end end there) */
	/* pf_threads.c */
	struct bt_map64 name_of;         /* tid -> index + 1 into tnames */
	struct pf_tname { int64_t ts; int kind; } *tnames;   /* a thread name's kind and time (-1: none) */
	size_t ntnames, tncap;
	struct bt_strmap by_name;        /* "pid|name" -> tid, or UINT32_MAX: several */
	struct bt_map64 layer_name;      /* pid -> index + 1 into names: the package its surfaces name */
	int indexed, named_threads;
	uint64_t *name_seen;             /* a bit a tid, clear between bundles (compact sched's names) */
	struct pf_arena arena;
	/* What the annotations say at all (pf_packet.c): a thread none of whose
	 * slices gives its CPU time has it unknown (pf_pair.c); kinds of
	 * counters no slice gives are not in the trace (meta no_*). */
	struct bt_map64 cpu_keys, cpu_tracks;   /* keys, track uuids with a CPU annotation */
	int64_t cpu_key;                 /* the last put (when cpu_put): a thread's events come
					  * together, so most need no lookup */
	uint64_t cpu_track;
	int cpu_put;
	uint32_t args_seen;              /* pf_args bits of any event */
	struct pf_samples *samples;      /* pf_samples.c; NULL: none yet */
	struct pf_frametl *frametl;      /* pf_frametl.c; NULL: none yet */
	/* pf_sched.c */
	struct pf_sched *sched;
	struct pf_later *later;          /* pf_later.c: its bundles, read again */
	struct bt_fmap fmap;             /* the trace, mapped (pf_stream.c); data NULL: gzip'd */
	int64_t sched_end;               /* the last scheduler event's time */
	uint64_t sched_switches, sched_wakings;
	uint64_t sched_states, sleep_edges, sleep_unwoken;   /* what pf_pair.c made of them */
	int64_t states_first, states_end;                   /* the span of those states */
};

/* pf_stream.c: read every TracePacket of path, calling pf_packet(). */
int pf_stream(struct pf *p, struct bt_err *err);
/* A varint of b[*i..n) into *v, *i moved past it: 0 if it runs off the
 * end or past 64 bits (compressed_packets' walk, pf_predecode.c's). */
int pf_mem_varint(const uint8_t *b, size_t n, size_t *i, uint64_t *v);
/* The packets of a compressed_packets field (zlib) at byte offset off. */
int pf_stream_inflate(struct pf *p, const uint8_t *data, size_t len, uint64_t off, struct bt_err *err);

/* pf_spill.c: the events, kept in the importers' store (importers/spill.h,
 * p->spill) until all are read. chunk: bytes of events sorted in memory
 * at a time (0: the store's 32 MiB; tests give less, to make many runs).
 * p->spill is then read with bt_spill_order, _rest and _rewind (a scratch
 * analysis's deferred slices pair them anew) and freed with bt_spill_free. */
void pf_spill_open(struct pf *p, size_t chunk);
int pf_spill_event(struct pf *p, const struct pf_event *e, struct bt_err *err);
/* Events of track t spilled before its first descriptor get key k. */
void pf_spill_resolve(struct pf *p, struct pf_track *t, int64_t k);
/* After bt_spill_order: the next event in pairing order (by k, then ts,
 * then file order) in *e (its args valid until the next call): 1 an
 * event, 0 the end, -1 an error. Events of a track never resolved are
 * left out. */
int pf_spill_next(struct pf *p, struct pf_event *e, struct bt_err *err);

/*
 * pf_samples.c: callstack samples. The read interns a sequence's profile
 * data and spills each sample (PF_EV_SAMPLE) on its thread; pf_pair.c
 * gives them back in order, and their frames open and close as slices
 * through ops (its stack of open slices, the other events' too).
 */
struct pf_samples;
struct pf_samples_ops {
	int (*open)(void *ctx, int64_t ts, uint32_t frame, struct bt_err *err);
	int (*close)(void *ctx, int64_t ts, struct bt_err *err);
	void *ctx;
};
void pf_samples_intern(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__InternedData *d);
int pf_samples_perf(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__PerfSample *ps, int64_t ts,
		    struct bt_err *err);
int pf_samples_streaming(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__StreamingProfilePacket *sp,
			 int64_t ts, struct bt_err *err);
/* After the read: the sampling interval found, the interned data freed. */
void pf_samples_done(struct pf *p);
/* Meta and diagnostics of what was read. */
int pf_samples_save(struct pf *p, struct bt_err *err);
void pf_samples_free(struct pf_samples *s);
/* Pairing: before a run, a sample (id its frame), and before any other
 * event of the thread or its end: the samples' frames closed at ts or
 * where their run ended, if sooner (*at: then, when any were open). */
void pf_samples_reset(struct pf *p);
int pf_samples_pair(struct pf *p, const struct pf_samples_ops *o, int64_t key, int64_t ts, uint32_t id,
		    struct bt_err *err);
int pf_samples_close(struct pf *p, const struct pf_samples_ops *o, int64_t ts, int64_t *at, struct bt_err *err);

/* pf_frametl.c: SurfaceFlinger's frame timeline into display_frames,
 * start and end paired by cookie. */
int pf_frametl_event(struct pf *p, const Perfetto__Protos__FrameTimelineEvent *e, int64_t ts, uint64_t off,
		     struct bt_err *err);
/* After the read: frames never ended, the counts. */
int pf_frametl_save(struct pf *p, struct bt_err *err);
void pf_frametl_free(struct pf_frametl *f);
/* pf_sched.c: the scheduler's events of a bundle, spilled per thread. */
void pf_sched_init(struct pf *p);
void pf_sched_release(struct pf_sched *s);
int pf_sched_bundle(struct pf *p, const Perfetto__Protos__FtraceEventBundle *b, struct bt_err *err);
/* Thread tid's running time is known from *known on (INT64_MAX: never);
 * *running: it was on a CPU then. */
void pf_sched_known(const struct pf_sched *s, int64_t tid, int64_t *known, int *running);
/* A blocked function's name by its id (importers/sched.h's caller;
 * ctx the pf_sched; valid until the next call). */
const char *pf_sched_caller(void *ctx, uint32_t id);
/* The kernel symbols a packet of sequence seq interns (symbolize_ksyms):
 * the names its bundles' callers give by iid. */
void pf_sched_ksyms(struct pf_sched *s, uint32_t seq, const Perfetto__Protos__InternedData *d);
/* Scheduler events skipped: fields missing, times out of bounds. */
uint64_t pf_sched_bad(const struct pf_sched *s);

/* pf_later.c: the bundles with scheduler events, kept by the first pass
 * (their events' file order reserved) and decoded again once the app is
 * chosen, its threads' events spilled (pf_wanted). */
int pf_later_keep(struct pf *p, const uint8_t *data, size_t len, const Perfetto__Protos__FtraceEventBundle *b,
		  struct bt_err *err);
int pf_later_replay(struct pf *p, struct bt_err *err);
void pf_later_free(struct pf_later *l);

/* pf_threads.c: compact sched's names (pf_threads_compact) in two steps,
 * the first touching only its arguments (done by pf_predecode.c's
 * workers): each thread's last name of each column, in the column's
 * order, into out (room from its arena); seen from pf_comms_seen (freed
 * by the caller), all clear between calls. */
struct pf_comm {
	int64_t tid, ts;
	const char *name;
	size_t len;
};
struct pf_comms {
	struct pf_arena *arena;
	struct pf_comm *v;
	size_t n;
};
uint64_t *pf_comms_seen(void);
void pf_comms_find(struct pf_comms *out, uint64_t *seen, const Perfetto__Protos__CompactSched *c);
void pf_comms_apply(struct pf *p, const struct pf_comms *m);

/* pf_predecode.c: a mapped trace's packets decoded on the other core, each
 * asked for in file order by its key's offset: NULL if not decoded there
 * (decode it); valid until the next call. pk NULL: left to protobuf-c;
 * comms, its compact sched's names (pf_comms_find), where pk has one. */
struct pf_decoded {
	Perfetto__Protos__TracePacket *pk;
	struct pf_comms comms;
};
struct pf_predecode;
struct pf_predecode *pf_predecode_start(const uint8_t *map, size_t len, uint32_t max_packet);
const struct pf_decoded *pf_predecode_packet(struct pf_predecode *r, uint64_t at);
void pf_predecode_stop(struct pf_predecode *r);

/* pf_packet.c: pre, the packet decoded already (pf_predecode.c), else NULL. */
int pf_packet(struct pf *p, const uint8_t *data, size_t len, uint64_t off, const struct pf_decoded *pre,
	      struct bt_err *err);
/* The scheduler events of a packet kept by pf_later_keep (pf_sched_bundle). */
int pf_packet_sched(struct pf *p, const uint8_t *data, size_t len, struct bt_err *err);
void pf_release(struct pf *p);

/* pf_wire.c: the arena (valid until given back: pf_arena_back to the
 * cur and used it had before), and the hand decoder of the usual packets:
 * 1 *out is the packet, in a's memory, bytes fields borrowed from data; 0
 * it holds something the decoder leaves to protobuf-c (*out then undefined;
 * give the arena back). */
void *pf_arena_alloc(struct pf_arena *a, size_t n);
void pf_arena_back(struct pf_arena *a, size_t cur, size_t used);
void pf_arena_release(struct pf_arena *a);
int pf_wire_packet(struct pf_arena *a, const uint8_t *data, size_t len, Perfetto__Protos__TracePacket **out);
/* The second reading of a bundle of compact sched (pf_later.c): its cpu and
 * the five columns pf_sched.c reads (switch times, states and next pids,
 * waking times and pids) into b and c, in a's memory; the rest skipped. 0
 * if its bundle holds full events or a field given twice (decode the
 * packet whole). */
int pf_wire_sched(struct pf_arena *a, const uint8_t *data, size_t len, Perfetto__Protos__FtraceEventBundle *b,
		  Perfetto__Protos__CompactSched *c);

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
/* Thread tid is the chosen app's (or its process is not known, or none
 * was chosen). pf_wanted_index, once the app is chosen, makes it a bit
 * test for every tid below 2^22 (Linux's pid_max at most). */
#define PF_TID_BITS 22
void pf_wanted_index(struct pf *p);
int pf_wanted_lookup(const struct pf *p, int64_t tid);
/* Inline: the scheduler's second reading asks it of every event. */
static inline int pf_wanted(const struct pf *p, int64_t tid)
{
	if (p->wanted && tid >= 0 && tid < (int64_t)1 << PF_TID_BITS) {
		uint64_t w = p->wanted[(2 * (uint64_t)tid) >> 6] >> ((2 * (uint64_t)tid) & 63);
		return !(w & 1) || (w & 2);
	}
	return pf_wanted_lookup(p, tid);
}
void pf_choose_release(struct pf *p);

/* pf_alaunch.c: an atrace S, F or I print of launchingActivity#N (others
 * are left alone); the completed launch of the app named lbl whose span
 * holds at (the launching: slice's begin; -1: the first one), else NULL. */
void pf_alaunch_print(struct pf *p, int64_t ts, const char *buf, size_t len);
/* The same as TrackEvents: every begin and end on track uuid (name NULL
 * for an end), and instants. */
void pf_alaunch_event(struct pf *p, uint64_t uuid, int kind, const char *name, int64_t ts);
const struct pf_alaunch *pf_alaunch_of(const struct pf *p, const char *lbl, int64_t at);
void pf_alaunch_release(struct pf *p);

/*
 * pf_kinds.c: every kind of event besides thread slices. Instants, atrace
 * counters (C|), async slices (atrace S|/F|, G|/H|, legacy phases) and
 * TrackEvent legacy phases are spilled like slices and paired in
 * pf_pair.c's order; what is not imported is counted per kind.
 */
void pf_kinds_init(struct pf *p);
void pf_kinds_release(struct pf *p);
/* Fields of a packet (where 0) or an ftrace event (1) the importer does
 * not read: counted per kind. */
enum { PF_IN_PACKET, PF_IN_FTRACE };
void pf_kinds_unknown(struct pf *p, int where, const ProtobufCMessage *m);
/* What is read only for threads' names (pf_threads.c), counted as not
 * imported: a (not print) ftrace event pf_sched.c does not read, a
 * packet of field field (the frame timeline). */
void pf_kinds_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e);

/* pf_binder.c: with --process all, the binder tracepoints of the bundles,
 * kept as they come (importers/binder_events.h pairs them once the threads and
 * their states are in). */
void pf_binder_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e);
void pf_kinds_packet(struct pf *p, unsigned field);
/* A print that is not B|/E|: C, S, F, I, N, G, H, or one counted. */
int pf_kinds_atrace(struct pf *p, int64_t tid, int64_t ts, const char *buf, size_t len, struct bt_err *err);
/* A TrackEvent's legacy phase as a PF_EV_* kind; 0 (counted) if not imported. */
int pf_kinds_phase(struct pf *p, const Perfetto__Protos__TrackEvent *ev);
/* A legacy async begin or end (kind PF_EV_ASYNC_*) on track t's process. */
int pf_kinds_legacy_async(struct pf *p, const struct pf_track *t, const Perfetto__Protos__TrackEvent *ev,
			  const char *name, int kind, int64_t ts, struct bt_err *err);
/* A legacy 'X' event: its end, after its begin was spilled on key k. */
int pf_kinds_complete(struct pf *p, const Perfetto__Protos__TrackEvent *ev, int known, int64_t k, uint64_t uuid,
		      int64_t ts, struct bt_err *err);
/* A counter event's value on q as its track says (unit, incremental). */
double pf_kinds_value(struct pf *p, const struct pf_seq *q, const struct pf_track *t, double v);
/* A sequence's TrackEventDefaults: its extra counter tracks. */
void pf_kinds_defaults(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__TrackEventDefaults *d);
/* The extra counter values an event of q carries. */
int pf_kinds_extra(struct pf *p, const struct pf_seq *q, const Perfetto__Protos__TrackEvent *ev, int64_t ts,
		   struct bt_err *err);
void pf_kinds_describe(struct pf *p, struct pf_track *t, const Perfetto__Protos__TrackDescriptor *d);
/* Once the app is chosen: names of the tracks made here, of unnamed counters. */
void pf_kinds_name(struct pf *p);
/* pf_pair.c's instants and async events, in its order; skip: the key is
 * a thread of another process. pf_kinds_pair_end after the last. */
int pf_kinds_pair(struct pf *p, int64_t key, int skip, int64_t ts, int kind, uint32_t frame, const void *a,
		  size_t na, struct bt_err *err);
int pf_kinds_pair_end(struct pf *p, struct bt_err *err);
/* How many of kind (a diagnostic's code after "perfetto_not_imported:")
 * were counted so far. */
uint64_t pf_kinds_not_imported(const struct pf *p, const char *kind);
/* Diagnostics, and meta no_threads for a trace whose threads have no slices. */
int pf_kinds_save(struct pf *p, size_t threads, struct bt_err *err);

/* pf_packet.c's tracks, by uuid */
struct pf_track *pf_track_get(struct pf *p, uint64_t uuid);
struct pf_track *pf_track_add(struct pf *p, uint64_t uuid);

/* pf_threads.c: names and processes of threads. A name's kind, weakest
 * first: the kernel's comm, the process tree's, the thread's own track's. */
enum { PF_NAME_KERNEL = 1, PF_NAME_TREE = 2, PF_NAME_OWN = 3 };
void pf_threads_init(struct pf *p);
void pf_threads_release(struct pf *p);
/* ts: when the kernel had that name (-1: no time, file order decides) */
void pf_thread_name(struct pf *p, int64_t tid, const char *name, size_t len, int kind, int64_t ts);
void pf_thread_group(struct pf *p, int64_t tid, int64_t tgid);
void pf_threads_ftrace(struct pf *p, const Perfetto__Protos__FtraceEvent *e);
void pf_threads_compact(struct pf *p, const Perfetto__Protos__CompactSched *c);
/* The thread of process pid that ART's name NAME (len bytes) stands for:
 * its tid, 0 if none, -1 if several. Call after the read. */
int64_t pf_threads_find(struct pf *p, int64_t pid, const char *name, size_t len);
/* A frame timeline event: the package an app's surface ("TX - PKG/...")
 * names, its process's name where nothing else names it (pf_threads_done). */
void pf_threads_frame(struct pf *p, const Perfetto__Protos__FrameTimelineEvent *e);
/* After the read: the names only surfaces gave. */
void pf_threads_done(struct pf *p);
/* Counts, in diagnostics, the monitor waits whose owner stayed unknown
 * (after pf_link). */
int pf_threads_report(struct pf *p, struct bt_err *err);

/* pf_pair.c: spilled events into slices, track slices and counters. */
struct pf_kept;
/* threads: gets the tids with slices; starts: NULL or the start-up
 * collectors of the candidates for the main thread (fed as slices close,
 * engine/startup/startup.h's bt_startups: the start is found without
 * reading the slices back). A
 * scratch analysis (o->keep 0) stores no slices: they are deferred to the
 * database (bt_feed_defer) with *kept, which pf_pair_keep fills once the
 * import is done (and the database frees; *kept NULL on error or when
 * the slices are stored). */
struct bt_startups;
int pf_pair(struct pf *p, struct bt_map64 *threads, struct bt_startups *starts, struct pf_kept **kept,
	    struct bt_err *err);
/* What the deferred slices' pairing needs, moved from p: its spill,
 * frames, threads' processes, keys with CPU times (cpu_keys) and pid. */
void pf_pair_keep(struct pf_kept *k, struct pf *p);

#endif
