#!/bin/sh
# ART method traces in the V2 layout as ART first wrote it (2023-24, the
# same versions 4/5 and 0xF4/0xF5 as the current one): method packets with
# u4 method indices, entries packets whose 17/21-byte header holds the
# first record (u4 method | action, u4 thread-CPU and/or wall time in us,
# u2 count - 1, u2 size), the others as an SLEB128 method | action since
# the first's and ULEB128 wall and CPU deltas, 32-bit us. The layout is
# told from the file (which one frames its packets); a hand-made trace
# gives exact slices, the writer's (tests/fixtures/mkart.py v2o*) its
# truth, with times that wrap 32 bits; written to a file (not streamed) it
# starts with the key's text and names no method or thread; cut and lying
# files fail or are kept partial as the current layout's; every report
# runs on one.
. tests/lib.sh
MKART="python3 tests/fixtures/mkart.py"
C=tests/fixtures/check_art_import.py

# ---- a hand-made trace: three nested calls and one more, in two packets
python3 - "$T/plain.trace" <<'PY'
import struct, sys

def sleb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            return bytes(out + bytes([b]))
        out.append(b | 0x80)

def uleb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        if not v:
            return bytes(out + bytes([b]))
        out.append(b | 0x80)

def entries(tid, enc, cpu, wall, rest):   # rest: (method|action - enc, wall delta, cpu delta)
    body = b"".join(sleb(m) + uleb(w) + uleb(c) for m, w, c in rest)
    return struct.pack("<BIIIIHH", 2, tid, enc, cpu, wall, len(rest), len(body)) + body

out = struct.pack("<IHQ", 0x574F4C53, 0xF5, 1000000) + b"\0" * 18   # start 1 s, in us
out += struct.pack("<BIH", 0, 100, 4) + b"main"
for idx, line in ((2, "com/example/A\trun\t()V\tA.java\n"), (1, "com.example.A\tinner\t(I)J\tA.java\n"),
                  (0, "com.example.B\twork\t(Ljava/lang/String;[I)Ljava/lang/Object;\tB.java\n")):
    out += struct.pack("<BIH", 1, idx, len(line)) + line.encode()
# enter run (2 << 2) at 10 us, CPU 0; inner, work; exit work, inner, run:
# the method | action of each since the packet's first (8), not the last
out += entries(100, 8, 0, 10, [(-4, 10, 5), (-8, 10, 3), (-7, 10, 2), (-3, 20, 4), (1, 15, 1)])
out += entries(100, 0, 16, 80, [(1, 10, 3)])   # work again, at 80 us, CPU 16 us
s = b"*version\n5\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=100\nvm=art\npid=100\n*end\n"
out += struct.pack("<BH", 3, len(s)) + s
open(sys.argv[1], "wb").write(out)
# the same after 100 thread packets (ART writes one at a thread's first
# event, the methods at its first flush): the same in both layouts
many = b"".join(struct.pack("<BIH", 0, 1000 + i, 6) + b"T-%04d" % i for i in range(100))
open(sys.argv[1].replace(".trace", "_threads.trace"), "wb").write(out[:32] + many + out[32:])
PY
rows() {   # db sql: rows as 'a|b|c' lines joined by spaces
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d | tr '\t' '|' | tr '\n' ' ' | sed 's/ $//'
}
all="SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts, s.depth"
"$BIN" import -q "$T/plain.trace" -o "$T/plain.db"
is "$?:$(q "$T/plain.db" "SELECT count(*) FROM diagnostics")" 0:0 "hand-made: imports, no diagnostics"
is "$(rows "$T/plain.db" "$all")" "100|0|void com.example.A.run()|1000010000|65000|15000 100|1|long com.example.A.inner(int)|1000020000|40000|9000 100|2|java.lang.Object com.example.B.work(java.lang.String, int[])|1000030000|10000|2000 100|0|java.lang.Object com.example.B.work(java.lang.String, int[])|1000080000|10000|3000" \
	"hand-made: wall and CPU per call in us, the first record from the header, methods since the first's"
is "$(q "$T/plain.db" "SELECT value FROM meta WHERE key = 'layout'") $(q "$T/plain.db" "SELECT value FROM meta WHERE key = 'trace_start_ns'") $(q "$T/plain.db" "SELECT value FROM meta WHERE key = 'elapsed_ns'")" \
	"v2-first 1000000000 100000" "hand-made: the layout named, the header's start and the summary's elapsed time in us"
is "$(rows "$T/plain.db" "SELECT name, is_main FROM threads")" "main|1" "hand-made: the thread packet names the main thread"
"$BIN" import -q "$T/plain_threads.trace" -o "$T/plain_threads.db"
is "$(q "$T/plain_threads.db" "SELECT value FROM meta WHERE key = 'layout'") $(rows "$T/plain_threads.db" "$all" | md5sum)" \
	"v2-first $(rows "$T/plain.db" "$all" | md5sum)" "hand-made after 100 thread packets: still told apart, the same calls"

