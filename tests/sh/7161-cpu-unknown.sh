#!/bin/sh
# CPU time a trace does not give is unknown, never 0 (issue 22, item 4):
# NULL in the database (slices, messages, calltree, methods, callers,
# message_methods) for every thread with a slice that does not say it,
# meta cpu_unknown; the reports' CPU columns read "—" (text, Markdown,
# HTML, xlsx) or null (JSON), their CPU metrics are left out, the header
# says it once; tables of counters the format has none of are left out;
# pprof leaves out its cpu types, --folded-metric cpu refuses; --perfetto
# writes no CPU annotation for it and reads back unknown (and a known
# thread whose CPU is all 0 reads back known); compare finds no regression
# in a CPU metric one side does not know; rules get nil. Exact checks on
# mkcpucase.py's truth (threads with and without CPU annotations), the
# writers' atrace-only, btrace 2.0, ART clock=wall and systrace outputs,
# and the real nowinandroid-trace (atrace markers only).
. tests/lib.sh
K="python3 tests/fixtures/check_cpu_unknown.py"
sqlq() {   # db sql: every row, tab-separated, NULL as "NULL"
	python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("\t".join("NULL" if v is None else str(v) for v in r))' "$1" "$2"
}

# --- mkcpucase.py: threads 500 and 503 say their CPU time, 501 and 502 do not
python3 tests/fixtures/mkcpucase.py "$T/c.pb" >"$T/c.truth"
"$BIN" import -q "$T/c.pb" -o "$T/c.db"
is "$?" 0 "mixed trace: import exits 0"
is "$(sqlq "$T/c.db" "SELECT tid, ts, dur, cpu_dur, self_cpu_dur FROM slices ORDER BY tid, ts")" "$(cat "$T/c.truth")" \
	"mixed trace: every slice's CPU time as its thread's annotations say (NULL for a thread with none; 0 is 0)"
is "$(q "$T/c.db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM meta WHERE key IN
	('cpu_unknown', 'no_alloc', 'no_faults', 'no_csw') ORDER BY key)")" "cpu_unknown=some no_alloc=1 no_csw=1 no_faults=1" \
	"mixed trace: meta says some threads' CPU is unknown, and no counters"
is "$($K db "$T/c.db" 501 502)" ok "mixed trace: CPU columns of every attribution table NULL for 501 and 502 only"
"$BIN" -q "$T/c.db" -o "$T/c.json"
is "$($K json "$T/c.json" 501 502)" ok "mixed trace JSON: the unknown threads' CPU cells null"
is "$(jq_ "$T/c.json" 'd["trace"]["cpu_time"], d["trace"]["not_recorded"]')" \
	"('partial', ['allocations', 'page_faults', 'context_switches', 'waits', 'idle'])" \
	"mixed trace JSON: trace.cpu_time partial; counters, waits and idle not recorded"
is "$(jq_ "$T/c.json" 'sorted((r[0], r[4]) for r in d["tables"]["threads"]["rows"])')" \
	"[(500, 6000000), (501, None), (502, None), (503, 750000)]" \
	"mixed trace JSON: threads' cpu_ns known (main 6 ms, 503 0.75 ms) and null"
is "$(jq_ "$T/c.json" 'd["metrics"]["thread.main.cpu_ns"], "process.cpu_ns" in d["metrics"]')" "(6000000, False)" \
	"mixed trace: the main thread's CPU metric; the process's (some unknown) left out"
out=$("$BIN" -q "$T/c.db")
like "$out" "^unknown +CPU time of some threads, allocations, page faults, context switches, waits \\(blocked time\\), idle time: not in this trace \\(their columns read —\\)" \
	"mixed trace text: the header says what is not in the trace"
like "$out" "^501 +worker +0 +8\\.0 +— +— +— +— +—\$" "mixed trace text: an unknown thread's row (CPU, blocked and idle time —)"
like "$out" "^500 +main +1 +12\\.0 +6\\.0 +6\\.0 " "mixed trace text: a known thread's row"
"$BIN" -q "$T/c.db" --perfetto "$T/c2.pb" -o /dev/null
"$BIN" import -q "$T/c2.pb" -o "$T/c2.db"
is "$(sqlq "$T/c2.db" "SELECT tid, ts, dur, cpu_dur, self_cpu_dur FROM slices ORDER BY tid, ts")" "$(cat "$T/c.truth")" \
	"mixed trace --perfetto, re-imported: the same CPU times, NULL where unknown"

