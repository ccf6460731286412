#!/bin/sh
# Perfetto input at its edges (DESIGN §11): truncated files (plain and
# gzip'd), lying lengths, wrong wire types, malformed packets, corrupt
# compressed_packets exit 1 naming the file and the byte offset and leave
# nothing behind (files cut short with --strict: without it they are
# salvaged, tests/sh/7140-perfetto-salvage.sh); recoverable oddities (ends without begins, slices never
# ended, nesting past 512, events before their descriptor or with none,
# state a sequence never got, ...) are counted in diagnostics; the valid
# variants (iOS layout, interned names, compressed_packets) import right.
# The traces come from tests/fixtures/mkpfcase.py and mkperfetto.py.
. tests/lib.sh
CASE="python3 tests/fixtures/mkpfcase.py"

# fatal NAME FILE PATTERN: exit 1, the message, no database, no report.
# strict_fatal: the same with --strict (a file cut short).
STRICT=
fatal() {
	name=$1 input=$2 pat=$3
	rm -f "$T"/out.* "$T"/report.*   # a case before that wrongly succeeded
	err=$("$BIN" import $STRICT "$input" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: $pat" "$name: message names the file and the byte offset"
	is "$(ls "$T" | grep -c '^out\.')" 0 "$name: no partial database"
	"$BIN" analyze $STRICT "$input" -o "$T/report.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^report\.')" 1:0 "$name: analyze fails too, no partial report"
}
strict_fatal() {
	STRICT=--strict
	fatal "$@"
	STRICT=
}

# diag NAME FILE CODE COUNT: exit 0, counted, warned about, in the report.
diag() {
	name=$1 input=$2 code=$3 count=$4
	err=$("$BIN" import "$input" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?" 0 "$name: exit 0"
	is "$(q "$T/$name.db" "SELECT count FROM diagnostics WHERE code = '$code'")" "$count" "$name: $code counted $count"
	like "$err" "warning: .*\\[$code" "$name: warning on stderr"
	like "$("$BIN" -q "$T/$name.db")" "$code \\($count\\): " "$name: the report shows $code"
}

rows() {   # db sql: rows as 'a|b|c' lines joined by spaces
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d | tr '\t' '|' | tr '\n' ' ' | sed 's/ $//'
}

for c in $($CASE --list); do
	$CASE "$c" "$T/$c.pb"
done

# ---- truncated and lying files
python3 tests/fixtures/mkperfetto.py "$T/t.pb" --flavor btrace3 --seed 3 --slices 400 --no-truth >/dev/null
# offset, header length, body length of packets 0 and 100 and of the first with a 2-byte length
# shellcheck disable=SC2046
set -- $(python3 - "$T/t.pb" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i, out = 0, []
while i < len(d):
    j, n, sh = i + 1, 0, 0
    while True:
        b = d[j]; n |= (b & 0x7F) << sh; sh += 7; j += 1
        if not b & 0x80: break
    out.append((i, j - i, n)); i = j + n
long = [p for p in out if p[1] == 3][0]
print(*out[0], *out[100], *long)
PY
)
o0=$1 h0=$2 l0=$3 o1=$4 h1=$5 l1=$6 o2=$7
head -c 40 "$T/t.pb" >"$T/cut1.pb"
strict_fatal "cut in the first packet" "$T/cut1.pb" "truncated packet in '.*cut1.pb' at byte offset $o0: $l0 bytes said, $((40 - h0)) there"
head -c $((o1 + h1 + l1 / 2)) "$T/t.pb" >"$T/cut2.pb"
strict_fatal "cut in packet 100" "$T/cut2.pb" "truncated packet in '.*cut2.pb' at byte offset $o1: $l1 bytes said, $((l1 / 2)) there"
head -c $((o1 + 1)) "$T/t.pb" >"$T/cut3.pb"
strict_fatal "cut after a packet's key" "$T/cut3.pb" "truncated packet in '.*cut3.pb' at byte offset $o1\$"
head -c $((o2 + 2)) "$T/t.pb" >"$T/cut4.pb"
strict_fatal "cut in a packet's length" "$T/cut4.pb" "truncated packet length in '.*cut4.pb' at byte offset $((o2 + 1))\$"
head -c "$o1" "$T/t.pb" >"$T/cut5.pb"
"$BIN" import -q "$T/cut5.pb" -o "$T/cut5.db"
is "$?:$(q "$T/cut5.db" "SELECT value FROM meta WHERE key = 'packets'")" 0:100 \
	"cut between packets: a shorter trace, its 100 packets read (nothing tells it from a whole one)"

p=$(wc -c <"$T/plain.pb")
{ cat "$T/plain.pb"; printf '\n\350\007'; head -c 20 /dev/zero; } >"$T/long.pb"
strict_fatal "length past the end" "$T/long.pb" "truncated packet in '.*long.pb' at byte offset $p: 1000 bytes said, 20 there"
{ cat "$T/plain.pb"; printf '\n\377\377\377\377\017'; } >"$T/absurd.pb"
fatal "absurd length" "$T/absurd.pb" "packet of 4294967295 bytes in '.*absurd.pb' at byte offset $p \\(at most 268435456 allowed\\)"
{ cat "$T/plain.pb"; printf '\013\001'; } >"$T/wire.pb"
fatal "wire type 3" "$T/wire.pb" "not a Perfetto trace: wire type 3 at byte offset $p of '.*wire.pb'"
{ cat "$T/plain.pb"; printf '\377\377\377\377\377\377\377\377\377\377\377\001'; } >"$T/varint.pb"
fatal "over-long key" "$T/varint.pb" "over-long varint \\(field key\\) in '.*varint.pb' at byte offset $p"
{ cat "$T/plain.pb"; printf '\n\003\132\005\000'; } >"$T/malformed.pb"
fatal "malformed packet" "$T/malformed.pb" "malformed TracePacket in '.*malformed.pb' at byte offset $p \\(3 bytes\\)"

# ---- gzip'd
gzip -c "$T/t.pb" >"$T/g.pb"
n=$(wc -c <"$T/g.pb")
head -c $((n / 2)) "$T/g.pb" >"$T/gcut.pb"
strict_fatal "gzip cut in half" "$T/gcut.pb" "truncated gzip stream in '.*gcut.pb' at byte offset $((n / 2)): .*unexpected end of file"
head -c $((n - 4)) "$T/g.pb" >"$T/gtrail.pb"
strict_fatal "gzip without its length trailer" "$T/gtrail.pb" "truncated gzip stream in '.*gtrail.pb' at byte offset $((n - 4)): "
cp "$T/g.pb" "$T/gbad.pb"
printf '\377\377\377\377\377\377\377\377' | dd of="$T/gbad.pb" bs=1 seek=$((n / 2)) conv=notrunc status=none
err=$("$BIN" import "$T/gbad.pb" -o "$T/out.db" 2>&1 >/dev/null)
is "$?" 1 "corrupt gzip: exit 1"
off=$(printf '%s' "$err" | sed -n "s/^btrace-analyze: error: corrupt gzip stream in '.*gbad.pb' near byte offset \([0-9]*\): .*/\1/p")
check "corrupt gzip: the message names the file and a byte offset near the damage ($off)" \
	test "${off:-0}" -ge $((n / 2)) -a "${off:-0}" -le "$n"
is "$(ls "$T" | grep -c '^out\.')" 0 "corrupt gzip: no partial database"
"$BIN" import -q "$T/g.pb" -o "$T/g.db"
"$BIN" import -q "$T/t.pb" -o "$T/t.db"
is "$(rows "$T/g.db" "SELECT count(*), sum(dur) FROM slices")" "$(rows "$T/t.db" "SELECT count(*), sum(dur) FROM slices")" \
	"the whole gzip'd trace imports as the plain one"

# ---- compressed_packets (zlib), at the offset of the packet holding them
z=$(python3 -c 'import sys; sys.path.insert(0, "tests/fixtures"); import mkpfcase; print(len(mkpfcase.head()))')
fatal "corrupt compressed_packets" "$T/compressed-corrupt.pb" \
	"corrupt compressed_packets in '.*compressed-corrupt.pb' at byte offset $z \\(zlib: incorrect data check\\)"
fatal "truncated compressed_packets" "$T/compressed-truncated.pb" \
	"corrupt compressed_packets in '.*compressed-truncated.pb' at byte offset $z \\(zlib: truncated stream\\)"
fatal "compressed_packets that are no Trace" "$T/compressed-garbage.pb" \
	"corrupt compressed_packets in '.*compressed-garbage.pb' at byte offset $z \\(wire type 3 at inflated byte 0\\)"
"$BIN" import -q "$T/plain.pb" -o "$T/plain.db"
"$BIN" import -q "$T/compressed.pb" -o "$T/compressed.db"
# cpu_dur: empty (NULL) for a thread none of whose slices gives a CPU time
all="SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts"
is "$(rows "$T/plain.db" "$all")" "300|0|outer|1000|8000|4000 300|1|mark|4000|1000|0 301|0|w|2000|1000|" \
	"plain: the slices, the atrace one nested in the app one"
is "$(rows "$T/compressed.db" "$all")" "$(rows "$T/plain.db" "$all")" "compressed_packets: the same slices as plain"
t="SELECT tid, name, is_main FROM threads ORDER BY tid"
is "$(rows "$T/compressed.db" "$t")" "$(rows "$T/plain.db" "$t")" "compressed_packets: the same threads"
is "$(rows "$T/compressed.db" "SELECT count(*) FROM diagnostics")" 0 "compressed_packets: no diagnostics"
diag "nested compression" "$T/compressed-nested.pb" perfetto_nested_compression 1
is "$(rows "$T/nested compression.db" "$all")" "$(rows "$T/plain.db" "$all")" "nested compression: the rest imported"

# ---- recoverable oddities
diag "end without begin" "$T/unmatched.pb" perfetto_unmatched_end 2
is "$(rows "$T/end without begin.db" "$all")" "300|0|ok|1000|1000|" "end without begin: the good slice kept"
diag "unterminated" "$T/unterminated.pb" perfetto_unterminated_slices 1
is "$(rows "$T/unterminated.db" "$all")" "300|0|open|100|400| 300|1|inner|200|100| 300|1|later|400|100|" \
	"unterminated: ends at the thread's last event, its children under it"
diag "deeper than 512" "$T/deep.pb" perfetto_too_deep 88
is "$(rows "$T/deeper than 512.db" "SELECT count(*), max(depth), sum(ts = 1000 + depth AND ts + dur = 10599 - depth) FROM slices")" \
	"512|511|512" "deeper than 512: 512 levels kept, each closed by its own end"
diag "no descriptor" "$T/undescribed.pb" perfetto_undescribed_track 1
is "$(rows "$T/no descriptor.db" "SELECT track, name, ts, dur, depth FROM track_slices")" "?|lost|200|100|0" \
	"no descriptor: a track of no thread"
is "$(rows "$T/no descriptor.db" "$all")" "300|0|m|100|800|" "no descriptor: the thread's slices kept"
diag "crossing sources" "$T/overlap.pb" perfetto_overlapping_slices 1
is "$(rows "$T/crossing sources.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"perfetto_overlapping_slices|1 perfetto_unmatched_end|1" "crossing sources: its late end is unmatched"
is "$(rows "$T/crossing sources.db" "$all")" "300|0|app|100|200| 300|1|mark|200|100|" \
	"crossing sources: the atrace slice cut where the app slice ends"
diag "type 0" "$T/oddities.pb" perfetto_event_type 1
is "$(rows "$T/type 0.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"perfetto_bad_timestamp|1 perfetto_event_time|1 perfetto_event_type|1" "oddities: no timestamp, a print past 2^63 ns"
is "$(rows "$T/type 0.db" "$all")" "300|0|good|100|100|" "oddities: the good slice kept"

# A new sequence in every packet (200k of them): linear, not quadratic
python3 -c 'import sys; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
open(sys.argv[1], "wb").write(m.plain() + b"".join(m.packet(m.fv(10, i)) for i in range(1, 200001)))' "$T/seqs.pb"
timeout 60 "$BIN" import -q "$T/seqs.pb" -o "$T/seqs.db"
is "$?:$(q "$T/seqs.db" "SELECT value FROM meta WHERE key = 'packets'")" 0:200008 \
	"200k sequences: imported within a minute (one map lookup per packet)"
is "$(rows "$T/seqs.db" "$all")" "$(rows "$T/plain.db" "$all")" "200k sequences: the slices of the trace"

# 300k atrace begins never ended, then 300k app-track ends with no begin
# on the same thread: each end is unmatched at once, not after a walk
# down the whole stack of the other source's begins
python3 -c 'import sys; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
n = 300000
f = open(sys.argv[1], "wb")
f.write(m.head())
for k in range(0, n, 4000):
    f.write(m.ftrace([(1000 + i, 300, "B|300|x") for i in range(k, min(n, k + 4000))]))
f.write(b"".join(m.event(400000 + i, 2, 20) for i in range(n)))' "$T/ends.pb"
timeout 60 "$BIN" import -q "$T/ends.pb" -o "$T/ends.db"
is "$?" 0 "300k unmatched ends under 300k open begins: imported within a minute"
is "$(rows "$T/ends.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"perfetto_too_deep|299488 perfetto_unmatched_end|300000 perfetto_unterminated_slices|300000" \
	"300k unmatched ends: counted, with the begins past 512 and those never ended"

# 60k wait markers, each the end of a flow arrow ("wakes wait wait of
# 300", as our --perfetto writes them): one edge each, found without a
# scan of the edges per arrow
python3 -c 'import struct, sys; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
fixed = lambda field, v: m.varint(field << 3 | 1) + struct.pack("<Q", v)
f = open(sys.argv[1], "wb")
f.write(m.head() + m.thread_track(21, 300, 301, "waker"))
for i in range(1, 60001):
    t = 1000 * i
    f.write(m.packet(m.fv(8, t) + m.fb(11, m.fv(9, 1) + m.fv(11, 20) + m.fb(23, "Object#wait(obj:0x1, timeout:0)") + fixed(48, i))))
    f.write(m.packet(m.fv(8, t + 500) + m.fb(11, m.fv(9, 2) + m.fv(11, 20))))
    f.write(m.packet(m.fv(8, t + 400) + m.fb(11, m.fv(9, 3) + m.fv(11, 21) + m.fb(23, "wakes wait wait of 300") + fixed(47, i))))' "$T/flows.pb"
timeout 60 "$BIN" import -q "$T/flows.pb" -o "$T/flows.db"
is "$?" 0 "60k wait markers with flow arrows: imported within a minute"
is "$(rows "$T/flows.db" "SELECT kind, count(*), count(DISTINCT ts) FROM blocking_edges GROUP BY kind")" "wait|60000|60000" \
	"60k wait markers with flow arrows: one edge per wait"

# values no sum may overflow with: dropped and counted, never added up
diag "huge annotations" "$T/huge-values.pb" perfetto_annotation_range 3
is "$(rows "$T/huge annotations.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"perfetto_annotation_range|3 perfetto_annotation_total|1072" "huge annotations: 1072 byte counts past 2^60 in all"
is "$(rows "$T/huge annotations.db" "SELECT count(*), sum(cpu_dur), sum(gap_dur), sum(alloc_bytes) FROM slices")" \
	"1202||0|1151999999999999872" "huge annotations: the slices kept, 128 byte counts taken"
"$BIN" -q "$T/huge annotations.db" -o "$T/huge.json"
is "$?" 0 "huge annotations: the report adds them up"
"$BIN" import -q "$T/nested-markers.pb" -o "$T/nested.db"
is "$?" 0 "nested 4e18 ns waits: import exits 0"
is "$(rows "$T/nested.db" "SELECT depth, block_dur FROM slices ORDER BY depth")" \
	"0|4000000000000000001 1|3999999999999999999 2|3999999999999999997" \
	"nested 4e18 ns waits: blocked time (own self plus children's) each wait's time, never past it"

# ---- valid variants
"$BIN" import -q "$T/early.pb" -o "$T/early.db"
is "$(rows "$T/early.db" "$all")" "200|0|m|500|2000| 201|0|before|1000|1000|" "events before their descriptor: on its thread"
is "$(rows "$T/early.db" "SELECT tid, name FROM threads ORDER BY tid") $(rows "$T/early.db" "SELECT count(*) FROM diagnostics")" \
	"200|main 201|late 0" "events before their descriptor: named, no diagnostics"

diag "interned" "$T/interned.pb" perfetto_incremental_state 2
is "$(rows "$T/interned.db" "SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur, coalesce(s.type, '') FROM slices s
	JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts")" \
	"100|0|foo|1000|3000|1500000|2 100|1|bar|2000|1000|0| 100|0|baz|5000|1000|0| 101|0|old|7000|1000||" \
	"interned: names, annotation names and values by iid on the default track; new meanings after a clear; a legacy thread"
is "$(rows "$T/interned.db" "$t")" "100|main|1 101|legacy|0" "interned: the legacy ThreadDescriptor names its thread"
diag "clocks" "$T/clocks.pb" perfetto_event_time 1
is "$(rows "$T/clocks.db" "SELECT s.tid, s.depth, f.name, s.ts, s.dur, coalesce(r.name, '') FROM slices s
	JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type ORDER BY s.tid, s.ts")" \
	"100|0|a|5100|50|kBinder 100|0|b|7001000|1000|" \
	"clocks: incremental and microsecond sequence clocks through their snapshots, a category as the type"

# Legacy B/E TrackEvents with an explicit track_uuid 0 belong on the
# sequence's thread (its defaults' track): Perfetto's expected output for
# its test track_event_with_atrace, the writer's copy and Perfetto's own input.
sql="SELECT s.tid, t.name, s.depth, f.name, s.ts, s.dur FROM slices s JOIN frames f ON f.id = s.frame_id
	JOIN threads t ON t.tid = s.tid ORDER BY s.ts"
want="1|t1|0|event1|10000|1000 1|t1|0|event2|20000|8000 1|t1|1|atrace|21000|7000"
difftest=$REAL/perfetto-difftest-textproto/parser_track_event_track_event_with_atrace.pb
check "Perfetto's track_event_with_atrace input is there ($difftest)" test -s "$difftest"
for f in "$T/atrace-uuid0.pb" "$difftest"; do
	"$BIN" import -q "$f" -o "$T/au.db"
	is "$(rows "$T/au.db" "$sql")" "$want" "track_uuid 0 ($(basename "$f")): event1, event2 and atrace inside it on thread t1"
	is "$(rows "$T/au.db" "SELECT count(*) FROM track_slices")" 0 "track_uuid 0 ($(basename "$f")): none on a track of no thread"
	rm -f "$T/au.db"
done

"$BIN" import -q "$T/ios.pb" -o "$T/ios.db"
is "$(rows "$T/ios.db" "SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur, s.alloc_bytes, s.alloc_objects FROM slices s
	JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts")" \
	"259|0|-[AppDelegate run]|1000000|1000000|700000|2097152|5 259|1|-[Loader load]|1200000|300000|100000|1048576|2 771|0|-[Worker work]|1100000|200000|50000|0|0" \
	"iOS: slices with cpu_time_int (us), alloc_size (MiB), alloc_count"
is "$(rows "$T/ios.db" "$t")" "259|main|1 771|worker|0" "iOS: 'Callstack: Thread ' dropped, main by name"
is "$(rows "$T/ios.db" "SELECT key, value FROM meta WHERE key IN ('pid', 'process_name', 'main_tid') ORDER BY key")" \
	"main_tid|259 pid|1 process_name|com.example.ios" "iOS: pid 1, the bundle id, the main thread"
is "$(rows "$T/ios.db" "SELECT track, ts, value FROM counters ORDER BY track, ts")" \
	"cpu_usage|2000000|7 mem_usage|1000000|100 mem_usage|1500000|150.5" "iOS: counter tracks, double and int values"
is "$(rows "$T/ios.db" "SELECT track, name, ts, dur, depth FROM track_slices ORDER BY ts")" \
	"hitch|hitch|1100000|300000|0 hitch|inner|1150000|10000|1" "iOS: a slice track's nested pairs"
is "$(rows "$T/ios.db" "SELECT count(*) FROM diagnostics")" 0 "iOS: no diagnostics"
