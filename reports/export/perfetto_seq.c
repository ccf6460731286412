/*
 * The packets of the Perfetto export and what they intern (perfetto_int.h),
 * as the Perfetto SDK writes them. A thread's sequence begins with a packet
 * saying its incremental state starts afresh (SEQ_INCREMENTAL_STATE_CLEARED)
 * that sets its default track and an incremental clock, tied to BOOTTIME by
 * a clock snapshot: its events' timestamps are deltas. Every event packet
 * needs that state (SEQ_NEEDS_INCREMENTAL_STATE). A name, category or
 * string goes into the InternedData of the first packet that uses it, with
 * the next iid of its kind (from 1); later packets refer to the iid alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reports/export/perfetto_int.h"
#include "reports/report.h"

#define OUT_BUF (1u << 20)

static const char *const annot_names[PFW__NANNOTS] = {
	"WakeUpBy", "BlockTime", "CPUTime", "Count", "Gap", "Gap.CPU", "SelfTime", "SelfCpuTime",
	"Idle", "MessageId", "AllocatedObjects", "AllocatedBytes", "AllocatedBytesNum", "MajFlt", "NvCsw",
	"NivCsw", "WaitTime", "signature", "blocked_in", "caller", "waker_method"
};

void pfw_seq_release(struct pfw_seq *q)
{
	if (!q->id)
		return;
	bt_map64_release(&q->bytes);
	bt_strmap_release(&q->event_names);
	memset(q, 0, sizeof *q);
}

int pfw_seq_start(struct bt_perfetto *w, uint64_t track, int64_t ts, struct bt_err *err)
{
	struct pfw_seq *q = &w->seq;
	struct bt_pbw *o = &w->out;

	pfw_seq_release(q);
	q->id = q->gen = ++w->nseq;
	q->track = track;
	bt_map64_init(&q->bytes, 64);
	bt_strmap_init(&q->event_names);
	if (!track)
		return BT_OK;
	pfw_packet_open(w);   /* as the SDK's: the time is the clock's delta, 0 */
	bt_pbw_varint(o, PB_PACKET_TIMESTAMP, 0);
	bt_pbw_varint(o, PB_PACKET_SEQUENCE_ID, q->id);
	bt_pbw_varint(o, PB_PACKET_FLAGS, PB_SEQ_CLEARED);
	bt_pbw_open(o, PB_PACKET_DEFAULTS);
	bt_pbw_open(o, PB_DEFAULTS_TRACK_EVENT);
	bt_pbw_varint(o, PB_TE_DEFAULTS_TRACK_UUID, track);
	bt_pbw_close(o);
	bt_pbw_varint(o, PB_DEFAULTS_TIMESTAMP_CLOCK, PB_CLOCK_SEQ_INCREMENTAL);
	bt_pbw_close(o);
	bt_pbw_open(o, PB_PACKET_CLOCK_SNAPSHOT);
	bt_pbw_open(o, PB_SNAPSHOT_CLOCKS);
	bt_pbw_varint(o, PB_CLOCK_ID, PB_CLOCK_BOOTTIME);
	bt_pbw_varint(o, PB_CLOCK_TIMESTAMP, (uint64_t)ts);
	bt_pbw_close(o);
	bt_pbw_open(o, PB_SNAPSHOT_CLOCKS);
	bt_pbw_varint(o, PB_CLOCK_ID, PB_CLOCK_SEQ_INCREMENTAL);
	bt_pbw_varint(o, PB_CLOCK_TIMESTAMP, (uint64_t)ts);
	bt_pbw_varint(o, PB_CLOCK_INCREMENTAL, 1);
	bt_pbw_varint(o, PB_CLOCK_UNIT_NS, 1);
	bt_pbw_close(o);
	bt_pbw_close(o);
	q->started = 1;
	q->last_ts = ts;
	return pfw_packet_done(w, err);
}

int pfw_flush(struct bt_perfetto *w, struct bt_err *err)
{
	if (w->out.n && fwrite(w->out.b, 1, w->out.n, w->fp) != w->out.n)
		return bt_err_set(err, BT_EIO, "cannot write the Perfetto trace: %s", strerror(errno));
	w->out.n = 0;
	return BT_OK;
}

void pfw_packet_open(struct bt_perfetto *w)
{
	bt_pbw_open(&w->out, PB_TRACE_PACKET);
}

int pfw_packet_done(struct bt_perfetto *w, struct bt_err *err)
{
	bt_pbw_close(&w->out);
	return w->out.n >= OUT_BUF ? pfw_flush(w, err) : BT_OK;
}

