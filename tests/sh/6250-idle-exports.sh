#!/bin/sh
# Idle time (a thread waiting for work, issue 18) in the outputs that show
# method time: the call tree and methods keep it in idle_ns columns, out of
# every wall value; pprof, folded stacks and the HTML flame graph leave it
# out, and --idle puts it back as "(idle)" frames (go tool pprof and the
# folded lines then sum to wall + idle); the xlsx off-CPU chart's query
# and the methods' self times hold no idle time.
. tests/lib.sh
CHECK=tests/fixtures/check_stacks.py
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"

"$MKDUMP" --app idle --records 20000 --seed 7 --no-truth "$T/d" >/dev/null
"$BIN" import -q "$T/d" -o "$T/d.db"
db=$T/d.db
idle=$(q "$db" "SELECT sum(self_idle_ns) FROM calltree")
wall=$(q "$db" "SELECT sum(self_ns) FROM calltree")
check "the default policy finds idle time ($idle ns)" test "${idle:-0}" -gt 0
is "$(q "$db" "SELECT count(*) FROM calltree WHERE self_idle_ns > 0 AND NOT idle")" 0 "only idle paths have idle time of their own"
is "$(q "$db" "SELECT count(*) FROM calltree WHERE idle AND self_ns > self_cpu_ns")" 0 \
	"an idle path's wall time is its CPU time only"
is "$(q "$db" "SELECT sum(self_idle_ns) FROM methods")" "$idle" "methods hold the same idle time"
is "$(q "$db" "SELECT sum(idle_dur) FROM threads")" \
	"$(q "$db" "SELECT sum(min(idle_ns, wall_dur - cpu_dur - blocked_dur)) FROM (SELECT t.tid, sum(c.self_idle_ns) AS idle_ns, t.wall_dur, t.cpu_dur, t.blocked_dur FROM threads t JOIN calltree c ON c.tid = t.tid GROUP BY t.tid)")" \
	"threads.idle_dur is the call tree's idle time (within the off-CPU time left)"
# No wait for work leads the off-CPU ranking (the xlsx chart's query).
top=$(sed -e '/^--/d' queries/xlsx_top_methods.sql | sed -e 's/?1/NULL/; s/?2/1/g; s/?3/5/')
unlike "$(q "$db" "$top")" "getTask|nativePollOnce|MessageQueue.next|Unsafe.park|\(idle\)" \
	"the top off-CPU methods hold no idle wait"

"$BIN" analyze -q "$db" --pprof "$T/a.pb.gz" --folded "$T/a.txt" -o "$T/a.html"
"$BIN" analyze -q "$db" --pprof "$T/b.pb.gz" --folded "$T/b.txt" -o "$T/b.html" --idle
is "$?" 0 "--idle: exit 0"
python3 $CHECK folded "$T/a.txt" x >"$T/fa"
python3 $CHECK folded "$T/b.txt" x '(idle)' >"$T/fb"
is "$(sed -n 's/^total //p' "$T/fa")" "$wall" "folded: the lines sum to the wall time, idle left out"
is "$(sed -n 's/^total //p' "$T/fb")" "$((wall + idle))" "folded --idle: wall + idle"
is "$(sed -n 's/^bad //p' "$T/fb")" 0 "folded --idle: every line well formed"
like "$(sed -n 's/^frame //p' "$T/fb")" '^[1-9]' "folded --idle: lines end in an (idle) frame"
is "$(awk '/;\(idle\) / { s += $NF } END { printf "%.0f\n", s }' "$T/b.txt")" \
	"$(($(awk '/;\(idle\) / { s += $NF } END { printf "%.0f\n", s }' "$T/a.txt") + idle))" \
	"folded --idle: the (idle) frames hold the idle time"
go tool pprof -raw "$T/a.pb.gz" 2>/dev/null | python3 $CHECK raw >"$T/ra"
go tool pprof -raw "$T/b.pb.gz" 2>/dev/null | python3 $CHECK raw >"$T/rb"
is "$(sed -n 's/^total \([0-9-]*\) .*/\1/p' "$T/ra")" "$wall" "go tool pprof: wall leaves idle out"
is "$(sed -n 's/^total \([0-9-]*\) .*/\1/p' "$T/rb")" "$((wall + idle))" "go tool pprof --idle: wall + idle"
is "$(sed -n 's/^total [0-9-]* \([0-9-]*\) .*/\1/p' "$T/rb")" "$(sed -n 's/^total [0-9-]* \([0-9-]*\) .*/\1/p' "$T/ra")" \
	"go tool pprof --idle: CPU unchanged"
