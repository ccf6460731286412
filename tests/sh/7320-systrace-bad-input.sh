#!/bin/sh
# systrace input at its edges (DESIGN §11): a text cut at many offsets
# (salvaged up to its last whole line and marked partial; with --strict
# exit 1 naming the file and the offset), gzip'd and zlib'd traces cut,
# corrupt or lying (exit 1 with the file and the byte offset where it is
# fatal), garbage and binary lines, bad markers, bad scheduler lines and
# out-of-range values (counted in diagnostics, the rest imported as the
# truth says), an HTML page without trace data, a line past 1 MiB; nothing
# is left behind (no database, no report, no spill file in $TMPDIR).
. tests/lib.sh
MK="python3 tests/fixtures/mksystrace.py"
C=tests/fixtures/check_systrace_import.py
TMPDIR=$T/tmp
export TMPDIR
mkdir -p "$TMPDIR"

# fatal NAME FILE PATTERN [--strict]: exit 1, the message, nothing left.
fatal() {
	name=$1 input=$2 pat=$3 strict=${4:-}
	rm -f "$T"/out.* "$T"/report.*
	err=$("$BIN" import $strict "$input" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: $pat" "$name: the message names the file and the byte offset"
	is "$(ls "$T" | grep -c '^out\.')" 0 "$name: no partial database"
	"$BIN" analyze $strict "$input" -o "$T/report.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^report\.')" 1:0 "$name: analyze fails too, no partial report"
	is "$(ls "$TMPDIR" | wc -l)" 0 "$name: no temporary file left"
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

$MK "$T/g/t" --seed 21 --frames 30 --tgid
f=$T/g/t
size=$(wc -c <"$f")
"$BIN" import -q "$f" -o "$T/whole.db"
whole=$(q "$T/whole.db" "SELECT count(*) FROM slices")

# ---- a text cut at 40 offsets: salvaged, or an error with --strict
i=0 bad=0 worse=0 left=0
while [ $i -lt 40 ]; do
	off=$(( (size * (i * 37 + 11) / 1480) + i ))
	head -c "$off" "$f" >"$T/cut"
	last=$(tail -c 1 "$T/cut" | od -An -c | tr -d ' ')
	line=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d.rfind(b"\n") + 1)' "$T/cut")
	"$BIN" import -q "$T/cut" -o "$T/cut.db" 2>/dev/null
	rc=$?
	n=$(q "$T/cut.db" "SELECT count(*) FROM slices")
	p=$(q "$T/cut.db" "SELECT coalesce((SELECT value FROM meta WHERE key = 'partial'), 0)")
	rm -f "$T/strict.db"
	err=$("$BIN" import -q --strict "$T/cut" -o "$T/strict.db" 2>&1)
	src=$?
	[ "$src" = 1 ] && [ -e "$T/strict.db" ] && left=$((left + 1))
	if [ "$last" = '\n' ]; then want="0 0 0"; else want="0 1 1"; fi
	[ "$line" -lt 700 ] && want="0 0 0"   # inside the header: comments only
	if [ "$rc $p $src" != "$want" ] || [ "$n" -gt "$whole" ]; then
		bad=$((bad + 1)); echo "# offset $off: rc $rc partial $p strict $src slices $n (want $want)"
	fi
	if [ "$src" = 1 ] && ! printf '%s' "$err" | grep -q "a line cut short in '.*cut' at byte offset $line\$"; then
		worse=$((worse + 1)); echo "# offset $off: $err"
	fi
	i=$((i + 1))
done
is "$bad" 0 "cut at 40 offsets: exit 0, partial where a line was cut, never more slices than the whole"
is "$worse" 0 "cut at 40 offsets: --strict names the file and the cut line's offset"
is "$left" 0 "cut with --strict: no database left where it failed"

# ---- gzip: cut, corrupt
gzip -c "$f" >"$T/g.gz"
n=$(wc -c <"$T/g.gz")
head -c $((n / 2)) "$T/g.gz" >"$T/gcut.gz"
fatal "gzip cut in half, --strict" "$T/gcut.gz" "truncated gzip stream in '.*gcut.gz' at byte offset $((n / 2))\$" --strict
"$BIN" import -q "$T/gcut.gz" -o "$T/gcut.db"
is "$?:$(q "$T/gcut.db" "SELECT value FROM meta WHERE key = 'partial'")" 0:1 "gzip cut in half: salvaged, marked partial"
cp "$T/g.gz" "$T/gbad.gz"
printf '\377\377\377\377\377\377\377\377\377\377\377\377' | dd of="$T/gbad.gz" bs=1 seek=$((n / 3)) conv=notrunc status=none
err=$("$BIN" import "$T/gbad.gz" -o "$T/out.db" 2>&1 >/dev/null)
is "$?" 1 "corrupt gzip: exit 1"
off=$(printf '%s' "$err" | sed -n "s/^btrace-analyze: error: corrupt gzip stream in '.*gbad.gz' near byte offset \([0-9]*\): .*/\1/p")
check "corrupt gzip: the message names the file and an offset near the damage ($off)" \
	test "${off:-0}" -ge $((n / 3)) -a "${off:-0}" -le "$n"
"$BIN" import -q "$T/g.gz" -o "$T/g.db"
is "$(q "$T/g.db" "SELECT count(*) || ' ' || sum(dur) || ' ' || sum(cpu_dur) FROM slices")" \
	"$(q "$T/whole.db" "SELECT count(*) || ' ' || sum(dur) || ' ' || sum(cpu_dur) FROM slices")" "whole gzip: the plain trace's slices"
{ cat "$T/g.gz"; printf 'trailing junk'; } >"$T/gtrail.gz"
diag "gzip with junk after it" "$T/gtrail.gz" systrace_trailing_bytes 1

# ---- atrace's zlib: lying, cut, corrupt
$MK "$T/z/t" --seed 22 --frames 30 --container zlib --chunks 4 --no-truth
z=$T/z/t
zn=$(wc -c <"$z")
s0=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d.index(b"TRACE:\n") + 7)' "$z")
head -c $((zn - 100)) "$z" >"$T/zcut"
fatal "zlib cut, --strict" "$T/zcut" "truncated zlib stream in '.*zcut' at byte offset $((zn - 100))\$" --strict
"$BIN" import -q "$T/zcut" -o "$T/zcut.db"
is "$?:$(q "$T/zcut.db" "SELECT value FROM meta WHERE key = 'partial'")" 0:1 "zlib cut: salvaged, marked partial"
cp "$z" "$T/zbad"
printf '\000\377\000\377\000\377\000\377' | dd of="$T/zbad" bs=1 seek=$((s0 + 40)) conv=notrunc status=none
err=$("$BIN" import "$T/zbad" -o "$T/out.db" 2>&1 >/dev/null)
is "$?" 1 "corrupt zlib: exit 1"
like "$err" "^btrace-analyze: error: corrupt zlib stream in '.*zbad' near byte offset [0-9]+: " "corrupt zlib: the file and the offset"
is "$(ls "$T" | grep -c '^out\.')" 0 "corrupt zlib: no database"
python3 -c 'import sys, zlib
d = open(sys.argv[1], "rb").read(); i = d.index(b"TRACE:\n") + 7
c = zlib.compress(b"x" * 100)
open(sys.argv[2], "wb").write(d + c[:2] + bytes(reversed(c[2:])))' "$z" "$T/zlie"
err=$("$BIN" import "$T/zlie" -o "$T/out.db" 2>&1 >/dev/null)
is "$?" 1 "a chunk with a zlib header and no zlib data after it: exit 1"
like "$err" "corrupt zlib stream in '.*zlie' near byte offset [0-9]+: " "lying chunk: the file and the offset"
printf 'TRACE:\n\170\234' >"$T/zhead"
head -c 3000 /dev/zero | tr '\0' '\377' >>"$T/zhead"
fatal "a zlib header and garbage" "$T/zhead" "corrupt zlib stream in '.*zhead' near byte offset [0-9]+: "
python3 -c 'import sys, zlib; open(sys.argv[1], "wb").write(b"TRACE:\n" + zlib.compress(b"# tracer: nop\n" + b"A" * (3 << 20)))' "$T/zlong"
fatal "a line of 3 MiB" "$T/zlong" "a line of more than 1048576 bytes in '.*zlong' at byte offset 14 of the inflated text"
{ sed -n 1,20p "$f"; head -c 2000000 /dev/zero | tr '\0' 'a'; } >"$T/long"
fatal "a text line of 2 MB" "$T/long" "a line of more than 1048576 bytes in '.*long' at byte offset [0-9]+: not ftrace text"

