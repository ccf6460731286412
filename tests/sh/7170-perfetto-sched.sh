#!/bin/sh
# Perfetto's scheduler data (issue 33 items 1-3: importers/perfetto/pf_sched.c
# into importers/sched.c, the state machine systrace shares): thread states,
# each slice's CPU time and the main thread's kernel wakers, exact against
# mkpfsched.py's truth in both forms (full sched_switch/sched_waking and
# compact sched); the real API 32 warm start against check_pf_sched.py's own
# reading of its compact bundles; scheduler bundles cut short salvaged.
. tests/lib.sh
CK="python3 tests/fixtures/check_pf_sched.py"

for form in full compact; do
	for s in 1 2 3; do
		d=$FIX/pfsched/$form$s   # mkpfsched.py --form $form --seed $s and its truth (tests/fixtures.sh)
		"$BIN" import -q "$d/t.pb" -o "$T/$form$s.db"
		is "$?" 0 "$form seed $s: import exits 0"
		out=$($CK truth "$d" "$T/$form$s.db")
		is "$(echo "$out" | grep -c '^not ok')" 0 "$form seed $s: states, wakers and CPU per slice exact"
		echo "$out" | grep '^not ok' | head -3 | sed 's/^/# /'
	done
	# the two forms of one schedule give the same rows
	eval "rows_$form=\"\$(q \"\$T/${form}1.db\" 'SELECT tid, ts, dur, state, cpu, waker_tid, io_wait, blocked_function FROM thread_states ORDER BY tid, ts')\""
done
is "$rows_full" "$rows_compact" "full and compact sched: the same thread_states"
# FtraceConfig.symbolize_ksyms: callers are iids of the bundle's sequence's
# interned kernel symbols (Perfetto's ftrace_parser), named as such
for form in full compact; do
	python3 tests/fixtures/mkpfsched.py "$T/k$form.pb" --form "$form" --seed 4 --ksyms --no-truth
	"$BIN" import -q "$T/k$form.pb" -o "$T/k$form.db"
	out=$($CK ksyms "$T/k$form.db")
	is "$(echo "$out" | grep -c '^not ok')" 0 "$form, symbolize_ksyms: $(echo "$out" | sed -n 's/^[a-z ]*ok - //p' | head -1)"
	is "$(q "$T/k$form.db" "SELECT tid, ts, dur, state, io_wait FROM thread_states ORDER BY tid, ts" | md5sum)" \
		"$(python3 tests/fixtures/mkpfsched.py "$T/a$form.pb" --form "$form" --seed 4 --no-truth &&
			"$BIN" import -q "$T/a$form.pb" -o "$T/a$form.db" &&
			q "$T/a$form.db" "SELECT tid, ts, dur, state, io_wait FROM thread_states ORDER BY tid, ts" | md5sum)" \
		"$form: the same states as with addresses"
done
"$BIN" -q "$T/compact1.db" -o "$T/c.txt"
unlike "$(sed -n 5p "$T/c.txt")" "CPU time" "a trace with scheduler data knows CPU time"
like "$(cat "$T/c.txt")" "Main thread: waits and who ended them" "the report lists the main thread's waits"
like "$(grep -E '^ *[0-9.]+ +sleep ' "$T/c.txt" | head -1)" "sleep +[0-9.]+ +(tid 0|worker|binder:2000_1) " "its sleeps with their wakers"

r=$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace
"$BIN" import -q "$r" -o "$T/real.db"
out=$($CK real "$r" "$T/real.db" 7663)
echo "$out" | grep '^#'
is "$(echo "$out" | grep -c '^not ok')" 0 "api32 warm start: main thread's Running time and sleep wakers as read independently"
is "$(q "$T/real.db" "SELECT count(*) FROM diagnostics WHERE code LIKE 'perfetto_not_imported:ftrace.%sched_switch' OR code LIKE 'perfetto_not_imported:ftrace.%sched_waking'")" 0 \
	"sched_switch and sched_waking are no longer counted as not imported"
"$BIN" -q "$r" -o "$T/r.txt" 2>/dev/null
unlike "$(sed -n 5p "$T/r.txt")" "CPU time" "api32: CPU time is in this trace"
like "$(grep -E '^7663 ' "$T/r.txt")" "^7663 +enchmark.target +1 +150.6 +15.9 " "api32: the main thread's CPU time from the scheduler"
# The trace's span is its states' too (they begin 245 ms before the first
# slice and end 1 s after the last): the header's span, the times from its start.
is "$(q "$T/real.db" "SELECT (SELECT value FROM meta WHERE key = 'first_ts') = min((SELECT min(ts) FROM thread_states),
	(SELECT min(ts) FROM slices)) AND (SELECT value FROM meta WHERE key = 'last_ts') = max((SELECT max(ts + dur)
	FROM thread_states), (SELECT max(ts + dur) FROM slices)) AND (SELECT min(ts) FROM thread_states) < (SELECT min(ts) FROM slices)")" 1 \
	"api32: the trace's first_ts and last_ts span its slices and its scheduler states"
like "$(grep '^span' "$T/r.txt")" "^span +1\.92 s$" "api32: the header's span is the states' 1.92 s, not the slices' 0.66 s"

# cut inside the compact bundles, and their bytes flipped: salvaged or refused
# with the file and offset, never a crash
c=$FIX/pfsched/compact1/t.pb
size=$(wc -c <"$c")
for cut in 200 400 700 $((size / 2)); do
	head -c $cut "$c" >"$T/cut.pb"
	"$BIN" import -q "$T/cut.pb" -o "$T/cut$cut.db" 2>"$T/cut.err"
	rc=$?
	check "cut at $cut: exit 0 or 1 ($rc)" test $rc -le 1
	[ $rc -eq 1 ] && like "$(cat "$T/cut.err")" "cut.pb.*(offset|byte)" "cut at $cut: the error names the file and offset"
done
for at in 150 300 500 800; do
	python3 -c "import sys; d=bytearray(open(sys.argv[1],'rb').read()); d[int(sys.argv[2])]^=0xff; open(sys.argv[3],'wb').write(d)" \
		"$c" $at "$T/flip.pb"
	"$BIN" import -q "$T/flip.pb" -o "$T/flip$at.db" 2>"$T/flip.err"
	rc=$?
	check "byte $at flipped: exit 0 or 1 ($rc)" test $rc -le 1
done
