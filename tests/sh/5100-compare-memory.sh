#!/bin/sh
# compare's memory follows its input (DESIGN §11): one report of 100k
# metrics with 300 tiny ones (3 metrics each, one shared with the big one)
# takes about what the big one with one tiny one takes, since a run's
# values are kept in proportion to its own metrics, not to all the runs'
# names (before: 300 arrays of 128k values, 300 MB more). Peak RSS by
# /usr/bin/time -v; the result is the same as with the values all dense.
. tests/lib.sh

python3 - "$T" <<'PY'
import json, sys
d = sys.argv[1]
with open(d + "/big.json", "w") as f:
    f.write('{"schema":"btrace-analyze/report@1","metrics":{')
    f.write(",".join('"method.m%d.wall_ns":%d' % (i, i) for i in range(100000)))
    f.write("}}")
for i in range(300):
    with open("%s/t%d.json" % (d, i), "w") as f:
        json.dump({"schema": "btrace-analyze/report@1",
                   "metrics": {"process.cpu_ns": 1000 + i, "tiny.%d" % i: i, "method.m99999.wall_ns": 5 + i % 7}}, f)
PY

base=$(cd "$T" && ls t*.json | sort -t t -k 2 -n | head -150 | tr '\n' ' ')
head=$(cd "$T" && ls t*.json | sort -t t -k 2 -n | tail -150 | tr '\n' ' ')
# shellcheck disable=SC2086
many=$(cd "$T" && peak "$BIN" compare --base big.json $base --head $head -o many.json)
one=$(cd "$T" && peak "$BIN" compare --base big.json t0.json --head t1.json -o one.json)
is "$(test -s "$T/many.json" && test -s "$T/one.json" && echo yes)" yes "both compares ran"
rss_bound "$((many - one))" 30000 "300 tiny runs add under 100 KB each ($((many - one)) KB in all)"
is "$(python3 -c 'import json, sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
c, t = m["process.cpu_ns"], m["tiny.200"]
print(c["base"]["n"], c["base"]["values"][:2], c["head"]["n"], c["head"]["values"][-1], t["head"]["values"], t["base"]["n"])' "$T/many.json")" \
	"150 [1000, 1001] 150 1299 [200] 0" "every run's values are found, dense or not"
