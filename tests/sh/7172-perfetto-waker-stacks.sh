#!/bin/sh
# Kernel wakers with their slice stacks (issue 33 item 3: queries/
# scratch_pf_waker_stacks.sql): a main-thread sleep ended by a thread of the
# app links to what that thread was running at the wake, outermost slice
# first. mkpfsched.py's trace with two nested slices on the worker around
# each of its wakes: every sleep the worker ended has the stack
# wake_outer > wake_inner; those ended by another process's thread or an
# interrupt have none; the real API 32 start against a plain reading of
# its slices.
. tests/lib.sh
d=$T/w
cp -r "$FIX/pfsched/compact1" "$d"   # mkpfsched.py --form compact --seed 1 and its truth (tests/fixtures.sh)
python3 - "$d" <<'EOF'
import csv, sys
sys.path.insert(0, "tests/fixtures")
from mkperfetto import fb, fv, packet
d = sys.argv[1]
edges = list(csv.DictReader(open(d + "/edges.tsv"), delimiter="\t"))
prints = []
for e in edges:
    if e["waker_tid"] == "1001":   # the worker runs 1 us or more either side of its wake
        w = int(e["waker_ts"])
        prints += [(w - 900, "B|1000|wake_outer"), (w - 400, "B|1000|wake_inner"), (w + 400, "E|1000"), (w + 900, "E|1000")]
body = b"".join(fb(2, fv(1, ts) + fv(2, 1001) + fb(3, fb(2, buf))) for ts, buf in sorted(prints))
with open(d + "/t.pb", "ab") as f:
    f.write(packet(fv(10, 1) + fb(1, fv(1, 1) + body)))
print(sum(1 for e in edges if e["waker_tid"] == "1001"), file=open(d + "/n", "w"))
EOF
"$BIN" import -q "$d/t.pb" -o "$T/w.db"
is "$?" 0 "the trace with the worker's slices imports"
n=$(cat "$d/n")
check "the worker ended some sleeps ($n)" test "$n" -gt 5
is "$(q "$T/w.db" "SELECT count(*), count(waker_node_id) FROM blocking_edges WHERE waker_tid = 1001")" "$n	$n" \
	"every sleep the worker ended has its waker's stack"
is "$(q "$T/w.db" "SELECT count(*) FROM blocking_edges WHERE waker_tid <> 1001 AND waker_node_id IS NOT NULL")" 0 \
	"sleeps ended by another process's thread or an interrupt have none"
is "$(q "$T/w.db" "SELECT group_concat(DISTINCT pf.name || ' > ' || f.name || ' ' || p.depth || n.depth)
	FROM blocking_edges e JOIN nodes n ON n.id = e.waker_node_id JOIN frames f ON f.id = n.frame_id
	JOIN nodes p ON p.id = n.parent_id JOIN frames pf ON pf.id = p.frame_id WHERE e.waker_tid = 1001")" \
	"wake_outer > wake_inner 01" "the stack: wake_outer, then wake_inner below it (one path, its nodes shared)"
python3 tests/fixtures/check_pf_sched.py truth "$d" "$T/w.db" >"$T/ck"
is "$(grep -c '^not ok' "$T/ck")" 0 "the main thread's states and wakers unchanged by the worker's slices"
for src in "$T/w.db" "$d/t.pb"; do   # a kept database, and the trace read directly (slices from the spill)
	"$BIN" -q "$src" --format json -o "$T/w.json"
	is "$(jq_ "$T/w.json" 'sorted(set(r[6] for r in d["tables"]["main_waits"]["rows"] if r[5] == "worker"))')" \
		"['wake_inner']" "$(basename "$src"): the report's waits name the method the worker ran when it woke the main thread"
done

r=$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace
"$BIN" import -q "$r" -o "$T/real.db"
# a plain reading: each sleep's waker's innermost slice open at the wake
is "$(q "$T/real.db" "SELECT group_concat(x, ' ') FROM (SELECT e.id || ':' || coalesce(
	(SELECT f.name FROM slices s JOIN frames f ON f.id = s.frame_id WHERE s.tid = e.waker_tid AND s.ts <= e.waker_ts
	 AND s.ts + s.dur > e.waker_ts ORDER BY s.ts DESC, s.depth DESC LIMIT 1), '-') AS x
	FROM blocking_edges e WHERE e.kind IN ('sleep', 'io') ORDER BY e.id)")" \
	"$(q "$T/real.db" "SELECT group_concat(x, ' ') FROM (SELECT e.id || ':' || coalesce(f.name, '-') AS x
	FROM blocking_edges e LEFT JOIN nodes n ON n.id = e.waker_node_id LEFT JOIN frames f ON f.id = n.frame_id
	WHERE e.kind IN ('sleep', 'io') ORDER BY e.id)")" \
	"api32: each sleep's waker stack ends in the slice a plain reading finds open at the wake"
like "$(q "$T/real.db" "SELECT count(waker_node_id) FROM blocking_edges WHERE kind = 'sleep'")" "^[1-9]" \
	"api32: some sleeps were ended by an app thread inside a slice (RenderThread's DrawFrames)"
