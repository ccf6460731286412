#!/bin/sh
# Off-CPU time by scheduler state (issue 33 item 2): where a trace has
# thread states, threads.runnable_dur, sleeping_dur, io_dur and
# uninterruptible_dur split the off-CPU time inside each thread's
# top-level slices, and the text and JSON reports' Threads table shows
# them. Exact against mkpfsched.py's and mksystrace.py's truth (states and slices,
# summed here), and on the real API 32 warm start against a sum over
# thread_states done here in SQL, as are the startup phases' columns (the
# main thread's states in each window); a trace without states keeps them
# NULL and its reports without the columns.
. tests/lib.sh
TAB=$(printf '\t')
qa() {   # input sql: every row, tab-separated
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d
}

# The truth: the main thread's states clipped to its top-level slices,
# summed by class; its CPU time there; the slices' total.
truth_split() {   # dir
	python3 - "$1" <<'PY'
import csv, sys
d = sys.argv[1]
rows = lambda n: list(csv.DictReader(open(d + "/" + n), delimiter="\t"))
top = [(int(s["ts"]), int(s["ts"]) + int(s["dur"]), int(s["cpu_dur"])) for s in rows("slices.tsv") if s["depth"] == "0"]
sums = {"runnable": 0, "sleeping": 0, "io": 0, "uninterruptible": 0}
for s in rows("states.tsv"):
    a, b = int(s["ts"]), int(s["ts"]) + int(s["dur"])
    c = {"runnable": "runnable", "runnable (preempted)": "runnable", "sleeping": "sleeping"}.get(s["state"])
    if s["state"] == "uninterruptible":
        c = "io" if s["io_wait"] == "1" else "uninterruptible"
    if c:
        sums[c] += sum(max(0, min(b, e) - max(a, t)) for t, e, _ in top)
print(sums["runnable"], sums["sleeping"], sums["io"], sums["uninterruptible"],
      sum(c for _, _, c in top), sum(e - t for t, e, _ in top))
PY
}

for form in full compact; do
	for s in 1 2 3; do
		d=$FIX/pfsched/$form$s   # mkpfsched.py --form $form --seed $s and its truth (tests/fixtures.sh)
		"$BIN" import -q "$d/t.pb" -o "$T/$form$s.db"
		is "$?" 0 "$form seed $s: import exits 0"
		set -- $(truth_split "$d")
		is "$(q "$T/$form$s.db" 'SELECT runnable_dur, sleeping_dur, io_dur, uninterruptible_dur FROM threads WHERE is_main = 1')" \
			"$1$TAB$2$TAB$3$TAB$4" "$form seed $s: the main thread's runnable, sleeping, I/O and D time as the truth's states give them"
		is "$(($1 + $2 + $3 + $4 + $5))" "$6" "$form seed $s: with the CPU time they add up to the slices' wall (the truth's own sums)"
		check "$form seed $s: the truth has some of each kind" test "$1" -gt 0 -a "$2" -gt 0
	done
done
d=$FIX/pfsched/full1
"$BIN" -q "$T/full1.db" -o "$T/f.txt"
like "$(grep -E '^tid +thread' "$T/f.txt")" "offcpu ms +runnable ms +sleeping ms +io ms +uninterruptible ms +blocked ms" \
	"the Threads table shows the states' columns"
set -- $(truth_split "$d")
"$BIN" -q "$T/full1.db" --format json -o "$T/f.json"
is "$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tables"]["threads"]
r = [dict(zip(t["columns"], row)) for row in t["rows"] if row[t["columns"].index("main")] == 1][0]
print(r["runnable_ns"], r["sleeping_ns"], r["io_ns"], r["uninterruptible_ns"])' "$T/f.json")" "$1 $2 $3 $4" \
	"the JSON report's Threads table carries them"
is "$(python3 -c '
import json, jsonschema, sys
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print("valid")' "$T/f.json" "$ROOT/reports/json/report.schema.json" 2>&1 | tail -1)" valid "the JSON report validates against report.schema.json"

