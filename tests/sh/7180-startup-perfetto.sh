#!/bin/sh
# The startup model (engine/startup) on Perfetto traces: a real warm app
# start (../shared/real-traces/perfetto-api32-startup-warm, the app's
# markers only): activityStart to the end of the RenderThread's draw of the
# first Choreographer#doFrame after it (DrawFrames N, the same N), the
# phases exact (the trace's own slices), full display at the draw of the
# first frame to end after reportFullyDrawn (Perfetto's
# android_startup_time_to_display, androidx's StartupTimingQuery),
# the package from the process name, and the main thread's CPU known from
# the scheduler (unknown rather than 0 once pfnosched.py drops it); the
# whole system trace, where the start is system_server's launchingActivity#N
# slice; and mkperfetto.py's cold, warm
# and hot app starts against their truth (check_pf_startup.py).
. tests/lib.sh
tr=$REAL/perfetto-api32-startup-warm/derived/api32_app7663_only.pb
check "the real warm-start trace is there ($tr)" test -s "$tr"
"$BIN" import -q "$tr" -o "$T/w.db"
is "$?" 0 "import exits 0"
is "$(q "$T/w.db" "SELECT kind, tid, package, source, end_source FROM startup")" \
	"warm	7663	androidx.benchmark.integration.macrobenchmark.target	activityStart	DrawFrames 191185" \
	"a warm start of the app, from activityStart to the draw of the first frame after it"
# DrawFrames 191185 ends at 157479941202708, DrawFrames 191274 (the draw of
# the first doFrame after reportFullyDrawn at 157480431179759) at 157480446214183
is "$(q "$T/w.db" "SELECT ts + ttid_ns, ts + ttfd_ns FROM startup")" "157479941202708	157480446214183" \
	"initial display at the end of the first frame's draw, full display at the next frame's draw after reportFullyDrawn"
is "$(q "$T/w.db" "SELECT ttid_ns, ttfd_ns FROM startup")" "134766235	639777710" \
	"time to initial display 134.8 ms, to full display 639.8 ms"
is "$(q "$T/w.db" "SELECT p.ts, p.ts + p.dur FROM startup_phases p WHERE phase = 'fully_drawn'")" \
	"157479941202708	157480446214183" "the full display's phase: from the initial display to the full one"
is "$(q "$T/w.db" "SELECT group_concat(phase, ' ') FROM (SELECT phase FROM startup_phases ORDER BY ts, phase)")" \
	"activity_launch startup activity_create activity_start activity_resume first_frame fully_drawn" \
	"the phases found (onStart between the launch and the resume, atrace marks none)"
is "$(q "$T/w.db" "SELECT count(*) FROM startup_phases WHERE NOT exact")" 0 "every boundary exact (the trace's own slices)"
is "$(q "$T/w.db" "SELECT count(*) FROM startup_phases WHERE cpu_ns IS NULL OR unexplained_ns IS NULL")" 0 \
	"running time known in every phase: the trace has the scheduler's switches"
# the same trace without its scheduler data (pfnosched.py): running time unknown, not 0
python3 tests/fixtures/pfnosched.py "$tr" "$T/nosched.pb"
"$BIN" import -q "$T/nosched.pb" -o "$T/n.db"
is "$(q "$T/n.db" "SELECT count(*), count(cpu_ns), count(unexplained_ns) FROM startup_phases")" "7	0	0" \
	"running time unknown, not 0, in a trace without CPU times"
is "$(q "$T/w.db" "SELECT s.end_ts = p.ts + p.dur FROM startup s, startup_phases p WHERE p.phase = 'first_frame'")" 1 \
	"the window ends where the first frame does"
is "$(q "$T/w.db" "SELECT count(*) FROM startup_phases WHERE ts < (SELECT ts FROM startup) OR ts + dur > (SELECT ts FROM startup) + 700000000")" 0 \
	"phases inside the start"
# A trace database analysed again keeps its start.
"$BIN" -q "$T/w.db" -o "$T/r.json"
is "$?" 0 "the database analyses"
is "$(q "$T/w.db" "SELECT count(*) FROM startup")" 1 "one start"
# Rules see it through bt.startup().
cat >"$T/st.lua" <<'LUA'
bt.rule{ id = "s", severity = "info", run = function()
  local s = bt.startup()
  bt.finding{ message = string.format("%s %s %d phases, first %s, resume %s, frame methods %d",
    s.kind, bt.ms(s.ttid_ns), #s.phases, s.phases[1].phase, bt.ms(s.phase.activity_resume.dur),
    #s.phase.first_frame.methods) }
end }
LUA
# (a trace without CPU time ranks a phase's methods by self wall time: ten of the first frame's)
like "$("$BIN" "$T/w.db" --rules "$T/st.lua")" "warm 134.8 ms 7 phases, first activity_launch, resume 106.5 ms, frame methods 10" \
	"bt.startup(): the start, its phases in time order and by name"
like "$("$BIN" help rules)" "bt.startup\(\) gives the" "help rules: bt.startup()"
like "$("$BIN" help rules)" "startup_phases \(phase: bind_application" "help rules: the startup tables"

# The whole system trace: the app chosen by its launching: slice; the
# start begins at system_server's launchingActivity#28 (tests/sh/7182 holds
# Perfetto's and androidx's figures).
"$BIN" import -q "$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace" -o "$T/sys.db"
is "$(q "$T/sys.db" "SELECT kind, tid, source, ts = (SELECT value FROM meta WHERE key = 'launch_ts'), ttid_ns FROM startup")" \
	"warm	7663	launchingActivity#28	1	154636678" "system trace: the start begins at launchingActivity#28, 154.6 ms to initial display"
# The writer's app starts.
for k in cold warm hot; do
	for s in 1 2; do
		python3 tests/fixtures/mkperfetto.py "$T/$k$s.pb" --flavor appstart --start "$k" --seed "$s" >/dev/null
		"$BIN" import -q "$T/$k$s.pb" -o "$T/$k$s.db"
		is "$(python3 tests/fixtures/check_pf_startup.py "$T/truth/startup.json" "$T/$k$s.db" 2>&1)" ok \
			"mkperfetto $k start, seed $s: the start, its kind and every phase exact"
	done
done
# examples/startup.lua on the system trace: the model's window and phases,
# non-zero metrics, headlines first, running time from the scheduler (and
# said to be unknown without it).
"$BIN" "$T/sys.db" --rules examples/startup.lua -o "$T/sys.json"
is "$?" 0 "startup.lua on the system trace: exit 0"
is "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); m = r["metrics"]
print(m["startup.found"], m["startup.ttid_ns"], m["startup.phase.activity_resume.dur_ns"] > 0,
      r["findings"][0]["rule"], r["findings"][1]["rule"])' "$T/sys.json")" \
	"1 154636678 True startup-duration startup-breakdown" "startup.lua: the start's metrics, its duration and breakdown first"
like "$("$BIN" "$T/sys.db" --rules examples/startup.lua)" "startup [0-9.]+ ms: running [0-9.]+ ms, " \
	"startup.lua: running time from the system trace's scheduler"
python3 tests/fixtures/pfnosched.py "$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace" "$T/sysn.pb"
"$BIN" import -q "$T/sysn.pb" -o "$T/sysn.db"
like "$("$BIN" "$T/sysn.db" --rules examples/startup.lua)" "running unknown \(no CPU times in the trace\)" \
	"startup.lua: running time unknown where the trace has no CPU times"
