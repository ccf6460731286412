/*
 * What pf_kinds.c (reading: counting, spilling) and pf_kinds_out.c
 * (naming, pairing, saving) share: the state of the kinds of events
 * besides thread slices (pf_int.h).
 */
#ifndef BT_PF_KINDS_INT_H
#define BT_PF_KINDS_INT_H

#include "importers/perfetto/pf_int.h"

#define NPKT 256          /* packet fields counted one by one; beyond, together */
#define NFTRACE 1024      /* ftrace event fields likewise */
#define MAX_SYNTH 65536   /* tracks made for atrace/legacy names; beyond: counted */
#define MAX_OPEN 4096     /* async slices open on one track; beyond: counted */
#define SUMMARY_KINDS 4   /* kinds the no_threads text names */

/* An async slice open on the current track. */
struct open_async {
	uint32_t frame;
	int depth;
	int64_t ts, cookie;
};

/* An incremental counter's value on one sequence. */
struct acc {
	uint64_t uuid;
	size_t seq;
	uint32_t gen;
	double v;
};

/* A sequence's TrackEventDefaults extra counter tracks. */
struct extra {
	uint32_t gen;
	uint64_t *u, *d;
	size_t nu, nd;
};

struct pf_kinds {
	uint64_t pkt[NPKT + 1], ftr[NFTRACE + 1], phase[129];
	uint64_t prints, synth_over, bad_value, deep;
	struct bt_strmap synth;      /* "Cpid|name" -> track index + 1 */
	struct bt_map64 acc_of;      /* (sequence, uuid) hash -> index + 1 into accs */
	struct acc *accs;
	size_t naccs, acap;
	struct extra *extras;        /* by sequence index */
	size_t nextras;
	/* pairing */
	struct open_async *open;
	size_t nopen, ocap;
	int64_t key;
	int have_key;
	uint64_t instants, other_instants, async_slices, unfinished, unmatched;
};

#endif
