#!/bin/sh
# compare's memory follows its input, not its widest run (issue 34, item
# 11): one report of N gated method metrics (startup.main.method.*) beside
# 300 reports of one metric each. Before, every gated metric every run
# "has" (a method a report lacks reads 0) went into the family as a dense
# row of every run's value: N x 301 doubles (2.4 GB for N = 1M) and each
# relabeling cost N x 150 (minutes). Now the family keeps each metric's
# values in the runs that have it, and leaves out a metric no relabeling
# can move (its medians are 0 on both sides however the runs are dealt).
# N is 200k, about 4 s (1M takes 28 s and 934 MB: BENCHMARKS.md); the
# address-space limit of 450 MB is what the old code's matrix alone
# (200k x 301 doubles, 482 MB) overran.
. tests/lib.sh

n=200000
sanitized && n=50000   # ASan: the same path, at a quarter of the size
python3 - "$T" "$n" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
with open(d + "/big.json", "w") as f:
    f.write('{"schema":"btrace-analyze/report@1","metrics":{"startup.ttid_ns":1000000000,')
    f.write(",".join('"startup.main.method.m%d.self_ns":%d' % (i, i + 1) for i in range(n)))
    f.write("}}")
for i in range(300):
    with open("%s/t%d.json" % (d, i), "w") as f:
        # the start's time: noise on both sides (i * 7919 mod 1000 ms)
        f.write('{"schema":"btrace-analyze/report@1","metrics":{"startup.ttid_ns":%d}}'
                % (10**9 + (i * 7919 % 1000) * 10**6))
PY
runs() {   # first count: t<first>.json .. t<first + count - 1>.json
	i=$1
	while [ "$i" -lt $(($1 + $2)) ]; do printf 't%d.json ' "$i"; i=$((i + 1)); done
}
base="big.json $(runs 0 150)"
head=$(runs 150 150)

# Under an address-space limit (none under a sanitizer: ASan reserves
# terabytes), with its peak RSS beside that of the same report with 2 + 2
# runs: the 300 small runs add little (before: $n x 301 doubles more).
lim="prlimit --as=$((450 << 20))"
sanitized && lim=
# shellcheck disable=SC2086
many=$(cd "$T" && ulimit -c 0 && peak $lim "$BIN" compare --base $base --head $head -o many.txt)
is "$(test -s "$T/many.txt" && echo yes)" yes "1 + 300 runs of $n metrics${lim:+ in 450 MB of address space}"
# shellcheck disable=SC2086
few=$(cd "$T" && peak "$BIN" compare --base big.json t0.json --head t150.json t151.json -o few.txt)
rss_bound "$((many - few))" 60000 "300 small runs beside $n metrics add under 60 MB ($((many - few)) KB)"

# The verdicts: nothing moved; the start's time is tested in the family-wise
# sense of its own family (the method metrics, in one run of 301, cannot move).
is "$(sed -n 1p "$T/many.txt")" \
	"btrace-analyze compare: unchanged: none of $((n + 1)) gated metrics moved beyond its threshold; $n shown within it (equivalence at alpha 0.01)" \
	"the headline: $((n + 1)) gated metrics, none moved, the methods' shown within (their values 0 in nearly every run)"
like "$(cat "$T/many.txt")" "The 1 gated metrics every run has and whose medians can move are one family" \
	"the family: the start's time alone"
like "$(grep '^unchanged  startup.main.method.m7.self_ns ' "$T/many.txt")" "within the threshold" \
	"a method of the big report is reported, unchanged"
