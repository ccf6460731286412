#!/bin/sh
# The startup model on iOS databases: mkios.py --launch begins the main
# thread with -[AppDelegate application:didFinishLaunchingWithOptions:] and
# the first CA::Transaction::commit after it (truth/startup.tsv). Imported
# with its symbols, the start is a cold one of the app's bundle, ending
# with that frame within max(2 ms, 2 %) of the truth, didFinishLaunching
# within the timer's resolution; without a launch there is no start.
. tests/lib.sh
MKIOS="python3 tests/fixtures/mkios.py"
for v in 3 4; do
	for s in 1 2 3; do
		d=$T/v$v-$s
		$MKIOS "$d" --launch --version "$v" --seed "$s" --samples 2000 >/dev/null
		"$BIN" import -q "$d/trace.db" --symbols "$d/symbols.txt" -o "$d.db"
		got=$(q "$d.db" "SELECT s.kind, s.ts, s.end_ts, a.ts, a.ts + a.dur FROM startup s, startup_phases a
			WHERE a.phase = 'application_create'")
		is "$(echo "$got" | cut -f1)" cold "v$v seed $s: a cold start"
		is "$(awk -F'\t' -v g="$got" 'BEGIN { split(g, x, "\t") }
			$1 == "startup" { w = $3 - $2; tol = w / 50 > 2000000 ? w / 50 : 2000000
				e = x[3] - $3; print (e < 0 ? -e : e) <= tol ? "ok" : "end " x[3] " truth " $3 }
			$1 == "application_create" { for (i = 2; i <= 3; i++) { e = x[i + 2] - $i
				if ((e < 0 ? -e : e) > 3000000) print "didFinishLaunching " x[i + 2] " truth " $i } }' \
			"$d/truth/startup.tsv" | sort -u | tr '\n' ' ')" "ok " \
			"v$v seed $s: the first frame's end and didFinishLaunching as the truth has them"
	done
done
is "$(q "$T/v3-1.db" "SELECT package FROM startup")" "$(q "$T/v3-1.db" "SELECT value FROM meta WHERE key = 'process_name'")" \
	"the package: the app's bundle"
$MKIOS "$T/plain" --seed 1 --samples 2000 >/dev/null
"$BIN" import -q "$T/plain/trace.db" --symbols "$T/plain/symbols.txt" -o "$T/plain.db"
is "$(q "$T/plain.db" "SELECT count(*) FROM startup")" 0 "no launch in the trace: no start (its commits are no first frame)"