like "$(go tool pprof -top -sample_index=wall "$T/b.pb.gz" 2>/dev/null | sed -n '/flat%/,$p' | sed -n 2p)" '\(idle\)' \
	"go tool pprof --idle: (idle) leads the flat wall ranking of a mostly idle app"
unlike "$(go tool pprof -top -sample_index=wall "$T/a.pb.gz" 2>/dev/null | sed -n '/flat%/,$p' | sed -n 2,4p)" \
	'\(idle\)|getTask|nativePollOnce|Unsafe.park' "go tool pprof: no idle wait among the top flat wall"

# The HTML flame graph: each thread's outermost frames are as wide as its
# call tree's wall time, with the idle time only under --idle.
flame() {   # html: tid TAB root widths summed, per thread
	python3 - "$1" <<'EOF'
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="bt-data">(.*?)</script>', s, re.S).group(1))
for t in d["flame"]["threads"]:
    n = t["nodes"]
    print(t["tid"], sum(n[i + 2] for i in range(0, len(n), 8) if n[i] < 0), sep="\t")
EOF
}
flame "$T/a.html" | sort >"$T/fa.tsv"
flame "$T/b.html" | sort >"$T/fb.tsv"
like "$(wc -l <"$T/fa.tsv")" '^[1-9]' "the flame graph has threads"
q "$db" "SELECT tid, sum(incl_ns) FROM calltree WHERE parent_id IS NULL GROUP BY tid" | sort >"$T/ct.tsv"
q "$db" "SELECT tid, sum(incl_ns + incl_idle_ns) FROM calltree WHERE parent_id IS NULL GROUP BY tid" | sort >"$T/cti.tsv"
is "$(join "$T/fa.tsv" "$T/ct.tsv" | awk '$2 != $3' | wc -l)" 0 "flame: roots as wide as the wall time, idle left out"
is "$(join "$T/fb.tsv" "$T/cti.tsv" | awk '$2 != $3' | wc -l)" 0 "flame --idle: roots as wide as wall + idle"
check "flame --idle: wider than without" sh -c "! cmp -s '$T/fa.tsv' '$T/fb.tsv'"

# The midpoint policy knows no idle state: nothing changes with --idle.
"$BIN" import -q "$T/d" --slice-policy midpoint -o "$T/m.db"
is "$(q "$T/m.db" "SELECT sum(self_idle_ns) + sum(idle) FROM calltree")" 0 "midpoint: no idle time"
is "$(q "$T/m.db" "SELECT count(*) FROM frames WHERE name = '(idle)'")" 0 "midpoint: no (idle) frame"
"$BIN" analyze -q "$T/m.db" --folded "$T/m1.txt" >/dev/null
"$BIN" analyze -q "$T/m.db" --folded "$T/m2.txt" --idle >/dev/null
check "midpoint: --idle changes nothing" cmp "$T/m1.txt" "$T/m2.txt"

# Documented where rule writers and users look.
like "$("$BIN" help rules)" "slices.idle = 1 marks" "help rules: the idle state"
like "$("$BIN" help rules)" "idle_dur and unexplained_dur" "help rules: the threads' breakdown"
like "$("$BIN" help analyze)" "--idle" "help analyze: --idle"

# compare's method diff: two runs of a mostly idle app; no wait for work
# is among the methods that moved (their self times hold no idle time).
"$MKDUMP" --app idle --records 20000 --seed 8 --no-truth "$T/d8" >/dev/null
"$BIN" -q "$T/d" -o "$T/r7.json"
"$BIN" -q "$T/d8" -o "$T/r8.json"
out=$("$BIN" compare --base "$T/r7.json" --head "$T/r8.json" 2>&1)
like "$out" "Methods that changed most: self wall time" "compare: a method diff"
unlike "$(echo "$out" | sed -n '/^Methods that changed most/,$p')" \
	"getTask|nativePollOnce|MessageQueue.next\(|\(idle\)" "compare: no wait for work among the methods that moved"
# ... and the method metrics compare diffs: the waits hold no off-CPU
# self time, where midpoint gave them the idle time.
wait_offcpu() {
	python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
print(sum(v for k, v in m.items() if k.endswith(".self_offcpu_ns") and
          any(w in k for w in ("getTask(", "nativePollOnce(", "MessageQueue.next(", "(idle)"))))' "$1"
}
is "$(wait_offcpu "$T/r7.json")" 0 "report: the waits for work have no off-CPU self time"
"$BIN" -q "$T/d" --slice-policy midpoint -o "$T/m7.json"
check "report, midpoint: they had ($(wait_offcpu "$T/m7.json") ns)" test "$(wait_offcpu "$T/m7.json")" -gt 0