# systrace (mksystrace.py's truth: every thread's states and slices)
python3 tests/fixtures/mksystrace.py "$T/sy/t" --seed 1
"$BIN" import -q "$T/sy/t" -o "$T/sy.db"
want=$(python3 - "$T/sy/truth" <<'PY'
import csv, sys
d = sys.argv[1]
rows = lambda n: list(csv.DictReader(open(d + "/" + n), delimiter="\t"))
top = {}
for s in rows("slices.tsv"):
    if s["depth"] == "0":
        top.setdefault(s["tid"], []).append((int(s["ts"]), int(s["ts"]) + int(s["dur"])))
out = {}
for s in rows("thread_states.tsv"):
    if s["tid"] not in top:
        continue
    a, b = int(s["ts"]), int(s["ts"]) + int(s["dur"])
    k = {"runnable": 0, "runnable (preempted)": 0, "sleeping": 1}.get(s["state"])
    if s["state"] == "uninterruptible":
        k = 2 if s["io_wait"] == "1" else 3
    v = out.setdefault(int(s["tid"]), [0, 0, 0, 0])
    if k is not None:
        v[k] += sum(max(0, min(b, e) - max(a, t)) for t, e in top[s["tid"]])
for tid in sorted(out):
    print("\t".join(str(x) for x in [tid] + out[tid]))
PY
)
is "$(qa "$T/sy.db" 'SELECT tid, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur FROM threads
	WHERE runnable_dur IS NOT NULL ORDER BY tid')" "$want" "systrace: every thread's runnable, sleeping, I/O and D time as the truth's states give them"
check "systrace: the truth's main thread sleeps inside its slices" test "$(q "$T/sy.db" 'SELECT sleeping_dur FROM threads WHERE is_main = 1')" -gt 0

# The real warm start: each thread's states clipped to its top-level
# slices, summed here, against the columns.
r=$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace
"$BIN" import -q "$r" -o "$T/real.db"
SPLIT="WITH top AS (SELECT tid, ts, ts + dur AS e, cpu_dur FROM slices WHERE depth = 0),
ov AS (SELECT s.tid, CASE WHEN s.state IN ('runnable', 'runnable (preempted)') THEN 'r'
	WHEN s.state = 'sleeping' THEN 's' WHEN s.state = 'uninterruptible' AND s.io_wait = 1 THEN 'io'
	WHEN s.state = 'uninterruptible' THEN 'd' WHEN s.state = 'running' THEN 'run' ELSE 'other' END AS c,
	max(0, min(s.ts + s.dur, t.e) - max(s.ts, t.ts)) AS o
	FROM thread_states s JOIN top t ON t.tid = s.tid AND t.ts < s.ts + s.dur AND t.e > s.ts)"
is "$(qa "$T/real.db" "$SPLIT SELECT tid FROM ov GROUP BY tid ORDER BY tid" | wc -l)" \
	"$(q "$T/real.db" 'SELECT count(*) FROM threads WHERE runnable_dur IS NOT NULL')" \
	"api32: every thread with states inside its slices has the columns"
is "$(qa "$T/real.db" "$SPLIT SELECT tid, sum(CASE WHEN c = 'r' THEN o ELSE 0 END), sum(CASE WHEN c = 's' THEN o ELSE 0 END),
	sum(CASE WHEN c = 'io' THEN o ELSE 0 END), sum(CASE WHEN c = 'd' THEN o ELSE 0 END) FROM ov GROUP BY tid ORDER BY tid")" \
	"$(qa "$T/real.db" "SELECT tid, runnable_dur, sleeping_dur, io_dur, uninterruptible_dur FROM threads
	WHERE runnable_dur IS NOT NULL ORDER BY tid")" \
	"api32: runnable, sleeping, I/O and D time of every thread as summed over its states"
# the main thread: with its CPU time they make up its wall where the states
# cover it (here all of it)
main=$(q "$T/real.db" 'SELECT tid FROM threads WHERE is_main = 1')
is "$(q "$T/real.db" "$SPLIT SELECT (SELECT sum(o) FROM ov WHERE tid = $main),
	(SELECT sum(e - ts) FROM top WHERE tid = $main)")" \
	"$(q "$T/real.db" "SELECT sum(dur), sum(dur) FROM slices WHERE tid = $main AND depth = 0")" \
	"api32: the states cover the main thread's slices"
is "$(q "$T/real.db" "SELECT runnable_dur + sleeping_dur + io_dur + uninterruptible_dur +
	(SELECT sum(cpu_dur) FROM slices WHERE tid = $main AND depth = 0) FROM threads WHERE tid = $main")" \
	"$(q "$T/real.db" "SELECT sum(dur) FROM slices WHERE tid = $main AND depth = 0")" \
	"api32: the main thread's runnable + sleeping + I/O + D + CPU time is its wall"
echo "# api32 main thread: wall cpu runnable sleeping io D (ns):" \
	"$(q "$T/real.db" "SELECT (SELECT sum(dur) FROM slices WHERE tid = $main AND depth = 0),
	(SELECT sum(cpu_dur) FROM slices WHERE tid = $main AND depth = 0), runnable_dur, sleeping_dur, io_dur,
	uninterruptible_dur FROM threads WHERE tid = $main")"
"$BIN" -q "$T/real.db" -o "$T/r.txt"
like "$(grep -E "^$main " "$T/r.txt")" "^$main +enchmark.target +1 +150.6 +15.9 +134.7 +2.9 +131.7 +0.0 +0.0 " \
	"api32: the report's main thread with its runnable and sleeping time"

