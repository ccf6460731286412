#!/bin/sh
# Every report and export on systrace input, the trace given directly:
# mksystrace.py traces with scheduler data (plain text), without it (CPU
# unknown) and gzip'd. Text, JSON (schema and content against the
# database, tests/fixtures/check_pf_reports.py), Markdown, HTML (headless
# Chromium: no console message, the page's self-test, the main thread's
# waits and arrows), xlsx (openpyxl, tests/fixtures/check_xlsx.py), --pprof
# (go tool pprof's totals) and --folded, --perfetto (its re-import keeps
# the slices, tests/fixtures/check_pf_roundtrip.py), examples/startup.lua's
# findings, query, and compare of two traces.
. tests/lib.sh
MK="python3 tests/fixtures/mksystrace.py"
K=tests/fixtures/check_pf_reports.py
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"

$MK "$T/s1/t.txt" --seed 41 --frames 80 --tgid --no-truth
$MK "$T/s2/t.txt" --seed 42 --frames 80 --no-sched --no-truth
$MK "$T/s3/t.gz" --seed 43 --frames 80 --container gzip --waking --no-truth

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

for n in s1 s2 s3; do
	in=$(ls "$T/$n"/t.*)
	db=$T/$n.db
	"$BIN" import -q "$in" -o "$db"
	main=$(q "$db" "SELECT tid FROM threads WHERE is_main")
	name=$(q "$db" "SELECT name FROM threads WHERE is_main")
	slices=$(q "$db" "SELECT count(*) FROM slices")
	check "$n: the import has slices and a main thread ($slices, $main)" test "$slices" -gt 100 -a -n "$main"

	out=$("$BIN" -q "$in")
	is "$?" 0 "$n: text report exits 0"
	like "$out" "^trace .*\\(systrace" "$n: text: a systrace"
	like "$out" "main thread tid $main" "$n: text: its main thread"
	like "$out" "trace\\.slices +$slices\$" "$n: text: its slice count"

	"$BIN" -q "$in" -o "$T/$n.json"
	is "$(python3 "$K" json "$T/$n.json" "$db" systrace 2>&1)" ok "$n: JSON validates and holds the database's facts, threads and waits"
	"$BIN" -q "$in" -o "$T/$n.md"
	is "$(python3 - "$T/$n.md" "$T/$n.json" <<'PY'
import json, re, sys
text, r = open(sys.argv[1], encoding="utf-8").read(), json.load(open(sys.argv[2]))
def section(title):
    part = text.split("\n## " + title + "\n", 1)[1].split("\n## ")[0]
    return [[x.strip().replace("\\_", "_").replace("\\#", "#") for x in l.strip().strip("|").split("|")]
            for l in part.splitlines() if l.startswith("|")][2:]
out = []
m = re.search(r"^\| trace\.slices \| (\d+) \|$", text, re.M)
if not m or int(m.group(1)) != r["metrics"]["trace.slices"]:
    out.append("trace.slices")
t = r["tables"]["threads"]; c = t["columns"]
if [tuple(x[:3]) for x in section("Threads")] != [(str(w[c.index("tid")]), w[c.index("thread")], str(w[c.index("main")])) for w in t["rows"]]:
    out.append("threads")
t = r["tables"]["main_waits"]; c = t["columns"]
import collections
md = collections.Counter((x[1], x[5]) for x in section("Main thread: waits and who ended them"))
js = collections.Counter((w[c.index("kind")], w[c.index("waker_thread")]) for w in t["rows"])
if not md or md - js:
    out.append("waits")
