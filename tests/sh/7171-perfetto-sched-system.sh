#!/bin/sh
# A system trace's scheduler data (issue 33's speed: importers/perfetto/
# pf_later.c): bundles are read again once the app is chosen and only its
# threads' events are kept. Other processes' load on six more CPUs
# (mkpfload.py) changes nothing of the app's states (but the last, which
# lasts to the trace's end: the load's), wakers and slices' CPU times, and
# none of the load's threads gets states; the same when the bundles' bytes
# are not in the mapped file (a gzip'd trace, the trace inside
# compressed_packets), where the first pass copies them aside.
. tests/lib.sh
d=$T/app
mkdir -p "$d"
python3 tests/fixtures/mkpfsched.py "$d/t.pb" --form compact --seed 4 --runs 60
cp "$d/t.pb" "$T/load.pb"
python3 tests/fixtures/mkpfload.py "$T/load.pb" --mb 2 --seed 4
gzip -c "$T/load.pb" >"$T/load.pb.gz"
python3 - "$T/load.pb" "$T/inner.pb" <<'EOF'
import sys, zlib
sys.path.insert(0, "tests/fixtures")
from mkperfetto import fb, packet
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(packet(fb(50, zlib.compress(data))))   # TracePacket.compressed_packets
EOF
rows() {   # db sql: every row
	"$BIN" query -q "$1" "$2" --format tsv
}
EDGES="SELECT * FROM blocking_edges ORDER BY 1, 2, 3"
SLICES="SELECT tid, ts, dur, cpu_dur FROM slices ORDER BY tid, ts, depth"
"$BIN" import -q "$d/t.pb" -o "$T/plain.db"
is "$?" 0 "the app's trace alone imports"
# the states up to the app's trace's end (where the load's goes on)
end=$(q "$T/plain.db" "SELECT max(ts + dur) FROM thread_states")
ROWS="SELECT tid, ts, min(dur, $end - ts), state, cpu, waker_tid, io_wait, blocked_function FROM thread_states
	WHERE ts < $end ORDER BY tid, ts"
out=$(python3 tests/fixtures/check_pf_sched.py truth "$d" "$T/plain.db")
is "$(echo "$out" | grep -c '^not ok')" 0 "the app's trace alone: states, wakers and CPU per slice exact"
is "$(q "$T/plain.db" "SELECT count(*) FROM thread_states WHERE tid = 1000")" 167 "the app's trace alone: 167 states of its main thread"
for f in load.pb load.pb.gz inner.pb; do
	"$BIN" import -q "$T/$f" -o "$T/$f.db"
	is "$?" 0 "$f: import exits 0"
	is "$(rows "$T/$f.db" "$ROWS" | md5sum)" "$(rows "$T/plain.db" "$ROWS" | md5sum)" "$f: the same thread_states as without the load, up to its end"
	is "$(rows "$T/$f.db" "$EDGES" | md5sum)" "$(rows "$T/plain.db" "$EDGES" | md5sum)" "$f: the same blocking edges"
	is "$(rows "$T/$f.db" "$SLICES" | md5sum)" "$(rows "$T/plain.db" "$SLICES" | md5sum)" "$f: the same slices and CPU times"
	is "$(q "$T/$f.db" "SELECT count(*) FROM thread_states WHERE tid >= 3000")" 0 "$f: the load's threads get no states"
	like "$(q "$T/$f.db" "SELECT name FROM threads WHERE tid = 1000")" "com.example.app" "$f: the app's main thread keeps its name"
done
is "$(q "$T/load.pb.db" "SELECT value FROM meta WHERE key = 'pid'")" 1000 "the app is chosen with the load present"
