# examples/startup.lua on the startup model (issue 19 item 4): on a long
# dump with hand-inserted startup rows the findings are few, grouped and all
# inside the window, the duration and breakdown come first, and every
# report format opens with the startup summary; without a startup row the
# whole trace is looked at, and the first finding says so.
. tests/lib.sh
R=$ROOT/examples/startup.lua
"$MKDUMP" --records 200000 --seed 5 --no-truth "$T/long" >/dev/null
"$BIN" import -q "$T/long" -o "$T/long.db"
is "$?" 0 "a 200,000-record dump imports"
q() { sqlite3 -bail "$T/long.db" "$1" || echo "not ok - sqlite3 failed on: $1"; }
t0=$(q "SELECT min(ts) FROM samples WHERE tid = 4242")
end=$((t0 + 3000000000))
q "DELETE FROM startup; DELETE FROM startup_phases; DELETE FROM startup_blocking; DELETE FROM startup_methods;
INSERT INTO startup(kind, tid, package, ts, end_ts, ttid_ns, ttfd_ns, source, end_source) VALUES ('cold', 4242, 'com.example.app', $t0, $end, 3000000000, 3500000000,
  'first main-thread record', 'Choreographer.doFrame');
INSERT INTO startup_phases(phase, ts, dur, source, exact, cpu_ns, blocked_ns, idle_ns, unexplained_ns)
VALUES ('startup', $t0, 3000000000, 'window', 0, 1800000000, 900000000, 100000000, 200000000),
  ('bind_application', $t0, 1000000000, 'handleBindApplication', 0, 700000000, 200000000, 0, 100000000);
INSERT INTO startup_blocking VALUES ('startup', 'monitor', 40, 600000000), ('startup', 'binder', 12, 300000000);
INSERT INTO startup_methods SELECT 'startup', 1, id, 250000000, 260000000, 300000000 FROM frames WHERE name LIKE '%MainActivity.onCreate%' LIMIT 1;"

"$BIN" -q "$T/long.db" --rules "$R" --set lock_ms=0 --set message_ms=1 -o "$T/w.json"
is "$?" 0 "startup.lua on the long trace"
py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2" "$1"; }
is "$(py "$T/w.json" "print(all($t0 <= f['ts'] < $end for f in d['findings'] if 'ts' in f))")" True \
	"every finding starts inside the startup window"
like "$(py "$T/w.json" "print(len(d['findings']))")" '^[1-5]?[0-9]$' "the findings are bounded (under 60)"
like "$(py "$T/w.json" "print(next(f['message'] for f in d['findings'] if f['rule'] == 'main-lock-wait' and 'count' in f['evidence']))")" \
	'^[0-9,]+ main-thread waits >= 0\.0 ms, [0-9.]+ ms in total; the 5 longest: ' "main-thread waits are grouped"
is "$(py "$T/w.json" "print([f['rule'] for f in d['findings'][:3]])")" \
	"['startup-duration', 'startup-breakdown', 'startup-breakdown']" "the duration and the breakdown come first"
like "$(py "$T/w.json" "print(d['findings'][0]['message'])")" '^cold start of com.example.app: initial display after 3.00 s, full display after 3.50 s$' \
	"the headline: kind, ttid, ttfd"
"$BIN" -q "$T/long.db" --rules "$R" --set cold_ms=2000 -o "$T/slow.json"
like "$(py "$T/slow.json" "print(d['findings'][0]['severity'], d['findings'][0]['message'])")" '^warning cold start.*slow \(Android vitals: 2.00 s' \
	"over the vitals threshold: a warning, still first"
"$BIN" -q "$T/long.db" --rules "$R" --set lock_ms=0 --set scope=trace -o "$T/all.json"
like "$(py "$T/all.json" "print(sum(f['ts'] >= $end for f in d['findings'] if 'ts' in f))")" '^[1-9]' "scope=trace: findings after the window too"
"$BIN" -q "$T/long.db" --rules "$R" --set scope=soon -o "$T/bad.json" 2>"$T/bad.err"
like "$?-$(cat "$T/bad.err")" "^1-btrace-analyze: error: .*startup\\.lua:[0-9]+: scope must be startup or trace, not 'soon'" \
	"a bad scope is an error naming it (exit 1)"
like "$(py "$T/w.json" "print(d['metrics']['startup.ttid_ns'], d['metrics']['startup.phase.bind_application.cpu_ns'])")" '^3000000000 700000000$' \
	"metrics: ttid and the phases' breakdown"

