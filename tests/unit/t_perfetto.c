/*
 * Unit tests of the Perfetto export's encoding (reports/export): the wire
 * writer's varints, fixed fields and nested lengths (one byte, then more
 * once the message outgrows it), and the key that interns a byte count's
 * text: equal keys must mean the text bt_format_bytes writes is equal,
 * ties of its rounding included. The importer's threads (pf_threads.c):
 * which of a thread's names stands, ART's names of monitor owners
 * resolved to threads, and the markers (pf_names.c): contention with the
 * method its owner locked in, park and unpark. And its kinds
 * (pf_kinds.c): legacy phases, counter units and incremental values per
 * sequence, and what is not imported counted per kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "importers/perfetto/pf_int.h"
#include "reports/export/pbw.h"
#include "reports/export/perfetto_int.h"
#include "reports/report.h"
#include "tests/tap.h"

/* The text a key stands for, made from the key alone. */
static void key_text(uint64_t key, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = (unsigned)(key >> 56);
	uint64_t q = key & (((uint64_t)1 << 56) - 1);

	if (!u)
		snprintf(buf, len, "%llu B", (unsigned long long)q);
	else
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)(q / 10), (unsigned long long)(q % 10), units[u]);
}

/* key_text(pfw_bytes_key(n)) is what bt_format_bytes writes for n. */
static int same_text(int64_t n)
{
	struct bt_buf b = BT_BUF_INIT;
	char k[64];
	int same;

	bt_format_bytes((double)n, &b);
	key_text(pfw_bytes_key(n), k, sizeof k);
	same = !strcmp(b.buf, k);
	if (!same)
		printf("# %lld: bt_format_bytes '%s', key '%s'\n", (long long)n, b.buf, k);
	bt_buf_release(&b);
	return same;
}

static void bytes_keys(void)
{
	int64_t n, unit;
	int u, k, bad = 0;
	uint64_t seed = 42;

	for (n = 0; n < 300000 && !bad; n++)
		bad += !same_text(n);
	ok(!bad, "byte keys: every count below 300000");
	for (u = 1, unit = 1024; u <= 4 && !bad; u++, unit *= 1024)
		for (k = 0; k < 4000 && !bad; k++) {   /* x.x5 exactly, and either side */
			int64_t tie = unit * (4 * k + 1) / 4, tie2 = unit * (4 * k + 3) / 4;
			bad += !same_text(tie) + !same_text(tie - 1) + !same_text(tie + 1) + !same_text(tie2) +
			       !same_text(unit * k + unit / 20) + !same_text(unit * (k + 1) - 1);
		}
	ok(!bad, "byte keys: the rounding's ties and unit edges, KiB to TiB");
	for (k = 0; k < 200000 && !bad; k++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		bad += !same_text((int64_t)(seed >> (5 + k % 50)) & (((int64_t)1 << 59) - 1));
	}
	ok(!bad, "byte keys: random counts up to 2^59");
	ok(pfw_bytes_key(1023) != pfw_bytes_key(1024) && pfw_bytes_key(1024) == pfw_bytes_key(1025),
	   "byte keys: 1023 B apart from 1.0 KiB, which 1025 shares");
}

static void wire(void)
{
	struct bt_pbw w = BT_PBW_INIT;
	static const uint8_t small[] = { 0x08, 0x96, 0x01, 0x12, 0x02, 0x18, 0x00, 0x19, 1, 0, 0, 0, 0, 0, 0, 0 };
	char filler[200];
	size_t i;

	bt_pbw_varint(&w, 1, 150);
	bt_pbw_open(&w, 2);
	bt_pbw_varint(&w, 3, 0);
	bt_pbw_close(&w);
	bt_pbw_fixed64(&w, 3, 1);
	ok(w.n == sizeof small && !memcmp(w.b, small, sizeof small), "wire: varint, a nested message's length, fixed64");
	w.n = 0;
	memset(filler, 'x', sizeof filler);
	bt_pbw_open(&w, 1);
	bt_pbw_open(&w, 2);
	bt_pbw_bytes(&w, 3, filler, sizeof filler);
	bt_pbw_close(&w);
	bt_pbw_close(&w);
	/* 0x0A len(2 bytes) 0x12 len(2 bytes) 0x1A len(2 bytes) 200 bytes */
	ok(w.n == 1 + 2 + 1 + 2 + 1 + 2 + 200 && w.b[1] == (uint8_t)(0x80 | (206 & 0x7F)) && w.b[2] == 206 >> 7 &&
	   w.b[4] == (uint8_t)(0x80 | (203 & 0x7F)) && w.b[5] == 203 >> 7 && w.b[7] == (uint8_t)(0x80 | 200 % 128) &&
	   w.b[9] == 'x' && w.b[w.n - 1] == 'x', "wire: messages past 127 bytes get longer lengths, contents moved intact");
	for (i = 0; i < 10; i++)
		bt_pbw_varint(&w, 536870911, UINT64_MAX);   /* the largest field number, the longest value */
	ok(w.n == 209 + 10 * 15, "wire: a 5-byte key and a 10-byte value");
	bt_pbw_release(&w);
}

