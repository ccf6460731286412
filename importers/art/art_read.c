/*
 * Reading one thread's records in order, through the runs and entries
 * packets art_scan.c found: methods and actions, and (when asked) wall
 * and thread-CPU times as ns, in batches so the pairing's loop stays
 * tight. Both pairing passes read a thread the same way and so see the
 * same records, times and oddities.
 */
#include <string.h>

#include "importers/art/art_int.h"
#include "importers/reader.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void art_cursor_init(struct art_cursor *c, struct art *a, const struct art_thread *t, int times)
{
	memset(c, 0, sizeof *c);
	c->a = a;
	c->t = t;
	c->times = times;
	c->k = a->clock == ART_CLOCK_DUAL ? 3 : 2;
}

/* A 32-bit us counter as a 64-bit one: a drop by more than half its range
 * is a wrap (70 minutes of wall or CPU time), counted up to 2^50 us so a
 * hostile trace's wraps stay in range. */
static uint64_t unwrap(uint32_t raw, uint32_t *last, uint64_t *hi, int started)
{
	if (started && raw < *last && *last - raw > 0x80000000u && *hi < (uint64_t)1 << 50)
		*hi += (uint64_t)1 << 32;
	*last = raw;
	return *hi + raw;
}

/* Times of a record as ns from offsets since the start; a time beyond
 * the engine's range or before the thread's last is held at the last. */
static inline void set_times(struct art_cursor *c, struct art_ev *e, uint64_t wall_ns, uint64_t cpu_ns)
{
	const struct art *a = c->a;
	uint64_t room = (uint64_t)(BT_MAX_TIME_NS - a->start_ns);
	int64_t wall, cpu;

	if (a->clock == ART_CLOCK_CPU)
		wall_ns = cpu_ns;
	if (wall_ns >= room || (a->clock != ART_CLOCK_WALL && cpu_ns >= (uint64_t)BT_MAX_TIME_NS)) {
		c->range++;
		wall = c->wall, cpu = c->cpu;
	} else {
		wall = a->start_ns + (int64_t)wall_ns;
		cpu = a->clock == ART_CLOCK_WALL ? 0 : (int64_t)cpu_ns;
	}
	if (c->started && (wall < c->wall || cpu < c->cpu)) {
		c->backwards++;
		wall = wall < c->wall ? c->wall : wall;
		cpu = cpu < c->cpu ? c->cpu : cpu;
	}
	e->wall = c->wall = wall;
	e->cpu = c->cpu = cpu;
	c->started = 1;
}

/* A legacy or streaming record at c->off. */
static void read_v1(struct art_cursor *c, struct art_ev *e)
{
	const struct art *a = c->a;
	const unsigned char *p = a->data + c->off + (a->version == 1 ? 1 : 2);
	uint32_t word = le32(p), t1, t2, cpu_raw, wall_raw;
	uint64_t wall, cpu;

	e->method = word & ~3u;
	e->action = (int)(word & 3);
	c->off += a->rec_size;
	if (!c->times)
		return;
	t1 = le32(p + 4);
	t2 = a->clock == ART_CLOCK_DUAL ? le32(p + 8) : 0;
	cpu_raw = a->clock == ART_CLOCK_WALL ? 0 : t1;
	wall_raw = a->clock == ART_CLOCK_DUAL ? t2 : a->clock == ART_CLOCK_WALL ? t1 : 0;
	wall = unwrap(wall_raw, &c->wall_raw, &c->wall_hi, c->started);
	cpu = unwrap(cpu_raw, &c->cpu_raw, &c->cpu_hi, c->started);
	set_times(c, e, wall * 1000, cpu * 1000);
}

/* The 7-bit groups of w's bytes packed together (their high bits clear):
 * 7 -> 14 -> 28 -> 56 bits, pairs of lanes joined at each step. */
static inline uint64_t leb_pack(uint64_t w)
{
	w = (w & 0x007f007f007f007full) | (w >> 1 & 0x3f803f803f803f80ull);
	w = (w & 0x00003fff00003fffull) | (w >> 2 & 0x0fffc0000fffc000ull);
	return (w & 0x000000000fffffffull) | (w >> 4 & 0x00fffffff0000000ull);
}

/* A LEB128 value at p, which has 10 bytes readable: the byte after it,
 * or NULL when it runs past 10 bytes or 64 bits. Up to 8 bytes without
 * a branch on its length: the first byte without its high bit ends it,
 * its bytes' 7 bits are packed, a signed value's top bit extended. */
