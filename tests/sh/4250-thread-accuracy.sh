#!/bin/sh
# Per-thread-class accuracy of the slices (issue 18): per slice policy
# (btrace, midpoint, idle, the default), main thread and other threads apart,
# the per-(thread, method) inclusive wall and CPU error against the
# writer's truth (tests/fixtures/score_threads.py) over methods with at
# least 1 ms of true inclusive wall time: time-weighted, mean and 90th
# percentile. Five seeds of both app models (mkdump --app classic, and
# --app idle: HandlerThreads, binder threads, idle pool workers, I/O
# inside tasks, capture bursts; tests/fixtures/README.md). Prints the
# medians over the seeds as TAP comments and bounds them by today's
# figures plus a margin, so that the test fails when accuracy regresses.
#
# The default (idle) policy is also held to issue 18's targets:
#   other threads: time-weighted wall <= 20 %, p90 <= 100 %
#   main thread:   time-weighted wall <= 5 %, CPU <= 3 %
#   all threads:   time-weighted wall <= 15 %, CPU <= 8 %
# and its threads' idle time (threads.idle_dur) against the truth's
# (tests/fixtures/check_thread_states.py), each thread's parts adding up.
. tests/lib.sh
S=$ROOT/tests/fixtures/score_threads.py

for app in classic idle; do
	for s in 1 2 3 4 5; do
		d=$T/$app-$s
		"$MKDUMP" --app "$app" --records 20000 --seed "$s" "$d" >/dev/null
		"$BIN" import -q "$d" --slice-policy btrace -o "$d-btrace.db"
		"$BIN" import -q "$d" --slice-policy midpoint -o "$d-midpoint.db"
		"$BIN" import -q "$d" --slice-policy idle -o "$d-idle.db"
		"$BIN" import -q "$d" -o "$d-default.db"
		# the default is the idle policy, byte for byte: scored once, read as both
		cmp -s "$d-idle.db" "$d-default.db" && echo same >>"$T/idle-is-default"
		python3 "$S" "$d" btrace="$d-btrace.db" midpoint="$d-midpoint.db" default="$d-default.db" |
			awk -F'\t' -v OFS='\t' '{ print } $1 == "default" { $1 = "idle"; print }' | sed "s/^/$app	/" >"$d.score"
	done
done
is "$(grep -c same "$T/idle-is-default")" 10 "the default policy's database is --slice-policy idle's, byte for byte (10 dumps)"
is "$(python3 "$ROOT/tests/fixtures/verify_dump.py" "$T/idle-1")" ok "--app idle writes a dump verify_dump.py accepts"
# The idle model's other threads are mostly idle, the classic one's never.
idle=$(awk -F'\t' '$2 == "truth" && $3 == "other" { printf "%d\n", 100 * $4 / $5 }' "$T/idle-1.score")
check "--app idle: other threads idle most of their wall time ($idle %)" test "$idle" -ge 50
is "$(awk -F'\t' '$2 == "truth" { print $4 }' "$T/classic-1.score" | sort -u)" 0.000 "--app classic: no idle truth"

