#!/bin/sh
# runs.sh BIN MKDUMP OUTDIR (make runs): runs of two builds of one
# simulated app to try compare, batch and merge on, as a CI job would
# collect them (docs/compare.md, docs/fleet.md). The test dump writer
# (tests/fixtures/mkdump.c) simulates the app of --build-seed 23, a cold
# start and 3,000 records a run:
#   OUTDIR/dumps/base/01..10/  ten runs of the base build
#   OUTDIR/dumps/head/01..05/  five of the head build: Compressor.gzip
#                              with twice its self time, every main-thread monitor
#                              wait 5 ms longer
#   OUTDIR/base/NN.json, OUTDIR/head/NN.json  their JSON reports
# Ten base runs: what 'compare --calibrate' needs (two sides of five); five
# a side are the fewest a gate can decide on. Same tools, same bytes.
set -eu
[ $# -eq 3 ] || { echo "usage: runs.sh BIN MKDUMP OUTDIR" >&2; exit 2; }
bin=$1 mkdump=$2 out=$3
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/base" "$tmp/head"
run() {   # side n seed [options]: one run's dump and its report
	side=$1 n=$2 seed=$3
	shift 3
	"$mkdump" --build-seed 23 --records 3000 --seed "$seed" --startup cold --no-truth "$@" \
		"$tmp/dumps/$side/$n" >/dev/null
	"$bin" -q "$tmp/dumps/$side/$n" -o "$tmp/$side/$n.json"
}
for n in 01 02 03 04 05 06 07 08 09 10; do
	run base "$n" "${n#0}"
done
for n in 01 02 03 04 05; do
	run head "$n" $((10 + ${n#0})) --slow-method 'Compressor.gzip(:100' --lock-add 5
done
cat >"$tmp/README.txt" <<'TXT'
Made by 'make runs' (examples/runs.sh): ten runs of a base build of the
simulated app (dumps/base/NN/, reports base/NN.json) and five of a head
build whose Compressor.gzip takes twice its self time and whose main-thread
monitor waits are 5 ms longer (dumps/head/NN/, head/NN.json).
TXT
rm -rf "$out"
mv "$tmp" "$out"
