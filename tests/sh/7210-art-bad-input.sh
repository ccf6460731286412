#!/bin/sh
# ART method traces at their edges (DESIGN §11): files cut at many offsets
# (with --strict: exit 1 naming the file and the offset of the cut item,
# nothing left behind; without: the records before the cut imported, the
# trace marked partial), lying lengths, garbage records and packets
# (exit 1 with file and offset, always), and the recoverable oddities,
# counted in diagnostics and shown in the report. Hand-made cases come
# from tests/fixtures/mkartcase.py, whole traces from mkart.py; how many
# records precede a cut is read by an independent walker below.
. tests/lib.sh
CASE="python3 tests/fixtures/mkartcase.py"
for c in $($CASE --list); do
	$CASE "$c" "$T/$c.trace"
done

# fatal NAME FILE PATTERN: exit 1, the message, no database, no report.
STRICT=
fatal() {
	name=$1 input=$2 pat=$3
	rm -f "$T"/out.* "$T"/report.*
	err=$("$BIN" import $STRICT "$input" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: $pat" "$name: message names the file and the byte offset"
	is "$(ls "$T" | grep -c '^out\.')" 0 "$name: no partial database"
	"$BIN" analyze $STRICT "$input" -o "$T/report.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^report\.')" 1:0 "$name: analyze fails too, no partial report"
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
all="SELECT s.tid, s.depth, f.name, s.ts, s.dur, s.cpu_dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts, s.depth"

# ---- the whole hand-made traces
for n in plain stream_plain v2_plain; do
	"$BIN" import -q "$T/$n.trace" -o "$T/$n.db"
	is "$?:$(q "$T/$n.db" "SELECT count(*) FROM diagnostics")" 0:0 "$n: imports, no diagnostics"
done
is "$(rows "$T/plain.db" "$all")" "100|0|void com.example.A.run()|1000010000|50000|50000 100|1|long com.example.A.inner(int)|1000020000|30000|30000 100|2|java.lang.Object com.example.B.work(java.lang.String, int[])|1000030000|10000|10000" \
	"plain: three nested calls, slashed class dotted, PrettyMethod names"
is "$(rows "$T/stream_plain.db" "$all")" "$(rows "$T/plain.db" "$all")" "streaming: the same calls from packets"
is "$(rows "$T/v2_plain.db" "$all")" "100|0|void com.example.A.run()|1000001000|5000|1500 100|1|long com.example.A.inner(int)|1000002000|3000|800 100|2|java.lang.Object com.example.B.work(java.lang.String, int[])|1000003000|1000|300" \
	"V2: ns deltas from the packet's first record"
"$BIN" import -q "$T/v2_chained.trace" -o "$T/v2_chained.db"
is "$(rows "$T/v2_chained.db" "$all")" "$(rows "$T/v2_plain.db" "$all")" "V2: a flush carried on into a second packet reads as one"
"$BIN" import -q "$T/lines_variants.trace" -o "$T/lines.db"
is "$(rows "$T/lines.db" "SELECT name FROM frames ORDER BY id")" "void com.example.A.run() long com.example.A.inner(int) com.example.B" \
	"method lines with and without line numbers, slashed and dotted, a class alone"

# ---- fatal, with or without --strict
fatal "action 3" "$T/bad_action.trace" "record 2 of '.*bad_action.trace' at offset 317 has action 3"
fatal "no SLOW header" "$T/bad_magic.trace" "no 'SLOW' data header in '.*bad_magic.trace' at offset 257"
fatal "version 7" "$T/bad_version.trace" "unknown method trace version '7' in '.*bad_version.trace' at offset 9"
fatal "versions differ" "$T/version_mismatch.trace" "data header version 2 in '.*version_mismatch.trace' at offset 261 differs"
fatal "unknown clock" "$T/bad_clock.trace" "unknown clock 'sundial' in '.*bad_clock.trace' at offset 42"
fatal "no *end" "$T/no_end.trace" "no '\\*end' line in the text of '.*no_end.trace' \\(from offset 0 to 252\\)"
fatal "records too small for the clock" "$T/small_records.trace" "records of 12 bytes in '.*small_records.trace' \\(data header at offset 257\\)"
fatal "record size 4" "$T/tiny_records.trace" "record size 4 in '.*tiny_records.trace' at offset 273"
fatal "offset to data inside the header" "$T/low_offset.trace" "offset to data 8 in '.*low_offset.trace' at offset 263"
fatal "data without its key" "$T/data_only.trace" "'.*data_only.trace' at offset 0 is the data part of a version 3 method trace without its text key"
fatal "SLOW version 9" "$T/slow_version.trace" "unknown method trace version 0x0009 in '.*slow_version.trace' at offset 4"
fatal "streaming packet type 7" "$T/stream_bad_packet.trace" "unknown packet type 7 in '.*stream_bad_packet.trace' at offset 60"
fatal "bytes after the summary" "$T/stream_after_summary.trace" "4 bytes after the summary of '.*stream_after_summary.trace' at offset 397"
fatal "V2 packet type 9" "$T/v2_bad_packet.trace" "unknown packet type 9 in '.*v2_bad_packet.trace' at offset 204"
fatal "entries not filling their packet" "$T/v2_short_count.trace" "entries packet in '.*v2_short_count.trace' at offset 204: its 6 records end at offset 262, not at its end \\(offset 266\\)"
fatal "entries count past the packet" "$T/v2_count_too_big.trace" "entries packet in '.*v2_count_too_big.trace' at offset 204 says 1000 records"
fatal "11-byte LEB128" "$T/v2_long_leb.trace" "bad LEB128 value \\(past 64 bits or its packet\\) in the entries of '.*v2_long_leb.trace' at offset 216"
fatal "V2 clock against its version" "$T/v2_clock_mismatch.trace" "'.*v2_clock_mismatch.trace' says clock=wall at offset [0-9]+, but its version 5 is dual-clock"

# ---- cut at many offsets
python3 tests/fixtures/mkart.py "$T/l.trace" --variant v3-dual --seed 5 --threads 3 --calls 80 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$T/s.trace" --variant stream3-dual --seed 6 --threads 3 --calls 80 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$T/v.trace" --variant v2s5-dual --seed 7 --threads 3 --calls 80 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$T/o.trace" --variant v1-cpu --seed 8 --threads 2 --calls 60 --no-truth >/dev/null
# walk FILE CUT: "RECORDS ITEM_START KIND" of the file cut after CUT bytes,
# read with the format's definition alone: the records wholly before the
# cut, and where the item the cut falls in starts (-1: between items).
cat >"$T/walk.py" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
cut = int(sys.argv[2])
def out(n, start, kind): print(n, start, kind); sys.exit(0)
if d.startswith(b"*version"):
    end = d.index(b"*end\n") + 5
    if cut < end: out(0, 0, "key")
    v = int(d.split(b"\n")[1])
    if cut < end + 32: out(0, end, "header")
    rs = {1: 9, 2: 10}.get(v) or struct.unpack_from("<H", d, end + 16)[0]
    n = (cut - end - 32) // rs
    start = end + 32 + n * rs
    out(n, -1 if start == cut else start, "record")
ver = d[4]
if cut < 32: out(0, 0, "header")
p, n = 32, 0
if ver in (0xF2, 0xF3):
    rs = 10 if ver == 0xF2 else struct.unpack_from("<H", d, 16)[0]
    while p < cut:
        tid = struct.unpack_from("<H", d, p)[0] if p + 2 <= cut else None
        if tid is None: out(n, p, "record")
        if tid:
            if p + rs > cut: out(n, p, "record")
            p += rs; n += 1; continue
        op = d[p + 2] if p + 3 <= cut else None
        size = {1: lambda: 5 + struct.unpack_from("<H", d, p + 3)[0], 2: lambda: 7 + struct.unpack_from("<H", d, p + 5)[0],
                3: lambda: 7 + struct.unpack_from("<I", d, p + 3)[0]}
        hdr = {1: 5, 2: 7, 3: 7}
        if op is None or p + hdr[op] > cut or p + size[op]() > cut: out(n, p, "packet")
        p += size[op]()
    out(n, -1, "packet")
while p < cut:
    t = d[p]
    hdr = {0: 7, 1: 11, 2: 12, 3: 3}[t]
    if p + hdr > cut: out(n, p, "packet")
    size = {0: lambda: 7 + struct.unpack_from("<H", d, p + 5)[0], 1: lambda: 11 + struct.unpack_from("<H", d, p + 9)[0],
            2: lambda: 12 + struct.unpack_from("<I", d, p + 8)[0], 3: lambda: 3 + struct.unpack_from("<H", d, p + 1)[0]}[t]()
    if p + size > cut: out(n, p, "packet")
    if t == 2: n += struct.unpack_from("<I", d[p + 5:p + 8] + b"\0")[0]
    p += size
out(n, -1, "packet")
PY
for f in l s v o; do
	size=$(wc -c <"$T/$f.trace")
	bad=0 good=0
	for k in 3 7 13 40 97 180 263 300 333 400 520 601 777 901 1024 1500 2049 3001 4097 5555 7001 9000; do
		cut=$((size * k / 10000))
		[ "$cut" -ge 4 ] || continue   # fewer bytes than 'SLOW' or '*ver' name no format
		head -c "$cut" "$T/$f.trace" >"$T/cut.trace"
		set -- $(python3 "$T/walk.py" "$T/$f.trace" "$cut")
		n=$1 start=$2 kind=$3
		rm -f "$T"/out.*
		err=$("$BIN" import --strict "$T/cut.trace" -o "$T/out.db" 2>&1 >/dev/null)
		rc=$?
		if [ "$kind" = key ]; then
			[ "$rc" = 1 ] && printf '%s' "$err" | grep -q "no '\*end' line in the text of '.*cut.trace' (from offset 0 to $cut)" &&
				[ ! -e "$T/out.db" ] && "$BIN" import "$T/cut.trace" -o "$T/out.db" >/dev/null 2>&1
			[ $? = 1 ] && good=$((good + 1)) || { bad=$((bad + 1)); echo "# $f cut $cut (key): $rc $err"; }
			continue
		fi
		case $start:$f in
		-1:[lo]) pat="its key counts [0-9]+ method calls, the records end at offset $cut after $n\$" ;;   # a legacy key counts them
		-1:*) pat="ends at offset $cut without the summary" ;;   # a streaming trace misses its summary
		*) pat="truncated .* in '.*cut.trace' at offset $start: " ;;
		esac
		if [ "$rc" = 1 ] && printf '%s' "$err" | grep -Eq "^btrace-analyze: error: .*$pat" && [ ! -e "$T/out.db" ] &&
			"$BIN" import -q "$T/cut.trace" -o "$T/out.db" 2>/dev/null &&
			[ "$(q "$T/out.db" "SELECT value FROM meta WHERE key = 'records'")" = "$n" ] &&
			[ "$(q "$T/out.db" "SELECT value FROM meta WHERE key = 'partial'")" = 1 ]; then
			good=$((good + 1))
		else
			bad=$((bad + 1))
			echo "# $f cut $cut ($kind at $start, $n records): rc $rc: $err"
		fi
	done
	is "$bad" 0 "$f: cut at $good offsets: --strict names the cut item's offset, without it the $n-and-so-on records before the cut are kept and the trace marked partial"
