#!/bin/sh
# make bench: generate 200k- and 1M-record dumps with the test writer and
# time, RUNS times each, the jobs DESIGN §12 budgets; print median wall
# time, CPU time and peak RSS per job.
#   load      import + linking + reconstruction into a scratch database
#             (slices on demand, messages stored): what every analysis pays
#   analyze   the default analysis with its JSON report
#   analyze-thp  the same with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (malloc
#             on transparent huge pages: docs/performance.md's tip for large traces)
#   exports   the same run with -o report.html --pprof --folded (issue 16's
#             budget: at most 1.5 times analyze), outputs deleted beforehand
#   import    a kept database (-o), slices stored as rows
# and, from that kept (already imported) database, each export on its own:
#   report    the JSON report alone (the rules' cost, which every export pays)
#   xlsx      -o report.xlsx
#   html      -o report.html, then the page drawn by headless Chromium:
#             navigation to the timeline drawn (data-render-ms), and one
#             drawing of the timeline and the flame graph (data-bench)
#   pprof     --pprof (with the JSON report)
#   folded    --folded (with the JSON report)
#   perfetto  --perfetto (with the JSON report)
# and that Perfetto trace imported back (the Perfetto importer's figure):
#   pfimport  import of the exported .pb into a kept database
# and for an iOS database (tests/fixtures/mkios.py, ~1.2M samples; with
# BENCH=ios only these):
#   ios-load     import + linking + reconstruction into a scratch database
#   ios-analyze  the default analysis with its JSON report
#   ios-gz       the same from the gzip'd database
#   ios-import   a kept database (-o)
# and for a Perfetto trace dense with the app's scheduler data (issue 33:
# tests/fixtures/mkpfsched.py --form compact --runs 300000, 26.5 MB; with
# BENCH=sched only these):
#   sched-import a kept database (-o): thread states, sleep edges, slices'
#                CPU times from the compact sched_switch/sched_waking
#   sched-system the same trace with a system's load of 40 other processes
#                on six more CPUs after it (mkpfload.py --mb 1000: 1 GB),
#                whose events are read and left out
# and for btrace 2.0 raw traces (tests/fixtures/mkbtrace2.py: 20M records,
# 320 MB, and 1M, 16 MB; with BENCH=btrace2 only these):
#   b2-load      import into a scratch database (slices deferred)
#   b2-analyze   the default analysis with its JSON report
#   b2-import    a kept database (-o), slices stored as rows (the 1M trace)
# and for a device dump whose app scrolls throughout (tests/fixtures/mkdevice.py
# --model feed: 1M records, about 204k display frames; with BENCH=frames
# only these, not in the default set: the dump takes a minute to write):
#   frames-analyze  the default analysis with its JSON report (issue 37
#                   bounds what the frames add to it)
set -eu
B=${B:-build}
RUNS=${RUNS:-5}
BENCH=${BENCH:-android ios sched}
BIN=$B/btrace-analyze
dir=$B/bench
mkdir -p "$dir"
case $BENCH in *android*)
for n in 200000 1000000; do
	[ -f "$dir/$n/sampling.bin" ] || "$B/tests/mkdump" --records $n --seed 42 --no-truth "$dir/$n" >/dev/null
done ;; esac
IOS_OPTS="--samples 1000000 --threads 3 --locks 300 --dispatch 3000 --mem 20000 --date 20000 --async 1000 --seed 42"
case $BENCH in *ios*)
if [ ! -f "$dir/ios1m/trace.db.gz" ]; then
	echo "# writing the iOS database (mkios.py $IOS_OPTS: about 1.5 min, 1.7 GB)"
	# shellcheck disable=SC2086
	python3 tests/fixtures/mkios.py "$dir/ios1m" $IOS_OPTS --no-truth >/dev/null
	gzip -c "$dir/ios1m/trace.db" >"$dir/ios1m/trace.db.gz"
fi ;; esac
case $BENCH in *btrace2*)
for k in 1 20; do
	[ -f "$dir/b2-$k/appTrace.bin" ] || python3 tests/fixtures/mkbtrace2.py "$dir/b2-$k" --seed 42 --slices 1000000 \
		--threads 8 --span 600 --repeat $k --no-truth