static int phase(struct pf *p, int ph)
{
	Perfetto__Protos__TrackEvent ev = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__TrackEvent__LegacyEvent l = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;

	l.has_phase = 1;
	l.phase = ph;
	ev.legacy_event = &l;
	return pf_kinds_phase(p, &ev);
}

static void kinds(void)
{
	struct pf p;
	struct pf_seq seqs[2];
	struct pf_track t;
	ProtobufCMessageUnknownField u[3];
	ProtobufCMessage m;
	Perfetto__Protos__FtraceEvent fe = PERFETTO__PROTOS__FTRACE_EVENT__INIT;
	Perfetto__Protos__SchedSwitchFtraceEvent sw = PERFETTO__PROTOS__SCHED_SWITCH_FTRACE_EVENT__INIT;

	memset(&p, 0, sizeof p);
	memset(seqs, 0, sizeof seqs);
	memset(&t, 0, sizeof t);
	p.seqs = seqs;
	p.nseqs = 2;
	pf_kinds_init(&p);
	is_int(phase(&p, 'B'), PF_EV_BEGIN, "legacy B: a slice begins");
	is_int(phase(&p, 'X'), PF_EV_BEGIN, "legacy X: a slice begins (its end is its duration)");
	is_int(phase(&p, 'E'), PF_EV_END, "legacy E");
	is_int(phase(&p, 'i') + phase(&p, 'I') + phase(&p, 'n'), 3 * PF_EV_INSTANT, "legacy i, I, n: instants");
	is_int(phase(&p, 'b') + phase(&p, 'S'), 2 * PF_EV_ASYNC_BEGIN, "legacy b, S: async begins");
	is_int(phase(&p, 'e') + phase(&p, 'F'), 2 * PF_EV_ASYNC_END, "legacy e, F: async ends");
	is_int(phase(&p, 'T') + phase(&p, 'T') + phase(&p, 'M'), 0, "T and M: not imported");
	ok(pf_kinds_not_imported(&p, "legacy_phase_T") == 2 && pf_kinds_not_imported(&p, "legacy_phase_M") == 1,
	   "... and counted by phase");
	ok(pf_kinds_value(&p, &seqs[0], &t, 7.0) == 7.0, "a plain track's counter value as it is");
	t.counter = 1;
	t.mult = 1000;
	ok(pf_kinds_value(&p, &seqs[0], &t, 7.0) == 7000.0, "times its unit_multiplier");
	t.incremental = 1;
	t.uuid = 10;
	pf_kinds_value(&p, &seqs[0], &t, 1.0);
	pf_kinds_value(&p, &seqs[1], &t, 5.0);
	ok(pf_kinds_value(&p, &seqs[0], &t, 2.0) == 3000.0, "incremental: deltas summed on their sequence");
	ok(pf_kinds_value(&p, &seqs[1], &t, 1.0) == 6000.0, "... each sequence apart");
	seqs[0].gen++;   /* its incremental state cleared */
	ok(pf_kinds_value(&p, &seqs[0], &t, 4.0) == 4000.0, "... and from 0 after the sequence is cleared");
	memset(&m, 0, sizeof m);
	memset(u, 0, sizeof u);
	m.n_unknown_fields = 3;
	m.unknown_fields = u;
	u[0].tag = 66;       /* perf_sample */
	u[1].tag = 33;       /* trace_config: metadata */
	u[2].tag = 900;      /* past the fields counted one by one */
	pf_kinds_unknown(&p, PF_IN_PACKET, &m);
	pf_kinds_unknown(&p, PF_IN_PACKET, &m);
	ok(pf_kinds_not_imported(&p, "perf_sample") == 2, "packets not read: by kind");
	ok(pf_kinds_not_imported(&p, "trace_config") == 0, "metadata packets: not counted");
	ok(pf_kinds_not_imported(&p, "packet_field_256") == 2, "fields past 255 together");
	u[0].tag = 36;       /* irq_handler_entry */
	u[1].tag = 5;        /* common_flags: no event */
	m.n_unknown_fields = 2;
	pf_kinds_unknown(&p, PF_IN_FTRACE, &m);
	ok(pf_kinds_not_imported(&p, "ftrace.irq_handler_entry") == 1, "ftrace events not read: by kind");
	fe.sched_switch = &sw;
	pf_kinds_ftrace(&p, &fe);
	ok(pf_kinds_not_imported(&p, "ftrace.sched_switch") == 0, "sched_switch: imported (pf_sched.c), not counted");
	pf_kinds_release(&p);
}

