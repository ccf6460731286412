/*
 * Unit tests of the Perfetto importer's hand decoder (importers/perfetto/
 * pf_wire.c): the usual packets (track events with every annotation kind,
 * interned data, ftrace prints, compact sched, unknown fields among them) decode as
 * protobuf-c decodes them; others are left to protobuf-c; and on many
 * thousands of damaged copies (bytes changed, cut, inserted, repeated) the
 * decoder never accepts what protobuf-c refuses or reads other values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/pf_wire_diff.h"
#include "tests/tap.h"

struct w {
	uint8_t b[4096];
	size_t n;
};

static void v(struct w *o, uint64_t x)
{
	while (x > 0x7f) {
		o->b[o->n++] = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	o->b[o->n++] = (uint8_t)x;
}

static void fv(struct w *o, unsigned f, uint64_t x)
{
	v(o, (uint64_t)f << 3);
	v(o, x);
}

static void fb(struct w *o, unsigned f, const void *p, size_t n)
{
	v(o, (uint64_t)f << 3 | 2);
	v(o, n);
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void fs(struct w *o, unsigned f, const char *s)
{
	fb(o, f, s, strlen(s));
}

static void f64(struct w *o, unsigned f, uint64_t x)
{
	v(o, (uint64_t)f << 3 | 1);
	memcpy(o->b + o->n, &x, 8);
	o->n += 8;
}

static void sub(struct w *o, unsigned f, const struct w *m)
{
	fb(o, f, m->b, m->n);
}

/* unknown: with fields our subset does not know (then left to protobuf-c). */
static void track_event(struct w *pk, int unknown)
{
	struct w te = { { 0 }, 0 }, a = { { 0 }, 0 };
	double d = 1.5;
	uint64_t bits;

	memcpy(&bits, &d, 8);
	fv(pk, 8, 123456789);
	fv(pk, 10, 1);
	fv(pk, 13, 2);
	fv(&te, 9, 1);
	fv(&te, 10, 5);
	fv(&te, 3, 1);
	fv(&a, 1, 1), f64(&a, 5, bits), sub(&te, 4, &a), a.n = 0;
	fs(&a, 10, "CPUTime"), fs(&a, 6, "y"), sub(&te, 4, &a), a.n = 0;
	fv(&a, 1, 3), fv(&a, 17, 7), sub(&te, 4, &a), a.n = 0;
	fs(&a, 10, "b"), fv(&a, 2, 1), sub(&te, 4, &a), a.n = 0;
	if (unknown)
		fs(&a, 10, "u"), fv(&a, 99, 4), sub(&te, 4, &a), a.n = 0;
	fv(&a, 3, 3), fv(&a, 7, 9), fv(&a, 4, (uint64_t)-5), sub(&te, 4, &a), a.n = 0;
	fv(&te, 11, 4294971538ULL);
	f64(&te, 47, 77);
	f64(&te, 48, 78);
	f64(&te, 47, 79);
	fv(&te, 30, (uint64_t)-3);
	f64(&te, 44, bits);
	fs(&te, 22, "cat");
	fs(&te, 22, "dog");
	fs(&te, 23, "name");
	if (unknown)
		fv(&te, 1000, 5);   /* unknown to our subset */
	sub(pk, 11, &te);
	fv(pk, 58, 64);
	fv(pk, 41, 1);
	if (unknown)
		fs(pk, 777, "an unknown field");
}

static void interned(struct w *pk)
{
	struct w d = { { 0 }, 0 }, m = { { 0 }, 0 };

	fv(pk, 10, 2);
	fv(&m, 1, 1), fs(&m, 2, "kJNITrampoline"), sub(&d, 1, &m), m.n = 0;
	fv(&m, 1, 2), fs(&m, 2, "Looper.loop"), sub(&d, 2, &m), m.n = 0;
	fv(&m, 1, 3), fs(&m, 2, "MessageQueue.next"), sub(&d, 2, &m), m.n = 0;
	fv(&m, 1, 4), fs(&m, 2, "BlockTime"), sub(&d, 3, &m), m.n = 0;
	fv(&m, 1, 5), fb(&m, 2, "7.5 KiB\0x", 9), sub(&d, 29, &m), m.n = 0;
	fv(&m, 1, 6), fb(&m, 2, "", 0), sub(&d, 29, &m), m.n = 0;
	sub(pk, 12, &d);
	fv(pk, 13, 1);
}

static void ftrace(struct w *pk, int unknown)
{
	struct w bundle = { { 0 }, 0 }, ev = { { 0 }, 0 }, pr = { { 0 }, 0 };
	int i;

	fv(&bundle, 1, 0);
	for (i = 0; i < 4; i++) {
		ev.n = pr.n = 0;
		fv(&ev, 1, 1000000 + (uint64_t)i);
		fv(&ev, 2, 4242 + (uint64_t)i);
		fs(&pr, 2, i == 1 ? "E|4242" : "B|4242|Choreographer#doFrame 1\n");
		if (unknown)
			fv(&pr, 1, 0xffffffff);   /* ip, not in our subset */
		if (i == 3 && unknown)
			fs(&ev, 300, "sched_switch: not in our subset");
		else
			sub(&ev, 3, &pr);
		sub(&bundle, 2, &ev);
	}
	sub(pk, 1, &bundle);
	fv(pk, 10, 3);
}

