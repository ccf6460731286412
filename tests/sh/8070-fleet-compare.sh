#!/bin/sh
# Fleet comparison (issue 23): `compare DIR_A DIR_B` on two folders of
# JSON reports, one per trace, against a simulation with known truth.
# Every trace runs on a device of its own speed (mkdump --device F, F
# log-normal with sigma 0.25, drawn per trace: the fleet's per-device
# noise, 25 % on every duration) and its own run-to-run jitter.
#   - version B: one app method M (Compressor.gzip) got 40 ms slower on
#     the startup main thread (by the simulator's truth, at F = 1): the
#     comparison exits 3, its headline names M, M's self wall and self CPU
#     regressed, and the shift the traces show (M's self wall in B's
#     first 8 traces less in their twins without the slowdown: same seed,
#     same device) lies within the confidence interval of M's shift. The
#     sampled self time sees part of the 40 ms (the rest lands in the
#     callees sampled next to M's stretches), so that part is measured
#     and told, and must be at most the truth;
#   - version B': nothing changed (other seeds, other devices): exit 0,
#     no gated metric regressed;
#   - the false-alarm rate: 40 A/A splits (30 + 30 traces) of the 80
#     unchanged traces (compare --calibrate on the two folders) fail the
#     gate at most twice (alpha 0.01: P(3 or more) < 1 %).
# Fleet summaries (merge's fleet@1; tests/fixtures/mkfleet.py writes
# them from the same folders, after engine/fleet/README.md): `compare
# FLEET_A.json FLEET_B.json` names M too, with a shift within the sketch's
# 1 % of the folders' (per-trace) one, passes the unchanged pair, and
# says the family is Holm's; a summary of 10,000 traces is read as 2,000
# runs a side.
# Display frames: fleets of device-simulator traces whose head has a new
# lock wait in its frames regress a frame metric, named with its cause
# (folders), and a frame metric (fleet summaries).
# Also: a trace without an app start and a manifest in a folder are left
# out and told; every output format; usage errors.
. tests/lib.sh
M='Compressor.gzip('
N=40
fleet() {   # dir first-seed [mkdump options]: N reports, a device each
	_d=$1 _s=$2
	shift 2
	mkdir -p "$_d"
	python3 -c "import random, sys
for s in range($_s, $_s + $N):
    print(s, round(min(3, max(0.4, random.Random(s).lognormvariate(0, 0.25))), 4))" |
	while read -r s f; do
		"$MKDUMP" --build-seed 23 --seed "$s" --startup cold --records 6000 --no-truth --device "$f" \
			"$@" "$T/dump" >/dev/null && report "$T/dump" "$_d/t$s.json" || echo "fail $s"
	done
}
median_f() {   # first-seed: the median device factor of the N traces from it
	python3 -c "import random, statistics
print(statistics.median(min(3, max(0.4, random.Random(s).lognormvariate(0, 0.25))) for s in range($1, $1 + $N)))"
}

# The truth: M's main-thread self time in the start at F = 1, and the
# slowdown that adds 40 ms to it.
"$MKDUMP" --build-seed 23 --seed 1 --startup cold --records 6000 "$T/t0" >/dev/null
S=$(python3 "$ROOT/tests/fixtures/check_runs.py" startup-self "$T/t0" "$M")
PCT=$(python3 -c "print(round(4000 / $S, 1))")
"$MKDUMP" --build-seed 23 --seed 1 --startup cold --records 6000 --slow-method "$M:$PCT" "$T/t1" >/dev/null
S1=$(python3 "$ROOT/tests/fixtures/check_runs.py" startup-self "$T/t1" "$M")
is "$(python3 -c "print(abs($S1 - $S - 40) < 2)")" True \
	"truth: --slow-method '$M:$PCT' adds 40 ms to M's self time in the start ($S ms -> $S1 ms)"

is "$(fleet "$T/A" 1000; fleet "$T/B" 2000 --slow-method "$M:$PCT"; fleet "$T/A2" 3000)" "" \
	"three fleets of $N traces: A, B (M 40 ms slower), A2 (unchanged)"
mkdir -p "$T/twin"
python3 -c "import random
for s in range(2000, 2008):
    print(s, round(min(3, max(0.4, random.Random(s).lognormvariate(0, 0.25))), 4))" |
while read -r s f; do
	"$MKDUMP" --build-seed 23 --seed "$s" --startup cold --records 6000 --no-truth --device "$f" "$T/dump" \
		>/dev/null && report "$T/dump" "$T/twin/t$s.json"