# ---- the writer's truth, every clock, times that wrap 32 bits
case_() {   # name variant seed [mkart options]
	name=$1 variant=$2 seed=$3
	shift 3
	$MKART "$T/$name.trace" --variant "$variant" --seed "$seed" "$@" >/dev/null
	"$BIN" import -q "$T/$name.trace" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
case_ o5 v2o5-dual 41 --threads 4 --calls 900
case_ o4w v2o4-wall 42 --threads 3 --calls 700
case_ o4c v2o4-cpu 43 --threads 2 --calls 700
case_ o5-wrap v2o5-dual 44 --threads 3 --calls 600 --wrap
case_ o4w-wrap v2o4-wall 45 --wrap
case_ o5-sampled v2o5-dual 46 --sampled --threads 2
case_ of5 v2of5-dual 49 --threads 3 --calls 500
case_ of4c-wrap v2of4-cpu 50 --wrap
like "$("$BIN" import "$T/of5.trace" -o "$T/of5w.db" 2>&1 >/dev/null)" \
	"which ART's first V2 layout written to a file names nowhere \\(nor its threads\\).*\\[art_unknown_method, [0-9]+ times\\]" \
	"to a file: the key's text first, no method named, and the warning says why"
is "$(q "$T/of5.db" "SELECT value FROM meta WHERE key = 'layout'") $(q "$T/of5.db" "SELECT count(*) FROM meta WHERE key = 'partial'")" "v2-first 0" \
	"to a file: the key is its summary (not partial for want of one)"
python3 - "$T/of5.trace" "$T/of5_v4.trace" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
h = d.index(b"*end\n") + 5
d[h + 4] = 4
open(sys.argv[2], "wb").write(d)
PY
err=$("$BIN" import "$T/of5_v4.trace" -o "$T/of5_v4.db" 2>&1 >/dev/null)
is "$?" 1 "to a file: a data header of another version than the key's: exit 1"
like "$err" "data header version 4 in '.*of5_v4.trace' at offset [0-9]+ differs from the text's 5" "and the message says where"
head -c "$(($(grep -abo '\*end' "$T/of5.trace" | cut -d: -f1) + 5 + 20))" "$T/of5.trace" >"$T/of5_cut.trace"
"$BIN" import -q "$T/of5_cut.trace" -o "$T/of5_cut.db"
is "$?:$(q "$T/of5_cut.db" "SELECT value FROM meta WHERE key = 'partial'"):$(q "$T/of5_cut.db" "SELECT value FROM meta WHERE key = 'records'")" "0:1:0" \
	"to a file, cut inside its data header: partial, no records"
is "$(q "$T/o5-wrap.db" "SELECT max(ts) - (SELECT value FROM meta WHERE key = 'trace_start_ns') > 4294967296000 FROM slices")" 1 \
	"wrap: calls after 2^32 us lie after it, not at its start"
# a flush of more than 65536 records: ART wrote its u2 count - 1 and size
# modulo 65536; the packet is read to where its records end (compared
# directly: the checker's self-time query is quadratic at this size)
$MKART "$T/big.trace" --variant v2o5-dual --seed 51 --threads 2 --calls 34000 --big-flush >/dev/null
err=$("$BIN" import "$T/big.trace" -o "$T/big.db" 2>&1 >/dev/null)
is "$?" 0 "big flush: import exits 0"
like "$err" "u2 record count and size ART wrote modulo 65536 .*\\[art_v2_count_wrapped, 2 times\\]" "big flush: the wrapped packets counted"
is "$(python3 - "$T/big.db" "$T/big/truth/slices.tsv" <<'PY'
import csv, sqlite3, sys
got = sorted(sqlite3.connect(sys.argv[1]).execute("SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur FROM slices s "
                                                   "JOIN frames f ON f.id = s.frame_id").fetchall())
want = sorted((int(r["tid"]), int(r["depth"]), r["name"], int(r["ts"]), int(r["dur"]), int(r["cpu_dur"]))
              for r in csv.DictReader(open(sys.argv[2]), delimiter="\t", quoting=csv.QUOTE_NONE))
print(len(want) > 65536 // 2, got == want)
PY
)" "True True" "big flush: every slice of the truth, wall and CPU time"
$MKART "$T/cur.trace" --variant v2s5-dual --seed 47 --no-truth >/dev/null
"$BIN" import -q "$T/cur.trace" -o "$T/cur.db"
is "$(q "$T/cur.db" "SELECT value FROM meta WHERE key = 'layout'") $(q "$T/o5.db" "SELECT value FROM meta WHERE key = 'layout'")" "v2 v2-first" \
	"the layout is told from the file: the current one stays v2"

# ---- cut at many offsets: --strict names the cut item, without it the
# records before the cut are kept and the trace is partial (the walker
# below reads the layout's definition alone)
$MKART "$T/w.trace" --variant v2o5-dual --seed 48 --threads 3 --calls 80 --no-truth >/dev/null
cat >"$T/walk.py" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
cut = int(sys.argv[2])
def out(n, start): print(n, start); sys.exit(0)
if cut < 32: out(0, 0)
p, n = 32, 0
while p < cut:
    t = d[p]
    hdr = {0: 7, 1: 7, 2: 21, 3: 3}[t]
    if p + hdr > cut: out(n, p)
    size = {0: lambda: 7 + struct.unpack_from("<H", d, p + 5)[0], 1: lambda: 7 + struct.unpack_from("<H", d, p + 5)[0],
            2: lambda: 21 + struct.unpack_from("<H", d, p + 19)[0], 3: lambda: 3 + struct.unpack_from("<H", d, p + 1)[0]}[t]()
    if p + size > cut: out(n, p)
    if t == 2: n += struct.unpack_from("<H", d, p + 17)[0] + 1
    p += size
out(n, -1)
PY
size=$(wc -c <"$T/w.trace")
bad=0 good=0
for k in 5 9 31 77 150 222 301 389 450 512 640 777 850 999 1234 2000 2711 3500 4444 5001 6100 7300 8200 9100 9800 9990; do
	cut=$((size * k / 10000))
	[ "$cut" -ge 4 ] || continue   # fewer bytes than 'SLOW' name no format
	head -c "$cut" "$T/w.trace" >"$T/cut.trace"
	set -- $(python3 "$T/walk.py" "$T/w.trace" "$cut")
	n=$1 start=$2
	rm -f "$T"/out.*
	err=$("$BIN" import --strict "$T/cut.trace" -o "$T/out.db" 2>&1 >/dev/null)
	rc=$?
	case $start in
	-1) pat="ends at offset $cut without the summary" ;;
	0) pat="truncated data header in '.*cut.trace' at offset 0: " ;;
	*) pat="truncated .* in '.*cut.trace' at offset $start: " ;;
	esac
	if [ "$rc" = 1 ] && printf '%s' "$err" | grep -Eq "^btrace-analyze: error: .*$pat" && [ ! -e "$T/out.db" ] &&
		"$BIN" import -q "$T/cut.trace" -o "$T/out.db" 2>/dev/null &&
		[ "$(q "$T/out.db" "SELECT value FROM meta WHERE key = 'records'")" = "$n" ] &&
		[ "$(q "$T/out.db" "SELECT value FROM meta WHERE key = 'partial'")" = 1 ]; then
		good=$((good + 1))
	else
		bad=$((bad + 1))
		echo "# cut $cut (item at $start, $n records): rc $rc: $err"
	fi