void pfw_event(struct bt_perfetto *w, int type)
{
	w->ev.n = w->in.n = 0;
	bt_pbw_varint(&w->ev, PB_EVENT_TYPE, (uint64_t)type);
}

int pfw_event_put(struct bt_perfetto *w, int64_t ts, struct bt_err *err)
{
	struct bt_pbw *o = &w->out;
	struct pfw_seq *q = &w->seq;

	pfw_packet_open(w);
	if (!q->track) {
		bt_pbw_varint(o, PB_PACKET_TIMESTAMP, (uint64_t)ts);
	} else if (ts >= q->last_ts) {
		bt_pbw_varint(o, PB_PACKET_TIMESTAMP, (uint64_t)(ts - q->last_ts));
		q->last_ts = ts;
	} else {   /* back in time: in full, on the dump's clock (the SDK's way) */
		bt_pbw_varint(o, PB_PACKET_TIMESTAMP, (uint64_t)ts);
		bt_pbw_varint(o, PB_PACKET_TIMESTAMP_CLOCK, PB_CLOCK_BOOTTIME);
	}
	bt_pbw_varint(o, PB_PACKET_SEQUENCE_ID, q->id);
	bt_pbw_varint(o, PB_PACKET_FLAGS, q->started ? PB_SEQ_NEEDS_STATE : PB_SEQ_CLEARED | PB_SEQ_NEEDS_STATE);
	q->started = 1;
	if (w->in.n)
		bt_pbw_bytes(o, PB_PACKET_INTERNED, w->in.b, w->in.n);
	bt_pbw_bytes(o, PB_PACKET_TRACK_EVENT, w->ev.b, w->ev.n);
	return pfw_packet_done(w, err);
}

/* An interned entry {iid, name} of field in the packet's InternedData. */
static void entry(struct bt_perfetto *w, uint32_t field, uint64_t iid, const char *s, size_t len)
{
	bt_pbw_open(&w->in, field);
	bt_pbw_varint(&w->in, PB_ENTRY_IID, iid);
	bt_pbw_bytes(&w->in, PB_ENTRY_NAME, s, len);
	bt_pbw_close(&w->in);
}

static const char *full_name(const struct bt_perfetto *w, int64_t frame)
{
	return frame > 0 && (size_t)frame < w->nnames && w->names[frame] ? w->names[frame] : "?";
}

void pfw_event_frame(struct bt_perfetto *w, int64_t frame)
{
	const char *name;

	if (frame <= 0 || (size_t)frame >= w->nnames || !w->names[frame]) {
		pfw_event_name(w, "?");
		return;
	}
	if (w->name_gen[frame] != w->seq.gen) {
		name = w->shown[frame];
		w->name_gen[frame] = w->seq.gen;
		w->name_iid[frame] = (uint32_t)++w->seq.names;
		entry(w, PB_INTERNED_EVENT_NAMES, w->name_iid[frame], name, strlen(name));
	}
	bt_pbw_varint(&w->ev, PB_EVENT_NAME_IID, w->name_iid[frame]);
}

void pfw_event_name(struct bt_perfetto *w, const char *name)
{
	size_t len = strlen(name);
	uint32_t iid = bt_strmap_get(&w->seq.event_names, name, len);

	if (!iid) {
		iid = (uint32_t)++w->seq.names;
		bt_strmap_put(&w->seq.event_names, name, len, iid);
		entry(w, PB_INTERNED_EVENT_NAMES, iid, name, len);
	}
	bt_pbw_varint(&w->ev, PB_EVENT_NAME_IID, iid);
}

/* The record type as the event's category (its name, or its number). */
void pfw_event_category(struct bt_perfetto *w, int64_t type)
{
	char num[24];
	const char *name = num;

	if (type < 0 || type >= PFW_NTYPES)
		return;
	if (w->type_gen[type] != w->seq.gen) {
		if (type > 0 && w->types[type])
			name = w->types[type];
		else
			snprintf(num, sizeof num, "%lld", (long long)type);
		w->type_gen[type] = w->seq.gen;
		w->type_iid[type] = (uint32_t)++w->seq.cats;
		entry(w, PB_INTERNED_CATEGORIES, w->type_iid[type], name, strlen(name));
	}
	bt_pbw_varint(&w->ev, PB_EVENT_CATEGORY_IIDS, w->type_iid[type]);
}