done
SEEN=$(python3 -c "import json, statistics
k = 'startup.main.method.byte[] com.example.app.util.Compressor.gzip(byte[]).self_ns'
v = lambda p: json.load(open(p))['metrics'].get(k, 0)
print(statistics.median(v('$T/B/t%d.json' % s) - v('$T/twin/t%d.json' % s) for s in range(2000, 2008)))")
TRUTH=$(python3 -c "print(40e6 * $(median_f 2000))")

"$BIN" compare "$T/A" "$T/B" -o "$T/ab.json" -o "$T/ab.txt" -o "$T/ab.md" -o "$T/ab.html" -o "$T/ab.xlsx" \
	2>"$T/ab.err"
is "$?" 3 "M 40 ms slower: exit 3"
is "$(valid "$T/ab.json")" valid "... the JSON validates against the schema"
like "$(jq_ "$T/ab.json" 'd["headline"]')" "^regressed: Compressor\\.gzip " "... the headline names M"
is "$(jq_ "$T/ab.json" 'sorted(m["name"].rsplit(".", 1)[1] for m in d["metrics"]
  if m["verdict"] == "regressed" and "Compressor.gzip(" in m["name"])')" \
	"['self_cpu_ns', 'self_ns']" "... M's self wall and self CPU in the start regressed"
is "$(jq_ "$T/ab.json" '[m["name"] for m in d["metrics"] if m["verdict"] == "regressed"
  and ".method." in m["name"]][0].split(".method.")[1].split("(")[0].rsplit(".", 2)[-2:]')" \
	"['Compressor', 'gzip']" "... M's is the first regressed method metric (the largest move)"
is "$(jq_ "$T/ab.json" '[(m["test"]["shift"]["lo"] <= '"$SEEN"' <= m["test"]["shift"]["hi"])
  for m in d["metrics"] if m["name"].endswith("Compressor.gzip(byte[]).self_ns")]')" "[True]" \
	"... the shift the traces show ($(python3 -c "print(round($SEEN / 1e6, 1))") ms of M's self wall, paired) is within the CI of M's: $(jq_ "$T/ab.json" '[
  "%.1f [%.1f, %.1f] ms" % tuple(m["test"]["shift"][k] / 1e6 for k in ("estimate", "lo", "hi"))
  for m in d["metrics"] if m["name"].endswith("Compressor.gzip(byte[]).self_ns")][0]')"
is "$(python3 -c "print(0 < $SEEN <= $TRUTH)")" True \
	"... which is part of the truth ($(python3 -c "print(round($TRUTH / 1e6, 1))") ms at the head's median device): $(python3 -c "print(round(100 * $SEEN / $TRUTH))") %"
is "$(jq_ "$T/ab.json" 'd["policy"]["fleet"]["base"]["reports"], d["policy"]["fleet"]["head"]["reports"], len(d["base"])')" \
	"($N, $N, $N)" "... $N reports a side, one run per trace"
for f in txt md; do
	like "$(cat "$T/ab.$f")" "Compressor\\.gzip (self wall|inclusive|self CPU) in startup" "... the $f output names M"
done
like "$(grep -o 'Compressor.gzip' "$T/ab.html" | head -1)" "Compressor.gzip" "... and the HTML page"
is "$(unzip -p "$T/ab.xlsx" xl/sharedStrings.xml | grep -c 'Compressor.gzip')" 1 "... and the workbook"

"$BIN" compare -q "$T/A" "$T/A2" -o "$T/aa.json"
is "$?" 0 "nothing changed: exit 0"
is "$(jq_ "$T/aa.json" 'd["counts"]["regressed"], d["counts"]["improved"]')" "(0, 0)" \
	"... no gated metric regressed or improved"

"$BIN" compare -q --calibrate "$T/A" "$T/A2" --runs 30 --splits 40 -o "$T/cal.json"
is "$?" 0 "--calibrate on two folders: exit 0"
is "$(jq_ "$T/cal.json" 'd["pool"], d["splits"], d["alarms"] <= 2')" "(80, 40, True)" \
	"false alarms: at most 2 of 40 A/A splits of 30 + 30 unchanged traces ($(jq_ "$T/cal.json" 'd["alarms"]'))"

# The same fleets as fleet summaries.
for f in A B A2; do python3 "$ROOT/tests/fixtures/mkfleet.py" "$T/$f" "$T/$f.fleet.json"; done
"$BIN" compare "$T/A.fleet.json" "$T/B.fleet.json" -o "$T/fab.json" -o "$T/fab.txt" -o "$T/fab.md" \
	-o "$T/fab.html" -o "$T/fab.xlsx" 2>/dev/null
is "$?" 3 "fleet summaries, M 40 ms slower: exit 3"
is "$(valid "$T/fab.json")" valid "... the JSON validates"
like "$(jq_ "$T/fab.json" 'd["headline"]')" "^regressed: Compressor\.gzip self CPU in startup" "... the headline names M"
is "$(jq_ "$T/fab.json" 'd["family"]["method"], d["policy"]["fleet"]["from"], d["policy"]["fleet"]["base"]["reports"], len(d["base"])')" \
	"('holm step-down', 'summaries', $N, $N)" "... Holm's family, one run per trace"
