#!/bin/sh
# merge (issue 23, item 2; engine/fleet/README.md): every JSON report
# carries its trace's summary (valid against report.schema.json); merge
# folds reports, summary files, fleet summaries and directories of them
# into one fleet summary that agrees with its traces (check_fleet.py:
# counts, sums, min and max exact, p50/p90/p99 within 1 % of exact ones);
# any order, partition and nesting of the inputs gives the same bytes,
# --group included; a directory's other JSON files are skipped; bad inputs
# and outputs are refused naming what; a real Perfetto trace's summary
# keeps its unknowns absent; an iOS database's OS version groups it; the
# display frames of device-simulator runs merge to the janky rate and frame
# times of all their frames; 2,000 summaries merge in bounded memory.
. tests/lib.sh
CHECK=$ROOT/tests/fixtures/check_fleet.py
GEN=$ROOT/tests/fixtures/mksummaries.py

mkdir -p "$T/reps"
for s in 1 2 3 4 5 6; do
	"$MKDUMP" --records 6000 --seed $s --startup cold --no-truth "$T/d$s" >/dev/null
	"$BIN" analyze -q "$T/d$s" -o "$T/reps/r$s.json"
done
is "$(ls "$T/reps" | wc -l)" 6 "six traces analysed"
is "$(python3 -c 'import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
for f in sys.argv[2:]:
    jsonschema.Draft202012Validator(s).validate(json.load(open(f)))
print("valid")' "$ROOT/reports/json/report.schema.json" "$T"/reps/*.json 2>&1 | tail -1)" valid \
	"the reports, summary included, validate against report.schema.json"
is "$(jq_ "$T/reps/r1.json" 'd["summary"]["schema"], d["summary"]["groups"]["startup"], "startup.ttid_ns" in d["summary"]["values"]')" \
	"('btrace-analyze/summary@1', 'cold', True)" "a report's summary: its schema, the start's kind, the time to initial display"
is "$(jq_ "$T/reps/r1.json" 'sum(r[1] for r in d["summary"]["methods"]["rows"]) + d["summary"]["methods"]["other"]["self_cpu_ns"] == d["summary"]["values"]["startup.main.cpu_ns"]')" \
	True "its top methods' self CPU plus other is the startup's main-thread CPU exactly"
is "$(jq_ "$T/reps/r1.json" 'len(d["summary"]["methods"]["rows"]) <= 32 and len(d["summary"]["waits"]["rows"]) <= 16')" \
	True "at most K = 32 methods and 16 waits"

"$BIN" merge "$T/reps" -o "$T/f.json" -o "$T/f.md" -o "$T/f.html" -o "$T/f.xlsx" 2>"$T/err"
is "$?" 0 "merge of a directory of reports exits 0"
like "$(cat "$T/err")" "merged 6 traces \(6 reports" "it says what it merged"
check "all four outputs are written" test -s "$T/f.json" -a -s "$T/f.md" -a -s "$T/f.html" -a -s "$T/f.xlsx"
python3 "$CHECK" "$T/f.json" "$T/reps"

# Order, partition and nesting: the same bytes.
"$BIN" merge -q "$T/reps/r6.json" "$T/reps/r2.json" "$T/reps/r4.json" "$T/reps/r1.json" "$T/reps/r5.json" \
	"$T/reps/r3.json" -o "$T/shuf.json"
check "the reports in another order give the same bytes" cmp "$T/f.json" "$T/shuf.json"
"$BIN" merge -q "$T/reps/r3.json" "$T/reps/r1.json" -o "$T/p1.json"
"$BIN" merge -q "$T/reps/r5.json" "$T/reps/r6.json" -o "$T/p2.json"
"$BIN" merge -q "$T/p2.json" "$T/reps/r4.json" -o "$T/p3.json"
"$BIN" merge -q "$T/p3.json" "$T/reps/r2.json" "$T/p1.json" -o "$T/nested.json"
check "a merge of merges of merges equals the merge of all, byte for byte" cmp "$T/f.json" "$T/nested.json"