static void pf_init(struct pf *p)
{
	memset(p, 0, sizeof *p);
	bt_map64_init(&p->tgid_of, 16);
	bt_map64_init(&p->thread_name, 16);
	bt_map64_init(&p->process_name, 16);
	bt_strmap_init(&p->frame_of);
	pf_threads_init(p);
}

static const char *tname(struct pf *p, int64_t tid)
{
	const char *n = pf_name(p, &p->thread_name, tid);

	return n ? n : "(none)";
}

static void thread_names(void)
{
	struct pf p;

	pf_init(&p);
	pf_thread_name(&p, 10, "kern", 4, PF_NAME_KERNEL, 100);
	is_str(tname(&p, 10), "kern", "names: the kernel's comm");
	pf_thread_name(&p, 10, "older", 5, PF_NAME_KERNEL, 50);
	is_str(tname(&p, 10), "kern", "names: an older comm, later in the file (another CPU's bundle), does not replace it");
	pf_thread_name(&p, 10, "newer\n", 6, PF_NAME_KERNEL, 150);
	is_str(tname(&p, 10), "newer", "names: a newer comm does, without its newline");
	pf_thread_name(&p, 10, "untimed", 7, PF_NAME_KERNEL, -1);
	is_str(tname(&p, 10), "untimed", "names: a comm of no time: the file's order");
	pf_thread_name(&p, 10, "tree", 4, PF_NAME_TREE, -1);
	pf_thread_name(&p, 10, "kern2", 5, PF_NAME_KERNEL, 999);
	is_str(tname(&p, 10), "tree", "names: the process tree's beats a later comm");
	pf_thread_name(&p, 10, "own", 3, PF_NAME_OWN, -1);
	pf_thread_name(&p, 10, "tree2", 5, PF_NAME_TREE, -1);
	is_str(tname(&p, 10), "own", "names: the thread's own track's beats the tree's");
	pf_thread_name(&p, 11, "a\0b", 3, PF_NAME_OWN, -1);
	pf_thread_name(&p, 11, "", 0, PF_NAME_OWN, -1);
	is_str(tname(&p, 11), "(none)", "names: empty names and names holding NUL are none");
	is_int((int64_t)p.nnames, 1, "names: one string per thread, replaced in place");
	pf_release(&p);
}

static void art_owners(void)
{
	static const struct { int64_t tid, pid; const char *name; } th[] = {
		{ 20, 5, "DefaultDispatch" }, { 21, 5, "ple.sync.Worker" }, { 22, 5, "binder:5_2" },
		{ 23, 5, "binder:5_2" }, { 24, 5, "HeapTaskDaemon" }, { 30, 6, "HeapTaskDaemon" },
		{ 25, 5, "user@host.Name1" },
	};
	struct pf p;
	size_t i;

	pf_init(&p);
	for (i = 0; i < sizeof th / sizeof th[0]; i++) {
		pf_thread_group(&p, th[i].tid, th[i].pid);
		pf_thread_name(&p, th[i].tid, th[i].name, strlen(th[i].name), PF_NAME_KERNEL, -1);
	}
#define FIND(pid, s) pf_threads_find(&p, pid, s, strlen(s))
	is_int(FIND(5, "DefaultDispatcher-worker-1"), 20, "owners: a long name without a dot: its first 15 bytes");
	is_int(FIND(5, "com.example.sync.Worker"), 21, "owners: a long dotted name: its last 15 bytes");
	is_int(FIND(5, "user@host.Name1.x"), 25, "owners: a long name with '@': its first 15 bytes");
	is_int(FIND(5, "binder:5_2"), -1, "owners: two threads of the name: ambiguous");
	is_int(FIND(5, "Thread-7"), 0, "owners: no thread of the name");
	is_int(FIND(5, "HeapTaskDaemon"), 24, "owners: the waiter's process's thread of the name");
	is_int(FIND(6, "HeapTaskDaemon"), 30, "owners: another process's, in that process");
	is_int(FIND(7, "HeapTaskDaemon"), 0, "owners: none in a process without it");
#undef FIND
	pf_release(&p);
}

