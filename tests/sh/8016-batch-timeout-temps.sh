#!/bin/sh
# batch --timeout stops a worker with SIGTERM first (issue 34 item 8), so
# that it removes its temporaries as it goes (the database's PATH.tmp-PID,
# a scratch database in $TMPDIR); one that does not stop (SIGTERM ignored,
# as under a parent that ignores it) gets SIGKILL after a grace of 5 s and
# the batch removes its leftovers in OUTDIR, and in $TMPDIR (each worker's
# is a folder of the batch's, emptied after it ends). Nothing of either is left.
. tests/lib.sh
cp "$ROOT/tests/rules/hang.lua" "$T/"
"$MKDUMP" --records 300 --seed 7 --no-truth "$T/in/h" >/dev/null
mkdir -p "$T/tmp1" "$T/tmp2"
TMPDIR=$T/tmp1 "$BIN" batch -q "$T/in" -o "$T/o1" --db --timeout 1 --rules "$T/hang.lua" \
	--set lua.max_instructions=100000000000 --set lua.max_cpu_ms=600000 2>/dev/null
is "$?" 4 "--timeout: the hung trace fails, exit 4"
like "$(man "$T/o1/manifest.jsonl" '[x["error"] for x in l if x["status"] == "failed"][0]')" "^timed out: killed after [0-9]+ s$" \
	"its error says it timed out"
is "$(find "$T/o1" -name '*.tmp-*' | wc -l)/$(ls -A "$T/tmp1" | wc -l)" 0/0 \
	"told to stop (SIGTERM), the worker removed its temporaries: none in OUTDIR, none in TMPDIR"
# SIGTERM ignored from the start: the workers inherit it, and only SIGKILL
# stops them. While the worker runs, a file in its $TMPDIR stands for the
# scratch it would leave (a gzip'd iOS database inflated there: 1 GB).
(trap '' TERM; TMPDIR=$T/tmp2 exec "$BIN" batch -q "$T/in" -o "$T/o2" --db --timeout 1 --rules "$T/hang.lua" \
	--set lua.max_instructions=100000000000 --set lua.max_cpu_ms=600000 2>/dev/null) &
batch=$!
sleep 2
planted=0
for d in "$T"/tmp2/btrace-batch-*/w*; do
	[ -d "$d" ] && : >"$d/scratch-of-a-worker" && planted=$((planted + 1))
done
wait "$batch"
is "$?" 4 "a worker that ignores SIGTERM: killed after the grace, exit 4"
check "each worker's TMPDIR is a folder of the batch's ($planted planted a file)" test "$planted" -gt 0
like "$(man "$T/o2/manifest.jsonl" '[x["seconds"] for x in l if x["status"] == "failed"][0]')" "^[67]\\.[0-9]+$" \
	"... about 5 s after it was told to stop"
is "$(find "$T/o2" -name '*.tmp-*' | wc -l)" 0 "its leftovers in OUTDIR removed by the batch"
is "$(ls -A "$T/tmp2" | wc -l)" 0 "and its scratch in TMPDIR: the folder emptied after it ended, removed at the end"
