#!/bin/sh
# Every report and export on an ART method trace, the .trace given
# directly: text, JSON (schema, and its facts, threads and method times
# against the database), Markdown, HTML (headless Chromium: no console
# message, the page's self-test, its flame graph), xlsx (openpyxl,
# tests/fixtures/check_xlsx.py), --pprof (go tool pprof's totals) and
# --folded, --perfetto (imported back: the same slices, threads and call
# tree, tests/fixtures/check_pf_roundtrip.py), and query.
. tests/lib.sh
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"

python3 tests/fixtures/mkart.py "$T/d.trace" --variant v3-dual --seed 41 --threads 3 --calls 1500 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$T/v.trace" --variant v2s5-dual --seed 42 --threads 2 --calls 1500 --no-truth >/dev/null

chrome() {   # url: console messages to $T/console, the DOM to $T/dom
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$1" >"$T/dom" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
}
attr() {   # name: the first name="..." of the DOM
	grep -o " $1=\"[^\"]*\"" "$T/dom" | head -n 1 | sed 's/^[^"]*"//; s/"$//'
}

for n in d v; do
	in=$T/$n.trace
	db=$T/$n.db
	"$BIN" import -q "$in" -o "$db"
	main=$(q "$db" "SELECT tid FROM threads WHERE is_main")
	slices=$(q "$db" "SELECT count(*) FROM slices")
	check "$n: the import has slices and a main thread ($slices, $main)" test "$slices" -gt 500 -a -n "$main"

	out=$("$BIN" -q "$in")
	is "$?" 0 "$n: text report exits 0"
	like "$out" "^trace .*\\(art-method-trace v[35]\\)" "$n: text: an ART method trace"
	like "$out" "main thread tid $main" "$n: text: its main thread"
	like "$out" "trace\\.slices +$slices\$" "$n: text: its slice count"
	like "$out" "^ *$main +main +1 " "$n: text: the main thread's row"

	"$BIN" -q "$in" -o "$T/$n.json"
	is "$?" 0 "$n: JSON exits 0"
	is "$(python3 - "$T/$n.json" "$db" "$ROOT/reports/json/report.schema.json" <<'PY'
import json, sqlite3, sys, jsonschema
r = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
jsonschema.validate(r, json.load(open(sys.argv[3])))
m = dict(db.execute("SELECT key, value FROM meta"))
bad = []
t = r["trace"]
if t["format"] != "art-method-trace": bad.append("format %r" % t["format"])
if (t["pid"], t["main_tid"]) != (m["pid"], m["main_tid"]): bad.append("pid, main %r" % ((t["pid"], t["main_tid"]),))
if r["metrics"]["trace.slices"] != db.execute("SELECT count(*) FROM slices").fetchone()[0]: bad.append("slices")
wall, cpu = db.execute("SELECT sum(self_ns), sum(self_cpu_ns) FROM calltree WHERE tid = ?", (m["main_tid"],)).fetchone()
if (r["metrics"]["thread.main.wall_ns"], r["metrics"]["thread.main.cpu_ns"]) != (wall, cpu): bad.append("main wall, cpu")
if not 0 < cpu < wall: bad.append("main thread: CPU %r of wall %r" % (cpu, wall))
tt = r["tables"]["threads"]; c = tt["columns"]
got = sorted((row[c.index("tid")], row[c.index("thread")], row[c.index("cpu_ns")]) for row in tt["rows"])
want = sorted(db.execute("SELECT t.tid, t.name, sum(c.self_cpu_ns) FROM threads t JOIN calltree c ON c.tid = t.tid GROUP BY t.tid"))
if got != want: bad.append("threads %r != %r" % (got, want))
mm = r["tables"]["main_methods"]; c = mm["columns"]
for row in mm["rows"]:
    name, incl, cpu_ = row[c.index("method")], row[c.index("incl_ns")], row[c.index("incl_cpu_ns")]
    if incl < cpu_: bad.append("%s: incl %d < cpu %d" % (name, incl, cpu_))
