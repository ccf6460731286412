#!/bin/sh
# perf-gate.sh BASE_DIR HEAD_DIR OUT_DIR: the CI step of a startup
# regression gate. BASE_DIR and HEAD_DIR hold one sub-directory per run
# (sampling.bin and its mapping, as pulled from the device). Each run is
# analysed with examples/startup.lua into OUT_DIR/{base,head}/RUN.json,
# then one compare judges them with gates.lua and writes OUT_DIR/compare.md
# (for the pull-request comment, under GitHub's size limit), compare.json,
# compare.txt, compare.xlsx (a chart per regressed metric) and diff.html
# (the differential flame graph). Five runs a side at least: fewer cannot
# reach the gate's family-wise p < 0.01.
# Exit status: compare's (0 pass, 3 regression, 1 bad input, 2 usage).
set -eu
[ $# -eq 3 ] || { echo "usage: perf-gate.sh BASE_DIR HEAD_DIR OUT_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
bin=${BTRACE_ANALYZE:-btrace-analyze}
rules=${STARTUP_RULES:-$here/../startup.lua}
base=$1 head=$2 out=$3
mkdir -p "$out/base" "$out/head"
for side in base head; do
	eval "dir=\$$side"
	for run in "$dir"/*/; do
		name=$(basename "$run")
		# call paths down to 0.1 % of the main thread: diff.html shows
		# methods whose time is spread over many small paths
		"$bin" analyze -q "$run" --rules "$rules" --set attribution.tree_min_pct=0.1 \
			-o "$out/$side/$name.json"
	done
done
status=0
"$bin" compare --base "$out"/base/*.json --head "$out"/head/*.json --rules "$here/gates.lua" \
	-o "$out/compare.json" -o "$out/compare.md" -o "$out/compare.txt" -o "$out/compare.xlsx" \
	-o "$out/diff.html" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || exit "$status"
head -1 "$out/compare.txt"
exit "$status"