# The startup's phases: the main thread's states clipped to each window,
# summed here; with its running state they make up the window.
PH="WITH o AS (SELECT p.phase, s.state, s.io_wait,
	min(s.ts + s.dur, p.ts + p.dur) - max(s.ts, p.ts) AS ov FROM startup_phases p
	JOIN thread_states s ON s.tid = $main AND s.ts < p.ts + p.dur AND s.ts + s.dur > p.ts)"
is "$(qa "$T/real.db" "$PH SELECT phase, total(CASE WHEN state LIKE 'runnable%' THEN ov END),
	total(CASE WHEN state = 'sleeping' THEN ov END), total(CASE WHEN state = 'uninterruptible' AND io_wait = 1 THEN ov END),
	total(CASE WHEN state = 'uninterruptible' AND coalesce(io_wait, 0) <> 1 THEN ov END) FROM o GROUP BY phase ORDER BY phase" |
	sed 's/\.0//g')" \
	"$(qa "$T/real.db" 'SELECT phase, runnable_ns, sleeping_ns, io_ns, uninterruptible_ns FROM startup_phases ORDER BY phase')" \
	"api32: each startup phase's runnable, sleeping, I/O and D time as summed over the main thread's states"
is "$(qa "$T/real.db" "$PH SELECT p.phase, p.runnable_ns + p.sleeping_ns + p.io_ns + p.uninterruptible_ns +
	(SELECT sum(ov) FROM o WHERE o.phase = p.phase AND o.state = 'running') FROM startup_phases p ORDER BY phase")" \
	"$(qa "$T/real.db" 'SELECT phase, dur FROM startup_phases ORDER BY phase')" \
	"api32: with the running state they make up each phase"
is "$(qa "$T/real.db" 'SELECT phase, cpu_ns + runnable_ns + sleeping_ns + io_ns + uninterruptible_ns FROM startup_phases ORDER BY phase')" \
	"$(qa "$T/real.db" 'SELECT phase, dur FROM startup_phases ORDER BY phase')" \
	"api32: and so with the phase's running time (the scheduler's)"
# blocked 0.0 (the scheduler says when it waited); idle, and so the unexplained
# rest, not in this trace (no Looper messages): —
like "$(grep -E '^startup ' "$T/r.txt")" "^startup +0.0 +156.5 +13.6 +0.0 +— +— +2.4 +140.5 +0.0 +0.0 +exact" \
	"api32: the report's startup window with its runnable and sleeping time"
"$BIN" -q "$T/real.db" --format md -o "$T/r.md"
like "$(grep -E '^\| startup ' "$T/r.md")" "^\| startup \| 0.0 \| 156.5 \| 13.6 \| 0.0 \| — \| — \| 2.4 \| 140.5 \| 0.0 \| 0.0 \| exact \|" \
	"api32: the Markdown startup table with the states"
"$BIN" -q "$T/real.db" --format html -o "$T/r.html"
like "$(grep -o '<tr><td>startup</td>.*' "$T/r.html" | head -1)" \
	'<td class="n">—</td><td class="n">—</td><td class="n">2.4</td><td class="n">140.5</td><td class="n">0.0</td><td class="n">0.0</td><td>exact</td>' \
	"api32: the HTML startup table with the states"
"$BIN" -q "$T/real.db" -o "$T/r.xlsx"
is "$(python3 -c '
import openpyxl, sys
wb = openpyxl.load_workbook(sys.argv[1])
rows = [r for ws in wb.worksheets for r in ws.iter_rows(values_only=True) if r and r[0] in ("startup", 7663)]
print(" ".join("%s:%s" % (r[0], ",".join(str(x) for x in r[6:11])) for r in rows))' "$T/r.xlsx")" \
	"startup:None,2.395751,140.495481,0,0 7663:2.934895,131.729208,0,0,0" "api32: the xlsx startup and Threads sheets with the states"

# No states: NULL, never 0, and no columns in the reports.
"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/dump.db"
is "$(q "$T/dump.db" 'SELECT count(*), count(runnable_dur), count(sleeping_dur), count(io_dur), count(uninterruptible_dur) FROM threads' | cut -f2-)" \
	"0${TAB}0${TAB}0${TAB}0" "a dump: no thread has the states' columns"
is "$(q "$T/dump.db" 'SELECT count(runnable_ns) + count(sleeping_ns) + count(io_ns) + count(uninterruptible_ns) FROM startup_phases')" 0 \
	"a dump: no startup phase has the states' columns"
