#!/bin/sh
# --slice-policy midpoint against the writer's truth: per-method inclusive
# wall and CPU errors (mean and p90, tests/fixtures/score_slices.py) beat
# the btrace policy on several seeds; the tree is consistent; a message id
# change restarts the frames below the loop, giving one dispatchMessage
# slice per true message; self counters add up to the thread's totals.
. tests/lib.sh

score() {   # dump policy: writes $T/dump-policy.score (key<TAB>value lines)
	"$BIN" import -q "$FIX/$1" --slice-policy "$2" -o "$T/$1-$2.db"
	python3 tests/fixtures/score_slices.py "$FIX/$1" "$T/$1-$2.db" >"$T/$1-$2.score"
}

val() {   # dump policy key
	awk -F'\t' -v k="$3" '$1 == k { print $2 }' "$T/$1-$2.score"
}

for f in small seed2 seed3; do
	score "$f" midpoint
	score "$f" btrace
	for key in wall.mean wall.p90 cpu.mean cpu.p90; do
		m=$(val "$f" midpoint "$key")
		b=$(val "$f" btrace "$key")
		check "$f: midpoint $key $m < btrace $b" awk -v m="$m" -v b="$b" 'BEGIN { exit !(m < b) }'
	done
	db=$T/$f-midpoint.db
	is "$(q "$db" 'SELECT count(*) FROM slices c JOIN slices p ON p.id = c.parent_id WHERE p.depth != c.depth - 1 OR p.tid != c.tid OR c.ts < p.ts OR c.ts + c.dur > p.ts + p.dur')" 0 "$f: children lie within their parents"
	is "$(q "$db" 'SELECT count(*) FROM slices p LEFT JOIN (SELECT parent_id, sum(dur) AS d FROM slices WHERE parent_id IS NOT NULL GROUP BY parent_id) k ON k.parent_id = p.id WHERE p.dur - p.self_dur != coalesce(k.d, 0)')" 0 "$f: self time = duration minus children"
	is "$(q "$db" "SELECT count(*) FROM slices s JOIN frames f ON f.id = s.frame_id WHERE f.name = 'void android.os.Handler.dispatchMessage(android.os.Message)'")" \
		"$(awk 'END { print NR - 1 }' "$FIX/$f/truth/messages.tsv")" "$f: one dispatchMessage slice per true message"
	is "$(q "$db" "SELECT count(*) FROM (SELECT s.tid, sum(s.alloc_bytes) AS self_sum FROM slices s
		WHERE s.id NOT IN (SELECT parent_id FROM slices WHERE parent_id IS NOT NULL) GROUP BY s.tid) x
		JOIN (SELECT tid, max(alloc_bytes) - min(alloc_bytes) AS total FROM samples GROUP BY tid) y USING (tid)
		WHERE x.self_sum > y.total")" 0 "$f: leaf allocations never exceed the thread's total"
done

# messages (midpoint): the same message ids as the truth, each overlapping
# its true interval, and total message CPU within 5 % of the truth.
for f in small seed2 seed3; do
	db=$T/$f-midpoint.db
	want=$(awk -F'\t' 'NR > 1 { print $1 ":" $2 }' "$FIX/$f/truth/messages.tsv" | sort | tr '\n' ' ')
	got=$("$BIN" query "$db" "SELECT tid || ':' || msg_id FROM messages" --format tsv | sed 1d | sort | tr '\n' ' ')
	is "$got" "$want" "$f: message ids = truth"
	"$BIN" query "$db" "SELECT tid, msg_id, ts, ts + dur, cpu_dur FROM messages" --format tsv | sed 1d >"$T/$f.msgs"
	bad=$(awk -F'\t' 'NR == FNR { b[$1 ":" $2] = $3; e[$1 ":" $2] = $4; next }
		FNR > 1 { k = $1 ":" $2; if (!(k in b) || b[k] >= $4 || e[k] <= $3) n++ } END { print n + 0 }' \
		"$T/$f.msgs" "$FIX/$f/truth/messages.tsv")
	is "$bad" 0 "$f: every message overlaps its true interval"
	check "$f: message CPU within 5 % of the truth" awk -F'\t' 'NR == FNR { got += $5; next } FNR > 1 { want += $5 }
		END { d = got - want; if (d < 0) d = -d; exit !(d <= 0.05 * want) }' "$T/$f.msgs" "$FIX/$f/truth/messages.tsv"
	# the idle gap between messages goes to the loop, so a message's bounds
	# are close to the truth (splitting those gaps in half gave ~3.5 ms and ~50 %)
	awk -F'\t' 'NR == FNR { b[$1 ":" $2] = $3; e[$1 ":" $2] = $4; next }
		FNR > 1 { k = $1 ":" $2; d = ($4 - $3) - (e[k] - b[k]); if (d < 0) d = -d
			t = e[k] - b[k]; print d, (t > 0 ? d / t : 0) }' \
		"$FIX/$f/truth/messages.tsv" "$T/$f.msgs" >"$T/$f.err"
	med_abs=$(sort -g -k1,1 "$T/$f.err" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	med_rel=$(sort -g -k2,2 "$T/$f.err" | awk '{ v[NR] = $2 } END { print v[int((NR + 1) / 2)] }')
	check "$f: median message length error $med_abs ns <= 1 ms" awk -v x="$med_abs" 'BEGIN { exit !(x <= 1000000) }'
	check "$f: median relative message length error $med_rel <= 0.12" awk -v x="$med_rel" 'BEGIN { exit !(x <= 0.12) }'
	max_abs=$(sort -g -k1,1 "$T/$f.err" | tail -1 | cut -d' ' -f1)
	check "$f: largest message length error $max_abs ns <= 10 ms" awk -v x="$max_abs" 'BEGIN { exit !(x <= 10000000) }'
done
is "$(q "$T/small-btrace.db" 'SELECT count(*) FROM messages')" 0 "btrace (no message split, as upstream) fills no messages"