static void contention_markers(void)
{
	static const struct {
		const char *name;
		enum pf_marker m;
		int64_t v;
		const char *owner, *method;   /* a monitor's NAME and the method its owner locked in */
	} c[] = {
		{ "monitor contention with owner Signal Catcher (3) at void a.B.c()(B.java:1) waiters=0 blocking from x",
		  PF_MONITOR, 3, "Signal Catcher", "void a.B.c()" },
		{ "monitor contention with owner t (4) at void a.B.put(java.lang.Object, int)(B.java:88) blocking from x",
		  PF_MONITOR, 4, "t", "void a.B.put(java.lang.Object, int)" },
		{ "monitor contention with owner t (5) at void a.B.c(int", PF_MONITOR, 5, "t", NULL },
		{ "monitor contention with owner t (6) at void a.B.c() waiters=0", PF_MONITOR, 6, "t", NULL },
		{ "monitor contention with owner t (7) at x)(B.java:1)", PF_MONITOR, 7, "t", NULL },
		{ "monitor contention with owner pool (x) (12) waiters=1 blocking from y", PF_MONITOR, 12, "pool (x)", NULL },
		{ "monitor contention with owner binder:1858_20 (182)", PF_MONITOR, 182, "binder:1858_20", NULL },
		{ "monitor contention with owner nobody", PF_PLAIN, 0, NULL, NULL },
		{ "Lock contention on a monitor lock (owner tid: 2053)", PF_LOCK, 2053, NULL, NULL },
		{ "Lock contention on a monitor lock (owner tid: 0)", PF_LOCK, 0, NULL, NULL },
		{ "Lock contention on thread list lock (owner tid: 5)", PF_MUTEX, 5, NULL, NULL },
		{ "Lock contention on thread list lock (owner tid: 0)", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on mutator lock", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on thread suspend count lock (owner tid: 7x)", PF_MUTEX, 0, NULL, NULL },
		{ "Lock contention on ", PF_PLAIN, 0, NULL, NULL },
		{ "Lock contention on a monitor lock", PF_PLAIN, 0, NULL, NULL },
		{ "Unsafe#park(obj:0x6bbcb2d, time:0)", PF_PARK, 0x6bbcb2d, NULL, NULL },
		{ "Unsafe#park(obj:0xb542a65, time:-807049215)", PF_PARK, 0xb542a65, NULL, NULL },
		{ "Unsafe#unpark(obj:0x3F4375C)", PF_UNPARK, 0x3f4375c, NULL, NULL },
		{ "Unsafe#park(obj:, time:0)", PF_PLAIN, 0, NULL, NULL },
		{ "Unsafe#unpark(thread)", PF_PLAIN, 0, NULL, NULL },
	};
	struct pf p;
	size_t i;

	pf_init(&p);
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		uint32_t id = pf_frame(&p, c[i].name, strlen(c[i].name));   /* before p.frames: it may move */
		const struct pf_frame *f = &p.frames[id - 1];
		char what[160];
		snprintf(what, sizeof what, "markers: '%.60s'", c[i].name);
		ok(f->marker == c[i].m && (c[i].m == PF_PLAIN || f->value == c[i].v) &&
		   (!c[i].owner || (f->iface_len == strlen(c[i].owner) &&
				    !memcmp(f->name + f->iface_off, c[i].owner, f->iface_len))) &&
		   (c[i].m != PF_MONITOR || f->has_method == (c[i].method != NULL)) &&
		   (!c[i].method || (f->method_len == strlen(c[i].method) &&
				     !memcmp(f->name + f->method_off, c[i].method, f->method_len))), what);
	}
	pf_release(&p);
}

int main(void)
{
	kinds();
	wire();
	bytes_keys();
	thread_names();
	art_owners();
	contention_markers();
	return done_testing();
}
