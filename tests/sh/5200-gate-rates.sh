#!/bin/sh
# The gate's error rates (issue 20), measured over many comparisons of
# 5 + 5 runs of one simulated build (mkdump --build-seed, 3 % jitter,
# 20,000 records, a cold start), each a real `compare` of JSON reports
# (tests/fixtures/gate_rates.py draws them):
#   - false alarms: 100 A/A comparisons (two disjoint sets of the same
#     build's runs) exit 3 at most once (1 %);
#   - a 1.5x slowdown of one of four startup main-thread methods with at
#     least 5 ms of self time in the window (by the truth) exits 3 in at
#     least 95 % of 40 comparisons, and the headline names the method in
#     at least NAMED % of them (95 %: the target; the slicer sees only part
#     of a slowdown between capture points, so when a method sampled next
#     to it moved nearly as much the headline names both: docs/compare.md "The CI
#     gate");
#   - 5 ms more on every main-thread monitor wait exits 3 naming monitor
#     blocking and the holder's method in at least 95 % of 40, 2 ms more
#     in at least 80 % of 20 (issue 35);
#   - a 1.5x slower worker task method that holds the locks the main
#     thread waits on (its waits last what is left of the holder's critical
#     section: tests/fixtures/README.md) exits 3 naming monitor blocking
#     and that method as the holder in at least 80 % of 20 (issue 35).
# The build seed is not the one the statistic was tuned on (11).
. tests/lib.sh
R=$ROOT/tests/fixtures/gate_rates.py
NAMED=95
run() {   # dir seed [mkdump options]: a run's JSON report in dir
	_d=$1 _s=$2
	shift 2
	mkdir -p "$_d"
	"$MKDUMP" --build-seed 23 --seed "$_s" --startup cold --records 20000 --no-truth "$@" "$T/dump" \
		>/dev/null && report "$T/dump" "$_d/r$_s.json"
}

"$MKDUMP" --build-seed 23 --seed 1 --startup cold --records 20000 "$T/truth" >/dev/null
SLOW=$(python3 "$ROOT/tests/fixtures/check_runs.py" startup-pick "$T/truth" 5 | head -4)
is "$(printf '%s\n' "$SLOW" | grep -c '($')" 4 "four startup methods with 5 ms of self time to slow: $(echo $SLOW)"

for s in $(seq 1 40); do run "$T/aa" "$s"; done
for m in $SLOW; do
	for s in $(seq 101 110); do run "$T/slow/$m" "$s" --slow-method "$m:50"; done
done
for s in $(seq 201 220); do run "$T/lock" "$s" --lock-add 5; done
for s in $(seq 401 410); do run "$T/lock2" "$s" --lock-add 2; done
HOLD=$(python3 "$ROOT/tests/fixtures/check_runs.py" holder-pick "$T/truth")
for s in $(seq 301 310); do run "$T/hold" "$s" --slow-method "$HOLD:50"; done
is "$(find "$T" -name '*.json' | wc -l)" 120 "120 reports: 40 same-build runs, 4 x 10 slowed, 20 + 10 with longer waits, 10 with a slower holder"

out=$(python3 "$R" "$BIN" 1 aa 100 "$T/aa")
like "$out" "^ok" "false alarms at most 1 in 100 A/A comparisons: ${out%%
*}"
out=$(python3 "$R" --target "$NAMED" "$BIN" 2 ab 40 "$T/aa" "$T/slow" @)   # one pass for both
exit3=$(printf '%s\n' "$out" | sed -n 's/^exit 3 in \([0-9]*\)\/40 .*/\1/p')
check "a method 1.5x slower in startup fails the gate (exit 3) in 95 % of 40: $exit3/40" test "${exit3:-0}" -ge 38
like "$out" "^ok" "... the headline names it in $NAMED % at least: ${out%%
*}"
out=$(python3 "$R" "$BIN" 3 ab 40 "$T/aa" "$T/lock" monitor "held by")
like "$out" "^ok" "5 ms more per main-thread monitor wait: exit 3 naming monitor blocking and its holder in 95 % of 40: ${out%%
*}"
out=$(python3 "$R" --target 80 "$BIN" 7 ab 20 "$T/aa" "$T/lock2" monitor "held by")
like "$out" "^ok" "2 ms more per main-thread monitor wait: exit 3 naming monitor blocking and its holder in 80 % of 20: ${out%%
*}"
out=$(python3 "$R" --target 80 "$BIN" 6 ab 20 "$T/aa" "$T/hold" monitor "held by ${HOLD%(}")
like "$out" "^ok" "${HOLD%(} 1.5x slower holding the main thread's locks: exit 3 naming monitor blocking held by it in 80 % of 20: ${out%%
*}"

