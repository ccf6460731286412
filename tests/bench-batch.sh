#!/bin/sh
# batch's throughput (issue 23): N dumps of R records (default 200 of 20k,
# generated once into DIR, default /tmp/bench-batch), analysed with
# --jobs 1 and --jobs 2 in turn, RUNS times each (fresh OUTDIRs); prints
# each run's wall time with the load average before it, the median
# throughput ratio, the workers' peak RSS (median, max), and a rerun with
# everything done (the batch's own walk, probes, hashes and manifest:
# its wall and peak RSS). Not a test: figures for BENCHMARKS.md ("Fleet
# batch").
#   sh tests/bench-batch.sh [DIR]
set -eu
B=${B:-build}
BIN=$(pwd)/$B/btrace-analyze
N=${N:-200}
R=${R:-20000}
RUNS=${RUNS:-3}
dir=${1:-/tmp/bench-batch}
mkdir -p "$dir/dumps"
i=1
while [ $i -le "$N" ]; do
	d=$dir/dumps/d$(printf %04d $i)
	[ -f "$d/sampling.bin" ] || "$B/tests/mkdump" --records "$R" --seed $i --no-truth "$d" >/dev/null
	i=$((i + 1))
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >"$dir/walls"
run=1
while [ $run -le "$RUNS" ]; do
	for j in 1 2; do
		rm -rf "$dir/out$j"
		load=$(cut -d' ' -f1 /proc/loadavg)
		t=$( { /usr/bin/time -f '%e %U %S' "$BIN" batch -q "$dir/dumps" -o "$dir/out$j" --jobs $j; } 2>&1)
		echo "run $run --jobs $j: $(echo "$t" | cut -d' ' -f1) s wall, $(echo "$t" | awk '{ print $2 + $3 }') s CPU (load before: $load)"
		echo "$j $(echo "$t" | cut -d' ' -f1)" >>"$dir/walls"
	done
	run=$((run + 1))
done
w1=$(awk '$1 == 1 { print $2 }' "$dir/walls" | median)
w2=$(awk '$1 == 2 { print $2 }' "$dir/walls" | median)
echo "median wall: --jobs 1 $w1 s, --jobs 2 $w2 s; throughput ratio $(echo "$w1 $w2" | awk '{ printf "%.2f", $1 / $2 }')"
t=$( { /usr/bin/time -f '%e %M' "$BIN" batch -q "$dir/dumps" -o "$dir/out2"; } 2>&1)
echo "rerun, all done: $(echo "$t" | cut -d' ' -f1) s wall, $(echo "$t" | cut -d' ' -f2) KB peak RSS (the batch alone)"
python3 - "$dir/out2/manifest.jsonl" <<'PY'
import json, statistics, sys
l = [json.loads(x) for x in open(sys.argv[1])]
ok = [x for x in l if x["status"] == "ok"]
rss = [x["peak_rss_kb"] for x in ok]
sec = [x["seconds"] for x in ok]
print(f"{len(ok)} traces ok; worker peak RSS median {statistics.median(rss):.0f} KB, max {max(rss)} KB; "
      f"worker seconds median {statistics.median(sec):.3f}, sum {sum(sec):.1f}")
PY