# Medians over the seeds: app policy class then the six errors in %.
cat "$T"/*.score | python3 -c '
import sys
from collections import defaultdict
v = defaultdict(list)
for line in sys.stdin:
    f = line.rstrip("\n").split("\t")
    if f[1] != "truth":
        v[tuple(f[:3])].append([float(x) for x in f[4:]])
for k in sorted(v):
    cols = list(zip(*v[k]))
    print(" ".join(k) + " " + " ".join("%.1f" % (100 * sorted(c)[len(c) // 2]) for c in cols) +
          " " + " ".join("%.1f-%.1f" % (100 * min(cols[i]), 100 * max(cols[i])) for i in (0, 3)))
' >"$T/medians"
echo "# median over seeds 1-5 (20,000 records), error in %:"
echo "# app     policy   class  wall.tw wall.mean wall.p90  cpu.tw cpu.mean cpu.p90"
awk '{ printf "# %-8s %-8s %-6s %7s %9s %8s %7s %8s %7s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$T/medians"
echo "# range over the seeds: app policy class wall.tw cpu.tw"
awk '{ printf "# %-8s %-8s %-6s %11s %11s\n", $1, $2, $3, $10, $11 }' "$T/medians"
awk -F'\t' '$2 == "truth" && $3 == "other" { i += $4; w += $5 } END {
	printf "# --app idle, other threads: %.0f %% of their wall time idle (truth)\n", 100 * i / w }' "$T"/idle-*.score

within() {   # "four figures" "four bounds": each figure at most its bound
	awk -v g="$1" -v b="$2" 'BEGIN {
		n = split(g, x, " "); split(b, y, " ")
		if (n != 4) exit 1
		for (i = 1; i <= 4; i++) if (x[i] + 0 > y[i] + 0) exit 1 }'
}
figures() {   # app policy class: wall.tw wall.p90 cpu.tw cpu.p90
	awk -v a="$1" -v p="$2" -v c="$3" '$1 == a && $2 == p && $3 == c { print $4, $6, $7, $9 }' "$T/medians"
}
# Bounds (%): today's medians plus about 10 %, rounded up. app policy
# class wall.tw wall.p90 cpu.tw cpu.p90
cat >"$T/bounds" <<'EOF'
classic btrace all 26 96 22 96
classic btrace main 17 88 18 95
classic btrace other 29 100 23 96
classic default all 5 22 4 25
classic default main 3 23 3 31
classic default other 6 22 4 26
classic midpoint all 24 51 6 35
classic midpoint main 6 32 5 35
classic midpoint other 30 54 6 35
classic idle all 5 22 4 25
classic idle main 3 23 3 31
classic idle other 6 22 4 26
idle idle all 7 85 4 37
idle idle main 3 17 3 22
idle idle other 8 88 5 39
idle btrace all 71 111 20 111
idle btrace main 17 80 18 88
idle btrace other 85 111 27 111
idle default all 7 85 4 37
idle default main 3 17 3 22
idle default other 8 88 5 39
idle midpoint all 91 755 5 43
idle midpoint main 6 24 5 28
idle midpoint other 115 937 5 47
EOF
while read -r app pol cls wtw wp90 ctw cp90; do
	got=$(figures "$app" "$pol" "$cls")
	check "$app $pol $cls: wall tw/p90, cpu tw/p90 ($got) within $wtw $wp90 $ctw $cp90 %" \
		within "$got" "$wtw $wp90 $ctw $cp90"
done <"$T/bounds"
# Issue 18's targets, on both models: class wall.tw wall.p90 cpu.tw
while read -r cls wtw wp90 ctw; do
	for app in classic idle; do
		got=$(figures "$app" default "$cls" | awk '{ print $1, $2, $3, 0 }')
		check "$app default $cls: issue 18's targets (wall tw $wtw, p90 $wp90, cpu tw $ctw %): $got" \
			within "$got" "$wtw $wp90 $ctw 100"
	done
done <<'EOF'
other 20 100 100
main 5 100 3
all 15 100 8
EOF
# Idle time per thread class against the truth, and each thread's parts.
for app in classic idle; do
	for s in 1 2 3 4 5; do
		python3 "$ROOT/tests/fixtures/check_thread_states.py" "$T/$app-$s" "$T/$app-$s-default.db" |
			sed "s/^/$app	/" >"$T/$app-$s.states"
	done
	is "$(grep -hc 'parts ok' "$T/$app"-*.states | sort -u)" 1 "$app: every thread's wall = cpu + blocked + idle + unexplained"
	awk -F'\t' '$2 ~ /^(main|other|all)$/ { printf "# %s %-5s idle: truth %8.3f s, ours %8.3f s (%.1f %%)\n", $1, $2, $3, $4, 100 * $5 }' \
		"$T/$app-1.states"
done
idle_err() {   # app class: the median over the seeds of the idle time's error, in %
	cat "$T/$1"-*.states | awk -F'\t' -v c="$2" '$2 == c { print 100 * $5 }' | sort -n | sed -n 3p
}
while read -r app cls bound; do
	got=$(idle_err "$app" "$cls")
	check "$app $cls: idle time within $bound % of the truth ($got %)" \
		awk -v g="$got" -v b="$bound" 'BEGIN { exit !(g != "" && g + 0 <= b + 0) }'
done <<'EOF'
classic main 3.5
classic other 25
idle main 5
idle other 3
EOF
got=$(figures classic btrace main)
bound=$(awk '$1 == "classic" && $2 == "midpoint" && $3 == "main" { print $4, $5, $6, $7 }' "$T/bounds")
if within "$got" "$bound"; then r="not ok"; else r=ok; fi
echo "$r - the bounds catch a regression: btrace's main-thread figures ($got) exceed midpoint's ($bound)"
q_alloc="SELECT tid, sum(self_alloc_bytes), sum(self_alloc_objects) FROM methods GROUP BY tid ORDER BY 1"
is "$(sqlite3 "$T/idle-1-idle.db" "$q_alloc" | md5sum)" "$(sqlite3 "$T/idle-1-midpoint.db" "$q_alloc" | md5sum)" \
	"idle policy: every thread's allocations are midpoint's"
# Messages: every message midpoint finds, the idle policy finds too (and
# those only an id change shows), their lengths no farther from the truth.
msgs() {   # dump db: "n found, median |length error| ns" against messages.tsv
	python3 - "$1" "$2" <<'PY'
import csv, sqlite3, statistics, sys
d, db = sys.argv[1:3]
ours = {(t, m): dur for t, m, dur in sqlite3.connect(db).execute("SELECT tid, msg_id, dur FROM messages")}
err = [abs(ours[int(r["tid"]), int(r["msg_id"])] - (int(r["end_ns"]) - int(r["begin_ns"])))
       for r in csv.DictReader(open(d + "/truth/messages.tsv"), delimiter="\t")
       if (int(r["tid"]), int(r["msg_id"])) in ours]
print(len(err), int(statistics.median(err)))
PY
}
set -- $(msgs "$T/idle-1" "$T/idle-1-idle.db") $(msgs "$T/idle-1" "$T/idle-1-midpoint.db")
check "messages: the idle policy finds $1 of the truth's, midpoint $3" test "$1" -ge "$3"
# (the idle policy's Looper rules read dense sampling; on this model's sparse
# captures its message lengths are about as close as midpoint's, within a
# tenth; on the device simulator, 4255, they are twice as close)
check "messages: median length error $2 ns, midpoint's $4 ns" test "$2" -le "$(($4 * 11 / 10))"
# The scorer sees a wrong reconstruction: every slice twice as long.
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE slices SET dur = 2 * dur"); c.commit()' "$T/idle-1-midpoint.db"
like "$(python3 "$S" "$T/idle-1" x="$T/idle-1-midpoint.db" | awk -F'\t' '$2 == "main" { print $4 }')" \
	'^(0\.9[0-9]*|1\.[0-9]*)$' "doubled slices score a main-thread wall error near 100 %"