is "$(python3 - "$T/fab.json" "$T/ab.json" <<'PY'
import json, sys
k = "startup.main.method.byte[] com.example.app.util.Compressor.gzip(byte[]).self_cpu_ns"
a, b = ([m for m in json.load(open(p))["metrics"] if m["name"] == k][0] for p in sys.argv[1:])
e, f = a["test"]["shift"]["estimate"], b["test"]["shift"]["estimate"]
print(a["verdict"], abs(e - f) <= 0.01 * a["head"]["median"] + 1e3 and a["test"]["shift"]["lo"] <= f <= a["test"]["shift"]["hi"])
PY
)" "regressed True" "... M's self CPU regressed, its shift within 1 % of the folders' (and their estimate in its CI)"
"$BIN" compare -q "$T/A.fleet.json" "$T/A2.fleet.json" -o "$T/faa.json"
is "$?" 0 "fleet summaries, nothing changed: exit 0"
is "$(jq_ "$T/faa.json" 'd["counts"]["regressed"], d["counts"]["improved"]')" "(0, 0)" "... none regressed or improved"
python3 - "$T/A.fleet.json" "$T/big.fleet.json" <<'PY'
import json, sys   # every trace 250 times: 10,000 traces
d = json.load(open(sys.argv[1]))
def scale(x):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "buckets":
                for b in v:
                    b[1] *= 250
            elif k in ("n", "zeros", "traces", "sum"):
                x[k] = v * 250
            else:
                scale(v)
scale(d["all"])
json.dump(d, open(sys.argv[2], "w"), sort_keys=True)
PY
"$BIN" compare -q "$T/big.fleet.json" "$T/B.fleet.json" -o "$T/big.json" 2>/dev/null
is "$?" 3 "a summary of 10,000 traces against one of $N: exit 3"
is "$(jq_ "$T/big.json" 'd["policy"]["fleet"]["base"]["reports"], len(d["base"]), len(d["head"])')" "(10000, 2000, $N)" \
	"... the 10,000 traces read as 2,000 runs"
python3 - "$T" <<'PY'   # one summary, each version a group (merge --group app_version=...)
import json, sys
t = sys.argv[1]
a, b = (json.load(open("%s/%s.fleet.json" % (t, f))) for f in ("A", "B"))
a["groups"] = {"app_version": {"values": {"4.2.0": a["all"], "4.3.0": b["all"]}, "other": None}}
json.dump(a, open(t + "/AB.fleet.json", "w"), sort_keys=True)
PY
"$BIN" compare -q "$T/AB.fleet.json#app_version=4.2.0" "$T/AB.fleet.json#app_version=4.3.0" -o "$T/fg.json" 2>/dev/null
is "$?" 3 "FILE#app_version=4.2.0 FILE#app_version=4.3.0: two groups of one summary, exit 3"
is "$(python3 -c 'import json, sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); print(a["metrics"] == b["metrics"])' \
	"$T/fg.json" "$T/fab.json")" True "... the same comparison as of the two summaries"
"$BIN" compare "$T/AB.fleet.json#app_version=9" "$T/AB.fleet.json#app_version=4.3.0" >/dev/null 2>"$T/err"
is "$?" 2 "a group the summary does not have: usage error"
like "$(cat "$T/err")" "AB.fleet.json#app_version=9' has no group app_version=9" "... says which"
"$BIN" compare "$T/A.fleet.json" "$T/B" >/dev/null 2>"$T/err"
is "$?" 2 "a fleet summary and a folder: usage error"
like "$(cat "$T/err")" "two fleet summaries or two folders of reports, not one of each" "... says so"

# Display frames (issue 37): two fleets of device-simulator traces
# (mkdevice.py --build-seed 31: the feed model with a warm start, 6,000
# records, 10 a side), the head's with a new lock wait in its frames
# (--frame-lock): the janky-frame rate and frame times are gated by
# default; a frame metric regresses (the frame time p99: the wait lengthens
# the frames it falls in, while most janky frames are a RenderThread sync
# that overran, so the rate moves less than its spread), its top cause the
# monitor blocking in the janky frames and its holder (folders); as fleet
# summaries (Holm's family over 25 metrics, less powerful), a frame metric
# regresses, and the janky frames per million read back as the rate.
dev() {   # dir seed [mkdevice options]
	_d=$1 _s=$2
	shift 2
	mkdir -p "$_d"
	rm -rf "$T/fd"   # empty: the simulator keeps the run (tests/fixtures/simcache.py)
	python3 "$ROOT/tests/fixtures/mkdevice.py" "$T/fd" --build-seed 31 --seed "$_s" --records 6000 --no-truth "$@" \
		>/dev/null && report "$T/fd" "$_d/t$_s.json"
}
for s in 1 2 3 4 5 6 7 8 9 10; do dev "$T/FA" "$s"; dev "$T/FB" $((s + 200)) --frame-lock; done
"$BIN" compare -q "$T/FA" "$T/FB" -o "$T/fr.json"
is "$?" 3 "device fleets, a new lock wait in the frames: exit 3"
is "$(jq_ "$T/fr.json" 'sorted(m["name"] for m in d["metrics"] if m["name"].startswith("frames.") and m["family"]), d["metrics"][[m["name"] for m in d["metrics"]].index("frames.p99_ns")]["verdict"]')" \
	"(['frames.janky_pct', 'frames.p50_ns', 'frames.p90_ns', 'frames.p99_ns'], 'regressed')" \
	"... the janky-frame rate and frame times are gated; the frame time p99 regressed"
