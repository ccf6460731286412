#!/bin/sh
# Accuracy on dumps as btrace 3.0 really writes them (issue 32): the device
# simulator (tests/fixtures/mkdevice.py: no kNativePollOnce records unless
# asked, a writer's hooks and throttle, natives no hook sees, GC waits, pool,
# binder, Looper and daemon threads; tests/fixtures/README.md), both app
# models, with and without type-21 records, ten seeds never tuned on:
# 1401-1405, picked after the idle policy's rules were written, and
# 2101-2105, picked after its last rule (doFrame's callbacks begin as a gap
# after its own code opens: written on 1201-1205, checked on 1601-1605 and
# 1711-1715) and after the simulator's message and frame dispatch stopped
# allocating, as AOSP's does not (Handler.dispatchMessage, handleCallback,
# FrameDisplayEventReceiver.run, doFrame's preamble, doCallbacks,
# CallbackRecord.run: a sample taken there at a frame's start shut the
# throttle over its first callback, which then no record showed).
#
# Per thread class, the time-weighted per-(thread, method) inclusive error of
# the work methods (score_threads.py --work: the frames a thread holds open
# while it waits for work left out), median over the dumps. Issue 32's
# targets, asserted as such:
#   main: wall <= 5 %, CPU <= 4 % and no worse than midpoint's
#   other: wall <= 20 %, p90 <= 100 %;  all: wall <= 15 %, CPU <= 10 %
#   idle time per thread role (main, looper, pool, binder, daemon) within
#   5 % of the truth (check_thread_states.py), every thread's parts adding up
. tests/lib.sh
M=$ROOT/tests/fixtures/mkdevice.py
S=$ROOT/tests/fixtures/score_threads.py
SEEDS=${DEVICE_SEEDS:-"1401 1402 1403 1404 1405 2101 2102 2103 2104 2105"}

one() {   # model seed [--poll-records]: dump, both policies, scores
	d=$T/$1-$2${3:+-poll}
	python3 "$M" "$d" --model "$1" --seed "$2" --records 20000 $3 >/dev/null &&
		"$BIN" import -q "$d" -o "$d-default.db" &&
		"$BIN" import -q "$d" --slice-policy midpoint -o "$d-midpoint.db" &&
		python3 "$S" "$d" default="$d-default.db" midpoint="$d-midpoint.db" --work \
			--calls "HardwareRenderer.syncAndDrawFrame(,HardwareRenderer.nSyncAndDrawFrame(,NativeFilter.nativeApply(" \
			>"$d.score" &&
		python3 "$ROOT/tests/fixtures/check_thread_states.py" "$d" "$d-default.db" >"$d.states"
}
for model in feed media; do
	for s in $SEEDS; do
		one "$model" "$s" &
		one "$model" "$s" --poll-records
		wait
	done
done
n=$(echo $SEEDS | wc -w)
is "$(ls "$T"/*.score | wc -l)" $((4 * n)) "$((4 * n)) dumps written, imported and scored"