# Summary files, grouped per directory, and the same through fleets.
python3 "$GEN" --n 400 --seed 3 --shift 40 --method ConfigLoader.applyDefaults "$T/sums" "$T"/reps/*.json
"$BIN" merge -q --group version=A "$T/sums/A" --group version=B "$T/sums/B" -o "$T/g.json"
is "$?" 0 "merge --group version=A dirA --group version=B dirB exits 0"
is "$(jq_ "$T/g.json" 'sorted((k, v["traces"]) for k, v in d["groups"]["version"]["values"].items())')" \
	"[('A', 200), ('B', 200)]" "each directory's traces under its --group value"
python3 "$CHECK" "$T/g.json" "version=A@$T/sums/A" "version=B@$T/sums/B"
"$BIN" merge -q "$T/sums/A" -o "$T/a.json"
"$BIN" merge -q "$T/sums/B" -o "$T/b.json"
"$BIN" merge -q --group version=B "$T/b.json" --group version=A "$T/a.json" -o "$T/g2.json"
check "fleets regrouped and merged give the bytes of their summaries grouped at once" cmp "$T/g.json" "$T/g2.json"
"$BIN" merge -q --group version=A "$T/sums/A" --group version= "$T/sums/B" -o "$T/g3.json"
is "$(jq_ "$T/g3.json" 'list(d["groups"]["version"]["values"]), d["all"]["traces"]')" "(['A'], 400)" \
	"'--group KEY=' stops the key for the inputs after it"
is "$(jq_ "$T/g.json" 'd["groups"]["version"]["values"]["B"]["values"]["startup.ttid_ns"]["p50"] - d["groups"]["version"]["values"]["A"]["values"]["startup.ttid_ns"]["p50"] > 20e6')" \
	True "version B's p50 time to initial display is the generator's 40 ms later"

# A directory's other JSON files (a batch manifest) are skipped; bad inputs.
cp -r "$T/reps" "$T/withman"
printf '{"schema": "btrace-analyze/batch-manifest@1", "traces": []}\n' >"$T/withman/manifest.json"
printf '{"traces": 3}\n' >"$T/withman/other.json"
"$BIN" merge "$T/withman" -o "$T/m.json" 2>"$T/err"
is "$?" 0 "a directory with a manifest merges"
like "$(cat "$T/err")" "2 JSON files in the input directories are no report" "the two other JSON files are skipped, and said"
check "the result is that of the reports alone" cmp "$T/f.json" "$T/m.json"
"$BIN" merge -q "$T/withman/manifest.json" -o "$T/x.json" 2>"$T/err"
is "$?" 1 "a named file of another schema exits 1"
like "$(cat "$T/err")" "manifest.json' is no report, summary or fleet summary" "naming the file"
printf '{"schema": "btrace-analyze/report@1", "metrics": {}}' >"$T/old.json"
"$BIN" merge -q "$T/old.json" -o "$T/x.json" 2>"$T/err"
is "$?" 1 "a report without a summary exits 1"
like "$(cat "$T/err")" "old.json: byte [0-9]+: the report has no \"summary\"" "saying so with the file and byte"
head -c 300 "$T/reps/r1.json" >"$T/cut.json"
"$BIN" merge -q "$T/cut.json" -o "$T/x.json" 2>"$T/err"
is "$?" 1 "a report cut short exits 1"
like "$(cat "$T/err")" "cut.json: byte [0-9]+" "naming the file and byte"
sed 's/"startup.ttid_ns":[0-9]*/"startup.ttid_ns":-4/' "$T/sums/A/s000000.json" >"$T/neg.json"
"$BIN" merge -q "$T/neg.json" -o "$T/x.json" 2>"$T/err"
is "$?" 1 "a negative value exits 1"
like "$(cat "$T/err")" "neg.json: byte [0-9]+: a summary value is not a non-negative integer" "saying which"
check "no output is left by a failed merge" test ! -e "$T/x.json"
"$BIN" merge -q -o "$T/x.json" 2>/dev/null
is "$?" 2 "no inputs is a usage error"
"$BIN" merge -q "$T/reps" -o "$T/x.txt" 2>"$T/err"
is "$?" 2 "an unknown report extension is a usage error"
"$BIN" merge -q "$T/reps" --group version 2>/dev/null
is "$?" 2 "--group without '=' is a usage error"
mkdir -p "$T/empty"
"$BIN" merge -q "$T/empty" -o "$T/x.json" 2>"$T/err"
is "$?" 1 "a directory without summaries exits 1"
out=$("$BIN" merge -q "$T/reps" --top 3)
like "$(printf '%s\n' "$out" | head -n 1)" "^# Fleet: 6 traces; time to initial display" "stdout: the Markdown report"
is "$(printf '%s\n' "$out" | awk '/^### Methods/ { on = 1; n = 0; next } on && /^\| / { n++ } on && /^$/ && n { print n - 1; exit }')" 3 \
	"--top 3: three methods a group"

# A real trace that brought its own slices: unknowns absent, not 0 (its
# scheduler data dropped by pfnosched.py); with it, the start's CPU time.
pf=$REAL/perfetto-api32-startup-warm/derived/api32_app7663_only.pb
if [ -s "$pf" ]; then
	python3 tests/fixtures/pfnosched.py "$pf" "$T/pfn.pb"
	"$BIN" analyze -q "$T/pfn.pb" -o "$T/pf.json"
	is "$(jq_ "$T/pf.json" '"startup.ttid_ns" in d["summary"]["values"], "startup.main.cpu_ns" in d["summary"]["values"], "main.cpu_ns" in d["summary"]["values"]')" \
		"(True, False, False)" "a Perfetto start: its time to initial display, no CPU times (unknown, absent)"
	"$BIN" analyze -q "$pf" -o "$T/pfs.json"
	is "$(jq_ "$T/pfs.json" '"startup.ttid_ns" in d["summary"]["values"], d["summary"]["values"].get("startup.main.cpu_ns", 0) > 0')" \
		"(True, True)" "the same start with its scheduler data: the main thread's CPU time in it"
	"$BIN" merge -q "$T/pf.json" "$T/reps" -o "$T/mix.json"
	is "$(jq_ "$T/mix.json" 'd["all"]["traces"], d["all"]["values"]["startup.ttid_ns"]["n"], d["all"]["values"]["main.cpu_ns"]["n"]')" \
		"(7, 7, 6)" "merged with dumps: each value counts the traces that have it"