# ---- not systrace after all
printf '<!DOCTYPE html>\n<html><body><p>hello</p></body></html>\n' >"$T/page.html"
fatal "HTML without trace data" "$T/page.html" "no systrace data in the HTML page '.*page.html'"
{ printf '# tracer: nop\n#\n'; head -c 3000 /dev/urandom | tr -d '\n#'; printf '\nmore garbage\n'; } >"$T/noise"
fatal "a header and binary noise" "$T/noise" "no ftrace event lines in '.*noise': 2 lines, the first at byte offset 16: "
{ sed -n '1,10p' "$f"; printf '<script class="trace-data">\n'; } >"$T/mix"
"$BIN" import -q "$T/mix" -o "$T/mix.db"
is "$?" 0 "a text trace is no HTML page because a line holds a script tag"

# ---- recoverable: the truth still holds, the oddities are counted
python3 - "$f" "$T/garbage" <<'PY'
import random, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
r = random.Random(5)
junk = ["some = 000, other = 0x4", "\x01\x02 binary \xff\xfe", "   <...>-12 [abc] 1.0: x: y", "-1 [0] 1.2: a: b",
        "task-77 [001] ....", "x-1 [001] .... 99999999999999.000000: sched_switch: prev_comm=a"]
for k in range(30):
    lines.insert(r.randrange(10, len(lines) - 1), junk[k % len(junk)])
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(lines))
PY
"$BIN" import -q "$T/garbage" -o "$T/garbage.db"
is "$?" 0 "30 garbage lines: exit 0"
python3 "$C" "$T/garbage.db" "$T/g/truth" >"$T/out"
is "$(grep '^not ok' "$T/out")" "not ok - diagnostics: exactly those the truth implies" "garbage lines: all but the diagnostics as the truth says"
is "$(q "$T/garbage.db" "SELECT group_concat(code || '=' || count, ' ') FROM diagnostics WHERE code IN ('systrace_unparsed_line', 'value_out_of_range') ORDER BY code")" \
	"systrace_unparsed_line=25 value_out_of_range=5" "garbage lines: 25 unparsed, 5 timestamps past 2^62 ns"
