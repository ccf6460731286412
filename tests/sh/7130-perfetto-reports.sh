#!/bin/sh
# Every report and export on Perfetto input, the .pb given directly:
# btrace 3.0 and 2.0 traces of mkperfetto.py and the bundled example
# exported with --perfetto. Text, JSON (schema and content against the
# database, tests/fixtures/check_pf_reports.py), Markdown, HTML (headless
# Chromium: no console message, the page's self-test, its timeline's
# waits and arrows), xlsx (openpyxl, tests/fixtures/check_xlsx.py),
# --pprof (go tool pprof's totals) and --folded, --perfetto again (same
# slices once more), examples/startup.lua's findings, query, and compare
# of two imports (another seed: a verdict; the same trace: unchanged).
. tests/lib.sh
MKPF="python3 tests/fixtures/mkperfetto.py"
K=tests/fixtures/check_pf_reports.py
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"

$MKPF "$T/p3.pb" --flavor btrace3 --seed 31 --slices 3000 --threads 3 --blocks 6 --no-truth >/dev/null
$MKPF "$T/p3b.pb" --flavor btrace3 --seed 35 --slices 3000 --threads 3 --blocks 6 --no-truth >/dev/null
$MKPF "$T/p2.pb" --flavor btrace2 --seed 32 --slices 3000 --threads 4 --blocks 8 --gzip --no-truth >/dev/null
"$BIN" analyze -q "$ROOT/examples/sampling.bin" --perfetto "$T/rt.pb" >/dev/null
"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/example.db"

# Load url headless; console messages to $T/console, the DOM to $T/dom.
chrome() {   # url
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$1" >"$T/dom" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
}
attr() {   # name: the first name="..." of the DOM
	grep -o " $1=\"[^\"]*\"" "$T/dom" | head -n 1 | sed 's/^[^"]*"//; s/"$//'
}

for n in p3 p2 rt; do
	in=$T/$n.pb
	db=$T/$n.db
	"$BIN" import -q "$in" -o "$db"
	main=$(q "$db" "SELECT tid FROM threads WHERE is_main")
	name=$(q "$db" "SELECT name FROM threads WHERE is_main")
	slices=$(q "$db" "SELECT count(*) FROM slices")
	check "$n: the import has slices and a main thread ($slices, $main)" test "$slices" -gt 100 -a -n "$main"

	out=$("$BIN" -q "$in")
	is "$?" 0 "$n: text report exits 0"
	like "$out" "^trace .*\\(perfetto" "$n: text: a Perfetto trace"
	like "$out" "main thread tid $main" "$n: text: its main thread"
	like "$out" "trace\\.slices +$slices\$" "$n: text: its slice count"
	like "$out" "^$main +$name +1 " "$n: text: the main thread's row"

	"$BIN" -q "$in" -o "$T/$n.json"
	is "$(python3 "$K" json "$T/$n.json" "$db" 2>&1)" ok "$n: JSON validates and holds the database's facts, threads and waits"
	"$BIN" -q "$in" -o "$T/$n.md"
	is "$(python3 "$K" md "$T/$n.md" "$T/$n.json")" ok "$n: Markdown shows the JSON's slices, threads and waits"

	"$BIN" -q "$in" -o "$T/$n.html"
	if [ -x "$CHROME" ]; then
		chrome "file://$T/$n.html#selftest"
		is "$(cat "$T/console")" "" "$n: HTML: no console message"
		is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "$n: HTML: the script ran, no error, self-test passes"
		is "$(attr data-tl-waits)/$(attr data-tl-arrows)" \
			"$(q "$db" "SELECT count(*) || '/' || count(waker_tid) FROM blocking_edges WHERE waiter_tid = $main")" \
			"$n: HTML: the timeline drew the main thread's waits and their arrows"
		check "$n: HTML: the flame graph drew frames" test "$(attr data-flame-frames)" -gt 3
	else
		echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	fi

	total=$(pprof_totals "$db")
	"$BIN" -q "$in" --pprof "$T/$n.pb.gz" --folded "$T/$n.txt" -o "$T/$n.report.txt"
	go tool pprof -raw "$T/$n.pb.gz" 2>/dev/null | python3 tests/fixtures/check_stacks.py raw >"$T/raw"
	is "$(sed -n 's/^total //p' "$T/raw")" "$total" "$n: go tool pprof's totals (wall, cpu, offcpu, alloc, objects, majflt) are the call tree's"
	python3 tests/fixtures/check_stacks.py folded "$T/$n.txt" "$name" >"$T/fold"
	is "$(sed -n 's/^bad //p' "$T/fold")/$(sed -n 's/^total //p' "$T/fold")" "0/${total%% *}" \
		"$n: folded stacks well formed, summing to the wall total"
	is "$(sed -n 's/^root //p' "$T/fold")" "$(q "$db" "SELECT sum(self_ns) FROM calltree WHERE tid = $main")" \
		"$n: folded: the main thread's lines sum to its wall"

	"$BIN" -q "$in" --perfetto "$T/$n.again.pb" -o "$T/$n.report.txt"
	"$BIN" import -q "$T/$n.again.pb" -o "$T/$n.again.db"
	is "$(python3 tests/fixtures/check_pf_roundtrip.py "$db" "$T/$n.again.db")" ok "$n: --perfetto again: the same slices, threads, waits"

	"$BIN" -q "$in" --rules examples/startup.lua --set cap=0 --set lock_ms=0.5 -o "$T/$n.startup.json"
	is "$?" 0 "$n: startup.lua exits 0"
	is "$(python3 "$K" startup "$T/$n.startup.json" "$db" 0.5)" ok "$n: startup.lua: a main-lock-wait finding per main-thread wait, startup the whole trace"

	is "$("$BIN" query -q "$in" "SELECT count(*) AS n, (SELECT name FROM threads WHERE is_main) AS m FROM slices" --format json)" \
		"[{\"n\":$slices,\"m\":\"$name\"}]" "$n: query on the .pb"
