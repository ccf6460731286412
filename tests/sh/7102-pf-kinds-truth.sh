#!/bin/sh
# Every kind of Perfetto event against the writer's truth: mkperfetto.py
# --flavor kinds (tests/fixtures/mkpfkinds.py) writes TrackEvent and legacy
# slices, instants (TrackEvent, legacy, atrace I| and N|), counters (atrace
# C| of the app and of another process, a counter track, an incremental one
# in us whose sequence is cleared, extra counter values from the sequence's
# defaults), async slices (atrace S/F across threads, G/H, legacy b/e; one
# never finished, one end without a begin), compact_sched (the app's
# threads' Running states; a bundle without pids counted) and kinds not
# imported (irq events, legacy 'C'; perf_samples of no thread counted
# apart); the tables hold
# exactly the truth's rows (check_pf_kinds_truth.py) and the independent
# wire reading agrees (check_pf_kinds.py). Every report format and export
# runs on it; the JSON report validates.
. tests/lib.sh
MKPF="python3 tests/fixtures/mkperfetto.py"
for s in 1 2 3; do
	$MKPF "$T/k$s/k.pb" --flavor kinds --seed $s --slices $((s * 300))
	"$BIN" import -q "$T/k$s/k.pb" -o "$T/k$s.db"
	is "$?" 0 "seed $s: imports"
	python3 tests/fixtures/check_pf_kinds_truth.py "$T/k$s.db" "$T/k$s/truth" | sed "s/^\(ok\|not ok\) - /&seed $s: /"
	python3 tests/fixtures/check_pf_kinds.py "$T/k$s/k.pb" "$T/k$s.db" --name "seed $s"
done
$MKPF "$T/again/k.pb" --flavor kinds --seed 1 --slices 300
check "same arguments, same bytes" cmp -s "$T/k1/k.pb" "$T/again/k.pb"
# the checker can fail: a truth one off is caught
sed 's/"ftrace.irq_handler_entry": \([0-9]*\)/"ftrace.irq_handler_entry": 1\1/' "$T/k1/truth/kinds.json" >"$T/again/truth/kinds.json"
python3 tests/fixtures/check_pf_kinds_truth.py "$T/k1.db" "$T/again/truth" >"$T/out"
is "$?" 1 "a wrong truth fails the check"
like "$(cat "$T/out")" "^not ok - not imported, by kind" "... on the kind it is wrong in"

# every report and export on it
db=$T/k1.db
for x in txt md json html xlsx; do
	"$BIN" -q "$db" -o "$T/r.$x"
	is "$?" 0 "the $x report"
done
is "$(python3 -c 'import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))); print("valid")' \
	"$T/r.json" "$ROOT/reports/json/report.schema.json" 2>&1)" valid "the JSON report validates"
like "$(tr '\n' ' ' <"$T/r.txt")" "perfetto_not_imported \(30\): 15 irq_handler_entry events \(ftrace\), 15 track events of legacy phase 'C'" \
	"text: the kinds not imported in one diagnostic, most first (compact sched and perf samples are imported)"
like "$(cat "$T/r.txt")" "perfetto_bad_sched \(15\): scheduler events in '.*k.pb' without the fields they need" \
	"text: the switches without their pids, counted and skipped"
unlike "$(cat "$T/r.txt")" "NO THREADS" "a trace with thread slices has no such banner"
"$BIN" -q "$db" --perfetto "$T/e.pb" --pprof "$T/e.pb.gz" --folded "$T/e.folded" -o "$T/e.txt"
is "$?" 0 "the exports"
check "a Perfetto export" test -s "$T/e.pb"
check "folded stacks" test -s "$T/e.folded"