print("ok" if not bad else "; ".join(bad[:5]))
PY
)" ok "$n: JSON validates; its facts, threads, main-thread wall and CPU are the database's"
	"$BIN" -q "$in" -o "$T/$n.md"
	is "$?" 0 "$n: Markdown exits 0"
	like "$(cat "$T/$n.md")" "\\| trace\\.slices \\| $slices \\|" "$n: Markdown: the slice count"
	like "$(cat "$T/$n.md")" "\\| $main \\| main \\| 1 \\|" "$n: Markdown: the main thread's row"

	"$BIN" -q "$in" -o "$T/$n.html"
	is "$?" 0 "$n: HTML exits 0"
	if [ -x "$CHROME" ]; then
		chrome "file://$T/$n.html#selftest"
		is "$(cat "$T/console")" "" "$n: HTML: no console message"
		is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "$n: HTML: the script ran, no error, self-test passes"
		check "$n: HTML: the flame graph drew frames" test "$(attr data-flame-frames)" -gt 3
	else
		echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	fi

	"$BIN" -q "$in" -o "$T/$n.xlsx"
	is "$?" 0 "$n: -o x.xlsx exits 0"
	# a method trace records no allocations and no waits: two of the four charts
	is "$(python3 tests/fixtures/check_xlsx.py report "$T/$n.xlsx" "$T/$n.json" "$BIN" "$in")" \
		"Charts: chart types ['BarChart', 'BarChart']" \
		"$n: openpyxl reads back the JSON report's sheets and cells; the CPU and off-CPU charts"

	total=$(pprof_totals "$db")
	"$BIN" -q "$in" --pprof "$T/$n.pb.gz" --folded "$T/$n.txt" -o "$T/$n.report.txt"
	is "$?" 0 "$n: --pprof and --folded exit 0"
	go tool pprof -raw "$T/$n.pb.gz" 2>/dev/null | python3 tests/fixtures/check_stacks.py raw >"$T/raw"
	is "$(sed -n 's/^total //p' "$T/raw")" "$total" "$n: go tool pprof's totals (wall, cpu, offcpu, alloc, objects, majflt) are the call tree's"
	python3 tests/fixtures/check_stacks.py folded "$T/$n.txt" main >"$T/fold"
	is "$(sed -n 's/^bad //p' "$T/fold")/$(sed -n 's/^total //p' "$T/fold")" "0/${total%% *}" \
		"$n: folded stacks well formed, summing to the wall total"

	"$BIN" -q "$in" --perfetto "$T/$n.pb" -o "$T/$n.report.txt"
	is "$?" 0 "$n: --perfetto exits 0"
	"$BIN" import -q "$T/$n.pb" -o "$T/$n.again.db"
	is "$(python3 tests/fixtures/check_pf_roundtrip.py "$db" "$T/$n.again.db")" ok \
		"$n: --perfetto imported back: the same slices with their CPU time, threads, call tree"

	is "$("$BIN" query -q "$in" "SELECT count(*) AS n, (SELECT name FROM threads WHERE is_main) AS m FROM slices" --format json)" \
		"[{\"n\":$slices,\"m\":\"main\"}]" "$n: query on the .trace"
done

# the real ART trace's reports, as users would run them
R=$REAL/art-methodtrace/legacy.trace
if [ -f "$R" ]; then
	for o in r.txt r.json r.md r.html r.xlsx; do
		"$BIN" -q "$R" -o "$T/real.$o"
		is "$?" 0 "the real ART trace: -o $o exits 0"
	done
	"$BIN" -q "$R" --pprof "$T/real.pb.gz" --folded "$T/real.folded" --perfetto "$T/real.pb" -o "$T/real.json"
	is "$?" 0 "the real ART trace: --pprof, --folded, --perfetto exit 0"
fi
