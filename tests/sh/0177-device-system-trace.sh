#!/bin/sh
# The system trace of a capture (tests/fixtures/mkdevice.py
# --system-trace): the feed model, seed 2, 8,000 records, with :push and
# :remote, also writes OUTDIR/system.perfetto-trace, the Perfetto trace
# traced_probes would record on the phone over the same time (process
# tree, per-CPU ftrace bundles of sched_switch, sched_waking and the binder
# driver's tracepoints), and truth/states.tsv. It decodes as protobuf
# (protoc --decode_raw); tests/fixtures/check_system_trace.py finds it
# agrees with the truth: the process tree has every process and exactly
# its threads.tsv's threads, each core's events are in order with each
# event on the task running then, the states rebuilt from the scheduler
# events are states.tsv's to the ns, every transaction of binder.tsv is
# one call of pf_binder.py's pairing at its times and no other. A truth
# with one transaction's server begin moved by 1 us is rejected. The dumps
# and the rest of the truth are the same bytes with the option as without
# it; the same options write the same bytes.
. tests/lib.sh
# The simulator itself is under test: every run simulates, none is a kept
# one (tests/fixtures/simcache.py).
unset BT_SIM_CACHE
MK=$ROOT/tests/fixtures/mkdevice.py
CK=$ROOT/tests/fixtures/check_system_trace.py
OPTS="--model feed --seed 2 --records 8000 --processes :push,:remote"
d=$T/sys

# with and without the option, at once (two cores)
# shellcheck disable=SC2086
python3 "$MK" "$d" $OPTS --system-trace >/dev/null 2>"$T/err" &
bg=$!
# shellcheck disable=SC2086
python3 "$MK" "$T/plain" $OPTS >/dev/null
wait $bg
is "$?" 0 "--system-trace: written"
is "$(cat "$T/err")" "" "--system-trace: nothing on stderr"
check "the trace is there, states.tsv too" test -s "$d/system.perfetto-trace" -a -s "$d/truth/states.tsv"

# the same options again, while the first is checked
# shellcheck disable=SC2086
python3 "$MK" "$T/again" $OPTS --system-trace >/dev/null &
bg=$!
protoc --decode_raw <"$d/system.perfetto-trace" >/dev/null 2>&1
is "$?" 0 "protoc --decode_raw reads the trace"
python3 "$CK" "$d" | sed "s/^\(not \)*ok - /&system trace: /"

# a truth whose transaction's server begins 1 us later is rejected
mkdir -p "$T/bad/truth"
ln -s "$d/system.perfetto-trace" "$d/push" "$d/remote" "$T/bad/"
for f in summary.tsv processes.tsv threads.tsv states.tsv; do ln -s "$d/truth/$f" "$T/bad/truth/$f"; done
python3 - "$d/truth/binder.tsv" "$T/bad/truth/binder.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
r = next(r for r in rows if int(r["server_end_ns"]) - int(r["server_begin_ns"]) > 2_000_000)
r["server_received_ns"] = str(int(r["server_received_ns"]) + 1000)
w = csv.DictWriter(open(sys.argv[2], "w"), fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
out=$(python3 "$CK" "$T/bad")
like "$out" "not ok - every one of binder.tsv's [0-9]+ transactions is one call" "planted: a server receipt 1 us late is rejected"

wait $bg
is "$?" 0 "the same options again: written"
check "the dumps and the truth are the same bytes without the option" \
	diff -r -x system.perfetto-trace -x states.tsv "$d" "$T/plain"
check "without the option no system trace, no states.tsv" \
	test ! -e "$T/plain/system.perfetto-trace" -a ! -e "$T/plain/truth/states.tsv"
check "the same options write the same bytes (the trace too)" diff -r "$d" "$T/again"