done
head -c "$(($(wc -c <"$T/l.trace") - 3))" "$T/l.trace" >"$T/l3.trace"
"$BIN" -q "$T/l3.trace" -o "$T/l3.json" 2>/dev/null
like "$(jq_ "$T/l3.json" 'd["trace"].get("partial")')" "cut at offset" "a cut trace's report says it is partial"

# ---- lying lengths (a length past the end reads as a cut)
p=$(wc -c <"$T/stream_no_summary.trace")
{ cat "$T/stream_no_summary.trace"; printf '\000\000\001\140\352'; head -c 20 /dev/zero; } >"$T/long_method.trace"
STRICT=--strict
fatal "method packet longer than the file" "$T/long_method.trace" "truncated method packet in '.*long_method.trace' at offset $p: 60005 bytes said, 25 there"
v=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d.rindex(b"\003Z\000*version"))' "$T/v2_plain.trace")
{ head -c "$v" "$T/v2_plain.trace"; printf '\002\144\000\000\000\006\000\000\377\377\000\000'; } >"$T/long_entries.trace"
fatal "entries size past the end" "$T/long_entries.trace" "truncated entries packet in '.*long_entries.trace' at offset $v: 65547 bytes said, 12 there"
STRICT=
python3 - "$T/plain.trace" "$T/long_offset.trace" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
h = d.index(b"*end\n") + 5
d[h + 6:h + 8] = (5000).to_bytes(2, "little")
open(sys.argv[2], "wb").write(d)
PY
"$BIN" import -q "$T/long_offset.trace" -o "$T/long_offset.db"
is "$?:$(q "$T/long_offset.db" "SELECT value FROM meta WHERE key = 'records'")" 0:0 "an offset to data past the end: a cut header, no records"
STRICT=--strict
fatal "offset to data past the end (--strict)" "$T/long_offset.trace" "truncated data header in '.*long_offset.trace' at offset 257: 5000 bytes said, 116 there"
STRICT=
for f in header.trace; do
	"$BIN" import -q "$REAL/perflib-dalvik-methodtrace/$f" -o "$T/h.db"
	is "$?:$(q "$T/h.db" "SELECT count(*) FROM threads"):$(q "$T/h.db" "SELECT value FROM meta WHERE key = 'partial'")" 0:2:1 \
		"TraceView's header-only test trace: its threads named, no records, partial"
