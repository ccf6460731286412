#!/bin/sh
# batch (issue 23): every trace under a directory analysed by workers;
# each report is the one 'analyze --format json' writes; a broken dump is
# recorded with its error line and the batch goes on (exit 4); sidecars
# and other files are skipped and counted; a rerun resumes (done ones are
# not analysed again, failed ones only with --retry-failed); shards
# partition the files; the manifest is JSON Lines, one line per file.
. tests/lib.sh

in=$T/in
mkdir -p "$in/a" "$in/b/c" "$in/.hidden"
for s in 1 2 3 4 5; do "$MKDUMP" --records 1500 --seed $s --no-truth "$in/a/d$s" >/dev/null; done
"$MKDUMP" --records 800 --seed 6 --no-truth "$in/b/c/d6" >/dev/null
"$MKDUMP" --records 100 --seed 13 --raw-version 9 --no-truth "$in/b/v9" >/dev/null   # unknown version
head -c 20 "$in/a/d1/sampling.bin" >"$in/b/cut.bin"                                 # header cut
cp "$in/a/d2/sampling.bin" "$in/b/same.bin"                                            # a duplicate
echo "notes" >"$in/b/README.txt"
cp "$in/a/d3/sampling.bin" "$in/.hidden/d3.bin"
out=$T/out

err=$("$BIN" batch "$in" -o "$out" -j 2 2>&1 >/dev/null)
is "$?" 4 "some traces failed: exit 4"
m=$out/manifest.jsonl
is "$(man "$m" 'len(l)')" "$(find "$in" -type f ! -path '*/.hidden/*' | wc -l)" "a manifest line per file found, hidden ones left out"
is "$(man "$m" '[x["path"] for x in l] == sorted(x["path"] for x in l)')" True "lines in path order"
is "$(man "$m" 'sorted(set(k for x in l for k in x))')" \
	"['error', 'exit', 'format', 'hash', 'path', 'peak_rss_kb', 'report', 'seconds', 'size', 'status']" \
	"every line has the same fields"
is "$(man "$m" 'sum(x["status"] == "ok" for x in l)')" 6 "six traces ok"
is "$(man "$m" '" ".join(x["path"].split("/")[-1] for x in l if x["status"] == "failed")')" "cut.bin sampling.bin" \
	"the cut dump and the unknown version failed"
want=$("$BIN" analyze -q "$in/b/cut.bin" 2>&1 | sed 's/^btrace-analyze: error: //')
is "$(man "$m" '[x["error"] for x in l if x["path"].endswith("cut.bin")][0]')" "$want" \
	"a failed trace's error is the line analyze gives"
is "$(man "$m" '[x["exit"] for x in l if x["path"].endswith("cut.bin")][0]')" 1 "... with the worker's exit status"
like "$(man "$m" '[x["error"] for x in l if x["path"].endswith("v9/sampling.bin")][0]')" \
	"unknown dump version 9 in '.*v9/sampling.bin' at offset 8" "the other's error names the offset"
is "$(man "$m" '[x["error"] for x in l if x["path"].endswith("same.bin")][0]')" "same content as '$in/a/d2/sampling.bin'" \
	"a duplicate is skipped, naming the first"
is "$(man "$m" 'sum(x["status"] == "skipped" and "sampling-mapping" in x["error"] for x in l)')" 7 \
	"the seven mappings are skipped, saying what they are"
like "$(man "$m" '[x["error"] for x in l if x["path"].endswith("README.txt")][0]')" "match no supported format" \
	"so is a file of no format"
like "$err" "batch: 8 traces: 6 ok, 2 failed; 9 other files skipped \\(7 beside a trace\\); 8 analysed in [0-9.]+ s" \
	"the summary line counts them"
like "$err" "error: 2 of 8 traces failed \\(see '.*manifest.jsonl'\\)" "and the error line says how many failed"
ok=1
for p in $(man "$m" '" ".join(x["path"] for x in l if x["status"] == "ok")'); do
	h=$(man "$m" "[x['hash'] for x in l if x['path'] == '$p'][0]")
	"$BIN" analyze -q --format json -o "$T/direct.json" "$p" && cmp -s "$T/direct.json" "$out/reports/$h.json" || ok=0
done
is "$ok" 1 "each report is analyze's JSON report of its trace"
is "$(ls "$out/reports" | wc -l)" 6 "one report per distinct trace, named by content"
is "$(ls "$out/logs" | wc -l)" 2 "a log per failed trace"
like "$(man "$m" 'min(x["peak_rss_kb"] for x in l if x["status"] == "ok")')" "^[0-9]{4,}$" "peak RSS of each worker recorded"
is "$(man "$m" 'all(x["seconds"] > 0 for x in l if x["status"] != "skipped")')" True "seconds of each worker recorded"
is "$(find "$out" -name '*tmp*' | wc -l)" 0 "no temporary left"

