#!/bin/sh
# A Perfetto trace written as the Perfetto SDK writes track events (made
# here from text by protoc, not by us): interned event names, categories,
# annotation names and strings; a sequence whose first packet clears its
# state and sets the default track and an incremental clock (timestamps are
# deltas, converted through the sequence's ClockSnapshot to BOOTTIME); a
# packet back in time on BOOTTIME itself, which leaves the clock where it
# was; the state cleared again, an iid naming another event from there on;
# a sequence needing a state it never set (skipped, and said); a second
# sequence on a non-incremental clock in microseconds; a slice on a clock
# no snapshot set (skipped). The slices read back are checked one by one.
. tests/lib.sh
cat >"$T/sdk.txt" <<'EOF'
packet { track_descriptor { uuid: 10 process { pid: 100 process_name: "com.example.sdk" } } }
packet { track_descriptor { uuid: 11 parent_uuid: 10 thread { pid: 100 tid: 100 thread_name: "main" } } }
packet { track_descriptor { uuid: 12 parent_uuid: 10 thread { pid: 100 tid: 101 thread_name: "worker" } } }
packet {
  timestamp: 0 trusted_packet_sequence_id: 7 sequence_flags: 1
  trace_packet_defaults { timestamp_clock_id: 64 track_event_defaults { track_uuid: 11 } }
  clock_snapshot { clocks { clock_id: 6 timestamp: 5000 }
                   clocks { clock_id: 64 timestamp: 1000 is_incremental: true unit_multiplier_ns: 1 } }
}
packet {
  timestamp: 100 trusted_packet_sequence_id: 7 sequence_flags: 2
  interned_data {
    event_names { iid: 1 name: "Outer.run" }
    event_categories { iid: 1 name: "kBinder" }
    debug_annotation_names { iid: 1 name: "CPUTime" }
    debug_annotation_names { iid: 2 name: "signature" }
    debug_annotation_string_values { iid: 1 str: "void com.example.Outer.run()" }
  }
  track_event { type: TYPE_SLICE_BEGIN name_iid: 1 category_iids: 1
                debug_annotations { name_iid: 1 double_value: 0.5 }
                debug_annotations { name_iid: 2 string_value_iid: 1 } }
}
packet {
  timestamp: 50 trusted_packet_sequence_id: 7 sequence_flags: 2
  interned_data { event_names { iid: 2 name: "inner" } }
  track_event { type: TYPE_SLICE_BEGIN name_iid: 2 }
}
packet { timestamp: 30 trusted_packet_sequence_id: 7 sequence_flags: 2 track_event { type: TYPE_SLICE_END } }
packet {
  timestamp: 5120 timestamp_clock_id: 6 trusted_packet_sequence_id: 7 sequence_flags: 2
  track_event { type: TYPE_INSTANT name_iid: 2 }
}
packet { timestamp: 20 trusted_packet_sequence_id: 7 sequence_flags: 2 track_event { type: TYPE_SLICE_END } }
packet {
  timestamp: 0 trusted_packet_sequence_id: 7 sequence_flags: 1
  trace_packet_defaults { timestamp_clock_id: 64 track_event_defaults { track_uuid: 11 } }
  clock_snapshot { clocks { clock_id: 6 timestamp: 9000 }
                   clocks { clock_id: 64 timestamp: 9000 is_incremental: true } }
}
packet {
  timestamp: 10 trusted_packet_sequence_id: 7 sequence_flags: 2
  interned_data { event_names { iid: 1 name: "Again.run" } }
  track_event { type: TYPE_SLICE_BEGIN name_iid: 1 }
}
packet { timestamp: 90 trusted_packet_sequence_id: 7 sequence_flags: 2 track_event { type: TYPE_SLICE_END } }
packet {
  timestamp: 6000 trusted_packet_sequence_id: 8 sequence_flags: 2
  track_event { type: TYPE_SLICE_BEGIN track_uuid: 12 name_iid: 1 }
}
packet {
  trusted_packet_sequence_id: 9 sequence_flags: 1
  trace_packet_defaults { timestamp_clock_id: 65 track_event_defaults { track_uuid: 12 } }
  clock_snapshot { clocks { clock_id: 6 timestamp: 7000000 }
                   clocks { clock_id: 65 timestamp: 7000 unit_multiplier_ns: 1000 } }
}
packet { timestamp: 7001 trusted_packet_sequence_id: 9 sequence_flags: 2 track_event { type: TYPE_SLICE_BEGIN name: "w" } }
packet { timestamp: 7003 trusted_packet_sequence_id: 9 sequence_flags: 2 track_event { type: TYPE_SLICE_END } }
packet {
  timestamp: 5 timestamp_clock_id: 70 trusted_packet_sequence_id: 9 sequence_flags: 2
  track_event { type: TYPE_SLICE_BEGIN name: "lost" }
}
EOF
check "protoc encodes the trace" sh -c "protoc --encode perfetto.protos.Trace -I engine/proto engine/proto/perfetto_trace.proto \
	<'$T/sdk.txt' >'$T/sdk.pb'"