like "$(jq_ "$T/fr.json" 'd["headline"]')" "^regressed: (janky-frame rate|frame time p[0-9]+) .*top cause monitor blocking in janky frames .*held by PreloadIndex\.rebuild" \
	"... the headline names it, with the monitor blocking in the janky frames and its holder"
for f in FA FB; do python3 "$ROOT/tests/fixtures/mkfleet.py" "$T/$f" "$T/$f.fleet.json"; done
"$BIN" compare -q "$T/FA.fleet.json" "$T/FB.fleet.json" -o "$T/frs.json"
is "$?" 3 "... as fleet summaries: exit 3"
is "$(python3 - "$T/frs.json" "$T/FA" <<'PY'
import glob, json, statistics, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
folder = statistics.median(json.load(open(f))["metrics"]["frames.janky_pct"] for f in glob.glob(sys.argv[2] + "/*.json"))
print(sorted(k for k, x in m.items() if k.startswith("frames.") and x["family"]),
      any(x["verdict"] == "regressed" for k, x in m.items() if k.startswith("frames.") and x["family"]),
      abs(m["frames.janky_pct"]["base"]["median"] - folder) <= 0.01 * folder)
PY
)" "['frames.janky_pct', 'frames.p50_ns', 'frames.p90_ns', 'frames.p99_ns'] True True" \
	"... the frames' metrics in the family (Holm's), one regressed; the janky rate's base median the folder's within 1 %"

# A trace without a start and a JSON that is no report are left out.
mkdir -p "$T/C"
cp "$T"/A2/t300[0-9].json "$T/C/"
"$MKDUMP" --build-seed 23 --seed 9 --records 3000 --no-truth "$T/nostart" >/dev/null
mkdir -p "$T/C/sub"
"$BIN" -q "$T/nostart" -o "$T/C/sub/nostart.json"
echo '{"schema": "btrace-analyze/manifest@1", "traces": []}' >"$T/C/manifest.json"
"$BIN" compare "$T/A" "$T/C" -o "$T/ac.json" 2>"$T/ac.err"
is "$?" 0 "a folder with a trace without a start and a manifest: exit 0"
like "$(cat "$T/ac.err")" "note: 1 head report of traces without an app start left out \\(10 compared\\)" \
	"... the trace without a start is told"
is "$(jq_ "$T/ac.json" 'd["policy"]["fleet"]["head"]')" "{'reports': 10, 'no_start': 1, 'not_reports': 1}" \
	"... and counted in the JSON (the manifest too)"

mkdir -p "$T/empty"
"$BIN" compare "$T/A" "$T/empty" >/dev/null 2>"$T/err"
is "$?" 2 "an empty folder: usage error"
like "$(cat "$T/err")" "'.*/empty' holds no report of a trace with an app start \\(0 .json files read" "... says so"
"$BIN" compare "$T/A" "$T/ab.json" >/dev/null 2>"$T/err"
is "$?" 2 "a folder and a file: usage error"
like "$(cat "$T/err")" "is no folder of reports" "... says so"
"$BIN" compare "$T/A" "$T/B" "$T/A2" >/dev/null 2>"$T/err"
is "$?" 2 "three folders: usage error"
"$BIN" compare --base "$T/A" --head "$T"/B/t200[0-4].json -o "$T/mixed.json" 2>/dev/null
is "$(jq_ "$T/mixed.json" 'd["policy"]["fleet"]["base"]["reports"], d["policy"]["fleet"]["head"]["reports"]')" \
	"($N, 5)" "--base DIR --head FILES: the folder read out, the files as given"
"$BIN" compare --base "$T"/A/t100[0-4].json --head "$T"/B/t200[0-4].json -o "$T/runs.json" 2>/dev/null
is "$(jq_ "$T/runs.json" 'd["policy"]["fleet"], "startup.ttid_ns" in d["policy"]["metrics"]')" "(None, False)" \
	"runs one by one: no fleet, the CI gate's defaults"
