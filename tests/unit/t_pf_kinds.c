/*
 * Unit tests of the Perfetto importer's kinds (importers/perfetto/pf_kinds.c):
 * legacy phases, counter units and incremental values per sequence, and
 * what is not imported counted per kind.
 */
#include <stdio.h>
#include <string.h>

#include "importers/perfetto/pf_int.h"
#include "tests/tap.h"

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

int main(void)
{
	kinds();
	return done_testing();
}
