/*
 * Internals of the Perfetto export (perfetto.c): the writer's state, and
 * the packets of a sequence with what they intern (perfetto_seq.c). Each
 * thread's events are one packet sequence whose first packet clears the
 * incremental state and makes the thread's track the default; names,
 * categories and repeated strings are interned per sequence, as the
 * Perfetto SDK writes them.
 */
#ifndef BT_PERFETTO_INT_H
#define BT_PERFETTO_INT_H

#include <stdint.h>
#include <stdio.h>

#include "engine/base/hash.h"
#include "engine/db/db.h"
#include "reports/export/pbw.h"
#include "reports/export/slice_log.h"

struct bt_namer;

#define PFW_NTYPES 256               /* record types: Android's below 32, iOS's from 101 */
#define PFW_PROCESS_UUID 1
/* The other processes of a capture of several (the lead's is 1). */
#define PFW_OTHER_PROCESS_UUID(pid) ((uint64_t)0x200000000ULL + (uint64_t)(uint32_t)(pid))
#define PFW_THREAD_UUID(tid) ((uint64_t)0x100000000ULL + (uint64_t)(tid))

/* Field numbers of engine/proto/perfetto_trace.proto. */
enum {
	PB_TRACE_PACKET = 1,
	PB_PACKET_PROCESS_TREE = 2, PB_PACKET_CLOCK_SNAPSHOT = 6, PB_PACKET_TIMESTAMP = 8,
	PB_PACKET_SEQUENCE_ID = 10,
	PB_PACKET_TRACK_EVENT = 11, PB_PACKET_INTERNED = 12, PB_PACKET_FLAGS = 13,
	PB_PACKET_TIMESTAMP_CLOCK = 58, PB_PACKET_DEFAULTS = 59, PB_PACKET_TRACK_DESCRIPTOR = 60,
	PB_DEFAULTS_TRACK_EVENT = 11, PB_DEFAULTS_TIMESTAMP_CLOCK = 58, PB_TE_DEFAULTS_TRACK_UUID = 11,
	PB_SNAPSHOT_CLOCKS = 1, PB_CLOCK_ID = 1, PB_CLOCK_TIMESTAMP = 2, PB_CLOCK_INCREMENTAL = 3,
	PB_CLOCK_UNIT_NS = 4,
	PB_INTERNED_CATEGORIES = 1, PB_INTERNED_EVENT_NAMES = 2, PB_INTERNED_ANNOT_NAMES = 3,
	PB_INTERNED_STRINGS = 29, PB_ENTRY_IID = 1, PB_ENTRY_NAME = 2,
	PB_EVENT_CATEGORY_IIDS = 3, PB_EVENT_ANNOTS = 4, PB_EVENT_TYPE = 9, PB_EVENT_NAME_IID = 10,
	PB_EVENT_TRACK_UUID = 11, PB_EVENT_FLOW_IDS = 47, PB_EVENT_TERMINATING_FLOW_IDS = 48,
	PB_ANNOT_NAME_IID = 1, PB_ANNOT_INT = 4, PB_ANNOT_DOUBLE = 5, PB_ANNOT_STRING = 6,
	PB_ANNOT_STRING_IID = 17,
	PB_TRACK_UUID = 1, PB_TRACK_NAME = 2, PB_TRACK_PROCESS = 3, PB_TRACK_THREAD = 4,
	PB_TRACK_PARENT = 5, PB_TRACK_NO_MERGE = 9,
	PB_PROCESS_PID = 1, PB_PROCESS_CMDLINE = 2, PB_PROCESS_NAME = 6,
	PB_THREAD_PID = 1, PB_THREAD_TID = 2, PB_THREAD_NAME = 5,
	PB_TREE_PROCESSES = 1, PB_TREE_THREADS = 2, PB_TREE_PROCESS_PID = 1, PB_TREE_PROCESS_CMDLINE = 3,
	PB_TREE_THREAD_TID = 1, PB_TREE_THREAD_NAME = 2, PB_TREE_THREAD_TGID = 3
};

enum { PB_SLICE_BEGIN = 1, PB_SLICE_END = 2, PB_INSTANT = 3 };
enum { PB_SEQ_CLEARED = 1, PB_SEQ_NEEDS_STATE = 2 };
/* BOOTTIME, the dump's clock; the sequence-scoped clock (64-127) of a
 * thread's sequence, whose timestamps are deltas, as the Perfetto SDK's. */
enum { PB_CLOCK_BOOTTIME = 6, PB_CLOCK_SEQ_INCREMENTAL = 64 };

/* Annotation names (perfetto_seq.c has them: upstream's, then ours). */
enum pfw_annot {
	PFW_WAKEUP, PFW_BLOCK, PFW_CPU, PFW_COUNT, PFW_GAP, PFW_GAP_CPU, PFW_SELF, PFW_SELF_CPU,
	PFW_IDLE, PFW_MSG, PFW_OBJS, PFW_BYTES, PFW_BYTES_NUM, PFW_MAJFLT, PFW_NVCSW, PFW_NIVCSW,
	PFW_WAIT, PFW_SIGNATURE, PFW_BLOCKED_IN, PFW_CALLER, PFW_WAKER_METHOD, PFW__NANNOTS
};

