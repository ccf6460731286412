#!/bin/sh
# btrace 2.0 raw traces at their edges (DESIGN §11), on the hand-made
# cases of tests/fixtures/mkb2case.py and a trace of mkbtrace2.py: a
# header cut short or lying (an older version, times out of range) exits 1
# naming the file and the byte offset, leaving nothing behind; a trace cut
# inside a record (at every offset) keeps the records before it, marked
# partial and counted (--strict: exit 1); a cut between records is a
# shorter trace. Garbage records (a first word only, thread 0, times past
# the format's 45 bits), records of an earlier session, calls begun before
# tracing, records out of their end order, crossing calls, nesting past
# 512, method ids the mapping lacks and malformed mapping lines are
# counted in diagnostics with the rest imported right; without a mapping
# methods get placeholders and every report says so first; the mapping
# given as INPUT is named.
. tests/lib.sh
CASE="python3 tests/fixtures/mkb2case.py"

for c in $($CASE --list); do
	$CASE "$c" "$T/$c"
done

rows() {   # db sql: rows as 'a|b|c' lines joined by spaces
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d | tr '\t' '|' | tr '\n' ' ' | sed 's/ $//'
}
all="SELECT s.tid, s.depth, f.name, s.ts - 7000000000, s.dur FROM slices s JOIN frames f ON f.id = s.frame_id
	ORDER BY s.tid, s.ts, s.depth"
PLAIN="100|0|void com.example.App.onCreate()|1000|8000 100|1|void com.example.Feed.load(java.lang.String, int)|2000|3000 100|2|java.lang.Object[] com.example.Feed.parse(byte[], long)|3000|1000 101|0|com.example.Native.run(?)|1500|1000"