static inline const unsigned char *leb(const unsigned char *p, uint64_t *v, int sign)
{
	uint64_t w = bt_le64(p), stop = ~w & 0x8080808080808080ull, x, m;
	unsigned char b;
	unsigned n;
	int shift;

	if (stop) {   /* stop ^ (stop - 1): the value's bytes, up to its last's high bit */
		n = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
		x = leb_pack(w & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full);
		if (sign) {   /* (x ^ m) - m extends bit 7n - 1 */
			m = (uint64_t)1 << (7 * n - 1);
			x = (x ^ m) - m;
		}
		*v = x;
		return p + n;
	}
	x = 0;
	for (shift = 0; shift < 56; shift += 7)   /* the 8 bytes above, then 2 more */
		x |= (uint64_t)(p[shift / 7] & 0x7f) << shift;
	p += 8;
	b = *p++;
	x |= (uint64_t)(b & 0x7f) << 56;
	if (b & 0x80) {   /* a 10th byte: bit 63 (a signed value: all sign bits) */
		b = *p++;
		if (b != 0 && b != (sign ? 0x7f : 1))
			return NULL;
		x |= (uint64_t)(b & 1) << 63;
	} else if (sign && (b & 0x40)) {
		x |= ~0ull << 63;
	}
	*v = x;
	return p;
}

/* A LEB128 value of at most 8 bytes at p (8 bytes readable): the byte
 * after it, or NULL for a longer one (leb() reads those). */
static inline const unsigned char *leb8(const unsigned char *p, uint64_t *v, int sign)
{
	uint64_t w = bt_le64(p), stop = ~w & 0x8080808080808080ull, x, m;
	unsigned n;

	if (!stop)
		return NULL;
	n = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
	x = leb_pack(w & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7full);
	m = sign ? (uint64_t)1 << (7 * n - 1) : 0;
	*v = (x ^ m) - m;
	return p + n;
}

/* Two ULEB128 values at p ending within 8 bytes (8 readable): the byte
 * after them, or NULL when they do not. Their 7-bit groups, packed at
 * once, hold the first in the low 7 * n bits (n: its bytes), then the
 * second. */
static inline const unsigned char *leb8x2(const unsigned char *p, uint64_t *v1, uint64_t *v2)
{
	uint64_t w = bt_le64(p), stop = ~w & 0x8080808080808080ull, two = stop & (stop - 1), x;
	unsigned bits;

	if (!two)
		return NULL;
	x = leb_pack(w & (two ^ (two - 1)) & 0x7f7f7f7f7f7f7f7full);
	bits = 7 * (((unsigned)__builtin_ctzll(stop) >> 3) + 1);
	*v1 = x & (((uint64_t)1 << bits) - 1);
	*v2 = x >> bits;
	return p + ((unsigned)__builtin_ctzll(two) >> 3) + 1;
}

/* The byte after the LEB128 value at p (10 bytes readable), or NULL
 * past 10 bytes: the first byte without its high bit ends it. */
static inline const unsigned char *leb_skip(const unsigned char *p)
{
	uint64_t stop = ~bt_le64(p) & 0x8080808080808080ull;

	if (stop)
		return p + (__builtin_ctzll(stop) >> 3) + 1;
	return !(p[8] & 0x80) ? p + 9 : !(p[9] & 0x80) ? p + 10 : NULL;
}

/* The byte after two LEB128 values at p (20 bytes readable), or NULL
 * when one runs past 10 bytes: with one load when both end within 8. */
static inline const unsigned char *leb_skip2(const unsigned char *p)
{
	uint64_t stop = ~bt_le64(p) & 0x8080808080808080ull, second = stop & (stop - 1);

	if (second)
		return p + (__builtin_ctzll(second) >> 3) + 1;
	p = leb_skip(p);
	return p ? leb_skip(p) : NULL;
}

/* A record's values at p (30 bytes readable): the method delta, and the
 * time deltas when the times are wanted (else skipped). */
static inline const unsigned char *values(const struct art_cursor *c, const unsigned char *p, uint64_t *v)
{
	int j;

	p = leb(p, &v[0], 1);
	for (j = 1; j < c->k && p; j++)
		p = c->times ? leb(p, &v[j], 0) : leb_skip(p);
	return p;
}

/*
 * A packet's first record holds values since 0, unless ART carried a
 * flush's deltas on into its next packet (its buffer full): then the
 * first method delta read as a value names no method, and added to the
 * last one it does.
 */
