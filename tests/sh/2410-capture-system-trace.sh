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
is "$(q "$T/cap.db" "SELECT count(*) FROM binder_calls WHERE client_sample_id IS NULL AND NOT oneway")" \
	"$(awk -F'\t' 'NR > 1 && $5 == 0 && $6 == 0' "$d/truth/binder.tsv" | wc -l | tr -d ' ')" \
	"the two-way calls no dump wrote are there too (client_sample_id NULL)"

# the reports run on it; the startup rules name the server method
(cd "$d" && "$BIN" . push remote system.perfetto-trace --rules "$ROOT/examples/startup.lua" -q -o "$T/cap.json")
is "$?" 0 "analyze with the startup rules: exit 0"
like "$(jq_ "$T/cap.json" "[f['message'] for f in d['findings'] if f['rule'] == 'main-binder']")" \
	"served by ample.feed:push's binder:[0-9]+_[0-9]+ in TokenStore.load" \
	"the startup's main-thread binder call names :push's binder thread and TokenStore.load"