like "$(q "$T/garbage.db" "SELECT detail FROM diagnostics WHERE code = 'systrace_unparsed_line'")" "byte offset [0-9]+: '" \
	"garbage lines: the first one's offset and text said"

t0=51234120000000
line() {   # tid text: a marker line of thread tid
	printf '%16s-%-5d [000] ...1 %s: tracing_mark_write: %s\n' "t$1" "$1" "$3" "$2"
}
{
	printf '# tracer: nop\n'
	line 10 'B|10|a' 1.000001; line 10 'E|10' 1.000002; line 10 'E|10' 1.000003; line 11 'E' 1.000004
	line 10 'Q|10|what' 1.000005; line 10 'B|x|no pid' 1.000006; line 10 'C|10|c|notanumber' 1.000007
	line 10 'C|10|big|99999999999999999' 1.000008; line 10 'S|10|s|nocookie' 1.000009; line 10 'F|10|s|5' 1.000010
	line 10 '' 1.000011; line 10 'B|10|' 1.000012; line 10 'E|10' 1.000013
	printf '%16s-%-5d [000] ...1 1.000014: sched_switch: prev_comm=a prev_pid=99999999999 prev_prio=1 prev_state=S ==> next_comm=b next_pid=1 next_prio=1\n' a 10
	printf '%16s-%-5d [000] ...1 1.000015: sched_wakeup: comm=x pidd=3\n' a 10
	printf '%16s-%-5d [000] ...1 1.000016: sched_switch: prev_comm=a prev_pid=10 prev_prio=1 prev_state=? ==> next_comm=b next_pid=1 next_prio=1\n' a 10
} >"$T/odd"
"$BIN" import -q "$T/odd" -o "$T/odd.db"
is "$?" 0 "odd markers and scheduler lines: exit 0"
is "$("$BIN" query -q "$T/odd.db" "SELECT code, count FROM diagnostics WHERE code LIKE 'systrace%' OR code LIKE 'value%' ORDER BY code" --format tsv | sed 1d | tr '\t\n' '= ')" \
	"systrace_bad_marker=5 systrace_bad_sched=3 systrace_cpu_unknown=2 systrace_unmatched_async=1 systrace_unmatched_end=2 value_out_of_range=1 " \
	"odd lines: each kind counted"