static void first_in_block(struct art_cursor *c, uint64_t dm)
{
	struct art *a = c->a;

	if (!c->first_in_block)
		return;
	if (!(c->any && !art_method_find(a, dm) && art_method_find(a, c->acc_method + dm)))
		c->acc_method = c->acc_wall = c->acc_cpu = 0;
	c->first_in_block = 0;
	c->any = 1;
}

/* An entries record from its values: method|action as a signed delta,
 * then the wall and CPU ns as deltas. */
static inline void v2_record(struct art_cursor *c, struct art_ev *e, const uint64_t *v)
{
	enum art_clock clock = c->a->clock;
	uint64_t dw = clock == ART_CLOCK_CPU ? 0 : v[1];
	uint64_t dc = clock == ART_CLOCK_WALL ? 0 : clock == ART_CLOCK_CPU ? v[1] : v[2];

	if (c->first_in_block)
		first_in_block(c, v[0]);
	c->acc_method += v[0];
	e->method = c->acc_method & ~(uint64_t)3;
	e->action = (int)(c->acc_method & 3);
	if (!c->times)
		return;
	if (c->acc_wall + dw < c->acc_wall || c->acc_cpu + dc < c->acc_cpu)
		c->range++;   /* past 2^64: held below as out of range */
	c->acc_wall += dw;
	c->acc_cpu += dc;
	set_times(c, e, clock == ART_CLOCK_CPU ? c->acc_cpu : c->acc_wall, c->acc_cpu);
}

/* A record near its packet's end, through a zero-padded copy, so nothing
 * past the packet is read. */
static int v2_tail(struct art_cursor *c, struct art_ev *e, struct bt_err *err)
{
	const unsigned char *q;
	unsigned char pad[48];
	size_t left = c->block_end - c->off;
	uint64_t v[3] = { 0, 0, 0 };

	memset(pad, 0, sizeof pad);
	memcpy(pad, c->a->data + c->off, left < 30 ? left : 30);
	q = values(c, pad, v);
	if (!q || (size_t)(q - pad) > left)
		return bt_err_set(err, BT_EFORMAT, "bad LEB128 value (past 64 bits or its packet) in the entries of '%s' "
				  "at offset %zu", c->a->path, c->off);
	c->off += (size_t)(q - pad);
	v2_record(c, e, v);
	return BT_OK;
}

/* An entries packet's records must fill it exactly. */
static int block_end(const struct art_cursor *c, struct bt_err *err)
{
	if (c->off == c->block_end)
		return BT_OK;
	return bt_err_set(err, BT_EFORMAT, "entries packet in '%s' at offset %zu: its %u records end at offset %zu, "
			  "not at its end (offset %zu)", c->a->path, c->block_start, c->count, c->off, c->block_end);
}

/* Go to the thread's next run or entries packet: 0 at its end. */
static int next_run(struct art_cursor *c, struct bt_err *err)
{
	const struct art *a = c->a;
	const unsigned char *p;
	uint64_t run;

	if (a->layout == ART_V2 && c->run && block_end(c, err))
		return -1;
	if (c->run == c->t->nruns)
		return 0;
	run = c->t->runs[c->run++];
	c->off = (size_t)(run >> 24);
	c->left = (uint32_t)(run & ART_RUN_MAX);
	if (c->off - c->dropped > ART_DROP_EVERY) {   /* the thread's runs lie ahead of its last */
		art_drop(c->a, c->off);
		c->dropped = c->off;
	}
	if (a->layout != ART_V2) {
		c->a->touched += c->left * a->rec_size;
		return 1;
	}
	p = a->data + c->off;
	c->block_start = c->off;
	if (a->v2_first) {   /* the first record in the header: method, CPU and/or wall time */
		size_t head = a->version == 5 ? 21 : 17;
		c->first_enc = le32(p + 5);
		c->first_cpu = a->clock == ART_CLOCK_WALL ? 0 : le32(p + 9);
		c->first_wall = a->clock == ART_CLOCK_DUAL ? le32(p + 13) : a->clock == ART_CLOCK_WALL ? le32(p + 9) : 0;
		uint32_t w = a->nwraps ? bt_map64_get(&a->wrapped, c->off) : 0;   /* a count past 16 bits */
		c->first_pending = 1;
		c->count = c->left = w ? a->wraps[w - 1].count : (uint32_t)(p[head - 4] | p[head - 3] << 8) + 1;
		c->block_end = c->off + head + (w ? a->wraps[w - 1].size : (size_t)(p[head - 2] | p[head - 1] << 8));
		c->a->touched += c->block_end - c->off;
		c->off += head;
		return 1;
	}
	c->count = c->left = (uint32_t)p[5] | (uint32_t)p[6] << 8 | (uint32_t)p[7] << 16;
	c->block_end = c->off + 12 + le32(p + 8);
	c->a->touched += c->block_end - c->off;
	c->off += 12;
	c->first_in_block = 1;
	return 1;
}