done ;; esac
case $BENCH in *frames*)
	[ -f "$dir/feed1m/sampling.bin" ] || python3 tests/fixtures/mkdevice.py "$dir/feed1m" --model feed --seed 1777 \
		--records 1000000 --no-truth >/dev/null ;;
esac
case $BENCH in *sched*)
	[ -f "$dir/sched/t.pb" ] || { mkdir -p "$dir/sched" &&
		python3 tests/fixtures/mkpfsched.py "$dir/sched/t.pb" --form compact --runs 300000 --seed 42 --no-truth; }
	[ -f "$dir/sched/system.pb" ] || { cp "$dir/sched/t.pb" "$dir/sched/system.tmp" &&
		python3 tests/fixtures/mkpfload.py "$dir/sched/system.tmp" --mb 1000 --seed 42 &&
		mv "$dir/sched/system.tmp" "$dir/sched/system.pb"; }
esac
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
CHROME=${CHROME:-/usr/bin/chromium}
drawn() {   # page: Chromium's time to draw it, median of RUNS, and its frame times
	[ -x "$CHROME" ] || return 0
	: >"$dir/times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$dir/chrome" \
			--window-size=1400,1000 --dump-dom "file://$(realpath "$1")#bench" 2>/dev/null >"$dir/dom"
		grep -o ' data-render-ms="[0-9]*"' "$dir/dom" | tr -dc '0-9\n' >>"$dir/times"
		i=$((i + 1))
	done
	echo "# $1 drawn by Chromium in $(median <"$dir/times") ms (median of $RUNS);" \
		"one drawing, ms: $(grep -o ' data-bench="[^"]*"' "$dir/dom" | sed 's/.*="//; s/"$//')"
	rm -rf "$dir/chrome" "$dir/dom"
}
measure() {   # label records command...
	label=$1 n=$2; shift 2
	: >"$dir/times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		[ "$label" = import ] && rm -f "$dir/$n.db"
		[ "$label" = pfimport ] && rm -f "$dir/pf.db"
		[ "$label" = ios-import ] && rm -f "$dir/ios.db"
		[ "$label" = b2-import ] && rm -f "$dir/b2.db"
		[ "$label" = sched-import ] && rm -f "$dir/sched.db"
		[ "$label" = sched-system ] && rm -f "$dir/sched.db"
		# shellcheck disable=SC2086
		[ -n "${clean:-}" ] && rm -f $clean   # outputs replaced, not deleted, inside the timing
		sync   # earlier jobs' writes are flushed now, not by the kernel during this one
		/usr/bin/time -f '%e %M %U %S' -o "$dir/one" "$@" >/dev/null
		cat "$dir/one" >>"$dir/times"
		i=$((i + 1))
	done
	wall=$(cut -d' ' -f1 "$dir/times" | median)
	rss=$(cut -d' ' -f2 "$dir/times" | median)
	cpu=$(awk '{ printf "%.2f\n", $3 + $4 }' "$dir/times" | median)
	printf '%-11s %-10s %8s %10s %10s %12s\n' "$label" $n "$mb" "$wall" "$cpu" $((rss / 1024))
	last_wall=$wall
}
printf '%-11s %-10s %8s %10s %10s %12s\n' job records MB wall_s cpu_s peak_rss_MB
case $BENCH in *android*) ns="200000 1000000" ;; *) ns= ;; esac
for n in $ns; do
	mb=$(du -m --apparent-size "$dir/$n/sampling.bin" | cut -f1)
	measure load $n "$BIN" query -q "$dir/$n" "SELECT count(*) FROM messages"
	measure analyze $n "$BIN" analyze -q "$dir/$n" -o "$dir/$n.json"
	analyze_wall=$last_wall
	measure analyze-thp $n env GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$BIN" analyze -q "$dir/$n" -o "$dir/$n.json"
	e=$dir/$n.exports
	clean="$e.html $e.pb.gz $e.folded"
	measure exports $n "$BIN" analyze -q "$dir/$n" -o "$e.html" --pprof "$e.pb.gz" --folded "$e.folded"
	clean=
	awk -v a="$analyze_wall" -v e="$last_wall" 'BEGIN { printf "# exports / analyze: %.2f (budget 1.5)\n", e / a }'
	rm -f "$e".*
	# the address space --pprof reserves, under a limit (issue 39: 400 MB at 1M records)
	prlimit --as=$((400 << 20)) "$BIN" analyze -q "$dir/$n" -o /dev/null --pprof "$e.pb.gz" 2>/dev/null
	echo "# --pprof under prlimit --as=400M: exit $?"
	rm -f "$e".*
	measure import $n "$BIN" import -q "$dir/$n" -o "$dir/$n.db"
	r=$dir/$n.report
	measure report $n "$BIN" analyze -q "$dir/$n.db" -o "$r.json"
	measure xlsx $n "$BIN" analyze -q "$dir/$n.db" -o "$r.xlsx"
	measure html $n "$BIN" analyze -q "$dir/$n.db" -o "$r.html"
	drawn "$r.html"
	measure pprof $n "$BIN" analyze -q "$dir/$n.db" -o "$r.json" --pprof "$r.pb.gz"
	measure folded $n "$BIN" analyze -q "$dir/$n.db" -o "$r.json" --folded "$r.folded"
	measure perfetto $n "$BIN" analyze -q "$dir/$n.db" -o "$r.json" --perfetto "$r.pb"
	measure pfimport $n "$BIN" import -q "$r.pb" -o "$dir/pf.db"
	ls -l "$r".* | awk '{ printf "# %s: %.1f MB\n", $NF, $5 / 1048576 }'
