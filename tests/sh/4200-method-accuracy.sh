#!/bin/sh
# Per-method accuracy of the attribution (the methods table) against the
# writer's truth. Allocations: where every allocation is recorded (fixture
# allocs, mkdump --alloc-records all), self and inclusive bytes and objects
# equal the truth exactly (tests/fixtures/check_method_alloc.py). The check
# is also shown to fail on a wrong input.
. tests/lib.sh
A=$ROOT/tests/fixtures/check_method_alloc.py

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
