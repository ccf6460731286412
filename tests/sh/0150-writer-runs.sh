#!/bin/sh
# Runs of one simulated build (mkdump --build-seed, for compare's tests):
# every run executes the same work and differs only by jitter, seeded
# regressions (--slow-method, on the main thread's methods or on a worker's
# task whose lock the main thread waits on, --lock-scale, --lock-add)
# change exactly what they say,
# the truth stays exact and the analyser imports the dumps. The checks
# read the truth (tests/fixtures/check_runs.py documents them and their
# tolerances); each is also shown to fail on a wrong input.
. tests/lib.sh
C=$ROOT/tests/fixtures/check_runs.py
RUN="--build-seed 7 --main-messages 60"

run() {   # name, then mkdump options
	_n=$1; shift
	# shellcheck disable=SC2086
	"$MKDUMP" $RUN "$@" "$T/$_n" >/dev/null
}
span() {   # dir: the trace's length in ns
	echo $(($(truth "$1" end_ns) - $(truth "$1" start_ns)))
}

for s in 1 2 3; do run s$s --seed "$s"; done
BASE=$T/s1,$T/s2,$T/s3
X=$(python3 "$C" pick "$T/s1")
like "$X" "com\\.example\\.app\\." "a main-thread app method to slow: $X"
run slow --seed 4 --slow-method "$X:50"
run lock --seed 5 --lock-scale 2
run ladd --seed 6 --lock-add 5
run z1 --seed 1 --jitter 0
run z2 --seed 2 --jitter 0
"$MKDUMP" --build-seed 8 --main-messages 60 --seed 1 "$T/other" >/dev/null

for r in s1 slow lock; do
	check "$r: verify_dump agrees with its truth" python3 tests/fixtures/verify_dump.py "$T/$r"
	"$BIN" -q "$T/$r" -o "$T/$r.json"
	is "$?" 0 "$r: the analyser imports it (exit 0)"
	is "$(python3 "$C" import "$T/$r" "$T/$r.json")" ok "$r: the report counts the truth's records and samples"
done
unlike "$(python3 "$C" import "$T/s1" "$T/lock.json")" "^ok" "the import check fails on another run's report"

is "$(truth "$T/s1" messages)" 60 "--main-messages 60: 60 messages on the main thread"
is "$(truth "$T/lock" messages)" 60 "a slower build runs the same 60 messages"
check "... and makes a longer trace" test "$(span "$T/lock")" -gt "$(span "$T/s1")"
run capped --seed 1 --records 500
is "$(truth "$T/capped" records_written)" 500 "--records caps a --main-messages run"
run again --seed 2
check "same build and seed, same dump" cmp "$T/s2/sampling.bin" "$T/again/sampling.bin"

is "$(python3 "$C" same-work "$T/s1" "$T/s2" "$T/s3")" ok "seeds 1-3: the same messages, entry methods, calls and methods"
unlike "$(python3 "$C" same-work "$T/s1" "$T/other")" "^ok" "same-work fails on another build"
is "$(python3 "$C" spread 3 "$T/s1" "$T/s2" "$T/s3")" ok "seeds 1-3: main-thread wall and CPU totals within 3 %"
unlike "$(python3 "$C" spread 3 "$T/s1" "$T/s2" "$T/other")" "^ok" "spread fails on another build"
is "$(python3 "$C" identical "$T/z1" "$T/z2")" ok "--jitter 0: another seed gives the same truth, shifted in time"
unlike "$(python3 "$C" identical "$T/s1" "$T/s2")" "^ok" "identical fails on jittered runs"

is "$(python3 "$C" slow "$X" 50 "$BASE" "$T/slow")" ok "--slow-method X:50: X's self time x1.5, the others' within jitter"
is "$(python3 "$C" grows "$X" "$BASE" "$T/slow")" ok "--slow-method X:50: message time grows by X's extra self time"
unlike "$(python3 "$C" slow "$X" 50 "$T/s1,$T/s2" "$T/s3")" "^ok" "slow fails on an unslowed run"
Y=$(python3 "$C" pick "$T/s1" 2)
run both --seed 4 --slow-method "$X:50" --slow-method "$Y:50"
unlike "$(python3 "$C" slow "$X" 50 "$BASE" "$T/both")" "^ok" "slow fails when another method was slowed too"
unlike "$(python3 "$C" grows "$X" "$BASE" "$T/lock")" "^ok" "grows fails when the message time grew otherwise"

is "$(python3 "$C" lock 2 "$BASE" "$T/lock")" ok "--lock-scale 2: main monitor waits x2, other waits unchanged"
unlike "$(python3 "$C" lock 2 "$BASE" "$T/s3")" "^ok" "lock fails on an unscaled run"
is "$(python3 "$C" lockadd 5 "$BASE" "$T/ladd")" ok "--lock-add 5: main monitor waits 5 ms longer each, other waits unchanged"
unlike "$(python3 "$C" lockadd 5 "$BASE" "$T/s3")" "^ok" "lockadd fails on an unchanged run"
unlike "$(python3 "$C" lockadd 10 "$BASE" "$T/ladd")" "^ok" "lockadd fails on another amount"
H=$(python3 "$C" holder-pick "$T/s1")
like "$H" '^[A-Za-z$]+[.][a-z]+[(]$' "a worker method holding the main thread's locks: $H"
run hold --seed 7 --slow-method "$H:50"
is "$(python3 "$C" holder "$H" 50 "$BASE" "$T/hold")" ok "--slow-method $H:50: the main monitor waits it releases x1.5, the others unchanged"
unlike "$(python3 "$C" holder "$H" 50 "$BASE" "$T/s3")" "^ok" "holder fails on an unslowed run"
unlike "$(python3 "$C" holder "$H" 50 "$BASE" "$T/lock")" "^ok" "holder fails when every monitor wait grew"

"$MKDUMP" --jitter 0.1 "$T/u" >/dev/null 2>&1; is "$?" 2 "--jitter without --build-seed exits 2"
"$MKDUMP" --lock-add 5 "$T/u" >/dev/null 2>&1; is "$?" 2 "--lock-add without --build-seed exits 2"
"$MKDUMP" --build-seed 1 --lock-add -1 "$T/u" >/dev/null 2>&1; is "$?" 2 "--lock-add below 0 exits 2"
"$MKDUMP" --build-seed 1 --slow-method nosuch:5 "$T/u" >/dev/null 2>&1; is "$?" 2 "--slow-method matching no symbol exits 2"