# resume
touch -d '2000-01-01' "$out"/reports/*.json
err=$("$BIN" batch "$in" -o "$out" 2>&1 >/dev/null)
is "$?" 4 "rerun: the failures stand"
like "$err" "6 ok, 2 failed \\(8 from an earlier run\\).*; 0 analysed" "rerun: nothing analysed again"
is "$(find "$out/reports" -type f -newermt '2001-01-01' | wc -l)" 0 "rerun: no report rewritten"
is "$(man "$m" '[x["exit"] for x in l if x["path"].endswith("cut.bin")][0]')" 1 "rerun: the failure's record kept"
rm "$out/reports/$(man "$m" '[x["hash"] for x in l if x["path"].endswith("d4/sampling.bin")][0]').json"
err=$("$BIN" batch "$in" -o "$out" 2>&1 >/dev/null)
like "$err" "; 1 analysed" "a report gone: that trace alone is analysed again"
err=$("$BIN" batch "$in" -o "$out" --retry-failed 2>&1 >/dev/null)
like "$err" "; 2 analysed" "--retry-failed: the failed ones run again"
rm -r "$in/b/v9" "$in/b/cut.bin"
"$BIN" batch -q "$in" -o "$out"
is "$?" 0 "without the broken dumps: exit 0"
is "$(man "$m" 'len(l)')" "$(find "$in" -type f ! -path '*/.hidden/*' | wc -l)" "the manifest is of this run's files"

# -o makes its missing parents, as mkdir -p
"$BIN" batch -q "$in/a/d1" -o "$T/deep/er/out"
is "$?:$(ls "$T/deep/er/out/reports" | wc -l)" "0:1" "-o a/b/c: its parents made, the report written"

# --db: each trace's database too, and a database is an input like any
"$BIN" batch -q "$in/a/d1" "$in/a/d2" -o "$T/db" --db
is "$?" 0 "--db"
is "$(man "$T/db/manifest.jsonl" '" ".join(str(x["db"]) for x in l if x["status"] == "ok")')" \
	"$(man "$T/db/manifest.jsonl" '" ".join("db/" + x["hash"] + ".db" for x in l if x["status"] == "ok")')" \
	"the manifest names each database"
is "$(q "$T/db/db/$(ls "$T/db/db" | head -1)" 'SELECT count(*) > 0 FROM slices')" 1 "a kept database has its slices"
rm "$T/db/db/$(ls "$T/db/db" | head -1)"
err=$("$BIN" batch "$in/a/d1" "$in/a/d2" -o "$T/db" --db 2>&1)
like "$err" "; 1 analysed" "a database gone: that trace is analysed again"
"$BIN" batch -q "$T/db/db" -o "$T/db2"
is "$(man "$T/db2/manifest.jsonl" '" ".join(x["format"] + ":" + x["status"] for x in l)')" \
	"trace-database:ok trace-database:ok" "trace databases are inputs too"

# shards: disjoint, and together the whole
full=$(man "$m" '" ".join(sorted(x["path"] for x in l))')
for i in 0 1 2; do
	"$BIN" batch -q "$in" -o "$T/s" --shard $i/3 -j 1
	man "$T/s/manifest-$i-of-3.jsonl" '"\n".join(x["path"] for x in l)' >>"$T/shards"
done
# (a shard may get no file: the shards hash the files' heads, few here)
is "$(sort "$T/shards" | sed '/^$/d' | tr '\n' ' ' | sed 's/ $//')" "$full" "the three shards' files are all the files"
is "$(sed '/^$/d' "$T/shards" | sort | uniq -d | wc -l)" 0 "and no file is in two shards"
is "$(ls "$T/s/reports" | sort | tr '\n' ' ')" "$(ls "$out/reports" | sort | tr '\n' ' ')" \
	"shards in one directory: the same reports as one batch"
"$BIN" batch -q "$in" -o "$T/s" --shard 3/3 2>/dev/null
is "$?" 2 "--shard 3/3: usage error"

# the output directory inside the input is not an input
"$BIN" batch -q "$in" -o "$in/out"
is "$?" 0 "OUTDIR inside an input"
is "$(man "$in/out/manifest.jsonl" 'sum("/out/" in x["path"] for x in l)')" 0 "... is not walked"
rm -r "$in/out"

# usage and the batch's own errors
"$BIN" batch "$in" 2>/dev/null
is "$?" 2 "no -o: usage error"
"$BIN" batch -o "$T/x" 2>/dev/null
is "$?" 2 "no input: usage error"
err=$("$BIN" batch "$T/nosuch" -o "$T/x" 2>&1)
is "$?" 1 "a missing input: exit 1"
like "$err" "cannot read '.*nosuch': No such file" "... naming it"
err=$("$BIN" batch "$in" -o "$T/x" --rules "$T/nosuch.lua" 2>&1)
is "$?" 1 "a missing rule file: exit 1 before any worker runs"
is "$(ls "$T/x/reports" 2>/dev/null | wc -l)" 0 "... and nothing analysed"