done
case $BENCH in *ios*)
	db=$dir/ios1m/trace.db
	n=$("$BIN" query -q "$db" "SELECT count(*) FROM samples" --format tsv | sed -n 2p)
	mb=$(du -m --apparent-size "$db" | cut -f1)
	measure ios-load "$n" "$BIN" query -q "$db" "SELECT count(*) FROM samples"
	measure ios-analyze "$n" "$BIN" analyze -q "$db" -o "$dir/ios.json"
	mb=$(du -m --apparent-size "$db.gz" | cut -f1)
	measure ios-gz "$n" "$BIN" analyze -q "$db.gz" -o "$dir/ios.json"
	mb=$(du -m --apparent-size "$db" | cut -f1)
	measure ios-import "$n" "$BIN" import -q "$db" -o "$dir/ios.db"
	rm -f "$dir/ios.json" ;;
esac
case $BENCH in *sched*)
	mb=$(du -m --apparent-size "$dir/sched/t.pb" | cut -f1)
	measure sched-import 300000 "$BIN" import -q "$dir/sched/t.pb" -o "$dir/sched.db"
	mb=$(du -m --apparent-size "$dir/sched/system.pb" | cut -f1)
	measure sched-system 300000 "$BIN" import -q "$dir/sched/system.pb" -o "$dir/sched.db"
	awk -v mb="$mb" -v s="$last_wall" 'BEGIN { printf "# sched-system: %.0f MB/s (target 150)\n", mb / s }' ;;
esac
case $BENCH in *frames*)
	mb=$(du -m --apparent-size "$dir/feed1m/sampling.bin" | cut -f1)
	measure frames-analyze 1000000 "$BIN" analyze -q "$dir/feed1m" -o "$dir/feed1m.json"
	echo "# $("$BIN" query -q "$dir/feed1m" "SELECT count(*) || ' display frames, ' || sum(janky) || ' janky' FROM ui_frames" --format tsv | sed -n 2p)"
	rm -f "$dir/feed1m.json" ;;
esac
case $BENCH in *btrace2*)
	n=$("$BIN" query -q "$dir/b2-20" "SELECT value FROM meta WHERE key = 'records'" --format tsv | sed -n 2p)
	mb=$(du -m --apparent-size "$dir/b2-20/appTrace.bin" | cut -f1)
	measure b2-load "$n" "$BIN" query -q "$dir/b2-20" "SELECT count(*) FROM threads"
	measure b2-analyze "$n" "$BIN" analyze -q "$dir/b2-20" -o "$dir/b2.json"
	mb=$(du -m --apparent-size "$dir/b2-1/appTrace.bin" | cut -f1)
	measure b2-import 1000000 "$BIN" import -q "$dir/b2-1" -o "$dir/b2.db"
	rm -f "$dir/b2.json" ;;
esac
rm -f "$dir"/*.db "$dir"/*.report.*
