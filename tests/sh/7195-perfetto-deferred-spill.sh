#!/bin/sh
# A scratch analysis of a Perfetto trace defers its slices (issue 22): the
# spill's sorted runs are kept and the pairing runs again when something
# reads `slices`. On a trace whose events spill to runs on disk (1.2M
# events, more than the 32 MiB sorted in memory), the rebuilt slices are
# the ones `import -o` stores: every column's sum, and every row of a
# sample, in order.
. tests/lib.sh

"$MKDUMP" --records 150000 --seed 7 --no-truth "$T/d" >/dev/null
"$BIN" analyze -q "$T/d" --perfetto "$T/x.pb" -o /dev/null
"$BIN" import -q "$T/x.pb" -o "$T/kept.db"
runs=$(q "$T/x.pb" "SELECT value FROM meta WHERE key = 'spill_runs'")
check "the events spilled to runs on disk ($runs runs)" test "${runs:-0}" -ge 2
is "$(q "$T/kept.db" "SELECT value FROM meta WHERE key = 'spill_runs'")" "$runs" "the kept import made the same runs"

cols="id tid depth parent_id frame_id ts dur cpu_dur self_dur self_cpu_dur block_dur msg_id sample_count
alloc_objects alloc_bytes majflt nvcsw nivcsw type wakeup_tid gap_dur gap_cpu_dur idle"
sums="count(*)"
for c in $cols; do sums="$sums, total($c), count($c)"; done
kept=$(q "$T/kept.db" "SELECT $sums FROM slices")
check "the kept database has slices" test "$(echo "$kept" | cut -f1)" -gt 500000
is "$(q "$T/x.pb" "SELECT $sums FROM slices")" "$kept" "rebuilt slices: every column's count and sum as stored"
row="SELECT group_concat(r, ';') FROM (SELECT $(echo $cols | sed 's/ / || \x27,\x27 || /g') AS r
      FROM slices WHERE id % 4999 = 1 ORDER BY id)"
is "$(q "$T/x.pb" "$row")" "$(q "$T/kept.db" "$row")" "rebuilt slices: a sample of rows, whole, as stored"
# the frames they name
f="SELECT count(*), total(length(name)) FROM frames WHERE id IN (SELECT frame_id FROM slices)"
is "$(q "$T/x.pb" "$f")" "$(q "$T/kept.db" "$f")" "and the frames they name"
