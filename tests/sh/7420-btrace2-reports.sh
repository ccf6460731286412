#!/bin/sh
# Every report and export on btrace 2.0 raw traces of mkbtrace2.py, the
# directory given as INPUT: text, JSON (schema and content against the
# kept database, tests/fixtures/check_pf_reports.py), Markdown, HTML
# (headless Chromium: no console message, the page's self-test, flame
# graph frames), xlsx (openpyxl, tests/fixtures/check_xlsx.py), --pprof
# (go tool pprof's totals are the call tree's) and --folded, --perfetto
# (re-imported: the same slices, tests/fixtures/check_pf_roundtrip.py),
# examples/startup.lua, query, compare of two traces. A scratch analysis
# gives the report of the kept database.
. tests/lib.sh
MK="python3 tests/fixtures/mkbtrace2.py"
K=tests/fixtures/check_pf_reports.py
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"

$MK "$T/a" --seed 41 --slices 4000 --threads 4 --no-truth >/dev/null
$MK "$T/b" --seed 42 --slices 4000 --threads 4 --no-truth >/dev/null
in=$T/a
db=$T/a.db
"$BIN" import -q "$in" -o "$db"
main=$(q "$db" "SELECT tid FROM threads WHERE is_main")
slices=$(q "$db" "SELECT count(*) FROM slices")
check "the import has slices and a main thread ($slices, $main)" test "$slices" -gt 1000 -a -n "$main"

out=$("$BIN" -q "$in")
is "$?" 0 "text report exits 0"
like "$out" "^trace .*appTrace.bin \\(btrace2 v5\\)" "text: a btrace 2.0 trace"
like "$out" "main thread tid $main" "text: its main thread"
like "$out" "trace\\.slices +$slices\$" "text: its slice count"
like "$out" "^ *$main +tid $main +1 " "text: the main thread's row, named tid N"
is "$("$BIN" -q "$db")" "$out" "text: the kept database's report is the scratch analysis's"

"$BIN" -q "$in" -o "$T/a.json"
is "$(python3 "$K" json "$T/a.json" "$db" btrace2 2>&1)" ok "JSON validates and holds the database's facts and threads"
"$BIN" -q "$in" -o "$T/a.md"
is "$(python3 "$K" md "$T/a.md" "$T/a.json")" ok "Markdown shows the JSON's slices and threads"

"$BIN" -q "$in" -o "$T/a.html"
if [ -x "$CHROME" ]; then
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$T/a.html#selftest" >"$T/dom" 2>"$T/err"
	attr() { grep -o " $1=\"[^\"]*\"" "$T/dom" | head -n 1 | sed 's/^[^"]*"//; s/"$//'; }
	is "$(grep ':CONSOLE' "$T/err")" "" "HTML: no console message"
	is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "HTML: the script ran, no error, self-test passes"
	check "HTML: the flame graph drew frames" test "$(attr data-flame-frames)" -gt 3
else
	echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
fi

"$BIN" -q "$in" -o "$T/a.xlsx"
is "$?" 0 "-o x.xlsx exits 0"
is "$(python3 tests/fixtures/check_xlsx.py report "$T/a.xlsx" "$T/a.json" "$BIN" "$in")" "Charts: chart types ['BarChart']" \
	"openpyxl reads back the JSON report's sheets and cells; one chart (the format has no CPU or blocked time)"

total=$(pprof_totals "$db")
"$BIN" -q "$in" --pprof "$T/a.pb.gz" --folded "$T/a.txt" -o "$T/a.report.txt"
go tool pprof -raw "$T/a.pb.gz" 2>/dev/null | python3 tests/fixtures/check_stacks.py raw >"$T/raw"
is "$(sed -n 's/^total //p' "$T/raw")" "$total" "go tool pprof's totals (wall, cpu, offcpu, alloc, objects, majflt) are the call tree's"
python3 tests/fixtures/check_stacks.py folded "$T/a.txt" "tid $main" >"$T/fold"
is "$(sed -n 's/^bad //p' "$T/fold")/$(sed -n 's/^total //p' "$T/fold")" "0/${total%% *}" \
	"folded stacks well formed, summing to the wall total"
is "$(sed -n 's/^root //p' "$T/fold")" "$(q "$db" "SELECT sum(self_ns) FROM calltree WHERE tid = $main")" \
	"folded: the main thread's lines sum to its wall"

"$BIN" -q "$in" --perfetto "$T/a.pb" -o "$T/a.report2.txt"
"$BIN" import -q "$T/a.pb" -o "$T/again.db"
is "$(python3 tests/fixtures/check_pf_roundtrip.py "$db" "$T/again.db")" ok "--perfetto, re-imported: the same slices and threads"

"$BIN" -q "$in" --rules examples/startup.lua --set cap=0 -o "$T/a.startup.json"
is "$?" 0 "startup.lua exits 0"
is "$(jq_ "$T/a.startup.json" '[f["message"] for f in d["findings"] if f["severity"] == "error"]')" "[]" "startup.lua: no rule errors"

is "$("$BIN" query -q "$in" "SELECT count(*) AS n, (SELECT tid FROM threads WHERE is_main) AS m FROM slices" --format json)" \
	"[{\"n\":$slices,\"m\":$main}]" "query on the directory"

"$BIN" compare --base "$in" --head "$in" -o "$T/same.cmp.json"
is "$?" 0 "compare, the same trace: exit 0"
is "$(jq_ "$T/same.cmp.json" 'd["verdict"], d["counts"]["regressed"], d["counts"]["improved"]')" "('unchanged', 0, 0)" \
	"compare, the same trace: unchanged"
"$BIN" compare --base "$in" --head "$T/b" -o "$T/other.cmp.json" 2>"$T/cmp.err"
rc=$?
check "compare, another trace: exit 0 or 3 ($rc)" test "$rc" = 0 -o "$rc" = 3
like "$(jq_ "$T/other.cmp.json" 'd["verdict"]')" '^(regressed|improved|unchanged|inconclusive)$' "compare, another trace: a verdict"