/* A packet sequence's incremental state: what it has interned. */
struct pfw_seq {
	uint32_t id;                 /* trusted_packet_sequence_id */
	uint32_t gen;                /* marks its entries in the writer's by-frame and by-type arrays */
	uint64_t track;              /* its events' default track and incremental clock; 0: none (each
				      * event names its track and gives its time in full) */
	int started;                 /* its first packet (the one clearing the state) is written */
	int64_t last_ts;             /* the incremental clock's time */
	uint8_t annot_iid[PFW__NANNOTS];   /* annotation names' iids; 0: not interned yet */
	uint64_t names, strings, cats, annots;   /* iids given, of each kind */
	struct bt_map64 bytes;       /* byte-count key -> string iid (pfw_bytes_iid) */
	struct bt_strmap event_names;    /* names that are no frame's -> iid */
};

/* Values a slice that begins with its parent (one sample opened both)
 * leaves out when they are its parent's. */
enum { PFW_I_COUNT, PFW_I_OBJS, PFW_I_BYTES, PFW_I_MAJFLT, PFW_I_NVCSW, PFW_I_NIVCSW, PFW_I_GAP,
       PFW_I_GAP_CPU, PFW__NINHERIT };

/* An open slice of the thread being written, by depth. */
struct pfw_open {
	int64_t ts, end, dur, cpu, self_dur, self_cpu, block, child_dur, child_cpu, child_block, msg;
	int64_t v[PFW__NINHERIT];
};

/* A thread's track. */
struct pfw_track {
	int64_t tid;
	int64_t pid;                 /* its process, if not the lead's; 0: the lead's */
	char *name;                  /* from the threads table; NULL for a thread only slices name */
	int described;
};

struct pfw_edge {
	int64_t id, waiter_tid, ts, waker_tid, waker_ts, dur;
	int64_t blocked_in, caller, waker_frame;   /* frame ids, 0: unknown */
	char kind[16];
	int linked;                  /* its waker is known: a flow arrow */
	int used;                    /* its arrow ends on a slice */
};

struct bt_perfetto {
	FILE *fp;
	struct bt_pbw out;           /* packets not yet written */
	struct bt_pbw ev, in;        /* the event and the interned data of the packet being made */
	struct pfw_seq seq;          /* the sequence being written */
	uint32_t nseq;               /* sequences begun */
	int64_t pid;
	char process[256];
	struct pfw_process { int64_t pid; char *name; } *others;   /* the capture's other processes */
	size_t nothers, ocap_;
	struct pfw_track *tracks;    /* by index in tmap */
	size_t ntracks, tcap;
	struct bt_map64 tmap;        /* tid -> index + 1 */
	struct pfw_open *open;       /* the current thread's open slices */
	size_t nopen, ocap;
	char **names;                /* frame names by id */
	const char **shown;          /* the name a slice shows, by frame id */
	uint8_t *signed_;            /* by frame id: the shown name is not the full one */
	uint32_t *name_gen, *name_iid, *str_gen, *str_iid;   /* by frame id: interned in seq gen */
	size_t nnames;
	char *types[PFW_NTYPES];     /* record type names by type */
	uint32_t type_gen[PFW_NTYPES], type_iid[PFW_NTYPES];
	struct bt_map64 bytes_text;  /* byte-count key -> offset + 1 into text */
	char *text;
	size_t tlen, tcap2;
	struct pfw_edge *edges;      /* sorted by waiter, ts */
	size_t nedges;
};

/* perfetto_seq.c */
/* Start a sequence: its packets follow. A thread's (track, its default
 * track) begins with a packet of its own that sets it and the incremental
 * clock at ts; others (track 0) clear the state in their first event. */
int pfw_seq_start(struct bt_perfetto *w, uint64_t track, int64_t ts, struct bt_err *err);
void pfw_seq_release(struct pfw_seq *q);
/* A new event of type in w->ev; its interned data gathers in w->in. */
void pfw_event(struct bt_perfetto *w, int type);
/* The packet of the event made at ts, appended to w->out (written to the
 * file when enough is there). */
int pfw_event_put(struct bt_perfetto *w, int64_t ts, struct bt_err *err);
/* A packet of no sequence, made with pfw_packet_open ... bt_pbw_close(&w->out). */
void pfw_packet_open(struct bt_perfetto *w);
int pfw_packet_done(struct bt_perfetto *w, struct bt_err *err);
int pfw_flush(struct bt_perfetto *w, struct bt_err *err);

/* The event's name: frame's (shown name, frame > 0) or any other name. */
void pfw_event_frame(struct bt_perfetto *w, int64_t frame);
void pfw_event_name(struct bt_perfetto *w, const char *name);
void pfw_event_category(struct bt_perfetto *w, int64_t type);
void pfw_annot_int(struct bt_perfetto *w, enum pfw_annot a, int64_t v);
void pfw_annot_ms(struct bt_perfetto *w, enum pfw_annot a, int64_t ns);
/* A frame's full name, or bytes in binary units, as an interned string. */
void pfw_annot_frame(struct bt_perfetto *w, enum pfw_annot a, int64_t frame);
void pfw_annot_bytes(struct bt_perfetto *w, enum pfw_annot a, int64_t bytes);

/* The key that says which text bt_format_bytes gives n (n >= 0, below
 * 2^59; exposed for the unit test), and that text. */
uint64_t pfw_bytes_key(int64_t n);

#endif