/* Packed varints of field f. */
static void packed(struct w *o, unsigned f, const uint64_t *x, size_t n)
{
	struct w p = { { 0 }, 0 };
	size_t i;

	for (i = 0; i < n; i++)
		v(&p, x[i]);
	sub(o, f, &p);
}

/* A bundle of compact sched: switches, wakings, the comm table, and the
 * columns of other kernels (prios, target CPUs) protobuf-c keeps apart. */
static void compact(struct w *pk)
{
	static const uint64_t ts[] = { 157479786566030ull, 1200, 35, 0, 99999 },
			      state[] = { 0, 1, 2, 0x100, (uint64_t)-1 },
			      pid[] = { 4242, 0, (uint64_t)-7, 4243, 2147483647 }, prio[] = { 120, 120, 98, 120, 139 },
			      comm[] = { 0, 1, 0, 2, 1 }, wts[] = { 157479786566000ull, 10, 20 }, wpid[] = { 4242, 4243, 1 },
			      wcpu[] = { 1, 0, 3 }, wcomm[] = { 0, 2, 1 };
	struct w c = { { 0 }, 0 }, bundle = { { 0 }, 0 };

	packed(&c, 1, ts, 5);
	packed(&c, 2, state, 5);
	packed(&c, 3, pid, 5);
	packed(&c, 4, prio, 5);
	fs(&c, 5, "com.example.app"), fs(&c, 5, "swapper/1"), fs(&c, 5, "RenderThread");
	packed(&c, 6, comm, 5);
	packed(&c, 7, wts, 3);
	packed(&c, 8, wpid, 3);
	packed(&c, 9, wcpu, 3);
	packed(&c, 10, prio, 3);
	packed(&c, 11, wcomm, 3);
	fv(&bundle, 1, 2);
	sub(&bundle, 4, &c);
	sub(pk, 1, &bundle);
	fv(pk, 10, 3);
}

