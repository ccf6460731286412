#!/bin/sh
# Copies of one trace in different shards (issue 34, item 12): the shards
# hashed the paths, so copies fell in different shards, each analysed once
# per shard and every copy reported ok. Shards now hash the file's size and
# first 64 KiB: every copy lands in the first's shard, which analyses it
# once and reports the others as duplicates of it, as one batch does.
. tests/lib.sh

in=$T/in
mkdir -p "$in/a"
"$MKDUMP" --records 800 --seed 3 --no-truth "$in/a/d" >/dev/null
for i in 1 2 3 4 5 6 7 8; do
	mkdir -p "$in/c$i"
	cp "$in/a/d/sampling.bin" "$in/c$i/copy.bin"
done
"$MKDUMP" --records 800 --seed 4 --no-truth "$in/b" >/dev/null   # another trace
for i in 0 1 2; do
	"$BIN" batch -q "$in" -o "$T/s" --shard $i/3 -j 1
	cat "$T/s/manifest-$i-of-3.jsonl" >>"$T/all.jsonl"
done
q='[x for x in l if x["path"].endswith("copy.bin") or x["path"].endswith("a/d/sampling.bin")]'
is "$(man "$T/all.jsonl" "len($q)")" 9 "the nine copies are each in one shard"
is "$(man "$T/all.jsonl" "sorted(x['status'] for x in $q)")" \
	"['ok', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']" \
	"one analysed, eight skipped"
is "$(man "$T/all.jsonl" "sorted(set(x['error'] for x in $q if x['status'] == 'skipped'))")" \
	"[\"same content as '$in/a/d/sampling.bin'\"]" "each a duplicate of the first by path"
is "$(man "$T/all.jsonl" 'sum(x["status"] == "ok" for x in l)')" 2 "two traces analysed in all"
is "$(ls "$T/s/reports" | wc -l)" 2 "two reports"