# Medians over the seeds: variant (plain, poll) policy class, then wall.tw
# wall.p90 cpu.tw in %.
for f in "$T"/*.score; do
	case $f in *-poll.score) v=poll ;; *) v=plain ;; esac
	awk -F'\t' -v v="$v" '$1 != "truth" && $1 != "calls" { print v, $1, $2, 100 * $4, 100 * $6, 100 * $7 }' "$f"
done | sort | awk '
	function flush() { if (n) { asort_(a, n); asort_(b, n); asort_(c, n)
		print key, a[int((n + 1) / 2)], b[int((n + 1) / 2)], c[int((n + 1) / 2)], a[1], a[n] } }
	function asort_(x, m,   i, j, t) { for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t } }
	{ k = $1 " " $2 " " $3; if (k != key) { flush(); key = k; n = 0 } n++; a[n] = $4; b[n] = $5; c[n] = $6 }
	END { flush() }' >"$T/medians"
echo "# median over seeds $SEEDS of both models (20,000 records), work methods, error in %:"
echo "# records  policy    class          wall.tw wall.p90  cpu.tw   (wall.tw range)"
awk '{ printf "# %-8s %-9s %-14s %7.1f %8.1f %7.1f   (%.1f-%.1f)\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$T/medians"
fig() {   # variant policy class column(4 wall.tw, 5 wall.p90, 6 cpu.tw)
	awk -v v="$1" -v p="$2" -v c="$3" -v k="$4" '$1 == v && $2 == p && $3 == c { print $k }' "$T/medians"
}
at_most() {   # value bound
	awk -v g="$1" -v b="$2" 'BEGIN { exit !(g != "" && g + 0 <= b + 0) }'
}
while read -r v cls col bound what; do
	got=$(fig "$v" default "$cls" "$col")
	check "$v: $cls $what $got % <= $bound %" at_most "$got" "$bound"
done <<'BOUNDS'
plain other 4 20 wall (target)
poll other 4 20 wall (target)
plain other 5 100 wall-p90 (target)
poll other 5 100 wall-p90 (target)
plain all 4 15 wall (target)
poll all 4 15 wall (target)
plain all 6 10 cpu (target)
poll all 6 10 cpu (target)
plain main 4 5 wall (target)
poll main 4 5 wall (target)
plain main 6 4 cpu (target)
poll main 6 4 cpu (target)
BOUNDS
got=$(fig plain default main 6)
mid=$(fig plain midpoint main 6)
check "plain: main CPU $got % no worse than midpoint's $mid %" at_most "$got" "$mid"
got=$(fig poll default main 6)
mid=$(fig poll midpoint main 6)
check "poll: main CPU $got % no worse than midpoint's $mid %" at_most "$got" "$mid"
for v in plain poll; do
	got=$(fig "$v" default main 4)
	mid=$(fig "$v" midpoint main 4)
	check "$v: main wall $got % under half of midpoint's $mid %" at_most "$(awk -v g="$got" 'BEGIN { print 2 * g }')" "$mid"
done

# Calls no sample shows, on the main thread over every dump: a draw's
# wait for the RenderThread (no hook sees a boot native; synthetic frames
# of Android 10's names) and an app native whose entry the throttle hid
# (the one the trace shows its caller entering). Before: 0 and 7 %.
cat "$T"/*.score | awk -F'\t' '$1 == "calls" && $2 == "default"' | cut -f3- >"$T/unseen"
sums() {   # part: true got (ms), slices, distinct addresses
	awk -F'\t' -v p="$1" '$1 == p { t += $2; g += $3; n += $4; a[$5] = 1 }
		END { k = 0; for (x in a) k++; printf "%.0f %.0f %d %d %s\n", t, g, n, k, x }' "$T/unseen"
}
set -- $(sums "HardwareRenderer.nSyncAndDrawFrame(")
check "the draw's wait: $3 slices, $2 of $1 ms ($(awk -v t="$1" -v g="$2" 'BEGIN { printf "%.0f", 100 * g / t }') %)" \
	awk -v t="$1" -v g="$2" 'BEGIN { exit !(t > 0 && g > 0.85 * t && g < 1.15 * t) }'
is "$4 $5" "1 9223372036854775803" "... in a synthetic frame, the same pseudo-pointer in every dump"
is "$(sums "HardwareRenderer.syncAndDrawFrame(" | cut -d' ' -f1-3)" "$1 $2 $3" "... under its Java wrapper"
set -- $(sums "NativeFilter.nativeApply(")
check "the media filter's native: $2 of $1 ms ($(awk -v t="$1" -v g="$2" 'BEGIN { printf "%.0f", 100 * g / t }') %)" \
	awk -v t="$1" -v g="$2" 'BEGIN { exit !(t > 0 && g > 0.35 * t && g < 1.1 * t) }'

# Idle time per role against the truth, median over the dumps; every
# thread's parts add up.
cat "$T"/*.states | awk -F'\t' 'NF == 4 && $2 + 0 > 0 { print $1, 100 * $4 }' | sort >"$T/idle"
for role in main looper pool binder daemon; do
	got=$(awk -v r="role:$role" '$1 == r { print $2 }' "$T/idle" | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
	echo "# idle time, $role: median error $got % over $(grep -c "^role:$role " "$T/idle") dumps"
	check "idle time of $role threads within 5 % of the truth ($got %)" at_most "$got" 5
done
is "$(grep -hc 'parts ok' "$T"/*.states | sort -u)" 1 "every thread's wall = cpu + blocked + idle + unexplained"

# The scorer sees a wrong reconstruction: every slice twice as long.
d=$(ls -d "$T"/feed-*-default.db | head -1)
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE slices SET dur = 2 * dur"); c.commit()' "$d"
like "$(python3 "$S" "${d%-default.db}" x="$d" --work | awk -F'\t' '$2 == "main" { print $4 }')" \
	'^(0\.[89][0-9]*|1\.[0-9]*)$' "doubled slices score a main-thread wall error near 100 %"