else
	echo "ok - real Perfetto trace # SKIP $pf missing"
fi

# An iOS database says its OS version: a group of its own.
python3 "$ROOT/tests/fixtures/mkios.py" "$T/ios" --seed 1 --samples 300 >/dev/null
"$BIN" analyze -q "$T/ios/trace.db" -o "$T/ios.json"
"$BIN" merge -q "$T/ios.json" "$T/reps" -o "$T/withios.json"
is "$(jq_ "$T/withios.json" 'sorted((k, v["traces"]) for k, v in d["groups"]["os_version"]["values"].items()), sorted(d["groups"]["format"]["values"])')" \
	"([('17.5', 1)], ['android-sampling', 'ios-database'])" "an iOS trace is grouped by its OS version and its format"

# Display frames (issue 37): device-simulator runs' summaries carry their
# frames; merged, the fleet's janky rate is their janky frames over their
# frames, and its frame-time sketch has every frame: n, sum, min and max
# exact, p50/p90/p99 within 1 % of the exact ones over all the frames.
mkdir -p "$T/frames"
for s in 1 2 3; do
	python3 "$ROOT/tests/fixtures/mkdevice.py" "$T/fd$s" --build-seed 31 --seed $s --records 4000 --no-truth >/dev/null
	"$BIN" -q "$T/fd$s" -o "$T/frames/r$s.json"
done
for d in "$T"/fd1 "$T"/fd2 "$T"/fd3 "$T"/d1 "$T"/d2 "$T"/d3 "$T"/d4 "$T"/d5 "$T"/d6; do   # mkdump's starts draw a frame or two
	"$BIN" query -q "$d" "SELECT end_ts - ts, janky FROM ui_frames ORDER BY id" --format tsv | sed 1d >>"$T/frames.tsv"
done
"$BIN" merge -q "$T/frames" "$T/reps" -o "$T/ff.json"
is "$?" 0 "three traces of the device simulator merge with the six others"
is "$(python3 - "$T/ff.json" "$T/frames.tsv" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["all"]
rows = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
t = sorted(r[0] for r in rows)
janky = sum(r[1] for r in rows)
v, f, a = g["values"], g["frames"], json.load(open(sys.argv[1]))["sketch"]["alpha"]
bad = []
if (v["frames.count"]["sum"], v["frames.janky"]["sum"]) != (len(t), janky):
    bad.append(("janky rate", v["frames.janky"]["sum"], v["frames.count"]["sum"], janky, len(t)))
if (f["n"], f["sum"], f["min"], f["max"]) != (len(t), sum(t), t[0], t[-1]):
    bad.append("n, sum, min, max")
for k, p in (("p50", 500), ("p90", 900), ("p99", 990)):
    e = t[max(1, (p * len(t) + 999) // 1000) - 1]
    if abs(f[k] - e) > a * e + 0.5:
        bad.append((k, f[k], e))
print(bad or "ok %d frames, %.2f %% janky" % (len(t), 100 * janky / len(t)))
PY
)" "ok $(wc -l <"$T/frames.tsv") frames, $(awk '{ j += $2 } END { printf "%.2f", 100 * j / NR }' "$T/frames.tsv") % janky" \
	"the fleet's janky rate is the traces' janky frames over their frames; its frame-time p50/p90/p99 within 1 % of every frame's"
like "$("$BIN" merge -q "$T/ff.json")" "^# Fleet: 9 traces; .*; $(wc -l <"$T/frames.tsv") display frames, [0-9.]+ % janky, frame time p50 " \
	"the report's headline says the fleet's frames"
python3 "$CHECK" "$T/ff.json" "$T/frames" "$T/reps"
"$BIN" merge -q "$T/frames/r2.json" "$T/reps" -o "$T/ff1.json"
"$BIN" merge -q "$T/frames/r3.json" "$T/ff1.json" "$T/frames/r1.json" -o "$T/ff2.json"
check "with frames, a merge of merges equals the merge of all, byte for byte" cmp "$T/ff.json" "$T/ff2.json"

# Many summaries: bounded memory, one pass.
python3 "$GEN" --n 2000 --seed 5 "$T/many" "$T"/reps/*.json
rss=$(peak "$BIN" merge -q "$T/many" -o "$T/many.json")
rss_bound "${rss:-999999}" 102400 "2,000 summaries merge in under 100 MB ($rss KB)"
python3 "$CHECK" "$T/many.json" "$T/many"