"$BIN" -q "$T/dump.db" -o "$T/d.txt"
unlike "$(grep -E '^tid +thread' "$T/d.txt")" "runnable" "a dump's Threads table has no states' columns"
"$BIN" -q "$T/dump.db" --format md -o "$T/d.md"
unlike "$(cat "$T/d.md")" "runnable ms" "a dump's Markdown report has no states' columns"
is "$(q "$T/dump.db" 'SELECT count(self_runnable_ns) + count(self_sleeping_ns) + count(self_io_ns) + count(self_uninterruptible_ns) FROM methods')" 0 \
	"a dump: no method has the states' columns"
unlike "$(sed -n '/methods by self time (bottom-up)/,+3p' "$T/d.txt")" "runnable" "a dump's self-time table has no states' columns"

# Each method's self time by state (issue 33 item 2, "the profile"):
# tests/fixtures/method_states.py takes the truth's slices and states (or a
# database's slices and thread_states), subtracts each slice's children
# and sums each state's overlap by class, independently of the engine.
MS=tests/fixtures/method_states.py
methods_split() {   # db [tid]: the methods' columns, as method_states.py prints them
	sqlite3 -separator "$TAB" "$1" "SELECT m.tid, f.name, m.self_runnable_ns, m.self_sleeping_ns, m.self_io_ns,
		m.self_uninterruptible_ns FROM methods m JOIN frames f ON f.id = m.frame_id
		WHERE m.self_runnable_ns IS NOT NULL ${2:+AND m.tid = $2} ORDER BY m.tid, f.name"
}
for form in full compact; do
	for s in 1 2 3; do
		d=$FIX/pfsched/$form$s
		main=$(q "$T/$form$s.db" 'SELECT tid FROM threads WHERE is_main = 1')
		want=$(python3 $MS "$d/slices.tsv" "$d/states.tsv" "$main")
		check "$form seed $s: the truth's main thread has methods with states" test -n "$want"
		is "$(methods_split "$T/$form$s.db" "$main")" "$want" \
			"$form seed $s: each main-thread method's self runnable, sleeping, I/O and D time as the truth gives them"
		is "$(q "$T/$form$s.db" "SELECT count(*) - sum(self_cpu_ns + self_runnable_ns + self_sleeping_ns + self_io_ns +
			self_uninterruptible_ns = self_ns) FROM methods WHERE tid = $main AND self_runnable_ns IS NOT NULL")" 0 \
			"$form seed $s: with its self CPU they add up to each method's self time"
	done
done
want=$(python3 $MS "$T/sy/truth/slices.tsv" "$T/sy/truth/thread_states.tsv")
is "$(methods_split "$T/sy.db")" "$want" "systrace: every thread's methods' self time by state as the truth gives it ($(echo "$want" | wc -l) methods)"
is "$(methods_split "$T/real.db")" "$(python3 $MS --db "$T/real.db")" \
	"api32: every method's self time by state as its slices and states give it"
"$BIN" -q "$T/real.db" -o "$T/real.txt" -o "$T/real.json"
like "$(sed -n '/methods by self time (bottom-up)/,+3p' "$T/real.txt")" \
	"self_offcpu ms +self_runnable ms +self_sleeping ms +self_io ms +self_uninterruptible ms" \
	"api32: the main thread's self-time table shows them"
like "$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["tables"]["main_self"]
r = dict(zip(t["columns"], t["rows"][0]))
print(r["method"], r["self_sleeping_ns"])' "$T/real.json")" "^sleep 100074422$" \
	"api32: the JSON's top self method, sleep(), slept 100.07 ms of its 100.17"
# ...and the fleet summary every JSON report carries (merge's input): the
# main thread's off-CPU time by state, over the trace and in the startup
# window, as the threads and startup_phases tables hold them; a dump none.
is "$(python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["summary"]["values"]
print(" ".join(str(v.get(p + "offcpu_ns." + k)) for p in ("main.", "startup.main.")
               for k in ("runnable", "sleeping", "io", "uninterruptible")))' "$T/real.json")" \
	"$(q "$T/real.db" "SELECT runnable_dur || ' ' || sleeping_dur || ' ' || io_dur || ' ' || uninterruptible_dur FROM threads
	WHERE is_main = 1") $(q "$T/real.db" "SELECT runnable_ns || ' ' || sleeping_ns || ' ' || io_ns || ' ' || uninterruptible_ns
	FROM startup_phases WHERE phase = 'startup'")" "api32: the fleet summary's main-thread off-CPU time by state"
"$BIN" -q "$T/dump.db" -o "$T/d.json"
is "$(python3 -c '
import json, sys
print(sum("offcpu_ns." in k for k in json.load(open(sys.argv[1]))["summary"]["values"]))' "$T/d.json")" 0 \
	"a dump's fleet summary has no states"
