#!/bin/sh
# Startup as Android measures it, on the real API 32 warm start
# (../shared/real-traces/perfetto-api32-startup-warm): the start begins at
# system_server's launchingActivity#28 (from the intent, 11.98 ms before
# its launching: slice) and its window ends where that slice does;
# initial display at the end of the RenderThread's draw of the first
# frame after the activity started, full display at the draw of the first
# frame to end after reportFullyDrawn. The figures are upstream's, not
# ours: Perfetto's test_warm_startups (android_startups: ts
# 157479786566030, dur 156515747) and androidx's StartupTimingMetric test
# of this trace (TTID 154.636678 ms, TTFD 659.648153 ms); each must hold
# within 1 ms. The systrace importer, given the same prints as atrace
# text (pf2systrace.py, a reader of the trace's own), must say the same;
# without the launchingActivity prints it falls back to launching:.
. tests/lib.sh
tr=$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace
check "the real warm-start trace is there ($tr)" test -s "$tr"

# |got - want| <= 1 ms, both in ns
near() {   # got want description
	is "$(awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; print (g != "" && d <= 1000000) ? "near" : g }')" \
		near "$3 (want $2 ns within 1 ms)"
}
figures() {   # db label
	row=$(q "$1" "SELECT s.ts, p.dur, s.ttid_ns, s.ttfd_ns FROM startup s, startup_phases p WHERE p.phase = 'startup'")
	set -- "$1" "$2" $row
	is "$3" 157479786566030 "$2: the start at launchingActivity#28's begin (android_startups' ts)"
	near "$4" 156515747 "$2: startup"
	near "$5" 154636678 "$2: time to initial display"
	near "$6" 659648153 "$2: time to full display"
}

"$BIN" import -q "$tr" -o "$T/pf.db"
is "$?" 0 "perfetto: import exits 0"
figures "$T/pf.db" perfetto
is "$(q "$T/pf.db" "SELECT kind, source, end_source FROM startup")" "warm	launchingActivity#28	DrawFrames 191185" \
	"perfetto: a warm start, from launchingActivity#28 to the draw of the first frame"
is "$(q "$T/pf.db" "SELECT (SELECT ts FROM startup) - 157479798544912")" -11978882 \
	"perfetto: 11.98 ms before the launching: slice"
is "$(q "$T/pf.db" "SELECT group_concat(phase || ': ' || source, '; ') FROM (SELECT * FROM startup_phases
	WHERE phase IN ('first_frame', 'fully_drawn') ORDER BY ts)")" \
	"first_frame: Choreographer#doFrame 191185; fully_drawn: reportFullyDrawn() for ComponentActivity" \
	"perfetto: the display phases keep the slices they were found by"

# The same prints as atrace text.
python3 tests/fixtures/pf2systrace.py "$tr" "$T/st.txt"
is "$?" 0 "pf2systrace.py: written"
is "$(grep -c 'launchingActivity#28' "$T/st.txt")" 3 "the text holds launchingActivity#28's S, F and completed I"
"$BIN" import -q "$T/st.txt" --process 7663 -o "$T/st.db"
is "$?" 0 "systrace: import exits 0"
figures "$T/st.db" systrace
cols="kind, tid, ts, end_ts, ttid_ns, ttfd_ns, source, end_source"
is "$(q "$T/st.db" "SELECT $cols FROM startup")" "$(q "$T/pf.db" "SELECT $cols FROM startup")" \
	"systrace: the same start as the Perfetto trace's"
ph="SELECT group_concat(phase || ' ' || ts || ' ' || dur || ' ' || source, '; ') FROM (SELECT * FROM startup_phases ORDER BY ts, phase)"
is "$(q "$T/st.db" "$ph")" "$(q "$T/pf.db" "$ph")" "systrace: the same phases"

# Without launchingActivity#N (before API 32): launching: begins the start and ends its window.
grep -v 'launchingActivity#' "$T/st.txt" >"$T/old.txt"
"$BIN" import -q "$T/old.txt" --process 7663 -o "$T/old.db"
is "$(q "$T/old.db" "SELECT s.ts, s.source, p.dur, s.ttid_ns FROM startup s, startup_phases p WHERE p.phase = 'startup'")" \
	"157479798544912	launching: androidx.benchmark.integration.macrobenchmark.target	144543213	142657796" \
	"systrace without launchingActivity: from launching: to its end, initial display at the same draw"
