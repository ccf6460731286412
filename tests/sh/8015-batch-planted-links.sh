#!/bin/sh
# batch never writes through a link planted in its OUTDIR (issue 34 item 2):
# a symbolic link at OUT/db/HASH.db, OUT/reports/HASH.json,
# OUT/logs/HASH.log, or a dangling one at OUT/manifest.jsonl, is replaced
# by the batch's own file and its target left alone (the batch and its
# workers: fileio.h's bt_out_own); a folder of OUTDIR that is a link is
# refused. The hashes are the traces' own (a first batch says them). And
# (item 9) a resumed batch killed too leaves a manifest the next one reads.
. tests/lib.sh
in=$T/in
for s in 1 2; do "$MKDUMP" --records 1500 --seed $s --no-truth "$in/d$s" >/dev/null; done
mkdir -p "$in/bad"
head -c 20 "$in/d1/sampling.bin" >"$in/bad/sampling.bin"   # cut in its header: the worker fails
"$BIN" batch -q "$in" -o "$T/first" --db 2>/dev/null
ok=$(man "$T/first/manifest.jsonl" '" ".join(x["hash"] for x in l if x["status"] == "ok")')
bad=$(man "$T/first/manifest.jsonl" '" ".join(x["hash"] for x in l if x["status"] == "failed")')
check "a first batch: two traces analysed, one failed ($ok / $bad)" test -n "$ok" -a -n "$bad"

out=$T/out
mkdir -p "$out/db" "$out/reports" "$out/logs" "$T/victims"
n=0
for h in $ok; do
	n=$((n + 1))
	echo "victim db $n" >"$T/victims/db$n"
	echo "victim report $n" >"$T/victims/report$n"
	ln -s "$T/victims/db$n" "$out/db/$h.db"
	ln -s "$T/victims/report$n" "$out/reports/$h.json"
done
echo "victim log" >"$T/victims/log"
ln -s "$T/victims/log" "$out/logs/$bad.log"
ln -s "$T/victims/manifest" "$out/manifest.jsonl"   # dangling
"$BIN" batch -q "$in" -o "$out" --db 2>/dev/null
is "$?" 4 "the batch with planted links: exit 4 (one trace failed), as without them"
is "$(cat "$T/victims/db1" "$T/victims/db2" "$T/victims/report1" "$T/victims/report2" "$T/victims/log" | tr '\n' '|')" \
	"victim db 1|victim db 2|victim report 1|victim report 2|victim log|" "no link's target written"
check "the dangling manifest link's target never made" test ! -e "$T/victims/manifest"
links=$(find "$out" -type l | wc -l)
is "$links" 0 "every planted link replaced by the batch's own file"
is "$(man "$out/manifest.jsonl" 'sorted(x["status"] for x in l if x["hash"])')" "['failed', 'ok', 'ok']" \
	"the manifest is the batch's: the traces analysed (a link is no report done before)"
for h in $ok; do
	is "$("$BIN" query -q "$out/db/$h.db" "SELECT count(*) > 0 FROM samples" --format tsv | sed -n 2p)" 1 \
		"db/$h.db: the trace's database"
	like "$(head -c 200 "$out/reports/$h.json")" '"schema"' "reports/$h.json: its report"
done
like "$(cat "$out/logs/$bad.log")" "error" "logs/$bad.log: the failed worker's stderr"

mkdir -p "$T/o3" "$T/elsewhere"
ln -s "$T/elsewhere" "$T/o3/logs"
"$BIN" batch -q "$in" -o "$T/o3" 2>"$T/err"
is "$?" 2 "a folder of OUTDIR that is a link: refused, exit 2"
like "$(cat "$T/err")" "'.*o3/logs' is a symbolic link" "the error names it"
is "$(ls "$T/elsewhere" | wc -l)" 0 "nothing written where it points"

# item 9: a resumed batch appends its journal on a line of its own, and a
# line cut by a kill (or one an older run appended to) is skipped on load
cp "$ROOT/tests/rules/slow.lua" "$T/"
rm -rf "$in/bad"
"$MKDUMP" --records 1500 --seed 3 --no-truth "$in/d3" >/dev/null
j=$T/j
"$BIN" batch -q "$in" -o "$j" 2>/dev/null
head -c 150 "$j/manifest.jsonl" >"$T/cut"
cp "$T/cut" "$j/manifest.jsonl"   # killed while writing its first line
rm -f "$j"/reports/*.json
setsid "$BIN" batch -q "$in" -o "$j" -j 1 --rules "$T/slow.lua" --set lua.max_instructions=2000000000 --set lua.max_cpu_ms=600000 2>/dev/null &
pid=$!
for _ in $(seq 600); do
	[ "$(wc -l <"$j/manifest.jsonl")" -ge 2 ] && break
	sleep 0.05
done
kill -KILL -"$pid"
wait $pid 2>/dev/null
is "$(head -c 150 "$j/manifest.jsonl")" "$(cat "$T/cut")" "the resumed batch, killed too: the cut line kept"
is "$(sed -n 2p "$j/manifest.jsonl" | head -c 8)" '{"path":' "its own first line begins on a line of its own"
"$BIN" batch -q "$in" -o "$j" 2>"$T/err"
is "$?" 0 "the next batch loads the manifest (the cut line skipped) and finishes"
is "$(man "$j/manifest.jsonl" 'sum(x["status"] == "ok" for x in l)')" 3 "every trace analysed"
printf '%s%s\n' "$(cat "$T/cut")" "$(sed -n 1p "$T/first/manifest.jsonl")" >"$j/manifest.jsonl"   # an older run's
"$BIN" batch -q "$in" -o "$j" 2>"$T/err"
is "$?" 0 "a line a run appended to a cut one (before this fix): skipped, the batch runs"