/*
 * A record of the first V2 layout: the packet's first from its header,
 * the others as an SLEB128 method | action since the first's, then the
 * wall and CPU deltas (32-bit us, as legacy records' times, so read the
 * same way), through a zero-padded copy near the packet's end.
 */
static int v2_first_record(struct art_cursor *c, struct art_ev *e, struct bt_err *err)
{
	const struct art *a = c->a;
	const unsigned char *q = a->data + c->off, *r;
	unsigned char pad[32];
	size_t left = c->block_end - c->off;
	uint64_t dm = 0, dw = 0, dc = 0;
	uint32_t enc = c->first_enc, cpu_raw, wall_raw;

	if (c->first_pending) {
		c->first_pending = 0;
		c->wall_first = c->first_wall;
		c->cpu_first = c->first_cpu;
	} else {
		if (left < 30) {
			memset(pad, 0, sizeof pad);
			memcpy(pad, q, left);
			q = pad;
		}
		r = leb(q, &dm, 1);
		if (r && a->clock != ART_CLOCK_CPU)
			r = leb(r, &dw, 0);
		if (r && a->clock != ART_CLOCK_WALL)
			r = leb(r, &dc, 0);
		if (!r || (size_t)(r - q) > left)
			return bt_err_set(err, BT_EFORMAT, "bad LEB128 value (past 64 bits or its packet) in the entries "
					  "of '%s' at offset %zu", a->path, c->off);
		c->off += (size_t)(r - q);
		enc = (uint32_t)(enc + dm);
		c->wall_first += (uint32_t)dw;
		c->cpu_first += (uint32_t)dc;
	}
	e->method = enc & ~3u;
	e->action = (int)(enc & 3);
	if (!c->times)
		return BT_OK;
	cpu_raw = a->clock == ART_CLOCK_WALL ? 0 : c->cpu_first;
	wall_raw = a->clock == ART_CLOCK_CPU ? 0 : c->wall_first;
	set_times(c, e, unwrap(wall_raw, &c->wall_raw, &c->wall_hi, c->started) * 1000,
		  unwrap(cpu_raw, &c->cpu_raw, &c->cpu_hi, c->started) * 1000);
	return BT_OK;
}

/*
 * The usual records of the current packet with their times, into
 * e[0..max): inside the packet with 30 bytes readable, each value within
 * 8 bytes, the times in range and not before the last. What is not usual
 * (a packet's first record, a longer value, a time held) stops it, for
 * v2_record to read with the same result. How many it read. Made once
 * per clock (a constant here), so the loop has no test of it.
 */
static inline __attribute__((always_inline)) int v2_usual_clock(struct art_cursor *c, struct art_ev *e, int max,
								const enum art_clock clock)
{
	const struct art *a = c->a;
	const uint64_t room = (uint64_t)(BT_MAX_TIME_NS - a->start_ns);
	const int64_t start = a->start_ns;
	const unsigned char *q = a->data + c->off, *end = a->data + c->block_end, *last;
	uint64_t am = c->acc_method, aw = c->acc_wall, ac = c->acc_cpu;
	int64_t lw = c->wall, lc = c->cpu;
	int n = 0, lim = c->left < (uint32_t)max ? (int)c->left : max;

	if (end - q < 30)
		return 0;
	last = end - 30;   /* the last record start with 30 bytes readable */
	while (n < lim && q <= last) {
		uint64_t dm, d1, d2 = 0, nw, nc, tw;
		int64_t wall, cpu;
		const unsigned char *r = leb8(q, &dm, 1);
		if (!r || !(r = clock == ART_CLOCK_DUAL ? leb8x2(r, &d1, &d2) : leb8(r, &d1, 0)) || r > end)
			break;
		nw = aw + (clock == ART_CLOCK_CPU ? 0 : d1);
		nc = ac + (clock == ART_CLOCK_WALL ? 0 : clock == ART_CLOCK_CPU ? d1 : d2);
		tw = clock == ART_CLOCK_CPU ? nc : nw;
		if (nw < aw || nc < ac || tw >= room || (clock != ART_CLOCK_WALL && nc >= (uint64_t)BT_MAX_TIME_NS))
			break;
		wall = start + (int64_t)tw;
		cpu = clock == ART_CLOCK_WALL ? 0 : (int64_t)nc;
		/* only the first can be before the last: the others add to what the last took */
		if (!n && c->started && (wall < lw || cpu < lc))
			break;
		am += dm;
		aw = nw;
		ac = nc;
		e[n].method = am & ~(uint64_t)3;
		e[n].action = (int)(am & 3);
		e[n].wall = lw = wall;
		e[n].cpu = lc = cpu;
		n++;
		q = r;
	}
	if (!n)
		return 0;
	c->off = (size_t)(q - a->data);
	c->left -= (uint32_t)n;
	c->acc_method = am;
	c->acc_wall = aw;
	c->acc_cpu = ac;
	c->wall = lw;
	c->cpu = lc;
	c->started = 1;
	return n;
}

