#!/bin/sh
# Every rule and export on iOS imports (mkios.py databases, gzip'd, with
# --symbols): the startup rules' lock-wait findings are the truth's edges,
# the first-frame window ends at the first sample under the chosen method,
# the JSON report validates and its lock time is the truth's, Markdown and
# HTML (rendered by Chromium) show iOS frames, openpyxl reads the workbook
# back as the JSON, protoc decodes --perfetto slice for slice, go tool
# pprof and the folded stacks sum to the calltree, query reads counters and
# track slices, and compare finds a lock regression between iOS runs.
. tests/lib.sh
MKIOS="python3 $ROOT/tests/fixtures/mkios.py"
R=$ROOT/examples/startup.lua
$MKIOS "$T/a" --seed 11 --samples 3000 --gzip >/dev/null
IN=$T/a/trace.db.gz
SYM="--symbols $T/a/symbols.txt"
# shellcheck disable=SC2086
"$BIN" import -q "$IN" $SYM -o "$T/a.db"
DB=$T/a.db
py() {   # file python-expression over d (the JSON document): print its value
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
edges=$T/a/truth/lock_edges.tsv

# ---- startup.lua on the gzip'd database itself (a scratch analysis)
# shellcheck disable=SC2086
out=$("$BIN" "$IN" $SYM --rules "$R" --set cap=0 2>/dev/null)
is "$?" 0 "startup.lua: exit 0"
like "$out" "ios-database v3" "startup.lua: the text report names the format"
is "$(printf '%s\n' "$out" | grep -c '^warning \[main-lock-wait\]')" \
	"$(awk -F'\t' 'NR > 1 && $6 >= 5000000' "$edges" | wc -l | tr -d ' ')" \
	"startup.lua: one main-lock-wait finding per truth lock edge of 5 ms or more"
# shellcheck disable=SC2086
"$BIN" -q "$IN" $SYM --rules "$R" --set cap=0 --set lock_ms=0 --set first_frame=viewDidLoad -o "$T/startup.json"
"$BIN" -q "$IN" $SYM --rules "$R" --set cap=0 --set lock_ms=0 -o "$T/waits.json"
is "$(py "$T/waits.json" 'sorted((f["ts"], f["dur"], f["evidence"]["waker_tid"], f["evidence"]["waker_ts"]) for f in d["findings"] if f["rule"] == "main-lock-wait")')" \
	"$(python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print(sorted((int(e["ts_ns"]), int(e["dur_ns"]), int(e["waker_tid"]), int(e["waker_ts_ns"])) for e in r))' "$edges")" \
	"startup.lua: each wait's time, duration, waker and wake time are the truth's"
first=$(q "$DB" "SELECT min(s.ts) FROM samples s WHERE s.tid = 259 AND EXISTS (
	WITH RECURSIVE up(id) AS (SELECT s.node_id UNION ALL SELECT n.parent_id FROM nodes n JOIN up ON n.id = up.id
	WHERE n.parent_id IS NOT NULL) SELECT 1 FROM up JOIN nodes n ON n.id = up.id JOIN frames f ON f.id = n.frame_id
	WHERE f.name LIKE '%viewDidLoad%')")
is "$(py "$T/startup.json" '(d["metrics"]["startup.first_frame_found"], d["metrics"]["startup.duration_ns"] + d["trace"]["start_ns"])')" \
	"(1, $first)" "startup.lua: the window ends at the first main-thread sample under viewDidLoad"
# shellcheck disable=SC2086
"$BIN" -q "$IN" $SYM --rules "$R" -o "$T/whole.json"
is "$(py "$T/whole.json" '(d["metrics"]["startup.first_frame_found"], d["metrics"]["startup.main.blocked_ns.lock"])')" \
	"(0, $(awk -F'\t' 'NR > 1 { s += $6 } END { print s }' "$edges"))" \
	"startup.lua: over the whole trace, the lock waits (type 107) are the truth's lock time"

# ---- the built-in report as JSON, validated, against the truth
"$BIN" -q "$DB" -o "$T/r.json"
is "$?" 0 "-o r.json: exit 0"
is "$(python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
print("valid")' "$T/r.json" "$ROOT/reports/json/report.schema.json" 2>&1 | tail -1)" valid "r.json validates against report.schema.json"
is "$(py "$T/r.json" '(d["trace"]["format"], d["trace"]["main_tid"], d["trace"]["samples"], d["trace"]["threads"])')" \
	"('ios-database', 259, $(q "$DB" 'SELECT count(*) FROM samples'), $(q "$DB" 'SELECT count(DISTINCT tid) FROM samples'))" \
	"r.json: format, main thread, sample and thread counts"
is "$(py "$T/r.json" 'd["metrics"]["thread.main.blocked_ns.lock"]')" \
	"$(awk -F'\t' 'NR > 1 { s += $6 } END { print s }' "$edges")" "r.json: the main thread's lock time is the truth's waits"
is "$(py "$T/r.json" 'len(d["tables"]["main_waits"]["rows"])')" "$(($(wc -l <"$edges") - 1))" "r.json: one main_waits row per truth edge"
is "$(py "$T/r.json" '[r[2] for r in d["tables"]["threads"]["rows"] if r[0] == 259]')" "[1]" "r.json: the threads table marks 259 main"
is "$(py "$T/r.json" '[(r[0], r[1] == d["metrics"]["thread.main.wall_ns"]) for r in d["tables"]["main_calltree"]["rows"][:3]]')" \
	"[('start', True), ('  main', True), ('    UIApplicationMain', True)]" \
	"r.json: the main thread's call tree begins at its symbolized root, over its whole wall time"

# ---- Markdown and HTML
"$BIN" -q "$DB" -o "$T/r.md"
is "$?" 0 "-o r.md: exit 0"
like "$(grep -cF '| -\[DMFeedViewController viewDidLoad\] |' "$T/r.md")" '^[1-9]' "r.md: tables name the app's methods"
like "$(cat "$T/r.md")" 'ios-database' "r.md: the format is named"
"$BIN" -q "$DB" -o "$T/r.html"
is "$?" 0 "-o r.html: exit 0"
is "$(grep -Eci 'https?://|src=|href="[^#]|url\(|@import' "$T/r.html")" 0 "r.html: nothing refers outside the page"
like "$(grep -c 'DMFeedViewController' "$T/r.html")" '^[1-9]' "r.html: the app's methods are in it"
if [ -x "$CHROME" ]; then
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND' \
		--user-data-dir="$T/chrome" --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
		--dump-dom "file://$T/r.html#selftest" >"$T/dom" 2>"$T/chrome.err"
	attr() { grep -o " $1=\"[^\"]*\"" "$T/dom" | head -n 1 | sed 's/^[^"]*"//; s/"$//'; }
	is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "r.html: Chromium runs the page and its self-test"
	check "r.html: the flame graph drew frames" test "$(attr data-flame-frames)" -gt 3
	check "r.html: the timeline drew slices" test "$(attr data-tl-slices)" -gt 0
	is "$(attr data-tl-arrows)" "$(q "$DB" 'SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL')" \
		"r.html: one arrow per linked lock wait"
else
	echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
fi

# ---- xlsx, read back by openpyxl against the JSON of the same run
"$BIN" -q "$DB" --rules "$R" -o "$T/r2.xlsx"
is "$?" 0 "-o r.xlsx: exit 0"
"$BIN" -q "$DB" --rules "$R" -o "$T/r2.json"
is "$(python3 "$ROOT/tests/fixtures/check_xlsx.py" report "$T/r2.xlsx" "$T/r2.json" "$BIN" "$DB")" ok \
	"r.xlsx: openpyxl reads back the JSON report's sheets, cells and charts"

# ---- --perfetto, decoded by protoc, slice for slice
"$BIN" -q "$DB" -o "$T/p.json" --perfetto "$T/t.pb"
check "--perfetto: protoc decodes it" \
	sh -c "protoc --decode perfetto.protos.Trace -I '$ROOT/engine/proto' '$ROOT/engine/proto/perfetto_trace.proto' <'$T/t.pb' >'$T/t.txt'"
# iOS record types (101-110) are named like Android's (ios_cpu, ...).
"$BIN" query "$DB" "SELECT s.tid, f.name, s.ts, s.ts + s.dur, s.depth, s.cpu_dur, s.self_dur, s.sample_count,
	s.msg_id, s.alloc_bytes, s.majflt, coalesce(s.wakeup_tid, ''),
	coalesce(r.name, '')
	FROM slices s JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type" --format tsv |
	tail -n +2 >"$T/s.tsv"
"$BIN" query "$DB" "SELECT id, waiter_tid, ts, waker_tid, waker_ts FROM blocking_edges WHERE waker_tid IS NOT NULL" \
	--format tsv | tail -n +2 >"$T/e.tsv"
python3 "$ROOT/tests/fixtures/check_perfetto.py" "$T/t.txt" "$T/s.tsv" "$T/e.tsv" | sed 's/^\(ok\|not ok\) - /&--perfetto: /'
check "--perfetto: the slices are many" test "$(wc -l <"$T/s.tsv")" -gt 1000

# ---- --pprof (go tool pprof reads it) and --folded sum to the calltree
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"
"$BIN" -q "$DB" -o "$T/pp.json" --pprof "$T/p.pb.gz" --folded "$T/f.txt"
is "$?" 0 "--pprof and --folded: exit 0"
total=$(pprof_totals "$DB")
go tool pprof -raw "$T/p.pb.gz" 2>/dev/null | python3 "$ROOT/tests/fixtures/check_stacks.py" raw >"$T/raw"
like "$(sed -n 's/^samples //p' "$T/raw")" '^[1-9]' "--pprof: go tool pprof reads samples"
is "$(sed -n 's/^total //p' "$T/raw")" "$total" "--pprof: its totals (wall, cpu, offcpu, alloc, objects, faults) are the calltree's"
go tool pprof -raw -tagfocus="tid=259" "$T/p.pb.gz" 2>/dev/null | python3 "$ROOT/tests/fixtures/check_stacks.py" raw >"$T/raw"
is "$(sed -n 's/^total //p' "$T/raw" | cut -d' ' -f1)" "$(q "$DB" "SELECT sum(self_ns) FROM calltree WHERE tid = 259")" \
	"--pprof: -tagfocus tid=259 gives the main thread's wall"
python3 "$ROOT/tests/fixtures/check_stacks.py" folded "$T/f.txt" "tid 259" >"$T/fold"
is "$(sed -n 's/^bad //p' "$T/fold")" 0 "--folded: every line is 'thread;frame;... VALUE'"
is "$(sed -n 's/^total //p' "$T/fold")" "$(echo "$total" | cut -d' ' -f1)" "--folded: the values sum to the calltree's wall"
like "$(grep -c ';-\[DMFeedViewController' "$T/f.txt")" '^[1-9]' "--folded: stacks hold the symbolized app frames"

# ---- query: straight from the gzip'd database, counters and track slices
is "$(q "$IN" "SELECT count(*) || ' ' || count(DISTINCT track) FROM counters")" \
	"$(($(wc -l <"$T/a/truth/counters.tsv") - 1)) 2" "query: the counters of both tracks"
is "$(q "$IN" "SELECT group_concat(ts || '+' || dur) FROM (SELECT * FROM track_slices ORDER BY ts)")" \
	"$(awk -F'\t' 'NR > 1 { printf "%s%s+%s", s, $2, $3 - $2; s = "," }' "$T/a/truth/ts_slices.tsv")" "query: the hitch slices"
# shellcheck disable=SC2086
is "$("$BIN" query -q "$IN" $SYM "SELECT count(*) FROM frames WHERE name LIKE '-[DM%'" --format csv | tr -d '\r' | tail -n 1)" \
	"$(q "$DB" "SELECT count(*) FROM frames WHERE name LIKE '-[DM%'")" "query: --symbols on the gzip'd input names frames as the import did"
is "$("$BIN" query -q "$DB" "SELECT name FROM frames f JOIN methods m ON m.frame_id = f.id WHERE m.tid = 259 ORDER BY m.self_ns DESC LIMIT 1" --format tsv | tail -n 1)" \
	"$(q "$DB" "SELECT f.name FROM calltree c JOIN frames f ON f.id = c.frame_id WHERE c.tid = 259 GROUP BY c.frame_id ORDER BY sum(c.self_ns) DESC LIMIT 1")" \
	"query: the main thread's top method by self time, from methods and from calltree"

# ---- compare: iOS runs with 25 contended waits against runs with 3
for s in 1 2 3 4 5; do
	$MKIOS "$T/b$s" --seed "$s" --samples 2000 --locks 3 --no-truth >/dev/null
	$MKIOS "$T/h$s" --seed $((s + 10)) --samples 2000 --locks 25 --no-truth >/dev/null
	"$BIN" -q "$T/b$s/trace.db" -o "$T/b$s.json"
	"$BIN" -q "$T/h$s/trace.db" -o "$T/h$s.json"
done
side() { for s in 1 2 3 4 5; do printf '%s ' "$T/$1$s.json"; done; }
# shellcheck disable=SC2046
"$BIN" compare --base $(side b) --head $(side b) -o "$T/same.json"
is "$?" 0 "compare: the same iOS runs on both sides exit 0"
is "$(py "$T/same.json" 'd["verdict"]')" unchanged "compare: the same runs are unchanged"
# shellcheck disable=SC2046
"$BIN" compare --base $(side b) --head $(side h) -o "$T/lock.json" 2>/dev/null
is "$?" 3 "compare: more main-thread lock waits exit 3"
is "$(py "$T/lock.json" '(d["diff"]["blocking"][0]["kind"], [m["verdict"] for m in d["metrics"] if m["name"] == "thread.main.blocked_ns.lock"])')" \
	"('lock', ['regressed'])" "compare: lock tops the blocking diff and thread.main.blocked_ns.lock regressed"
is "$(python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
print("valid")' "$T/lock.json" "$ROOT/reports/compare/compare.schema.json" 2>&1 | tail -1)" valid "compare: the JSON validates"
"$BIN" compare --base "$T/b1/trace.db" "$T/b2/trace.db" --head "$T/h1/trace.db" "$T/h2/trace.db" -o "$T/dbs.json" 2>/dev/null
like "$?" '^[03]$' "compare: iOS databases analysed on the fly"
like "$(py "$T/dbs.json" 'd["diff"]["methods"]["wall"][0]["method"]')" '\+0x' "compare: the method diff names image+offset frames"