# --- the real atrace-only trace
N=$REAL/nowinandroid-trace/trace.perfetto-trace
if [ -d "$REAL/nowinandroid-trace" ]; then
	"$BIN" import -q "$N" -o "$T/n.db"
	is "$(q "$T/n.db" "SELECT count(*), count(cpu_dur), (SELECT value FROM meta WHERE key = 'cpu_unknown') FROM slices")" \
		"3122	0	all" "nowinandroid: 3122 slices, no CPU time, meta cpu_unknown all"
	is "$($K db "$T/n.db")" ok "nowinandroid: every attribution table's CPU column NULL"
	"$BIN" -q "$N" >"$T/n.txt"
	is "$($K text "$T/n.txt")" ok "nowinandroid text: every CPU, off-CPU and unexplained cell reads —, none 0.0"
	is "$(grep -c 'not in this trace' "$T/n.txt")" 1 "nowinandroid text: said once"
	unlike "$(cat "$T/n.txt")" "off-CPU|100\\.0 ?%|Allocations by method|Page faults and context|alloc_bytes" \
		"nowinandroid text: no off-CPU share, no tables or columns of counters it does not record"
	rc=0
	for f in json md html xlsx; do "$BIN" -q "$N" -o "$T/n.$f" || rc=$?; done
	"$BIN" -q "$N" --pprof "$T/n.pb.gz" --perfetto "$T/n.pb" -o /dev/null || rc=$?
	is "$rc" 0 "nowinandroid: every report and export exits 0"
	is "$($K json "$T/n.json")" ok "nowinandroid JSON: no CPU metric, every CPU cell null"
	is "$(jq_ "$T/n.json" 'd["trace"]["cpu_time"], sorted(d["tables"])')" \
		"('unknown', ['frames', 'main_calltree', 'main_messages', 'main_methods', 'main_self', 'main_waits', 'methods', 'threads'])" \
		"nowinandroid JSON: trace.cpu_time unknown; its frames (the frame timeline's); no alloc, faults or blocking table"
	is "$(jq_ "$T/n.json" 'd["trace"]["not_recorded"], sorted(set(r[c] for r in d["tables"]["threads"]["rows"] for c in (d["tables"]["threads"]["columns"].index("blocked_ns"), d["tables"]["threads"]["columns"].index("idle_ns")))), [k for k in d["metrics"] if "blocked" in k or "idle" in k]')" \
		"(['allocations', 'page_faults', 'context_switches', 'waits', 'idle'], [None], [])" \
		"nowinandroid JSON: waits and idle not in the trace: blocked and idle cells null, no metric of them"
	is "$(grep -c 'Not in this trace' "$T/n.md")/$($K md "$T/n.md")" 1/ok \
		"nowinandroid Markdown: said once; every CPU, off-CPU and unexplained cell reads —"
	is "$(grep -c 'Not in this trace' "$T/n.html")" 1 "nowinandroid HTML: said once"
	is "$(grep -o '<option value="[16]">[^<]*</option>' "$T/n.html" | tr '\n' ' ')" \
		'<option value="1">CPU time (not in this trace)</option> <option value="6">off-CPU time (not in this trace)</option> ' \
		"nowinandroid HTML: the flame graph's CPU weights say they are not in the trace"
	is "$(grep -c '<td>—</td>' "$T/n.html" | sed 's/^[1-9][0-9]*$/some/')" some "nowinandroid HTML: unknown cells read —"
	is "$(/usr/bin/python3 tests/fixtures/check_xlsx.py report "$T/n.xlsx" "$T/n.json" "$BIN" "$N")" \
		"Charts: chart types ['BarChart']" \
		"nowinandroid xlsx: every cell as JSON has it (— for unknown CPU); the main thread charted by wall time"
	HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off \
		go tool pprof -raw "$T/n.pb.gz" 2>/dev/null | sed -n '/^Samples:/{n;p;}' >"$T/types"
	is "$(cat "$T/types")" "wall/nanoseconds[dflt]" \
		"nowinandroid --pprof: go tool pprof reads it; no cpu, offcpu, alloc or majflt sample type (none recorded)"
	"$BIN" -q "$N" --folded "$T/n.folded" --folded-metric cpu -o /dev/null 2>"$T/err"
	is "$?" 1 "nowinandroid --folded-metric cpu: exit 1"
	like "$(cat "$T/err")" "does not give its threads' CPU time" "... saying why"
	is "$(grep -c CPUTime "$T/n.pb")" 0 "nowinandroid --perfetto: no CPU annotation"
	"$BIN" import -q "$T/n.pb" -o "$T/n2.db"
	is "$(q "$T/n2.db" "SELECT count(*), count(cpu_dur), (SELECT value FROM meta WHERE key = 'cpu_unknown') FROM slices")" \
		"3122	0	all" "nowinandroid --perfetto, re-imported: still unknown"
	cat >"$T/nil.lua" <<'LUA'