# the summary first in every format
"$BIN" -q "$T/long.db" --rules "$R" -o "$T/r.txt"
is "$(grep -e '^Startup   cold start of com.example.app: initial display 3.00 s, full display 3.50 s$' -e '^Findings' "$T/r.txt" | cut -c1-8 | tr '\n' ' ')" \
	"Startup  Findings " "text: the startup summary before the findings"
like "$(grep -A4 '^phase' "$T/r.txt" | sed -n 3p)" '^startup +0\.0 +3000\.0 +1800\.0 +900\.0 +100\.0 +200\.0  sampled$' "text: the window's breakdown"
"$BIN" -q "$T/long.db" --rules "$R" -o "$T/r.md"
is "$(grep -n -e '^## Startup' -e '^## Findings' "$T/r.md" | cut -d' ' -f2 | tr '\n' ' ')" "Startup Findings " "md: the startup summary before the findings"
like "$(cat "$T/r.md")" '\| bind\\_application \| 0\.0 \| 1000\.0 \| 700\.0 \| 200\.0 \| 0\.0 \| 100\.0 \| sampled \|' "md: a phase row"
"$BIN" -q "$T/long.db" --rules "$R" -o "$T/r.xlsx"
is "$(python3 -c 'import openpyxl, sys
ws = openpyxl.load_workbook(sys.argv[1])["Summary"]
col = [r[0] for r in ws.iter_rows(values_only=True)]
s, f = col.index("Startup"), col.index("Findings") if "Findings" in col else 10**6
print(s < f, col[s + 1], col[s + 3])' "$T/r.xlsx")" \
	"True cold start of com.example.app: initial display 3.00 s, full display 3.50 s startup" "xlsx: the startup summary before the findings"
"$BIN" -q "$T/long.db" --rules "$R" -o "$T/r.html"
if [ -x "$CHROME" ]; then
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/chrome" \
		--virtual-time-budget=3000 --dump-dom "file://$T/r.html" >"$T/dom" 2>/dev/null
	is "$(grep -o -e 'id="startup"' -e 'id="flame"' -e 'id="findings"' "$T/dom" | tr '\n' ' ')" \
		'id="startup" id="flame" id="findings" ' "html (DOM): the startup summary, then the flame graph, then the findings"
	like "$(cat "$T/dom")" '<h3 id="findings-headline" class="sev-info">headline \(3\)</h3>' "html: the headline findings in their own group, first"
fi

# no startup row: the whole trace, said so first
q "DELETE FROM startup; DELETE FROM startup_phases;"
"$BIN" -q "$T/long.db" --rules "$R" -o "$T/none.json"
like "$(py "$T/none.json" "print(d['findings'][0]['rule'], d['findings'][0]['message'])")" \
	'^startup-duration no app start found in the trace \(no startup row\): the rules look at the whole trace' \
	"without a startup row: the whole trace, said in the first finding"
"$BIN" -q "$T/long.db" -o "$T/none.txt"
unlike "$(cat "$T/none.txt")" '^Startup ' "without a startup row: no summary"

# The same on the engine's own model: a long dump that begins with a cold
# start (mkdump --startup cold), no hand-made rows.
"$MKDUMP" --records 200000 --seed 6 --startup cold "$T/cold" >/dev/null
"$BIN" -q "$T/cold" --rules "$R" --set lock_ms=0 --set message_ms=1 --db "$T/cold.db" -o "$T/c.json"
is "$?" 0 "startup.lua on a long dump with a cold start"
win=$(sqlite3 "$T/cold.db" "SELECT ts || ' ' || max(end_ts, ts + coalesce(ttfd_ns, 0)) FROM startup")
like "$win" '^[0-9]+ [0-9]+$' "the engine found the start ($win)"
is "$(py "$T/c.json" "w = '$win'.split(); print(all(int(w[0]) <= f['ts'] < int(w[1]) for f in d['findings'] if 'ts' in f))")" True \
	"every finding starts inside the engine's startup window (to full display)"
is "$(sqlite3 "$T/cold.db" "SELECT cpu_ns > 0 FROM startup_phases WHERE phase = 'fully_drawn'")" 1 \
	"the full-display phase has the main thread's running time"
like "$(py "$T/c.json" "print(len(d['findings']))")" '^[1-5]?[0-9]$' "the findings are bounded (under 60)"
like "$(py "$T/c.json" "print(d['findings'][0]['rule'], d['findings'][0]['message'])")" \
	'^startup-duration cold start of com.example.app: initial display after [0-9.]+ ms' "the headline first, the package found"