done

# ---- recoverable oddities
diag "unknown method" "$T/unknown_method.trace" art_unknown_method 1
is "$(rows "$T/unknown method.db" "SELECT name FROM frames ORDER BY id")" "void com.example.A.run() <unknown method 0x40>" "unknown method: a placeholder name"
diag "exit mismatch" "$T/exit_mismatch.trace" art_exit_mismatch 1
is "$(rows "$T/exit mismatch.db" "SELECT depth, dur FROM slices ORDER BY id")" "0|20000 1|10000" "exit mismatch: the outer exit closes the inner call"
diag "time backwards" "$T/backwards.trace" art_time_backwards 1
is "$(rows "$T/time backwards.db" "SELECT depth, ts - 1000000000, dur FROM slices ORDER BY id")" "0|20000|10000 1|20000|5000" \
	"time backwards: held at the thread's last time"
diag "deeper than 1024" "$T/deep.trace" art_too_deep 76
is "$(rows "$T/deeper than 1024.db" "SELECT count(*), max(depth) FROM slices")" "1024|1023" "deep: 1024 levels sliced"
diag "bad key lines" "$T/bad_lines.trace" art_bad_method_line 1
is "$(q "$T/bad key lines.db" "SELECT group_concat(code || ':' || count, ' ') FROM (SELECT * FROM diagnostics ORDER BY code)")" \
	"art_bad_key_line:1 art_bad_method_line:1 art_bad_thread_line:1" "bad key lines: each kind counted"