# The checks fail when they should: same-build heads are never detected,
# and a gate without error control (every metric at its own p < 0.3, no
# threshold) fails same-build comparisons.
out=$(python3 "$R" "$BIN" 4 ab 10 "$T/aa" "$T/aa")
like "$out" "^FAIL detected 0/10" "the detection check fails on same-build heads"
out=$(python3 "$R" --args "--alpha 0.3 --max-regress 0% --noise-floor 0ns --noise-floor 0B" "$BIN" 5 aa 20 "$T/aa")
like "$out" "^FAIL false alarms" "the false-alarm check fails on a gate without thresholds at alpha 0.3"

# compare --calibrate on the same-build pool: 50 A/A splits in process,
# the false-alarm rate with its bound, each gated metric's smallest
# detectable change, smaller with more runs and never under its threshold.
"$BIN" compare -q --calibrate "$T"/aa/*.json --splits 50 -o "$T/cal.json"
is "$?" 0 "--calibrate: exit 0"
is "$(python3 - "$T/cal.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
if (d["pool"], d["per_side"], d["splits"], d["n"]) != (40, 5, 50, [3, 5, 10, 20]):
    bad.append("sizes")
if d["alarms"] > 2 or not 0 < d["t_crit"] < 20 or not d["rate"] <= d["upper95"] <= 1:
    bad.append(("rate", d["alarms"], d["t_crit"], d["upper95"]))
names = {m["name"] for m in d["metrics"]}
if not {"startup.ttid_ns", "startup.main.cpu_ns", "thread.main.msgs.wall_ns"} <= names:
    bad.append("the start's and the messages' measures")
for m in d["metrics"]:
    c = m["smallest_change"]
    if c[0] is not None:   # 3 + 3 runs cannot reach p < 0.01 (issue 35 item 2): no change listed
        bad.append(("N=3", m["name"]))
    c = c[1:]
    if any(b > a * (1 + 1e-9) for a, b in zip(c, c[1:])) or c[-1] < m["threshold"] * (1 - 1e-9):
        bad.append(m["name"])
print(bad[:3] or "ok")
PY
)" ok "--calibrate: 40 runs, 50 splits, few alarms; none catchable with 3 a side; every metric's smallest change shrinks with N from 5, above its threshold"
like "$("$BIN" compare -q --calibrate "$T"/aa/*.json --splits 20)" \
	"^btrace-analyze compare --calibrate: [01] of 20 A/A comparisons \\(5 \\+ 5 runs drawn from 40 of one build\\) would fail the gate" \
	"--calibrate: the text's first line"
like "$("$BIN" compare -q --calibrate "$T"/aa/*.json --splits 20)" \
	"N=3: —, no change can be caught: the smallest p of 3 \\+ 3 runs is 0.05, not below alpha 0.01" \
	"--calibrate: the text says 3 a side can catch nothing"
"$BIN" compare -q --calibrate "$T"/aa/*.json --splits 20 --alpha 0.3 --max-regress 0% --noise-floor 0ns \
	--noise-floor 0B -o "$T/loose.json"
is "$(python3 -c 'import json, sys; print(0.1 <= json.load(open(sys.argv[1]))["rate"] <= 0.5)' "$T/loose.json")" True \
	"--calibrate: without thresholds at alpha 0.3, about 30 % of A/A splits fail: the family holds alpha, no more"
"$BIN" compare -q --calibrate "$T"/aa/r1.json "$T"/aa/r2.json "$T"/aa/r3.json --runs 2 >/dev/null 2>"$T/err"
is "$?" 2 "--calibrate: 3 runs cannot make 2 + 2 (exit 2)"
like "$(cat "$T/err")" "needs 2 x 2 runs at least \\(3 given\\)" "... and says how many it needs"
"$BIN" compare -q --calibrate "$T"/aa/r1.json --base "$T"/aa/r2.json >/dev/null 2>&1
is "$?" 2 "--calibrate with --base: usage error"
