#!/bin/sh
# perf-gate.sh BASE_DIR HEAD_DIR OUT_DIR: the CI step of a startup
# regression gate. BASE_DIR and HEAD_DIR hold one sub-directory per run
# (sampling.bin and its mapping, as pulled from the device). Each run is
# analysed with examples/startup.lua into OUT_DIR/{base,head}/RUN.json,
# then compare judges them with gates.lua and writes OUT_DIR/compare.md
# (for the pull-request comment), compare.json and compare.txt.
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
		"$bin" analyze -q "$run" --rules "$rules" -o "$out/$side/$name.json"
	done
done
status=0
"$bin" compare --base "$out"/base/*.json --head "$out"/head/*.json \
	--rules "$here/gates.lua" -o "$out/compare.json" || status=$?
[ "$status" -le 3 ] && [ "$status" -ne 1 ] && [ "$status" -ne 2 ] || exit "$status"
"$bin" compare --base "$out"/base/*.json --head "$out"/head/*.json \
	--rules "$here/gates.lua" -o "$out/compare.md" || true
"$bin" compare --base "$out"/base/*.json --head "$out"/head/*.json \
	--rules "$here/gates.lua" -o "$out/compare.txt" || true
head -1 "$out/compare.txt"
exit "$status"
