#!/bin/sh
# The startup model's edges (engine/startup): a dump cut short before the
# first frame still has its start, with no end, no window and a diagnostic
# naming the missing boundary; a dump without a start has no rows and no
# such diagnostic; the bundled example is a cold start whose phases nest in
# the window and whose breakdown adds up. (0165 scores the model against
# the writer's truth over 18 dumps; 7180 runs it on Perfetto traces.)
. tests/lib.sh
"$MKDUMP" --records 300 --seed 9 --startup cold --no-truth "$T/cut" >/dev/null
"$BIN" import -q "$T/cut" -o "$T/cut.db" 2>/dev/null
is "$(q "$T/cut.db" "SELECT kind, coalesce(end_ts, 'none'), coalesce(ttid_ns, 'none') FROM startup")" "cold	none	none" \
	"cut before the first frame: a cold start with no end"
is "$(q "$T/cut.db" "SELECT count FROM diagnostics WHERE code = 'startup_no_first_frame'")" 1 "and a diagnostic says so"
like "$(q "$T/cut.db" "SELECT detail FROM diagnostics WHERE code = 'startup_no_first_frame'")" "^a cold start at [0-9]+ with no frame after its" \
	"the diagnostic names the start"
is "$(q "$T/cut.db" "SELECT count(*) FROM startup_phases WHERE phase = 'startup'")" 0 "no window without an end"
like "$("$BIN" "$T/cut" 2>&1 >/dev/null)" "startup_no_first_frame" "the analysis warns"

"$MKDUMP" --records 2000 --seed 9 --no-truth "$T/plain" >/dev/null
"$BIN" import -q "$T/plain" -o "$T/plain.db" 2>/dev/null
is "$(q "$T/plain.db" "SELECT (SELECT count(*) FROM startup) + (SELECT count(*) FROM startup_phases) + (SELECT count(*) FROM diagnostics WHERE code LIKE 'startup%')")" 0 \
	"no start in the trace: no rows, no diagnostic"

"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/ex.db" 2>/dev/null
is "$(q "$T/ex.db" "SELECT kind, package, ttid_ns FROM startup")" "cold	com.example.app	387483000" \
	"the bundled example: a cold start of com.example.app, 387.5 ms to initial display"
is "$(q "$T/ex.db" "SELECT count(*) FROM startup_phases p, startup s WHERE p.phase != 'fully_drawn' AND (p.ts < s.ts OR p.ts + p.dur > s.end_ts)")" 0 \
	"every phase inside the window"
is "$(q "$T/ex.db" "SELECT count(*) FROM startup_phases WHERE cpu_ns + blocked_ns + idle_ns + unexplained_ns != dur OR min(cpu_ns, blocked_ns, idle_ns, unexplained_ns) < 0")" 0 \
	"each phase's running, blocked, idle and unexplained time add up to its length"
is "$(q "$T/ex.db" "SELECT group_concat(phase, ' ') FROM (SELECT phase FROM startup_phases ORDER BY ts, dur DESC)")" \
	"startup bind_application content_providers application_create activity_launch activity_create activity_start activity_resume first_frame" \
	"the phases in time order"
is "$(q "$T/ex.db" "SELECT count(*) > 10, count(*) = max(rank), sum(self_cpu_ns = 0) > 0 FROM startup_methods WHERE phase = 'startup'")" "1	1	1" \
	"the window keeps every method with own time (ranked, some off-CPU only)"
is "$(q "$T/ex.db" "SELECT max(n) FROM (SELECT count(*) AS n FROM startup_methods WHERE phase != 'startup' GROUP BY phase)")" 10 \
	"a phase keeps its top ten"
is "$(q "$T/ex.db" "SELECT sum(dur) = (SELECT blocked_ns FROM startup_phases WHERE phase = 'startup') FROM startup_blocking WHERE phase = 'startup'")" 1 \
	"blocked time by kind adds up to the window's blocked time"
