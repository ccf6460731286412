#!/bin/sh
# Fleet comparison's error rates and cost (BENCHMARKS.md, "Fleet
# comparison"): two pools of N simulated traces (mkdump --build-seed 23, a
# cold start, 6,000 records, each trace on a device of its own speed,
# log-normal sigma 0.25), the second with Compressor.gzip 40 ms slower in
# the start (tests/sh/8070's truth), then
#   - false alarms: compare --calibrate of the unchanged pool, SPLITS A/A
#     splits of K + K traces;
#   - detection: DRAWS comparisons of K random unchanged traces against K
#     random slowed ones, each a real `compare DIR_A DIR_B`: exit 3, and
#     the headline names the method;
#   - cost: compare of the two whole pools (folders), and of their fleet
#     summaries (mkfleet.py), also scaled to 10,000 traces a side.
# usage: sh tests/bench-fleet-compare.sh [OUTDIR] (default /tmp/bench-fleetcmp);
# N, K, DRAWS, SPLITS from the environment (200, 30, 20, 200).
set -e
B=${B:-build}
BIN=$B/btrace-analyze
MKDUMP=$B/tests/mkdump
OUT=${1:-/tmp/bench-fleetcmp}
N=${N:-200} K=${K:-30} DRAWS=${DRAWS:-20} SPLITS=${SPLITS:-200}
M='Compressor.gzip('
mkdir -p "$OUT"
pool() {   # dir first-seed [mkdump options]
	_d=$1 _s=$2
	shift 2
	mkdir -p "$_d"
	python3 -c "import random
for s in range($_s, $_s + $N):
    print(s, round(min(3, max(0.4, random.Random(s).lognormvariate(0, 0.25))), 4))" |
	while read -r s f; do
		[ -e "$_d/t$s.json" ] && continue
		"$MKDUMP" --build-seed 23 --seed "$s" --startup cold --records 6000 --no-truth --device "$f" \
			"$@" "$OUT/dump" >/dev/null && "$BIN" -q "$OUT/dump" -o "$_d/t$s.json"
	done
}
"$MKDUMP" --build-seed 23 --seed 1 --startup cold --records 6000 "$OUT/t0" >/dev/null
S=$(python3 tests/fixtures/check_runs.py startup-self "$OUT/t0" "$M")
PCT=$(python3 -c "print(round(4000 / $S, 1))")
pool "$OUT/base" 10000
pool "$OUT/slow" 20000 --slow-method "$M:$PCT"

"$BIN" compare -q --calibrate "$OUT/base" --runs "$K" --splits "$SPLITS" -o "$OUT/cal.json"
python3 -c "import json; d = json.load(open('$OUT/cal.json'))
print('false alarms: %d of %d A/A splits of %d + %d (rate %.3f, 95 %% upper %.3f)' %
      (d['alarms'], d['splits'], d['per_side'], d['per_side'], d['rate'], d['upper95']))"

hit=0 named=0 i=0
while [ $i -lt "$DRAWS" ]; do
	rm -rf "$OUT/d"
	mkdir -p "$OUT/d/a" "$OUT/d/b"
	python3 -c "import os, random, sys
r = random.Random($i)
for side, src in (('a', 'base'), ('b', 'slow')):
    for f in r.sample(sorted(os.listdir('$OUT/' + src)), $K):
        os.symlink(os.path.abspath('$OUT/%s/%s' % (src, f)), '$OUT/d/%s/%s' % (side, f))"
	rc=0
	"$BIN" compare -q "$OUT/d/a" "$OUT/d/b" -o "$OUT/d.json" 2>/dev/null || rc=$?
	[ $rc -eq 3 ] && hit=$((hit + 1))
	python3 -c "import json, sys; sys.exit('Compressor.gzip' not in json.load(open('$OUT/d.json'))['headline'])" &&
		named=$((named + 1))
	i=$((i + 1))
done
echo "detection: exit 3 in $hit of $DRAWS comparisons of $K + $K traces (M 40 ms slower); headline names M in $named"

/usr/bin/time -f "folders $N + $N: %e s, %M KB" "$BIN" compare -q "$OUT/base" "$OUT/slow" -o "$OUT/all.json" || true
python3 tests/fixtures/mkfleet.py "$OUT/base" "$OUT/base.fleet.json"
python3 tests/fixtures/mkfleet.py "$OUT/slow" "$OUT/slow.fleet.json"
/usr/bin/time -f "summaries $N + $N: %e s, %M KB" "$BIN" compare -q "$OUT/base.fleet.json" "$OUT/slow.fleet.json" \
	-o "$OUT/sum.json" || true
for f in base slow; do
	python3 - "$OUT/$f.fleet.json" "$OUT/$f.big.json" <<'PY'
import json, sys   # every trace 10000 / N times
d = json.load(open(sys.argv[1]))
k = 10000 // d["all"]["traces"]
def scale(x):
    if isinstance(x, dict):
        for key, v in x.items():
            if key == "buckets":
                for b in v:
                    b[1] *= k
            elif key in ("n", "zeros", "traces", "sum"):
                x[key] = v * k
            else:
                scale(v)
scale(d["all"])
json.dump(d, open(sys.argv[2], "w"), sort_keys=True)
PY
done
/usr/bin/time -f "summaries of 10,000 + 10,000 traces (2,000 runs a side): %e s, %M KB" "$BIN" compare -q \
	"$OUT/base.big.json" "$OUT/slow.big.json" -o "$OUT/big.json" -o "$OUT/big.xlsx" || true
python3 -c "import json
for f in ('all', 'sum', 'big'):
    d = json.load(open('$OUT/%s.json' % f))
    print(f, d['counts']['regressed'], 'regressed;', d['headline'][:150])"