/* n bytes alike (none: the arrays may be NULL). */
static int same(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

/* pf_wire_sched against protobuf-c, on a packet protobuf-c decodes (the
 * second reading is of packets the first decoded): -1 it declined (or
 * protobuf-c did), 1 it read the cpu and the five scheduler columns as
 * protobuf-c decodes them, 0 it did not. */
static int sched_diff(const uint8_t *data, size_t len)
{
	Perfetto__Protos__FtraceEventBundle b = PERFETTO__PROTOS__FTRACE_EVENT_BUNDLE__INIT;
	Perfetto__Protos__CompactSched c = PERFETTO__PROTOS__COMPACT_SCHED__INIT, none = PERFETTO__PROTOS__COMPACT_SCHED__INIT;
	ProtobufCAllocator al = { pf_wire_diff_alloc, pf_wire_diff_free, &pf_wire_diff_mem[1] };
	const Perfetto__Protos__FtraceEventBundle *pb;
	const Perfetto__Protos__CompactSched *pc;
	Perfetto__Protos__TracePacket *pk;
	int rc = -1;

	pf_wire_diff_rewind();
	if (pf_wire_sched(&pf_wire_diff_mem[0], data, len, &b, &c)) {
		pk = perfetto__protos__trace_packet__unpack(&al, len, data);
		if (!pk)
			return -1;
		pb = pk->ftrace_events;
		pc = pb && pb->compact_sched ? pb->compact_sched : &none;
		rc = (pb ? pb->has_cpu == b.has_cpu && (!b.has_cpu || pb->cpu == b.cpu) && !pb->n_event : !b.has_cpu) &&
		     (pb && pb->compact_sched) == (b.compact_sched != NULL) &&
		     pc->n_switch_timestamp == c.n_switch_timestamp && pc->n_switch_prev_state == c.n_switch_prev_state &&
		     pc->n_switch_next_pid == c.n_switch_next_pid && pc->n_waking_timestamp == c.n_waking_timestamp &&
		     pc->n_waking_pid == c.n_waking_pid &&
		     same(pc->switch_timestamp, c.switch_timestamp, c.n_switch_timestamp * 8) &&
		     same(pc->switch_prev_state, c.switch_prev_state, c.n_switch_prev_state * 8) &&
		     same(pc->switch_next_pid, c.switch_next_pid, c.n_switch_next_pid * 4) &&
		     same(pc->waking_timestamp, c.waking_timestamp, c.n_waking_timestamp * 8) &&
		     same(pc->waking_pid, c.waking_pid, c.n_waking_pid * 4);
	}
	return rc;
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* One to three changes: a byte set, bits flipped, a cut, bytes inserted,
 * a stretch repeated. */
static void damage(struct w *o)
{
	int k, times = 1 + (int)(rnd() % 3);

	for (k = 0; k < times && o->n; k++) {
		size_t at = (size_t)(rnd() % o->n), len, i;
		switch (rnd() % 5) {
		case 0:
			o->b[at] = (uint8_t)rnd();
			break;
		case 1:
			o->b[at] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 2:
			o->n = at;
			break;
		case 3:
			len = 1 + (size_t)(rnd() % 4);
			if (o->n + len > sizeof o->b)
				break;
			memmove(o->b + at + len, o->b + at, o->n - at);
			for (i = 0; i < len; i++)
				o->b[at + i] = (uint8_t)(rnd() % 4 == 0 ? 0x80 : rnd());
			o->n += len;
			break;
		default:
			len = (size_t)(rnd() % 32);
			if (len > o->n - at || o->n + len > sizeof o->b)
				break;
			memmove(o->b + at + len, o->b + at, o->n - at);
			o->n += len;
			break;
		}
	}
}

int main(void)
{
	struct w pk[4], d, desc = { { 0 }, 0 }, t = { { 0 }, 0 };
	int i, j, differ = 0, accepted = 0, refused_alike = 0, sched_differ = 0, sched_read = 0;

	memset(pk, 0, sizeof pk);
	track_event(&pk[0], 1);
	ftrace(&pk[2], 1);
	is_int(pf_wire_diff(pk[0].b, pk[0].n), -1, "a track event with fields unknown to our subset is left to protobuf-c "
		"(it keeps them, to be counted as not imported)");
	is_int(pf_wire_diff(pk[2].b, pk[2].n), -1, "an ftrace bundle with an unknown event is left to protobuf-c");
	memset(pk, 0, sizeof pk);
	track_event(&pk[0], 0);
	interned(&pk[1]);
	ftrace(&pk[2], 0);
	compact(&pk[3]);
	is_int(pf_wire_diff(pk[0].b, pk[0].n), 1, "a track event with every kind of annotation decodes alike");
	is_int(pf_wire_diff(pk[1].b, pk[1].n), 1, "interned data decodes alike");
	is_int(pf_wire_diff(pk[2].b, pk[2].n), 1, "an ftrace bundle of prints decodes alike");
	is_int(pf_wire_diff(pk[3].b, pk[3].n), 1, "a bundle of compact sched decodes alike (negative pids, 10-byte states)");
	is_int(sched_diff(pk[3].b, pk[3].n), 1, "its scheduler columns read again (pf_wire_sched) as protobuf-c decodes them");
	is_int(sched_diff(pk[2].b, pk[2].n), -1, "a bundle of full events is left to the whole decoding");
	is_int(pf_wire_diff(NULL, 0), 1, "an empty packet decodes alike");
	{
		static const uint64_t x[] = { 1, 2 };
		struct w c = { { 0 }, 0 }, bundle = { { 0 }, 0 };
		packed(&c, 1, x, 2), packed(&c, 1, x, 2);
		sub(&bundle, 4, &c);
		d.n = 0;
		sub(&d, 1, &bundle);
		is_int(pf_wire_diff(d.b, d.n), -1, "a packed column in two pieces (joined by protobuf-c) is left to it");
		c.n = bundle.n = d.n = 0;
		fv(&c, 3, 7), fv(&c, 3, 8);
		sub(&bundle, 4, &c);
		sub(&d, 1, &bundle);
		is_int(pf_wire_diff(d.b, d.n), -1, "an unpacked column is left to protobuf-c");
	}
	fv(&t, 1, 9), fs(&t, 2, "main");
	sub(&desc, 60, &t);
	is_int(pf_wire_diff(desc.b, desc.n), -1, "a track descriptor is left to protobuf-c");
	t.n = 0;
	fv(&t, 9, 1);
	d.n = 0;
	sub(&d, 11, &t), sub(&d, 11, &t);
	is_int(pf_wire_diff(d.b, d.n), -1, "a track event given twice (merged by protobuf-c) is left to it");
	for (i = 0; i < 4; i++)
		for (j = 0; j < 30000; j++) {
			int rc;
			d = pk[i];
			damage(&d);
			rc = pf_wire_diff(d.b, d.n);
			if (i == 3) {
				int sr = sched_diff(d.b, d.n);
				sched_differ += sr == 0;
				sched_read += sr == 1;
			}
			if (!rc && differ++ < 3) {
				size_t k;
				printf("# differs from protobuf-c:");
				for (k = 0; k < d.n; k++)
					printf(" %02x", d.b[k]);
				printf("\n");
			}
			accepted += rc == 1;
			refused_alike += rc == -1;
		}
	is_int(differ, 0, "120000 damaged packets: never accepted unlike protobuf-c");
	ok(accepted > 10000 && refused_alike > 10000, "damaged packets both decoded by hand and left to protobuf-c");
	is_int(sched_differ, 0, "30000 damaged compact sched packets: their scheduler columns never read unlike protobuf-c");
	ok(sched_read > 1000, "damaged compact sched packets read again by hand");
	printf("# %d compact sched packets' columns read again by hand\n", sched_read);
	printf("# %d decoded by hand, %d left to protobuf-c\n", accepted, refused_alike);
	pf_wire_diff_release();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
