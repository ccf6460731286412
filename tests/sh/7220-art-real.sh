#!/bin/sh
# Real ART and Dalvik method traces (../shared/real-traces: a sampled ART
# trace of an app's start, TraceView's test traces of a Dalvik VM): each
# imports (exit 0) with the slices an independent reading of the file
# gives, paired by the small reader below (every enter a call; an exit
# with no call open, one begun before tracing), and the ART trace shows
# its methods' wall and CPU time.
. tests/lib.sh
ART=$REAL/art-methodtrace
PERFLIB=$REAL/perflib-dalvik-methodtrace
if [ ! -d "$ART" ] || [ ! -d "$PERFLIB" ]; then
	echo "ok - # SKIP no real traces at $REAL"
	exit 0
fi

cat >"$T/pair.py" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
end = d.index(b"*end\n") + 5
key = d[:end].decode("utf-8", "replace").split("\n")
version = int(key[1])
clock = next((l[6:] for l in key if l.startswith("clock=")), "thread-cpu")
if len(d) < end + 32 or d[end + 6] | d[end + 7] << 8 > len(d) - end:
    print("0 0 0")   # the data header is cut: no records
    sys.exit(0)
off = d[end + 6] | d[end + 7] << 8
rs = {1: 9, 2: 10}.get(version) or struct.unpack_from("<H", d, end + 16)[0]
depth, calls, callers, records = {}, 0, 0, 0
for p in range(end + off, len(d) - rs + 1, rs):
    tid = d[p] if version == 1 else struct.unpack_from("<H", d, p)[0]
    word = struct.unpack_from("<I", d, p + (1 if version == 1 else 2))[0]
    records += 1
    if word & 3 == 0:
        calls += 1
        depth[tid] = depth.get(tid, 0) + 1
    elif depth.get(tid, 0):
        depth[tid] -= 1
    else:
        callers += 1
print(calls + callers, callers, sum(depth.values()))
PY

for f in "$ART"/*.trace "$PERFLIB"/*.trace; do
	n=$(basename "$f" .trace)
	"$BIN" import -q "$f" -o "$T/$n.db"
	is "$?" 0 "$n: imports"
	set -- $(python3 "$T/pair.py" "$f")
	is "$(q "$T/$n.db" "SELECT count(*) FROM slices")" "$1" "$n: $1 slices, as the records pair"
	is "$(q "$T/$n.db" "SELECT coalesce(sum(count), 0) FROM diagnostics WHERE code = 'art_exit_without_entry'"):$(q "$T/$n.db" "SELECT coalesce(sum(count), 0) FROM diagnostics WHERE code = 'art_open_at_end'")" \
		"$2:$3" "$n: $2 calls begun before tracing, $3 open at the end"
	"$BIN" -q "$f" -o "$T/$n.json"
	is "$?" 0 "$n: analyze exits 0"
done

# the ART trace: the app's start sampled by ART, with both clocks
db=$T/legacy.db
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM meta WHERE key IN ('clock', 'version', 'pid', 'main_tid', 'art_sampled') ORDER BY key)")" \
	"art_sampled=1 clock=dual main_tid=3142 pid=3142 version=3" "legacy: dual clock, pid 3142's main thread, sampled"
is "$(q "$db" "SELECT name FROM threads WHERE tid = 3168")" "GLThread 161" "legacy: threads named from *threads"
is "$(q "$db" "SELECT count FROM diagnostics WHERE code = 'art_open_at_end'")" 30 "legacy: the 30 calls open when tracing stopped"
like "$(q "$db" "SELECT detail FROM diagnostics WHERE code = 'art_sampled_trace'")" "sampled trace \\(a thread's records are 3024 us or more apart\\)" \
	"legacy: recognised as sampled, every 3 ms"
is "$(jq_ "$T/legacy.json" 'sum(1 for r in d["tables"]["main_methods"]["rows"] if r[1] > 0 and r[2] > 0 and r[3] > 0) >= 20')" True \
	"legacy: the main thread's methods with wall, CPU and off-CPU time"
is "$(jq_ "$T/legacy.json" '[r[1] for r in d["tables"]["methods"]["rows"] if "fromSquareDistance" in r[1]][:1] != []')" True \
	"legacy: all threads' methods by self time"
is "$(q "$db" "SELECT count(*) FROM slices WHERE cpu_dur > dur OR self_cpu_dur > self_dur + 1000")" 0 "legacy: no call has more CPU than wall time"
is "$(jq_ "$T/legacy.json" 'd["tables"]["threads"]["rows"][0][1] + ":" + str(d["tables"]["threads"]["rows"][0][2])')" "main:1" \
	"legacy: the main thread first"
out=$("$BIN" -q "$ART/legacy.trace")
like "$out" "warm start of the app" "legacy: the app's start found in the main thread's calls"
unlike "$out" "start of main" "legacy: the main thread's Java name is not taken for the package"
is "$(q "$db" "SELECT package IS NULL FROM startup")" 1 "legacy: the start's package unknown (NULL), not the thread's name"

# TraceView's Dalvik traces
is "$(q "$T/basic-api10.db" "SELECT value FROM meta WHERE key = 'clock'") $(q "$T/basic-api10.db" "SELECT count(*) FROM slices WHERE cpu_dur != dur")" \
	"thread-cpu 0" "basic-api10 (v1, thread-cpu): calls on their thread's CPU time"
is "$(q "$T/exception.db" "SELECT value FROM meta WHERE key = 'unroll_exits'")" 3 "exception: three calls ended by unrolling"
is "$(q "$T/exception.db" "SELECT group_concat(f.method || '@' || s.depth || ':' || ((s.ts + s.dur - (SELECT value FROM meta WHERE key = 'trace_start_ns')) / 1000), ' ')
	FROM (SELECT * FROM slices ORDER BY id) s JOIN frames f ON f.id = s.frame_id WHERE f.class = 'com.test.android.traceview.Exceptions'")" \
	"foo@0:294 bar@1:292 baz@2:290" "exception: foo, bar and baz end at their unroll records"
is "$(q "$T/mismatched.db" "SELECT group_concat(f.method || '@' || s.depth, ' ') FROM (SELECT * FROM slices ORDER BY id) s JOIN frames f ON f.id = s.frame_id")" \
	"foo@0 bar@1 startMethodTracing@2 startMethodTracing@3 startMethodTracing@4 baz@2 stopMethodTracing@0 stopMethodTracing@1" \
	"mismatched: exits of calls made before tracing become their callers"
is "$(q "$T/header.db" "SELECT value FROM meta WHERE key = 'partial'")" 1 "header: its data part is cut: partial"

# The start is found once, as the slices pass (the pipeline keeps the
# importer's model: a second model from rebuilt slices stored it twice)
is "$("$BIN" query -q "$ART/legacy.trace" "SELECT count(*) || ' ' || (SELECT value FROM meta WHERE key = 'startup_modeled') FROM startup" --format tsv | sed 1d)" \
	"1 1" "legacy: one startup row, modeled as the slices passed"
