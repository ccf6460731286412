#!/bin/sh
# The dumps of a capture with the system trace of the same time
# (engine/recon/join.c bt_join_system; tests/fixtures/mkdevice.py
# --processes --system-trace): the feed app's main process, :push and
# :remote (8,000 records) beside the Perfetto system trace the phone
# recorded meanwhile. Every binder call between the capture's processes,
# written in a dump or not, is the trace's, at its times, with its server
# thread, a two-way call an edge ended by it and the dump's record where
# one was written; why the reply was slow agrees with the truth; the
# capture's threads get their scheduler states; each server transaction's
# slice lies within 0.1 ms of the driver's receipt and reply, its last
# one served to the reply (check_capture.py --system). The
# report and the startup rules run on it.
. tests/lib.sh
MK=$ROOT/tests/fixtures/mkdevice.py
CK=$ROOT/tests/fixtures/check_capture.py

d=$T/feed
python3 "$MK" "$d" --model feed --seed 2 --records 8000 --processes :push,:remote --system-trace >/dev/null
is "$?" 0 "feed --processes :push,:remote --system-trace: written"
check "the system trace is there" test -s "$d/system.perfetto-trace"
(cd "$d" && "$BIN" import -q . push remote system.perfetto-trace -o "$T/cap.db")
is "$?" 0 "import . push remote system.perfetto-trace: exit 0"
python3 "$CK" "$d" "$T/cap.db" --system
is "$(q "$T/cap.db" "SELECT value FROM meta WHERE key = 'system_trace'")" "system.perfetto-trace" \
	"meta names the system trace"
# (the truth's calls are the captured processes' to one another; the
# system trace also has theirs to system_server)
is "$(q "$T/cap.db" "SELECT count(*) FROM binder_calls WHERE client_sample_id IS NULL AND NOT oneway
	AND server_pid IN (SELECT pid FROM processes)")" \
	"$(awk -F'\t' 'NR > 1 && $5 == 0 && $6 == 0' "$d/truth/binder.tsv" | wc -l | tr -d ' ')" \
	"the two-way calls no dump wrote are there too (client_sample_id NULL)"

# the same system trace as systrace text (pf2systrace.py --sched --binder:
# sched_switch, sched_waking and the binder tracepoints as the kernel
# prints them): --process all gives the same binder calls, whys and
# edges as the Perfetto form, and beside the dumps the same exact calls
# and states against the truth
python3 "$ROOT/tests/fixtures/pf2systrace.py" "$d/system.perfetto-trace" "$d/system.txt" --sched --binder
"$BIN" import -q --process all "$d/system.perfetto-trace" -o "$T/pf.db"
"$BIN" import -q --process all "$d/system.txt" -o "$T/st.db"
calls="SELECT client_tid, ts, dur, oneway, server_pid, server_tid, server_first_ts, server_last_ts, blocked_dur, why
	FROM binder_calls ORDER BY client_tid, ts"
check "systrace --process all: the Perfetto form's $(q "$T/pf.db" "SELECT count(*) FROM binder_calls") binder calls, why and blocked time" \
	test "$(sqlite3 "$T/st.db" "$calls")" = "$(sqlite3 "$T/pf.db" "$calls")" -a -n "$(sqlite3 "$T/pf.db" "$calls")"
edges="SELECT waiter_tid, ts, dur, waker_tid, waker_ts FROM blocking_edges WHERE kind = 'binder' ORDER BY waiter_tid, ts"
check "systrace --process all: the same binder edges" test "$(sqlite3 "$T/st.db" "$edges")" = "$(sqlite3 "$T/pf.db" "$edges")"
(cd "$d" && "$BIN" import -q . push remote system.txt -o "$T/cap-st.db")
is "$?" 0 "import . push remote system.txt: exit 0"
python3 "$CK" "$d" "$T/cap-st.db" --system | sed "s/^\(not \)*ok - /&systrace beside the dumps: /"

# the reports run on it; the startup rules name the server method
(cd "$d" && "$BIN" . push remote system.perfetto-trace --rules "$ROOT/examples/startup.lua" -q -o "$T/cap.json")
is "$?" 0 "analyze with the startup rules: exit 0"
like "$(jq_ "$T/cap.json" "[f['message'] for f in d['findings'] if f['rule'] == 'main-binder']")" \
	"served by ample.feed:push's binder:[0-9]+_[0-9]+ in TokenStore.load" \
	"the startup's main-thread binder call names :push's binder thread and TokenStore.load"
