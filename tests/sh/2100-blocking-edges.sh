#!/bin/sh
# Blocking edges (DESIGN §6) against the test writer's truth: every
# recorded main-thread monitor/wait/park wait is an edge with its interval,
# and its waker (thread, wake time, leaf method) when the waker was recorded.
. tests/lib.sh

for f in small seed2 seed3 bigpid; do
	d=$FIX/$f
	db=$T/$f.db
	"$BIN" import -q "$d" -o "$db"
	main=$(awk -F'\t' 'NR > 1 && $3 == 1 { print $1 }' "$d/truth/threads.tsv")
	want=$(awk -F'\t' -v m="$main" 'NR > 1 && $1 == m && $7 == 1 && ($2 == "monitor" || $2 == "wait" || $2 == "park") {
		w = $11 == 1 ? $8 "|" $9 "|" $10 : "||"; print $2 "|" $4 "|" $5 "|" w }' "$d/truth/blocks.tsv" | sort)
	got=$("$BIN" query "$db" "SELECT e.kind || '|' || e.ts || '|' || (e.ts + e.dur) || '|' ||
		coalesce(e.waker_tid, '') || '|' || coalesce(e.waker_ts, '') || '|' || coalesce(f.name, '')
		FROM blocking_edges e LEFT JOIN nodes n ON n.id = e.waker_node_id LEFT JOIN frames f ON f.id = n.frame_id" --format tsv | sed 1d | sort)
	is "$got" "$want" "$f: every main-thread wait edge equals the truth"
	is "$(printf '%s\n' "$want" | grep -c .)" "$(q "$db" 'SELECT count(*) FROM blocking_edges')" "$f: one edge per recorded wait"
	is "$(q "$db" "SELECT count(*) FROM blocking_edges e JOIN samples s ON s.id = e.waiter_sample_id WHERE s.ts != e.ts OR s.tid != e.waiter_tid")" 0 "$f: edges point at their wait records"
	is "$(q "$db" "SELECT count(*) FROM blocking_edges e JOIN samples s ON s.id = e.waker_sample_id WHERE s.ts != e.ts OR s.type NOT IN (17, 22, 23)")" 0 "$f: wakers carry the wait's begin time as key"
	unlinked=$(printf '%s\n' "$want" | grep -c '|||$')
	is "$(q "$db" "SELECT coalesce((SELECT count FROM diagnostics WHERE code = 'unlinked_wait'), 0)")" "$unlinked" "$f: unlinked waits counted"
done

# Orphan wakers: waker records whose wait was rate-limited away.
d=$FIX/small
want=$(awk -F'\t' -v m=4242 'NR > 1 && $1 == m && $7 == 0 && ($2 == "monitor" || $2 == "wait" || $2 == "park") { n += $12 } END { print n + 0 }' "$d/truth/blocks.tsv")
is "$(q "$T/small.db" "SELECT count FROM diagnostics WHERE code = 'orphan_waker'")" "$want" "orphan wakers counted"

# Version 4 has no waker records: waits are edges without wakers, and said so.
"$BIN" import -q "$FIX/v4" -o "$T/v4.db"
is "$(q "$T/v4.db" 'SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL')" 0 "v4: no wakers"
is "$(q "$T/v4.db" "SELECT count(*) = (SELECT count FROM diagnostics WHERE code = 'wakers_unsupported') FROM blocking_edges")" 1 "v4: unlinked waits diagnosed"

# The worked example: the wait at 1.002 s was ended by tid 1001's notifyAll at 1.009 s.
is "$(q "$FIX/example" "SELECT kind, ts, dur, waker_tid, waker_ts FROM blocking_edges" | tr '\t' ' ')" "wait 1002000000 8000000 1001 1009000000" "example: wait linked to notifyAll"