is "$("$BIN" query -q "$T/odd.db" "SELECT s.tid, s.ts, s.dur, f.name FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.ts" --format tsv | sed 1d | tr '\t\n' '| ')" \
	"10|1000001000|1000|a 10|1000012000|1000|[empty slice name] " "odd lines: the good slices kept, an empty name said so"

# binder tracepoints (read with --process all): without their fields
# counted and skipped; a call whose reply the trace cut counted apart; the
# good call kept
{
	printf '# tracer: nop\n'
	b='binder_transaction: transaction='
	printf '%16s-%-5d (%5d) [000] ...1 1.000001: %s1 dest_node=1 dest_proc=20 dest_thread=0 reply=0 flags=0x10 code=0x1\n' c 10 10 "$b"
	printf '%16s-%-5d (%5d) [001] ...1 1.000002: %s_received: transaction=1\n' s 21 20 binder_transaction
	printf '%16s-%-5d (%5d) [001] ...1 1.000009: %s2 dest_node=0 dest_proc=10 dest_thread=10 reply=1 flags=0x0 code=0x0\n' s 21 20 "$b"
	printf '%16s-%-5d (%5d) [000] ...1 1.000010: %s_received: transaction=2\n' c 10 10 binder_transaction
	printf '%16s-%-5d (%5d) [000] ...1 1.000011: %sx dest_node=1 dest_proc=20 dest_thread=0 reply=0 flags=0x10 code=0x1\n' c 10 10 "$b"
	printf '%16s-%-5d (%5d) [000] ...1 1.000012: %s3 dest_node=1 dest_proc=20 dest_thread=0 reply=0 flags=0xq code=0x1\n' c 10 10 "$b"
	printf '%16s-%-5d (%5d) [000] ...1 1.000013: %s_received: transaction=\n' c 10 10 binder_transaction
	printf '%16s-%-5d (%5d) [000] ...1 1.000014: %s4 dest_node=1 dest_proc=20 dest_thread=0 reply=0 flags=0x10 code=0x1\n' c 10 10 "$b"
} >"$T/binder"
"$BIN" import -q --process all "$T/binder" -o "$T/binder.db"
is "$?" 0 "odd binder lines, --process all: exit 0"
is "$("$BIN" query -q "$T/binder.db" "SELECT code, count FROM diagnostics WHERE code LIKE '%binder%' ORDER BY code" --format tsv | sed 1d | tr '\t\n' '= ')" \
	"systrace_bad_binder=3 systrace_binder_unpaired=1 " "odd binder lines: three without their fields, one call cut by the end"
is "$(q "$T/binder.db" "SELECT client_tid || ' ' || server_tid || ' ' || ts || ' ' || dur || ' ' || server_first_ts || ' ' || server_last_ts FROM binder_calls")" \
	"10 21 1000001000 9000 1000002000 1000009000" "odd binder lines: the good call paired"
