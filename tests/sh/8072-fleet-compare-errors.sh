#!/bin/sh
# compare of fleet summaries names the file that is wrong (issue 34, item
# 12): a summary whose bucket's value is past a double (its index far out,
# no min or max to clamp it) read before as "non-finite value in 'head'
# sample at index 0", with no file; with one trace a side it even compared
# as "+inf s". Now: exit 1, the file and the measure.
. tests/lib.sh

for s in 1 2; do
	"$MKDUMP" --seed $s --records 3000 --no-truth "$T/d$s" >/dev/null
	"$BIN" -q "$T/d$s" -o "$T/r$s.json"
done
"$BIN" merge -q "$T/r1.json" "$T/r2.json" -o "$T/ok.json"
python3 - "$T/ok.json" "$T/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["all"]["values"]["main.blocked_ns"]
v.pop("min", None), v.pop("max", None)
v["buckets"] = [[999999, v["n"]]]
json.dump(d, open(sys.argv[2], "w"))
PY
for side in head base; do
	if [ $side = head ]; then set -- "$T/ok.json" "$T/bad.json"; else set -- "$T/bad.json" "$T/ok.json"; fi
	out=$("$BIN" compare -q "$@" 2>&1 >/dev/null)
	is "$?" 1 "a summary with a bucket past a double as $side: exit 1"
	is "$out" "btrace-analyze: error: '$T/bad.json': the value of measure 'thread.main.blocked_ns' in bucket 999999 is out of range (inf)" \
		"$side: the message names the file, the measure and the bucket"
done
"$BIN" merge -q "$T/r1.json" -o "$T/one.json"
python3 - "$T/one.json" "$T/bad1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v = d["all"]["values"]["main.blocked_ns"]
v.pop("min", None), v.pop("max", None)
v["buckets"] = [[999999, 1]]
json.dump(d, open(sys.argv[2], "w"))
PY
out=$("$BIN" compare -q "$T/one.json" "$T/bad1.json" 2>&1 >/dev/null)
is "$?:$out" "1:btrace-analyze: error: '$T/bad1.json': the value of measure 'thread.main.blocked_ns' in bucket 999999 is out of range (inf)" \
	"one trace a side: refused too, not compared as +inf"