diag "bad signature" "$T/bad_signature.trace" art_bad_signature 1
is "$(q "$T/bad signature.db" "SELECT name FROM frames")" "com.example.A.run" "bad signature: named class.method"
diag "duplicate method" "$T/duplicate_method.trace" art_duplicate_method 1
diag "tid past 16 bits" "$T/big_tids.trace" tid_truncated 1
is "$(rows "$T/tid past 16 bits.db" "SELECT tid, name, is_main FROM threads")" "4464|main|1" "tid past 16 bits: named and main as the records hold it"
diag "pid past 16 bits" "$T/big_tids.trace" pid_truncated 1
diag "pid 40000" "$T/pid_sign.trace" pid_sign 1
is "$(q "$T/pid 40000.db" "SELECT tid FROM threads WHERE is_main")" 40000 "pid 40000: read unsigned, the main thread found"
diag "record count" "$T/count_mismatch.trace" art_record_count_mismatch 1
diag "short of the count" "$T/count_short.trace" truncated_trace 1
is "$(q "$T/short of the count.db" "SELECT count(*) FROM slices")" 3 "short of the count: the records there imported, partial"
STRICT=--strict
fatal "short of the count (--strict)" "$T/count_short.trace" "truncated trace '.*count_short.trace': its key counts 99 method calls, the records end at offset $(wc -c <"$T/count_short.trace") after 6"
STRICT=
diag "buffer overflow" "$T/overflow.trace" art_buffer_overflow 1
diag "no clock" "$T/no_clock.trace" art_clock_unknown 1
is "$(q "$T/no clock.db" "SELECT value FROM meta WHERE key = 'clock'")" dual "no clock: version 3 read as dual"
diag "no clock, one time" "$T/no_clock_single.trace" art_clock_unknown 1
is "$(rows "$T/no clock, one time.db" "SELECT value FROM meta WHERE key = 'clock' UNION ALL SELECT dur FROM slices")" "thread-cpu 4000" \
	"no clock, 10-byte version 3 records: read as thread-CPU"
diag "bad UTF-8" "$T/bad_utf8.trace" invalid_utf8 2
is "$(rows "$T/bad UTF-8.db" "SELECT name FROM threads UNION ALL SELECT name FROM frames")" "ma�in void com.example.�.run()" "bad UTF-8: bad bytes as U+FFFD"
diag "start past 2^62" "$T/huge_start.trace" value_out_of_range 1
diag "no summary" "$T/stream_no_summary.trace" truncated_trace 1
is "$(q "$T/no summary.db" "SELECT count(*) FROM slices")" 3 "no summary: the calls before the end kept"