bt.rule{ id = "nilcpu", run = function()
  local n, unknown = 0, 0
  for r in bt.methods{} do
    n = n + 1
    if r.self_cpu_ns == nil and r.incl_cpu_ns == nil then unknown = unknown + 1 end
  end
  bt.finding{ message = string.format("methods %d, CPU nil %d", n, unknown) }
end }
LUA
	like "$("$BIN" -q "$T/n.db" --rules "$T/nil.lua")" "methods ([0-9]+), CPU nil \\1\$" "nowinandroid: rules get nil CPU time"
else
	echo "ok - nowinandroid-trace # SKIP $REAL/nowinandroid-trace is missing"
fi

# --- a real app start without CPU time: its methods ranked by self wall time
# (the warm start's own scheduler data dropped: pfnosched.py), and with it:
# by self CPU time, each slice's its thread's runs inside it
S=$REAL/perfetto-api32-startup-warm/derived/api32_app7663_only.pb
W=$T/api32_nosched.pb
if [ -d "$REAL/perfetto-api32-startup-warm" ]; then
	"$BIN" import -q "$S" -o "$T/s.db"
	is "$(q "$T/s.db" "SELECT count(*) > 50, count(*) - count(self_cpu_ns), count(DISTINCT phase) FROM startup_methods")" "1	0	7" \
		"warm start with its scheduler data: every phase's methods, self_cpu_ns known"
	is "$(q "$T/s.db" "SELECT count(*) FROM startup_methods a JOIN startup_methods b ON a.phase = b.phase
		AND a.rank < b.rank AND (a.self_cpu_ns < b.self_cpu_ns OR (a.self_cpu_ns = b.self_cpu_ns AND a.frame_id > b.frame_id))")" 0 \
		"warm start with its scheduler data: ranked by self CPU time"
	python3 tests/fixtures/check_pf_sched.py real "$S" "$T/s.db" 7663 | grep -v '^#' | sed 's/^\(ok\|not ok\) - /&warm start: /'
	like "$("$BIN" -q "$S")" "top by CPU: activityResume 2\.6 ms" "warm start text: the top method by CPU"
	python3 tests/fixtures/pfnosched.py "$S" "$W"
	"$BIN" import -q "$W" -o "$T/w.db"
	is "$(q "$T/w.db" "SELECT count(*) > 50, count(self_cpu_ns), count(DISTINCT phase) FROM startup_methods")" "1	0	7" \
		"warm start: every phase's methods, self_cpu_ns NULL"
	is "$(q "$T/w.db" "SELECT count(*) FROM startup_methods a JOIN startup_methods b ON a.phase = b.phase
		AND a.rank < b.rank AND (a.self_ns < b.self_ns OR (a.self_ns = b.self_ns AND a.frame_id > b.frame_id))")" 0 \
		"warm start: ranked by self wall time"
	"$BIN" -q "$W" >"$T/w.txt"
	like "$(cat "$T/w.txt")" "^ +top by wall: sleep 100\.2 ms\$" "warm start text: the top method by wall, and says so"
	is "$(grep -c 'top by CPU\|not in this trace' "$T/w.txt")/$($K text "$T/w.txt")" 1/ok \
		"warm start text: CPU time said unknown once (the header); running and unexplained read —"
else
	echo "ok - perfetto-api32-startup-warm # SKIP $REAL/perfetto-api32-startup-warm is missing"
fi

# --- the writers: atrace only (unknown) and annotated (known) Perfetto traces
python3 tests/fixtures/mkperfetto.py "$T/p2/t.pb" --seed 3 --flavor btrace2 --slices 800 --threads 2 --no-truth >/dev/null
python3 tests/fixtures/mkperfetto.py "$T/p3/t.pb" --seed 3 --flavor btrace3 --slices 800 --threads 2 --no-truth >/dev/null
"$BIN" import -q "$T/p2/t.pb" -o "$T/p2.db"
"$BIN" import -q "$T/p3/t.pb" -o "$T/p3.db"
is "$($K db "$T/p2.db")/$(q "$T/p2.db" "SELECT value FROM meta WHERE key = 'cpu_unknown'")" ok/all \
	"mkperfetto btrace2 (atrace only): every CPU column NULL"