"$BIN" import -q "$T/sdk.pb" -o "$T/sdk.db" 2>"$T/err"
is "$?" 0 "the trace imports"
"$BIN" query -q "$T/sdk.db" "SELECT s.tid, f.name, s.ts, s.dur, s.depth, s.cpu_dur, coalesce(r.name, '')
	FROM slices s JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type
	ORDER BY s.tid, s.ts, s.depth" --format tsv | tail -n +2 >"$T/got"
printf '%s\n' "100	void com.example.Outer.run()	5100	100	0	500000	kBinder" \
	"100	inner	5150	30	1	0	" "100	Again.run	9010	90	0	0	" "101	w	7001000	2000	0		" >"$T/want"   # 101 gives no CPU time: NULL
check "the slices: names by iid (the signature for the frame), the category as the type, times through the clocks" \
	diff -u "$T/want" "$T/got"
is "$(q "$T/sdk.db" "SELECT count(*) FROM diagnostics WHERE code = 'perfetto_incremental_state'")" 1 \
	"a packet needing a state its sequence never set: skipped, and said"
is "$(q "$T/sdk.db" "SELECT count(*) FROM diagnostics WHERE code = 'perfetto_event_time'")" 1 \
	"a slice on a clock no snapshot set: skipped, and said"

# The checks fail on a trace read as it is not: the same trace with its
# first clock snapshot's BOOTTIME moved, and with its first clear gone (the
# main thread's packets until the second then need a state never set).
sed 's/clocks { clock_id: 6 timestamp: 5000 }/clocks { clock_id: 6 timestamp: 5001 }/' "$T/sdk.txt" >"$T/m1.txt"
awk 'BEGIN { n = 0 } /sequence_flags: 1/ && ++n == 1 { sub(/ sequence_flags: 1/, "") } { print }' "$T/sdk.txt" >"$T/m2.txt"
for m in m1 m2; do
	protoc --encode perfetto.protos.Trace -I engine/proto engine/proto/perfetto_trace.proto <"$T/$m.txt" >"$T/$m.pb"
	"$BIN" import -q "$T/$m.pb" -o "$T/$m.db" 2>/dev/null
	"$BIN" query -q "$T/$m.db" "SELECT s.tid, f.name, s.ts, s.dur, s.depth, s.cpu_dur, coalesce(r.name, '')
		FROM slices s JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type
		ORDER BY s.tid, s.ts, s.depth" --format tsv | tail -n +2 >"$T/$m.got"
	check "$m: a damaged trace reads otherwise" sh -c "! cmp -s '$T/want' '$T/$m.got'"
done
is "$(cut -f2 "$T/m2.got" | tr '\n' ' ')" "Again.run w " "m2: without the first clear, only the slices after the second are read"
