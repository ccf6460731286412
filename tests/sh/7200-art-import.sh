#!/bin/sh
# ART method traces (importers/art/) against the truth of the independent
# writer (tests/fixtures/mkart.py): every layout and clock (legacy v1, v2
# and v3 with dual, wall and thread-CPU clocks, streaming, format V2 in a
# file and streamed), interleaved and per-thread records, V2 flushes that
# carry their deltas into a second packet, sampled traces; compared slice
# by slice with wall and CPU time (tests/fixtures/check_art_import.py). A
# scratch analysis, whose slices are made only when read, gives what a
# kept database stores; the checker fails on mutated databases.
. tests/lib.sh
MKART="python3 tests/fixtures/mkart.py"
C=tests/fixtures/check_art_import.py

# case NAME VARIANT SEED [mkart options]: write, import, compare.
case_() {
	name=$1 variant=$2 seed=$3
	shift 3
	$MKART "$T/$name.trace" --variant "$variant" --seed "$seed" "$@" >/dev/null
	"$BIN" import -q "$T/$name.trace" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
seed=1
for v in $($MKART --list); do
	case_ "$v" "$v" $seed --threads 3 --calls 400
	seed=$((seed + 1))
done
case_ v3-dual-chunked v3-dual 21 --chunked --threads 5 --calls 600
case_ v2-cpu-chunked v2-cpu 22 --chunked --threads 2
case_ v2s5-chained v2s5-dual 23 --chained --threads 4 --calls 600
case_ v2f4-chained v2f4-wall 24 --chained
case_ v3-sampled v3-dual 25 --sampled --threads 3 --calls 800
case_ v2s5-sampled v2s5-dual 26 --sampled
case_ stream3-sampled stream3-dual 27 --sampled --threads 2
case_ v1-one-thread v1-cpu 28 --threads 1 --calls 1500

# what the cases exercise
q1() { q "$T/$1.db" "$2"; }
like "$(q1 v3-dual "SELECT value FROM meta WHERE key = 'format'")" '^art-method-trace$' "the format is recognised by content"
is "$(q1 v3-dual "SELECT count(*) > 0 FROM slices WHERE depth = 0 AND ts = (SELECT value FROM meta WHERE key = 'trace_start_ns')")" 1 \
	"calls begun before tracing start at the trace's start"
like "$(q1 v3-dual "SELECT value FROM meta WHERE key = 'unroll_exits'")" '^[1-9]' "unroll (exception) exits end calls"
like "$(q1 v3-dual "SELECT count FROM diagnostics WHERE code = 'art_open_at_end'")" '^[1-9]' "calls still open at the end are counted"
is "$(q1 v3-dual "SELECT count(*) FROM frames WHERE name LIKE '%/%'")" 0 "slashed class names read as dotted"
like "$(q1 v3-dual "SELECT name FROM frames WHERE params LIKE '%java.lang.String[][]%' LIMIT 1")" '^[^ ]+ [^ (]+\.[^ (.]+\(.*java\.lang\.String\[\]\[\].*\)$' \
	"signatures become PrettyMethod names (arrays, classes)"
is "$(q1 v3-dual "SELECT count(*) > 0 FROM slices WHERE cpu_dur > 0 AND cpu_dur < dur")" 1 "dual clock: CPU and off-CPU time per call"
is "$(q1 v3-wall "SELECT count(*) FROM slices WHERE cpu_dur IS NOT NULL")/$(q1 v3-wall "SELECT value FROM meta WHERE key = 'cpu_unknown'")" 0/all \
	"clock=wall: no CPU time (NULL, meta cpu_unknown all)"
is "$(q1 v3-cpu "SELECT count(*) FROM slices WHERE cpu_dur != dur")" 0 "clock=thread-cpu: calls on their thread's CPU time"
is "$(q1 v3-sampled "SELECT value FROM meta WHERE key = 'art_sampled'") $(q1 v3-dual "SELECT value FROM meta WHERE key = 'art_sampled'")" \
	"1 0" "a sampled trace is recognised, a method trace is not"
like "$(q1 v3-sampled "SELECT detail FROM diagnostics WHERE code = 'art_sampled_trace'")" "sampled trace \\(a thread's records are 1[0-9]{3} us or more apart\\)" \
	"and the report says so, with the interval"
"$BIN" -q "$T/v3-sampled.trace" >"$T/sampled.txt" 2>&1
like "$(cat "$T/sampled.txt")" "art_sampled_trace \\(1\\)" "the text report shows the sampled trace"
err=$("$BIN" import "$T/v3-dual.trace" -o "$T/warn.db" 2>&1 >/dev/null)
unlike "$err" "art_(exit_without_entry|open_at_end)" "callers from before the trace and calls open at the end are routine: no warning"
like "$("$BIN" -q "$T/warn.db")" "art_open_at_end \\([0-9]+\\)" "but the report counts them"

# A scratch analysis makes the slices only when something reads them; it
# reads what a kept database holds, and the report is the same.
all="SELECT s.id, s.tid, s.depth, coalesce(s.parent_id, 0), s.frame_id, s.ts, s.dur, s.cpu_dur, s.self_dur, s.self_cpu_dur FROM slices s ORDER BY s.id"
for n in v3-dual v2s5-dual stream3-dual v3-sampled; do
	"$BIN" query -q "$T/$n.trace" "$all" --format tsv >"$T/scratch.tsv"
	"$BIN" query -q "$T/$n.db" "$all" --format tsv >"$T/kept.tsv"
	check "$n: the slices a scratch analysis makes on demand are those stored" cmp -s "$T/scratch.tsv" "$T/kept.tsv"
	"$BIN" -q "$T/$n.trace" -o "$T/s.json"
	"$BIN" -q "$T/$n.db" -o "$T/k.json"
	is "$(python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    d["trace"].pop("source", None)
print("same" if a == b else "differ")' "$T/s.json" "$T/k.json")" same "$n: the report from the trace is the report from its kept database"
done
is "$("$BIN" query -q "$T/v3-dual.trace" "SELECT count(*) FROM slices" --format tsv | sed -n 2p)" \
	"$(truth "$T/v3-dual" slices)" "query reads the .trace directly"

# The checker can fail.
mutate() {   # base description check-pattern sql
	cp "$T/$1.db" "$T/mut.db"
	sqlite3 "$T/mut.db" "$4"
	python3 "$C" "$T/mut.db" "$T/$1/truth" >"$T/out"
	is "$?:$(grep -c "^not ok - $3" "$T/out")" 1:1 "checker: $2 fails '$3'"
}
mutate v3-dual "one slice 1 us longer" "every slice" "UPDATE slices SET dur = dur + 1000 WHERE id = 7"
mutate v3-dual "a CPU time off" "every slice" "UPDATE slices SET cpu_dur = cpu_dur + 1 WHERE id = 9"
mutate v2s5-dual "a name changed" "every slice" "UPDATE frames SET name = 'x' WHERE id = 1"
mutate v3-dual "a slice out of its parent" "every slice inside" "UPDATE slices SET parent_id = NULL WHERE depth = 2"
mutate v3-dual "self CPU time wrong" "self wall and CPU" "UPDATE slices SET self_cpu_dur = self_cpu_dur + 1 WHERE id = 3"
mutate v3-dual "no main thread" "threads" "UPDATE threads SET is_main = 0"
mutate v3-dual "a lost diagnostic" "diagnostics" "DELETE FROM diagnostics WHERE code = 'art_open_at_end'"
python3 "$C" "$T/v3-dual.db" "$T/v3-wall/truth" >"$T/out"
is "$?" 1 "checker: another trace's truth fails"
