# The built-in attribution report against the writer's truth: thread
# totals exact, self values reconcile with them, blocked time by kind
# exact; the JSON report validates against reports/json/report.schema.json;
# a kept database gives the same report as a scratch analysis. (flush is
# only validated: its startTime clamp shortens blocks on purpose.)
. tests/lib.sh
C=$ROOT/tests/fixtures/check_attribution.py
for d in small seed2 seed3 v4 flush; do
	"$BIN" -q "$FIX/$d" -o "$T/$d.json"
	is "$?" 0 "$d: default analysis"
	[ "$d" = flush ] ||
		is "$(python3 "$C" "$T/$d.json" "$FIX/$d" "$BIN")" ok "$d: attribution matches truth and reconciles"
	is "$(python3 -c 'import json, sys, jsonschema
r = json.load(open(sys.argv[1])); jsonschema.validate(r, json.load(open(sys.argv[2])))
print(all(len(row) == len(t["columns"]) == len(t["units"]) for t in r["tables"].values() for row in t["rows"]))' \
		"$T/$d.json" "$ROOT/reports/json/report.schema.json" 2>&1)" True "$d: report validates against the schema"
done
# flush's startTime clamp (spec §7.1 step 2): a blocking record that began
# before the start time blocks from it, record by record in thread_blocking
start="(SELECT value FROM meta WHERE key = 'start_time_ns')"
kind="CASE type WHEN 8 THEN 'monitor' WHEN 6 THEN 'wait' WHEN 7 THEN 'park' WHEN 11 THEN 'gc'
	WHEN 2 THEN 'binder' WHEN 20 THEN 'loadlibrary' WHEN 12 THEN 'lock' END"
is "$(q "$FIX/flush" "SELECT group_concat(tid || ' ' || kind || ' ' || count || ' ' || dur, ', ')
	FROM (SELECT * FROM thread_blocking ORDER BY tid, kind)")" \
   "$(q "$FIX/flush" "SELECT group_concat(tid || ' ' || k || ' ' || n || ' ' || d, ', ') FROM (SELECT tid, $kind AS k,
	count(*) AS n, sum(end_ts - max(ts, $start)) AS d FROM samples WHERE type IN (2, 6, 7, 8, 11, 12, 20)
	AND end_ts > ts AND end_ts > $start GROUP BY 1, 2 ORDER BY 1, 2)")" \
   "flush: blocked time by kind, each record's from the start time where it began before"
is "$(q "$FIX/flush" "SELECT count(*) FROM samples WHERE type IN (2, 6, 7, 8, 11, 12, 20) AND ts < $start
	AND end_ts > $start")" 2 "flush: two blocking records cross the start time"
"$BIN" import -q "$FIX/seed2" -o "$T/seed2.db"
"$BIN" -q "$T/seed2.db" -o "$T/kept.json"
check "a kept database reports the same as a scratch analysis" cmp -s "$T/kept.json" "$T/seed2.json"
is "$(q "$T/seed2.db" "SELECT count(*) FROM calltree")" "$(q "$FIX/seed2" "SELECT count(*) FROM calltree")" \
	"calltree: stored rows equal the in-memory view"
# a scratch analysis reconstructs on two cores and merges the profiles: the
# same tables as the sequential run of a kept import, ids included
for d in small flush allocs; do
	"$BIN" import -q "$FIX/$d" -o "$T/$d.db"
	for tb in "calltree ORDER BY id" "methods ORDER BY tid, frame_id" "method_blocking ORDER BY 1, 2, 3" \
		"callers ORDER BY 1, 2, 3" "message_methods ORDER BY 1, 2, 3" "messages ORDER BY tid, msg_id"; do
		"$BIN" query "$T/$d.db" "SELECT * FROM $tb" --format tsv >"$T/k.tsv"
		"$BIN" query -q "$FIX/$d" "SELECT * FROM $tb" --format tsv >"$T/s.tsv"
		check "$d: $tb, two cores = one" cmp -s "$T/k.tsv" "$T/s.tsv"
	done
done
"$BIN" query "$T/seed2.db" "SELECT * FROM calltree ORDER BY id" --format tsv >"$T/ct1.tsv"
"$BIN" query "$FIX/seed2" "SELECT * FROM calltree ORDER BY id" --format tsv >"$T/ct2.tsv" 2>/dev/null
check "calltree rows identical" cmp -s "$T/ct1.tsv" "$T/ct2.tsv"
is "$(q "$FIX/seed2" "SELECT count(*) FROM calltree WHERE tid = 4242")" \
	"$(q "$FIX/seed2" "SELECT count(*) FROM (SELECT * FROM calltree) WHERE tid = 4242")" "calltree: tid filter agrees with a scan"
is "$(q "$FIX/seed2" "SELECT count(*) FROM calltree c JOIN calltree p ON p.id = c.parent_id WHERE p.depth != c.depth - 1 OR p.tid != c.tid")" 0 \
	"calltree: parents are one level up, same thread"
is "$(q "$FIX/seed2" "SELECT count(*) FROM calltree c WHERE incl_ns != self_ns + coalesce((SELECT sum(incl_ns) FROM calltree k WHERE k.parent_id = c.id), 0)")" 0 \
	"calltree: inclusive = self + children"
is "$(q "$FIX/seed2" "SELECT count(*) FROM methods m WHERE incl_ns < self_ns OR incl_ns > (SELECT sum(incl_ns) FROM calltree c WHERE c.tid = m.tid AND c.frame_id = m.frame_id)")" 0 \
	"methods: self <= inclusive <= sum over call paths (recursion counted once)"
"$BIN" -q "$FIX/seed2" --format md >"$T/r.md"
like "$(cat "$T/r.md")" "^## Main thread: call tree \\(top-down\\)" "Markdown report has the tables"
like "$(grep -c '^| ' "$T/r.md")" "^[0-9]{3,}$" "Markdown tables have rows"
"$BIN" -q "$FIX/seed2" >"$T/r.txt"
like "$(cat "$T/r.txt")" "^Main thread: waits and who ended them" "text report lists the waits"