# fatal NAME INPUT PATTERN: exit 1, the message, no database, no report.
STRICT=
fatal() {
	name=$1 input=$2 pat=$3
	rm -f "$T"/out.* "$T"/report.*
	err=$("$BIN" import $STRICT "$input" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: $pat" "$name: the message names the file and the byte offset"
	is "$(ls "$T" | grep -c '^out\.')" 0 "$name: no partial database"
	"$BIN" analyze $STRICT "$input" -o "$T/report.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^report\.')" 1:0 "$name: analyze fails too, no partial report"
}

# diag NAME INPUT CODE COUNT: exit 0, counted, warned about, in the report.
diag() {
	name=$1 input=$2 code=$3 count=$4
	err=$("$BIN" import "$input" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?" 0 "$name: exit 0"
	is "$(q "$T/$name.db" "SELECT count FROM diagnostics WHERE code = '$code'")" "$count" "$name: $code counted $count"
	like "$err" "warning: .*\\[$code" "$name: a warning on stderr"
	like "$("$BIN" -q "$T/$name.db")" "$code \\($count\\): " "$name: the report shows $code"
}

# ---- the plain case: what every other is compared with
"$BIN" import -q "$T/plain" -o "$T/plain.db"
is "$(rows "$T/plain.db" "$all")" "$PLAIN" "plain: the slices on the boot clock (bootTime + start), nested"
is "$(rows "$T/plain.db" "SELECT tid, name, is_main FROM threads ORDER BY tid")" "100||1 101||0" \
	"plain: threads with no names (the format has none), main = pid"
is "$(rows "$T/plain.db" "SELECT count(*) FROM diagnostics")" 0 "plain: no diagnostics"
"$BIN" import -q "$T/plain/appTrace.bin" -o "$T/file.db"
is "$(rows "$T/file.db" "$all")" "$PLAIN" "the appTrace.bin itself: its methodMapping.txt found beside it"
mkdir "$T/elsewhere"
cp "$T/plain/appTrace.bin" "$T/elsewhere/trace.bin"
"$BIN" import -q "$T/elsewhere/trace.bin" --mapping "$T/plain/methodMapping.txt" -o "$T/mapped.db"
is "$(rows "$T/mapped.db" "$all")" "$PLAIN" "any name, the mapping given with --mapping"
"$BIN" import -q "$T/same-clock" -o "$T/same.db"
is "$(rows "$T/same.db" "SELECT min(ts) FROM slices")" 5000001000 \
	"bootTime within 1 ms of monotonicTime: one clock, times as measured (upstream's rule)"
"$BIN" import -q "$T/padded" -o "$T/padded.db"
is "$(rows "$T/padded.db" "$all") $(rows "$T/padded.db" "SELECT value FROM meta WHERE key = 'empty_slots'")" "$PLAIN 5" \
	"zero slots and a zero tail (the writer's unused buffer): skipped, not a cut, counted in meta"
is "$(rows "$T/padded.db" "SELECT count(*) FROM diagnostics")" 0 "zero slots: no diagnostics"
"$BIN" import -q "$T/header-only" -o "$T/empty.db"
is "$?:$(rows "$T/empty.db" "SELECT count(*) FROM slices")" 0:0 "a header alone: an empty trace"
like "$("$BIN" -q "$T/header-only")" "slices +0 as the trace has them" "a header alone: the report says 0 slices"

# ---- cut short: at every offset of the plain case (96 bytes)
n=$(wc -c <"$T/plain/appTrace.bin")
is "$n" 96 "the plain case is a header and 4 records"
bad=0 salv=0 whole=0
for cut in $(seq 8 95); do
	mkdir -p "$T/cut$cut"
	head -c "$cut" "$T/plain/appTrace.bin" >"$T/cut$cut/appTrace.bin"
	cp "$T/plain/methodMapping.txt" "$T/cut$cut/"
	err=$("$BIN" import "$T/cut$cut" -o "$T/cut$cut.db" 2>&1 >/dev/null)
	rc=$?
	if [ "$cut" -lt 32 ]; then
		printf '%s' "$err" | grep -q "error: truncated header in '.*cut$cut/appTrace.bin' at offset 0: need 32 bytes, $cut left" &&
			[ "$rc" = 1 ] && [ ! -e "$T/cut$cut.db" ] || bad=$((bad + 1))
	elif [ $(((cut - 32) % 16)) = 0 ]; then
		[ "$rc" = 0 ] && [ "$(q "$T/cut$cut.db" "SELECT count(*) FROM slices")" = $(((cut - 32) / 16)) ] &&
			[ -z "$err" ] && whole=$((whole + 1))
	else
		start=$((32 + (cut - 32) / 16 * 16))
		[ "$rc" = 0 ] &&
			[ "$(q "$T/cut$cut.db" "SELECT count(*) FROM slices")" = $(((cut - 32) / 16)) ] &&
			[ "$(q "$T/cut$cut.db" "SELECT count FROM diagnostics WHERE code = 'truncated_trace'")" = 1 ] &&
			[ "$(q "$T/cut$cut.db" "SELECT value FROM meta WHERE key = 'partial'")" = 1 ] &&
			printf '%s' "$err" | grep -q "is cut at offset $cut inside a record (from offset $start): its $((cut - start)) bytes lost" &&
			salv=$((salv + 1))
		"$BIN" import --strict "$T/cut$cut" -o "$T/strict$cut.db" 2>"$T/strict.err"
		[ "$?" = 1 ] && [ ! -e "$T/strict$cut.db" ] &&
			grep -q "error: truncated record in '.*cut$cut/appTrace.bin' at offset $start: need 16 bytes, $((cut - start)) left" \
				"$T/strict.err" || bad=$((bad + 1))
	fi
done
is "$bad" 0 "cut at 8..31 (a header cut short), or inside a record with --strict: exit 1, the offset, no database"
is "$salv" 60 "cut inside a record (60 offsets): the records before it kept, partial, truncated_trace counted"
is "$whole" 4 "cut between records (4 offsets): a shorter trace, nothing to tell"
like "$("$BIN" -q "$T/cut90" 2>/dev/null | head -n 1)" "^PARTIAL +the input is cut short: .*cut at offset 90" \
	"cut short: the report's first line says so"
head -c 3 "$T/plain/appTrace.bin" >"$T/three.bin"
fatal "three bytes" "$T/three.bin" "unrecognised input '.*three.bin': only 3 bytes at offset 0"

# ---- lying headers
fatal "version 4" "$T/version4" "appTrace.bin version 4 in '.*version4/appTrace.bin' at offset 0 is older than btrace 2.0's layout"
fatal "negative bootTime" "$T/negative-boot" "bootTime -1 ns in '.*negative-boot/appTrace.bin' at offset 8 is out of range"
fatal "monotonicTime past 2^61" "$T/huge-mono" "monotonicTime 4611686018427387904 ns in '.*huge-mono/appTrace.bin' at offset 16 is out of range"
diag "version 9" "$T/version9" unknown_version 1
is "$(rows "$T/version 9.db" "$all")" "$PLAIN" "version 9: read as 5"
diag "begin before the first start" "$T/begin-before" bad_trace_begin 1
is "$(rows "$T/begin before the first start.db" "$all")" "$PLAIN" "begin before the first start: ignored, every record kept"
diag "pid 40000" "$T/tid-40000" pid_truncated 1
is "$(rows "$T/pid 40000.db" "SELECT tid, is_main FROM threads") $(rows "$T/pid 40000.db" "SELECT dur FROM slices")" \
	"7232|1 257" "pid 40000: main thread 40000 & 0x7FFF, the writer's unmasked tid bit in the duration as upstream reads it"
printf '\005\000\000\000\000\000\000\000' | cat - "$T/plain/appTrace.bin" | head -c 96 >"$T/pid0.bin"
fatal "pid 0" "$T/pid0.bin" "unrecognised input '.*pid0.bin': bytes 05 00 00 00 at offset 0 match no supported format"

# ---- garbage records, sessions, order, nesting
diag "a first word only" "$T/garbage" unfinished_record 1
is "$(rows "$T/a first word only.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"bad_tid|1 time_out_of_range|1 unfinished_record|1" "garbage: thread 0 and an all-ones record counted too"
is "$(rows "$T/a first word only.db" "$all")" "$PLAIN" "garbage: the good records kept"
diag "two sessions" "$T/session" before_trace_begin 1
is "$(rows "$T/two sessions.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"before_trace_begin|1 began_before_trace|1" "two sessions: the earlier one's record dropped, a call begun before clamped"
is "$(rows "$T/two sessions.db" "$all")" \
	"100|0|java.lang.Object[] com.example.Feed.parse(byte[], long)|1000|2500 100|1|void com.example.Feed.load(java.lang.String, int)|2000|100" \
	"two sessions: the clamped call begins at the trace's begin and holds the later one"
diag "out of order" "$T/unordered" records_out_of_order 1
is "$(rows "$T/out of order.db" "$all")" \
	"101|0|java.lang.Object[] com.example.Feed.parse(byte[], long)|0|300 101|1|void com.example.Feed.load(java.lang.String, int)|10|20 101|1|void com.example.App.onCreate()|100|50" \
	"out of order: sorted, nested"
diag "crossing calls" "$T/overlap" overlapping_records 1
is "$(rows "$T/crossing calls.db" "$all")" \
	"100|0|void com.example.App.onCreate()|100|300 100|0|void com.example.Feed.load(java.lang.String, int)|400|200" \
	"crossing calls: the later begins where the earlier ended"
diag "600 levels" "$T/deep" too_deep 88
is "$(rows "$T/600 levels.db" "SELECT count(*), max(depth), min(ts) - 7000000000, max(ts + dur) - 7000000000 FROM slices")" \
	"512|511|1000|3000" "600 levels: 512 kept, nested"
diag "unmapped id" "$T/unmapped" unmapped_method 1
is "$(rows "$T/unmapped id.db" "SELECT f.name FROM slices s JOIN frames f ON f.id = s.frame_id WHERE s.ts = 7000009500")" \
	"<unknown method 77>" "unmapped id: a placeholder named by its id"

# ---- the mapping
diag "bad mapping lines" "$T/bad-mapping" bad_mapping_line 1
is "$(rows "$T/bad mapping lines.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"bad_descriptor|1 bad_mapping_line|1 duplicate_mapping_id|1 mapping_id_range|1" \
	"bad mapping: a second line for an id, an id past 23 bits, a bad descriptor counted too"
is "$(rows "$T/bad mapping lines.db" "SELECT f.name FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts")" \
	"void com.example.App.onCreate() void com.example.Feed.load(java.lang.String, int) com.example.Feed.parse(?) com.example.Native.run(?)" \
	"bad mapping: the first name of an id kept; a bad descriptor: class and method"
mkdir "$T/nomap"
cp "$T/plain/appTrace.bin" "$T/nomap/"
diag "no mapping" "$T/nomap" mapping_missing 1
is "$(rows "$T/no mapping.db" "SELECT f.name FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts")" \
	"<unknown method 1> <unknown method 2> <unknown method 3> <unknown method 4>" "no mapping: placeholders"
like "$("$BIN" -q "$T/nomap" | head -n 1)" "^NO NAMES +analysed without its mapping file: methods read <unknown method ID>" \
	"no mapping: the report's first line says so"
"$BIN" -q "$T/nomap" -o "$T/nomap.json"
is "$(jq_ "$T/nomap.json" 'd["trace"]["no_names"][:41]')" "analysed without its mapping file: method" \
	"no mapping: the JSON report says so"
fatal "the mapping as INPUT" "$T/plain/methodMapping.txt" \
	"unrecognised input '.*methodMapping.txt': this is a methodMapping.txt \\(btrace 2.0's or Matrix's method names\\); pass the appTrace.bin beside it"
printf '1,1,com.tencent.A b ()V\n' >"$T/matrix.txt"
fatal "a Matrix mapping as INPUT" "$T/matrix.txt" "unrecognised input '.*matrix.txt': this is a methodMapping.txt"
err=$("$BIN" import "$T/plain" --mapping "$T/nope.txt" -o "$T/out.db" 2>&1 >/dev/null)
is "$?:$(ls "$T" | grep -c '^out\.')" 1:0 "a missing --mapping: exit 1, no database"
like "$err" "^btrace-analyze: error: cannot open '$T/nope.txt': No such file or directory" "a missing --mapping: named"