is "$($K db "$T/p3.db" 0)/$(q "$T/p3.db" "SELECT count(*) FROM meta WHERE key = 'cpu_unknown'")" ok/0 \
	"mkperfetto btrace3 (annotations): every CPU column known"

# --- btrace 2.0 raw traces: wall time only
python3 tests/fixtures/mkbtrace2.py "$T/b2" --seed 5 --slices 1500 --threads 3 --no-truth >/dev/null
"$BIN" import -q "$T/b2" -o "$T/b2.db"
is "$($K db "$T/b2.db")/$(q "$T/b2.db" "SELECT value FROM meta WHERE key = 'cpu_unknown'")" ok/all \
	"btrace2: every CPU column NULL, meta cpu_unknown all"
"$BIN" -q "$T/b2" >"$T/b2.txt"
is "$($K text "$T/b2.txt")" ok "btrace2 text: every CPU cell reads —"

# --- ART: clock=wall has no CPU time; dual has it
for v in v3-wall v3-dual; do
	python3 tests/fixtures/mkart.py "$T/$v.trace" --variant "$v" --seed 4 --calls 200 --no-truth >/dev/null
	"$BIN" import -q "$T/$v.trace" -o "$T/$v.db"
done
is "$($K db "$T/v3-wall.db")" ok "ART clock=wall: every CPU column NULL"
is "$($K db "$T/v3-dual.db" 0)/$(q "$T/v3-dual.db" "SELECT count(*) FROM meta WHERE key = 'cpu_unknown'")" ok/0 \
	"ART clock=dual: every CPU column known"
like "$("$BIN" -q "$T/v3-wall.trace" 2>&1)" "thread-CPU time is not in the trace and reads as unknown" \
	"ART clock=wall: the diagnostic says unknown, not 0"

# --- systrace without sched_switch
python3 tests/fixtures/mksystrace.py "$T/st.txt" --seed 5 --no-sched --no-truth >/dev/null
"$BIN" import -q "$T/st.txt" -o "$T/st.db"
is "$($K db "$T/st.db")" ok "systrace without sched_switch: every CPU column NULL"

# --- a dump's thread whose CPU time is all 0 is known, and stays so through --perfetto
"$BIN" import -q "$FIX/example" -o "$T/e.db"
"$BIN" -q "$T/e.db" --perfetto "$T/e.pb" -o /dev/null
"$BIN" import -q "$T/e.pb" -o "$T/e2.db"
is "$(sqlq "$T/e2.db" "SELECT tid, count(*), count(cpu_dur), total(cpu_dur) FROM slices GROUP BY tid")" \
	"$(sqlq "$T/e.db" "SELECT tid, count(*), count(cpu_dur), total(cpu_dur) FROM slices GROUP BY tid")" \
	"a dump --perfetto, re-imported: every thread's CPU known, one whose slices all ran 0 CPU too"
is "$(q "$T/e.db" "SELECT count(*) FROM slices WHERE tid = 1001 AND cpu_dur != 0")" 0 "... (thread 1001 ran 0 CPU)"

# --- compare: a CPU metric one side does not know is no regression
python3 tests/fixtures/mkperfetto.py "$T/k/t.pb" --seed 7 --flavor btrace3 --slices 800 --threads 2 --no-truth >/dev/null
python3 tests/fixtures/mkperfetto.py "$T/u/t.pb" --seed 7 --flavor btrace3 --slices 800 --threads 2 --no-truth \
	--no-annotations >/dev/null
"$BIN" -q "$T/k/t.pb" -o "$T/k.json"
"$BIN" -q "$T/u/t.pb" -o "$T/u.json"
for dir in k-u u-k; do
	b=${dir%-*} h=${dir#*-}
	"$BIN" compare --base "$T/$b.json" --head "$T/$h.json" -o "$T/$dir.cmp.json" 2>/dev/null
	is "$(jq_ "$T/$dir.cmp.json" 'sorted({m["verdict"] for m in d["metrics"] if m["name"].endswith("cpu_ns")})')" \
		"['inconclusive']" "compare, CPU known on the $b side only: every CPU metric inconclusive, none regressed"
done