done
is "$bad" 0 "cut at $good offsets: --strict names the cut item's offset, without it the records before the cut are kept, partial"

# ---- lying lengths and garbage: exit 1 naming the file and the offset
STRICT=
fatal() {   # name file pattern
	rm -f "$T"/out.*
	err=$("$BIN" import $STRICT "$2" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?:$(ls "$T" | grep -c '^out\.')" 1:0 "$1: exit 1, no database"
	like "$err" "^btrace-analyze: error: $3" "$1: the message names the file and the offset"
}
# patch NAME OFFSET BYTES...: the hand-made trace with bytes replaced
patch() {
	python3 - "$T/plain.trace" "$T/$1.trace" "$2" "$3" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
at, b = int(sys.argv[3]), bytes.fromhex(sys.argv[4])
d[at:at + len(b)] = b
open(sys.argv[2], "wb").write(d)
PY
}
e=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().index(b"\002\144\000\000\000\010"))' "$T/plain.trace")
patch count_big $((e + 17)) 6400   # 101 records in 15 bytes
fatal "count past its bytes" "$T/count_big.trace" "entries packet in '.*count_big.trace' at offset $e says 101 records, which its 15 bytes cannot hold"
patch count_small $((e + 17)) 0300   # 4 records: the fifth's bytes are left over
fatal "count short of its bytes" "$T/count_small.trace" "entries packet in '.*count_small.trace' at offset $e: its 4 records end at offset $((e + 21 + 9)), not at its end \\(offset $((e + 21 + 15))\\)"
patch long_leb $((e + 21)) ffffffffffffffffffffff
fatal "11-byte LEB128" "$T/long_leb.trace" "bad LEB128 value \\(past 64 bits or its packet\\) in the entries of '.*long_leb.trace' at offset $((e + 21))"
patch size_big $((e + 19)) ff7f   # a size past the end reads as a cut (--strict: an error)
STRICT=--strict
fatal "size past the end" "$T/size_big.trace" "truncated entries packet in '.*size_big.trace' at offset $e: 32788 bytes said, [0-9]+ there"
STRICT=

# ---- every report on it
"$BIN" -q "$T/o5.trace" -o "$T/o5.json" && "$BIN" -q "$T/o5.trace" -o "$T/o5.txt" &&
	"$BIN" -q "$T/o5.trace" --pprof "$T/o5.pb.gz" --folded "$T/o5.folded" --perfetto "$T/o5.pftrace" -o "$T/o5.md"
is "$?" 0 "reports: json, text, md, --pprof, --folded, --perfetto exit 0"
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["trace"]["format"], d["trace"]["records"] > 0)' "$T/o5.json")" \
	"art-method-trace True" "reports: the JSON report names the format and counts the records"
like "$(cat "$T/o5.txt")" "thread\\.main\\.cpu_ns +[1-9]" "reports: the text report shows the main thread's CPU time"