done
# the bundled example's waits, through the round trip, are the ones
# startup.lua finds in the dump (its startup window is not: that needs
# samples, which a Perfetto trace has none of)
"$BIN" -q "$ROOT/examples/sampling.bin" --rules examples/startup.lua --set cap=0 --set lock_ms=0.5 -o "$T/example.startup.json"
# Compared by begin, length and waker, the waits that have one: the export
# carries a wait only as its waker's arrow (ending on the outermost slice
# the wait's record opened, with the wait's own length as WaitTime).
w() { python3 -c 'import json, sys
print(sorted((f["ts"], f["dur"], f["evidence"]["waker_tid"]) for f in json.load(open(sys.argv[1]))["findings"]
             if f["rule"] == "main-lock-wait" and f["evidence"].get("waker_tid")))' "$1"; }
is "$(w "$T/rt.startup.json")" "$(w "$T/example.startup.json")" "rt: the same main-lock-wait findings as the dump's"

# xlsx: the example's round trip, a trace with one wait, and one whose
# monitor contentions ("monitor contention with owner NAME (TID) ...", no
# method shape) are among the charts' methods
$MKPF "$T/x3.pb" --flavor btrace3 --seed 33 --slices 2000 --blocks 1 --no-truth >/dev/null
$MKPF "$T/x4.pb" --flavor btrace3 --seed 35 --slices 3000 --blocks 6 --no-truth >/dev/null
like "$("$BIN" query "$T/x4.pb" "SELECT count(*) FROM methods m JOIN frames f ON f.id = m.frame_id
	WHERE f.name LIKE 'monitor contention%' AND m.tid = (SELECT tid FROM threads WHERE is_main)" --format csv |
	tail -n 1)" '^[1-9]' "x4: monitor contentions are main-thread methods"
for n in rt x3 x4; do
	"$BIN" -q "$T/$n.pb" -o "$T/$n.xlsx"
	is "$?" 0 "$n: -o x.xlsx exits 0"
	"$BIN" -q "$T/$n.pb" -o "$T/$n.json"
	is "$(python3 tests/fixtures/check_xlsx.py report "$T/$n.xlsx" "$T/$n.json" "$BIN" "$T/$n.pb")" ok \
		"$n: openpyxl reads back the JSON report's sheets, cells and charts"