static void annot(struct bt_perfetto *w, enum pfw_annot a)
{
	if (!w->seq.annot_iid[a]) {
		w->seq.annot_iid[a] = (uint8_t)++w->seq.annots;
		entry(w, PB_INTERNED_ANNOT_NAMES, w->seq.annot_iid[a], annot_names[a], strlen(annot_names[a]));
	}
	bt_pbw_open(&w->ev, PB_EVENT_ANNOTS);
	bt_pbw_varint(&w->ev, PB_ANNOT_NAME_IID, w->seq.annot_iid[a]);
}

void pfw_annot_int(struct bt_perfetto *w, enum pfw_annot a, int64_t v)
{
	annot(w, a);
	bt_pbw_varint(&w->ev, PB_ANNOT_INT, (uint64_t)v);
	bt_pbw_close(&w->ev);
}

/* A duration in ns as upstream's double milliseconds. */
void pfw_annot_ms(struct bt_perfetto *w, enum pfw_annot a, int64_t ns)
{
	annot(w, a);
	bt_pbw_double(&w->ev, PB_ANNOT_DOUBLE, (double)ns / 1e6);
	bt_pbw_close(&w->ev);
}

static void annot_string(struct bt_perfetto *w, enum pfw_annot a, uint64_t iid)
{
	annot(w, a);
	bt_pbw_varint(&w->ev, PB_ANNOT_STRING_IID, iid);
	bt_pbw_close(&w->ev);
}

void pfw_annot_frame(struct bt_perfetto *w, enum pfw_annot a, int64_t frame)
{
	const char *name = full_name(w, frame);

	if (frame <= 0 || (size_t)frame >= w->nnames)
		frame = 0;   /* "?", interned by frame 0 */
	if (w->str_gen[frame] != w->seq.gen) {
		w->str_gen[frame] = w->seq.gen;
		w->str_iid[frame] = (uint32_t)++w->seq.strings;
		entry(w, PB_INTERNED_STRINGS, w->str_iid[frame], name, strlen(name));
	}
	annot_string(w, a, w->str_iid[frame]);
}

#define BYTES_KEY_MAX ((int64_t)1 << 59)

/* bt_format_bytes divides by 1024 while it can (exactly: n is below 2^53)
 * and prints B as an integer, larger units with one decimal, rounded half
 * to even from the exact quotient: the unit and those tenths are the key. */
uint64_t pfw_bytes_key(int64_t n)
{
	uint64_t v = (uint64_t)n * 10, q, r, half;
	int u = 0;

	while (u < 4 && (uint64_t)n >> (10 * (u + 1)))
		u++;
	if (!u)
		return (uint64_t)n;
	q = v >> (10 * u);
	r = v & (((uint64_t)1 << (10 * u)) - 1);
	half = (uint64_t)1 << (10 * u - 1);
	if (r > half || (r == half && (q & 1)))
		q++;
	return (uint64_t)u << 56 | q;
}

/* The text of n's key, made by bt_format_bytes the first time. */
static const char *bytes_text(struct bt_perfetto *w, uint64_t key, int64_t n)
{
	uint32_t at = bt_map64_get(&w->bytes_text, key);
	struct bt_buf b = BT_BUF_INIT;
	size_t off = w->tlen;

	if (at)
		return w->text + at - 1;
	bt_format_bytes((double)n, &b);
	BT_GROW(w->text, off + b.len + 1, w->tcap2);
	memcpy(w->text + off, b.buf, b.len + 1);
	bt_map64_put(&w->bytes_text, key, (uint32_t)off + 1);
	w->tlen += b.len + 1;
	bt_buf_release(&b);
	return w->text + off;
}

void pfw_annot_bytes(struct bt_perfetto *w, enum pfw_annot a, int64_t n)
{
	uint64_t key;
	uint32_t iid;
	const char *text;

	if (n < 0 || n >= BYTES_KEY_MAX) {   /* no key: the text as it is, not interned */
		struct bt_buf b = BT_BUF_INIT;
		bt_format_bytes((double)n, &b);
		annot(w, a);
		bt_pbw_bytes(&w->ev, PB_ANNOT_STRING, b.buf, b.len);
		bt_pbw_close(&w->ev);
		bt_buf_release(&b);
		return;
	}
	key = pfw_bytes_key(n);
	iid = bt_map64_get(&w->seq.bytes, key);
	if (!iid) {
		text = bytes_text(w, key, n);
		iid = (uint32_t)++w->seq.strings;
		bt_map64_put(&w->seq.bytes, key, iid);
		entry(w, PB_INTERNED_STRINGS, iid, text, strlen(text));
	}
	annot_string(w, a, iid);
}