print(" ".join(out) or "ok")
PY
)" ok "$n: Markdown shows the JSON's slice count, threads, and (the longest) waits' kinds and wakers"

	"$BIN" -q "$in" -o "$T/$n.html"
	if [ -x "$CHROME" ]; then
		chrome "file://$T/$n.html#selftest"
		is "$(cat "$T/console")" "" "$n: HTML: no console message"
		is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "$n: HTML: the script ran, no error, self-test passes"
		is "$(attr data-tl-waits)" "$(q "$db" "SELECT count(*) FROM blocking_edges")" "$n: HTML: the timeline drew every wait"
		check "$n: HTML: arrows only from known wakers ($(attr data-tl-arrows))" \
			test "$(attr data-tl-arrows)" -le "$(q "$db" "SELECT count(waker_tid) FROM blocking_edges")"
	else
		echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	fi

	"$BIN" -q "$in" -o "$T/$n.xlsx"
	is "$?" 0 "$n: -o x.xlsx exits 0"
	python3 tests/fixtures/check_xlsx.py report "$T/$n.xlsx" "$T/$n.json" "$BIN" "$in" >"$T/xl"
	like "$(cat "$T/xl")" '^(ok|Charts: .*)$' "$n: openpyxl reads back the JSON report's sheets and cells"

	total=$(pprof_totals "$db")
	"$BIN" -q "$in" --pprof "$T/$n.pb.gz" --folded "$T/$n.fold" -o "$T/$n.report.txt"
	go tool pprof -raw "$T/$n.pb.gz" 2>/dev/null | python3 tests/fixtures/check_stacks.py raw >"$T/raw"
	is "$(sed -n 's/^total //p' "$T/raw")" "$total" "$n: go tool pprof's totals are the call tree's"
	python3 tests/fixtures/check_stacks.py folded "$T/$n.fold" "$name" >"$T/fold"
	is "$(sed -n 's/^bad //p' "$T/fold")/$(sed -n 's/^total //p' "$T/fold")" "0/${total%% *}" \
		"$n: folded stacks well formed, summing to the wall total"

	"$BIN" -q "$in" --perfetto "$T/$n.pb" -o "$T/$n.r.txt"
	is "$?" 0 "$n: --perfetto exits 0"
	"$BIN" import -q "$T/$n.pb" -o "$T/$n.again.db"
	is "$(q "$T/$n.again.db" "SELECT count(*) FROM slices")" "$slices" "$n: --perfetto: its re-import has the slices"

	"$BIN" -q "$in" --rules examples/startup.lua --set cap=0 --set lock_ms=0.3 -o "$T/$n.startup.json"
	is "$?" 0 "$n: startup.lua exits 0"

	is "$("$BIN" query -q "$in" "SELECT count(*) AS n, (SELECT name FROM threads WHERE is_main) AS m FROM slices" --format json)" \
		"[{\"n\":$slices,\"m\":\"$name\"}]" "$n: query on the trace"
done
sl="SELECT s.tid, s.ts, s.dur, s.depth, f.name, s.cpu_dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.tid, s.ts, s.depth"
is "$("$BIN" query -q "$T/s1.again.db" "$sl" --format tsv | md5sum)" "$("$BIN" query -q "$T/s1.db" "$sl" --format tsv | md5sum)" \
	"s1: --perfetto round trip: the same slices and CPU times"
ed="SELECT waiter_tid, kind, ts, dur, waker_tid FROM blocking_edges ORDER BY ts"
is "$("$BIN" query -q "$T/s1.again.db" "$ed" --format tsv | md5sum)" "$("$BIN" query -q "$T/s1.db" "$ed" --format tsv | md5sum)" \
	"s1: --perfetto round trip: the same waits and wakers"
is "$(python3 "$K" startup "$T/s1.startup.json" "$T/s1.db" 0.3)" ok "s1: startup.lua: a main-lock-wait finding per main-thread wait"
like "$(q "$T/s1.db" "SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL")" '^[1-9]' "s1: waits with wakers"

# CPU unknown: NULL in the slices; the reports run
is "$(q "$T/s2.db" "SELECT count(cpu_dur) FROM slices")" 0 "s2: no sched data: every cpu_dur NULL"

# compare: the same trace; another seed
v() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
"$BIN" compare --base "$T/s1/t.txt" --head "$T/s1/t.txt" -o "$T/same.cmp.json" 2>/dev/null
is "$?:$(v "$T/same.cmp.json" 'd["verdict"], "one run a side is not a test" in d["headline"]')" "0:('inconclusive', True)" \
	"compare, the same trace: one run a side decides nothing, and says so"
$MK "$T/s4/t.txt" --seed 44 --frames 80 --tgid --no-truth
"$BIN" compare --base "$T/s1/t.txt" --head "$T/s4/t.txt" -o "$T/other.cmp.json" 2>/dev/null
rc=$?
check "compare, another seed: exit 0 or 3 ($rc)" test "$rc" = 0 -o "$rc" = 3
is "$(valid "$T/other.cmp.json")" valid "compare, another seed: the JSON validates"