static int v2_usual(struct art_cursor *c, struct art_ev *e, int max)
{
	if (c->first_in_block || !c->times)
		return 0;
	switch (c->a->clock) {
	case ART_CLOCK_DUAL:
		return v2_usual_clock(c, e, max, ART_CLOCK_DUAL);
	case ART_CLOCK_WALL:
		return v2_usual_clock(c, e, max, ART_CLOCK_WALL);
	default:
		return v2_usual_clock(c, e, max, ART_CLOCK_CPU);
	}
}

/* Entries records of the current packet into e[0..max). */
static int read_v2(struct art_cursor *c, struct art_ev *e, int max, struct bt_err *err)
{
	const unsigned char *base = c->a->data, *end = base + c->block_end, *q, *r;
	uint64_t v[3] = { 0, 0, 0 };
	int n = 0;

	while (n < max && c->left) {
		n += v2_usual(c, e + n, max - n);
		if (n == max || !c->left)
			break;
		q = base + c->off;
		c->left--;
		if (end - q >= 30 && (r = values(c, q, v)) && r <= end) {
			c->off = (size_t)(r - base);
			v2_record(c, &e[n++], v);
		} else if (v2_tail(c, &e[n++], err)) {   /* near its end, or what is wrong */
			return -1;
		}
	}
	return n;
}

int art_cursor_methods(struct art_cursor *c, struct art_ev *e, int max, struct bt_err *err)
{
	const unsigned char *base, *q, *end, *last;
	uint64_t dm, acc;
	uint32_t left;
	int n = 0, lim, rc;

	while (!c->left)
		if ((rc = next_run(c, err)) <= 0)
			return rc;
	if (c->a->layout != ART_V2 || c->times || c->a->v2_first)
		return art_cursor_read(c, e, max, err);
	base = c->a->data;
	q = base + c->off;
	end = base + c->block_end;
	if (c->first_in_block && end - q >= 30) {   /* its rule needs the record's first value */
		const unsigned char *r = leb(q, &dm, 1);
		if (r)
			first_in_block(c, dm);
	}
	left = c->left;   /* in locals: the stores to e[] could alias c's fields */
	acc = c->acc_method;
	lim = left < (uint32_t)max ? (int)left : max;
	last = end - q >= 30 ? end - 30 : q - 1;   /* the last record start with 30 bytes readable */
	while (n < lim && q <= last) {
		const unsigned char *r = leb8(q, &dm, 1);
		if (!r)
			r = leb(q, &dm, 1);
		if (r)
			r = c->k == 3 ? leb_skip2(r) : leb_skip(r);
		if (!r || r > end)
			break;   /* the tail's copy says what is wrong */
		q = r;
		acc += dm;
		e[n].method = acc & ~(uint64_t)3;
		e[n++].action = (int)(acc & 3);
	}
	c->left = left - (uint32_t)n;
	c->acc_method = acc;
	c->off = (size_t)(q - base);
	while (n < max && c->left) {
		c->left--;
		if (v2_tail(c, &e[n++], err))
			return -1;
	}
	return n;
}

int art_cursor_read(struct art_cursor *c, struct art_ev *e, int max, struct bt_err *err)
{
	int n = 0, rc;

	while (!c->left)
		if ((rc = next_run(c, err)) <= 0)
			return rc;
	if (c->a->layout == ART_V2 && c->a->v2_first) {
		for (; n < max && c->left; n++, c->left--)
			if (v2_first_record(c, &e[n], err))
				return -1;
		return n;
	}
	if (c->a->layout == ART_V2)
		return read_v2(c, e, max, err);
	for (; n < max && c->left; n++, c->left--)
		read_v1(c, &e[n]);
	return n;
}
