#!/bin/sh
# Park and monitor edges of btrace 2.0 Perfetto traces (importers/perfetto/
# pf_pair.c, DESIGN.md §6): Unsafe#park(obj:H, time:N) is ended by the last
# Unsafe#unpark(obj:H) inside it (H the parked thread's identity hash), its
# time in thread_blocking as park; a monitor wait's release (waker_ts) is
# the end of its owner's slice of the method the contention names ("at
# METHOD(File:line)") inside the wait, else the wait's end. Truth from
# mkperfetto.py --parks --held (loops that park again, timed-out parks,
# unparks of other threads inside, the owner's earlier call and another
# thread's call of the method as decoys); the real system_server trace
# names no such slice, so its releases stay at the waits' ends.
. tests/lib.sh
MKPF="python3 tests/fixtures/mkperfetto.py"
C=tests/fixtures/check_perfetto_import.py

# case NAME FLAVOR SEED [mkperfetto options]: write, import, compare.
case_() {
	name=$1 flavor=$2 seed=$3
	shift 3
	$MKPF "$T/$name/t.pb" --flavor "$flavor" --seed "$seed" --parks 32 --held "$@" >/dev/null
	"$BIN" import -q "$T/$name/t.pb" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
case_ b2-s1 btrace2 1 --slices 3000
case_ b2-s3 btrace2 3 --slices 6000 --threads 6 --blocks 20
case_ b3-s2 btrace3 2 --slices 4000 --threads 5 --blocks 10 --gzip
case_ b3-s4 btrace3 4 --slices 8000 --threads 8 --blocks 24 --no-annotations

# The figures the issue gave, over the four traces: park waits linked out
# of those an unpark ended, park time, monitor releases off the truth.
sum=0 linked=0 want=0 ptime=0 pwant=0 off=0 mon=0
for n in b2-s1 b2-s3 b3-s2 b3-s4; do
	d=$T/$n/truth
	sum=$((sum + $(awk -F'\t' '$1 == "park"' "$d/edges.tsv" | wc -l)))
	want=$((want + $(awk -F'\t' '$1 == "park" && $7 != ""' "$d/edges.tsv" | wc -l)))
	linked=$((linked + $(q "$T/$n.db" "SELECT count(waker_tid) FROM blocking_edges WHERE kind = 'park'")))
	ptime=$((ptime + $(q "$T/$n.db" "SELECT coalesce(sum(dur), 0) FROM thread_blocking WHERE kind = 'park'")))
	pwant=$((pwant + $(awk -F'\t' 'NR > 1 { s += $3 } END { print s + 0 }' "$d/parks.tsv")))
	awk -F'\t' '$1 == "monitor" { print $2 "|" $3 "|" $8 }' "$d/edges.tsv" | sort >"$T/mon.want"
	"$BIN" query -q "$T/$n.db" "SELECT waiter_tid || '|' || ts || '|' || waker_ts FROM blocking_edges
		WHERE kind = 'monitor' ORDER BY 1" --format tsv | tail -n +2 | sort >"$T/mon.got"
	mon=$((mon + $(wc -l <"$T/mon.want")))
	off=$((off + $(comm -23 "$T/mon.want" "$T/mon.got" | wc -l)))
done
is "$sum" 128 "four traces: 128 park waits"
is "$linked/$want" "$want/$want" "every park wait an unpark ended is linked, and no other"
check "some parks timed out (no unpark inside, none linked)" test "$want" -lt "$sum"
is "$ptime" "$pwant" "park time in thread_blocking: the park slices' time"
is "$off/$mon" "0/$mon" "monitor releases: every waker_ts the owner's slice's end inside the wait"
is "$(awk -F'\t' '$1 == "monitor" && $8 == $4' "$T/b2-s3/truth/edges.tsv" | wc -l)" 0 \
	"the truth's releases are all before the waits' ends (the writer's --held)"

# Without --held, no owner's slice names the method: the wait's end, as before.
$MKPF "$T/plain/t.pb" --flavor btrace2 --seed 3 --slices 6000 --threads 6 --blocks 20 --parks 8 >/dev/null
"$BIN" import -q "$T/plain/t.pb" -o "$T/plain.db"
python3 "$C" "$T/plain.db" "$T/plain/truth" | sed "s/^\(ok\|not ok\) - /&plain: /"
is "$(q "$T/plain.db" "SELECT count(*) FROM blocking_edges WHERE kind = 'monitor' AND waker_ts != ts + dur")" 0 \
	"without the owner's slice, a monitor's release is its wait's end"

# Real ART contention (system_server): owners' slices are atrace sections,
# none of the method the contention names; every release the wait's end.
ss=$REAL/perfetto-api32-startup-warm/derived/api32_system_server_only.pb
"$BIN" import -q "$ss" --process system_server -o "$T/ss.db" 2>/dev/null
is "$(q "$T/ss.db" "SELECT count(*), count(waker_tid), sum(waker_ts = ts + dur) FROM blocking_edges WHERE kind = 'monitor'")" \
	"84	84	84" "system_server: 84 monitor waits, owners known, released at their ends"
is "$(q "$T/ss.db" "SELECT count(*) FROM blocking_edges WHERE kind = 'park'")" 0 "system_server: no park markers, no park edges"

# The checker fails on a park edge's waker 1 ns off, an unlinked park, a
# monitor released at the wait's end, and park time lost.
mutate() {   # base description check-pattern sql
	cp "$T/$1.db" "$T/mut.db"
	sqlite3 "$T/mut.db" "$4"
	python3 "$C" "$T/mut.db" "$T/$1/truth" >"$T/out"
	is "$?:$(grep -c "^not ok - $3" "$T/out")" 1:1 "checker: $2 fails '$3'"
}
mutate b2-s1 "a park's waker 1 ns late" "park edges" \
	"UPDATE blocking_edges SET waker_ts = waker_ts + 1 WHERE id = (SELECT min(id) FROM blocking_edges WHERE kind = 'park' AND waker_tid IS NOT NULL)"
mutate b2-s1 "a park unlinked" "blocking edges" \
	"UPDATE blocking_edges SET waker_tid = NULL, waker_ts = NULL WHERE id = (SELECT max(id) FROM blocking_edges WHERE kind = 'park')"
mutate b3-s2 "a monitor released at the wait's end" "blocking edges" \
	"UPDATE blocking_edges SET waker_ts = ts + dur WHERE id = (SELECT min(id) FROM blocking_edges WHERE kind = 'monitor')"
mutate b3-s2 "park time lost" "thread_blocking" "DELETE FROM thread_blocking WHERE kind = 'park' AND tid = (SELECT min(tid) FROM thread_blocking WHERE kind = 'park')"
