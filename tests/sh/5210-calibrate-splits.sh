#!/bin/sh
# compare --calibrate with many splits (issue 34, item 12): each A/A split is
# a whole compare, and --splits 100000 ran for minutes with nothing on the
# terminal. Now --splits is bounded (10,000: exit 2 past it, saying why,
# before any run is read) and on a terminal a line counts the splits done.
. tests/lib.sh

python3 - "$T" <<'PY'
import random, sys
random.seed(1)
for r in range(20):
    with open("%s/r%02d.json" % (sys.argv[1], r), "w") as f:
        f.write('{"schema":"btrace-analyze/report@1","metrics":{')
        f.write(",".join('"startup.main.method.m%d.self_ns":%d' % (i, random.randint(10**6, 2 * 10**6))
                         for i in range(500)))
        f.write("}}")
PY
out=$(timeout 20 "$BIN" compare --calibrate "$T"/r*.json --splits 100000 -o "$T/c.json" 2>&1)
is "$?" 2 "--splits 100000: exit 2 at once"
like "$out" "error: --splits wants at most 10000 A/A comparisons, not '100000': each is a whole compare" \
	"the message gives the bound and why"
is "$(ls "$T"/c.json 2>/dev/null)" "" "no output"

pty() { script -qec "$1" /dev/null | tr '\r' '\n'; }
# 20 splits: the line shows once a phase has run 0.5 s, and 8 (0.7 s here
# now) came near that on a fast run
out=$(pty "'$BIN' compare --calibrate '$T'/r*.json --runs 10 --splits 20 -o '$T/c.json'")
like "$out" "comparing A/A splits: +[0-9]+%, [0-9]+ of 20 splits" "on a terminal: the splits done, of how many"
is "$(jq_ "$T/c.json" 'd["splits"]')" 20 "... and the calibration is written"
out=$(pty "'$BIN' compare -q --calibrate '$T'/r*.json --runs 10 --splits 20 -o '$T/c2.json'")
unlike "$out" "splits" "-q: no line"
