#!/bin/sh
# Per-method accuracy of the attribution (the methods table) against the
# writer's truth. Allocations: where every allocation is recorded (fixture
# allocs, mkdump --alloc-records all), self and inclusive bytes and objects
# equal the truth exactly (tests/fixtures/check_method_alloc.py). Wall and
# CPU time: methods are exactly what the slices add up to, recursion
# counted once (check_method_slices.py), so scoring them against the truth
# (score_slices.py --methods) gives the slices' errors, and over seeds
# 11-15 their medians stay within docs/slices.md's figures for the default
# (idle) policy. Each check
# is also shown to fail on a wrong input.
. tests/lib.sh
A=$ROOT/tests/fixtures/check_method_alloc.py
M=$ROOT/tests/fixtures/check_method_slices.py
S=$ROOT/tests/fixtures/score_slices.py

is "$(python3 "$A" "$FIX/allocs" "$BIN")" ok "allocs: methods' allocated bytes and objects equal the truth exactly"
"$BIN" -q "$FIX/allocs" -o "$T/allocs.json"
is "$(python3 tests/fixtures/check_attribution.py "$T/allocs.json" "$FIX/allocs" "$BIN")" ok \
	"allocs: thread totals match the truth and reconcile"
# A default-mode dump (allocations fall between rate-limited records) with
# an empty allocation list: the comparison must fail.
mkdir -p "$T/sampled/truth"
cp "$FIX/small/sampling.bin" "$FIX/small/sampling-mapping.bin" "$T/sampled/"
cp "$FIX/small/truth/"*.tsv "$T/sampled/truth/"
head -1 "$FIX/allocs/truth/allocs.tsv" >"$T/sampled/truth/allocs.tsv"
like "$(python3 "$A" "$T/sampled" "$BIN")" "^[1-9][0-9]* of [0-9]+ methods mismatch \\([1-9]" \
	"the allocation check fails on a sampled dump"

for f in small seed2 seed3 allocs; do
	for pol in idle midpoint btrace; do
		"$BIN" import -q "$FIX/$f" --slice-policy "$pol" -o "$T/$f-$pol.db"
		is "$(python3 "$M" "$T/$f-$pol.db")" ok "$f ($pol): methods are exactly what the slices add up to"
	done
	python3 "$S" "$FIX/$f" "$T/$f-midpoint.db" >"$T/$f.slices"
	python3 "$S" "$FIX/$f" "$T/$f-midpoint.db" --methods >"$T/$f.methods"
	check "$f: methods score against the truth as the slices do" cmp "$T/$f.slices" "$T/$f.methods"
done
sql() {   # db statement: change a copy of a trace database
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' "$1" "$2"
}
cp "$T/seed2-midpoint.db" "$T/off1.db"
sql "$T/off1.db" "UPDATE methods SET incl_cpu_ns = incl_cpu_ns + 1 WHERE (tid, frame_id) =
	(SELECT tid, frame_id FROM methods ORDER BY incl_cpu_ns DESC LIMIT 1)"
like "$(python3 "$M" "$T/off1.db")" "^1 of [0-9]+ methods mismatch$" "a method 1 ns off its slices is caught"
cp "$T/seed2-midpoint.db" "$T/double.db"
sql "$T/double.db" "UPDATE methods SET incl_ns = 2 * incl_ns"
python3 "$S" "$FIX/seed2" "$T/double.db" --methods >"$T/double.methods"
check "scoring methods reads the methods table" sh -c "! cmp -s '$T/seed2.slices' '$T/double.methods'"

# docs/slices.md: "relative error, median over seeds 11-15 (5,000 records each)".
bounds=$(sed -n 's/^| `idle` (default) | \*\*\([0-9.]*\) %\*\* | \*\*\([0-9.]*\) %\*\* | \*\*\([0-9.]*\) %\*\* | \*\*\([0-9.]*\) %\*\* |$/\1 \2 \3 \4/p' docs/slices.md)
like "$bounds" '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' "docs/slices.md quotes the default policy's errors"
for s in 11 12 13 14 15; do
	"$MKDUMP" --records 5000 --seed "$s" "$T/s$s" >/dev/null
	"$BIN" import -q "$T/s$s" -o "$T/s$s.db"
	python3 "$S" "$T/s$s" "$T/s$s.db" --methods >"$T/s$s.score"
done
i=0
for key in wall.mean wall.p90 cpu.mean cpu.p90; do
	i=$((i + 1))
	want=$(echo "$bounds" | cut -d' ' -f"$i")
	got=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$T"/s1[1-5].score | sort -n | sed -n 3p)
	check "methods: median $key over seeds 11-15 ($got) within docs/slices.md's $want %" \
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && sprintf("%.1f", 100 * g) + 0 <= w + 0) }'
done