done

# btrace 2.0 traces have no CPU times, so no CPU charts: the rest holds
$MKPF "$T/x2.pb" --flavor btrace2 --seed 34 --slices 2000 --blocks 1 --no-truth >/dev/null
"$BIN" -q "$T/x2.pb" -o "$T/x2.xlsx"
"$BIN" -q "$T/x2.pb" -o "$T/x2.json"
is "$(python3 tests/fixtures/check_xlsx.py report "$T/x2.xlsx" "$T/x2.json" "$BIN" "$T/x2.pb")" \
	"Charts: chart types ['BarChart', 'PieChart']" "x2: openpyxl reads back the sheets and cells; two charts (no CPU)"

# compare: the same trace on both sides; another seed of the same program
v() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
"$BIN" compare --base "$T/p3.pb" --head "$T/p3.pb" -o "$T/same.cmp.json"
is "$?" 0 "compare, the same trace: exit 0"
is "$(v "$T/same.cmp.json" 'd["verdict"], d["counts"]["regressed"], d["counts"]["improved"], "one run a side is not a test" in d["headline"]')" \
	"('inconclusive', 0, 0, True)" "compare, the same trace: one run a side decides nothing, and says so"
"$BIN" compare --base "$T/p3.pb" --head "$T/p3b.pb" -o "$T/other.cmp.json" 2>"$T/cmp.err"
rc=$?
check "compare, another seed: exit 0 or 3 ($rc)" test "$rc" = 0 -o "$rc" = 3
is "$rc" "$(v "$T/other.cmp.json" '3 if d["verdict"] == "regressed" else 0')" "compare, another seed: exit 3 exactly when regressed"
like "$(v "$T/other.cmp.json" 'd["verdict"]')" '^(regressed|improved|unchanged|inconclusive)$' "compare, another seed: a verdict"
is "$(v "$T/other.cmp.json" '(d["verdict"] == "regressed") == (sum(m["verdict"] == "regressed" for m in d["metrics"]) > 0)')" True \
	"compare, another seed: the verdict follows its metrics"
like "$(v "$T/other.cmp.json" 'd["diff"]["methods"]["wall"][0]["method"]')" 'com\.example|android|java|Object#|binder|monitor|pthread' \
	"compare, another seed: the method diff names the traces' methods"
is "$(python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1]))); print("valid")' \
	"$T/other.cmp.json" "$ROOT/reports/compare/compare.schema.json" 2>&1 | tail -1)" valid "compare, another seed: the JSON validates"
"$BIN" -q "$T/p3.pb" -o "$T/a.json"; "$BIN" -q "$T/p3b.pb" -o "$T/b.json"
"$BIN" compare --base "$T/a.json" --head "$T/b.json" -o "$T/rep.cmp.json" 2>"$T/cmp.err"
is "$(v "$T/rep.cmp.json" 'd["verdict"]')" "$(v "$T/other.cmp.json" 'd["verdict"]')" "compare of the JSON reports: the same verdict"

# the checkers can fail
sed 's/| trace\.slices | [0-9]* |/| trace.slices | 1 |/' "$T/p3.md" >"$T/bad.md"
unlike "$(python3 "$K" md "$T/bad.md" "$T/p3.json")" '^ok$' "checker: a wrong slice count in the Markdown fails"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); t = r["tables"]["main_waits"]; t["rows"][0][t["columns"].index("waker_thread")] = "nobody"; json.dump(r, open(sys.argv[2], "w"))' \
	"$T/p3.json" "$T/bad.json"
unlike "$(python3 "$K" json "$T/bad.json" "$T/p3.db")" '^ok$' "checker: a wrong waker thread fails"
unlike "$(python3 "$K" startup "$T/p3.startup.json" "$T/p2.db" 0.5)" '^ok$' "checker: another trace's waits fail"