is "$(q "$T/binder.db" "SELECT count(*) FROM binder_calls WHERE why IS NULL AND blocked_dur IS NULL")" 1 \
	"odd binder lines: no scheduler data, why the reply was slow unknown"

# deep nesting and unsorted lines
python3 - "$T/deep" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# tracer: nop\n")
    for i in range(600):
        f.write("%16s-%-5d [001] ...1 %d.%06d: tracing_mark_write: B|5|d%d\n" % ("t", 5, 2, i, i))
    for i in range(600):
        f.write("%16s-%-5d [001] ...1 %d.%06d: tracing_mark_write: E|5\n" % ("t", 5, 3, i))
    # a thread's lines out of time order: sorted stably per thread
    f.write("%16s-%-5d [002] ...1 5.000010: tracing_mark_write: E|6\n" % ("u", 6))
    f.write("%16s-%-5d [002] ...1 5.000000: tracing_mark_write: B|6|late\n" % ("u", 6))
PY
diag "600 deep" "$T/deep" systrace_too_deep 88
is "$(q "$T/600 deep.db" "SELECT count(*) || ' ' || max(depth) FROM slices WHERE tid = 5")" "512 511" "600 deep: 512 levels kept"
is "$("$BIN" query -q "$T/600 deep.db" "SELECT ts, dur FROM slices WHERE tid = 6" --format tsv | sed 1d | tr '\t' ' ')" \
	"5000000000 10000" "lines out of time order: sorted per thread"
is "$(ls "$TMPDIR" | wc -l)" 0 "no temporary file left after all of it"

# options that do not apply
err=$("$BIN" "$f" --slice-policy btrace 2>&1 >/dev/null)
is "$?" 2 "--slice-policy on a systrace: a usage error"
like "$err" "error: --slice-policy does not apply to '.*': a systrace brings its own slices, taken as it gives them" \
	"--slice-policy on a systrace: says why"

# 600k async slices open at once, half of them ended in between: each
# takes the lowest free depth without a walk over the open ones
python3 -c 'import sys
w = open(sys.argv[1], "w").write
w("# tracer: nop\n")
for i in range(400000):
    w("%16s-%-5d [000] ...1 1.%06d: tracing_mark_write: S|5|x|%d\n" % ("t", 5, i % 999999, i))
for i in range(0, 400000, 2):
    w("%16s-%-5d [000] ...1 2.%06d: tracing_mark_write: F|5|x|%d\n" % ("t", 5, i % 999999, i))
for i in range(400000):
    w("%16s-%-5d [000] ...1 3.%06d: tracing_mark_write: S|5|x|%d\n" % ("t", 5, i % 999999, 10000000 + i))' "$T/async"
timeout 60 "$BIN" import -q "$T/async" -o "$T/async.db"
is "$?" 0 "600k open async slices: imported within a minute"
is "$(q "$T/async.db" "SELECT count(*) || ' ' || max(depth) || ' ' || count(DISTINCT depth) FROM track_slices")" "800000 599999 600000" \
	"600k open async slices: the freed depths taken again, lowest first"

# NUL bytes in names (the fuzzer's first find): a name ends at its NUL
{
	printf '# tracer: nop\n'
	printf '          ab\000cd-10    [000] ...1 1.000001: tracing_mark_write: B|10|x\000y\n'
	printf '              ab-10    [000] ...1 1.000002: sched_switch: prev_comm=abc\000 prev_pid=10 prev_prio=1 prev_state=S ==> next_comm=q next_pid=11 next_prio=1\n'
	printf '              ab-10    [000] ...1 1.000003: tracing_mark_write: E|10\n'
} >"$T/nul"
"$BIN" import -q "$T/nul" -o "$T/nul.db"
is "$?" 0 "NUL bytes in names: exit 0"
is "$("$BIN" query -q "$T/nul.db" "SELECT t.name, f.name FROM threads t, slices s JOIN frames f ON f.id = s.frame_id WHERE t.tid = 10" --format tsv | sed 1d | tr '\t' '|')" \
	"ab|x" "NUL bytes in names: cut there"
