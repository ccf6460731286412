#!/bin/sh
# Threads of Perfetto traces (importers/perfetto/pf_threads.c): names from
# every place a trace puts them, one count of threads (the header's is the
# threads table's), ART monitor owners (the nested Lock contention's tid,
# else NAME resolved in the waiter's process, else unknown and counted),
# and a frame's blocked self time never above its self time. Truth from
# mkperfetto.py --flavor device; the real traces against pf_names.py, an
# independent wire reading of the names and waits they hold.
. tests/lib.sh
MK="python3 tests/fixtures/mkperfetto.py"
CK="python3 tests/fixtures/check_pf_threads.py"

for s in 1 2 3; do
	$MK "$T/d$s/d.pb" --flavor device --seed "$s"
	"$BIN" import -q "$T/d$s/d.pb" -o "$T/d$s.db" 2>"$T/d$s.err"
	is "$?" 0 "device seed $s: import exits 0"
	is "$($CK truth "$T/d$s/truth" "$T/d$s.db")" ok \
		"device seed $s: names, threads, header count, monitor owners, unknown owners, blocked self time exact"
	is "$(python3 tests/fixtures/pf_names.py "$T/d$s/d.pb" | grep -v '^P' | sort)" \
		"$(tail -n +2 "$T/d$s/truth/threads.tsv" | sort)" "device seed $s: pf_names.py reads the writer's names"
done
d=$T/d1
pid=$(truth "$d" pid)
"$BIN" import "$d/d.pb" -o "$T/d1b.db" 2>"$T/d1.err"
like "$(cat "$T/d1.err")" "have no known owner: ART names it NAME \(N\).*\[perfetto_monitor_owner_unknown, 4 times\]" \
	"the unknown owners are said on stderr"
"$BIN" -q "$T/d1.db" -o "$T/d1.txt"
like "$(sed -n 3p "$T/d1.txt")" "slices +67 as the trace has them, 12 threads$" "the header counts the threads table's 12 rows"
like "$(cat "$T/d1.txt")" "perfetto_monitor_owner_unknown \(4\): monitor waits in" "the report's diagnostics count the unknown owners"
"$BIN" -q "$T/d1.db" -o "$T/d1.json"
is "$(jq_ "$T/d1.json" "d['trace']['threads']")" 12 "the JSON report's threads: the table's rows"
is "$(q "$T/d1.db" "SELECT count(*) FROM blocking_edges WHERE kind = 'monitor' AND waker_tid < 100")" 0 \
	"no owner is ART's (N): every N is below 100, every tid above"
is "$(q "$T/d1.db" "SELECT sum(dur) FROM thread_blocking WHERE tid = $pid AND kind = 'monitor'")" \
	"$(awk -F'\t' -v p="$pid" '$1 == p && $2 ~ /^(monitor contention|Lock contention on a monitor lock)/ { s += $4 }
		END { print s }' "$d/truth/blocked.tsv")" \
	"the main thread's monitor time: its blocked frames' self times, contention inside contention once"
is "$(q "$T/d1.db" "SELECT sum(dur) FROM thread_blocking WHERE tid = $pid AND kind = 'lock'")" \
	"$(awk -F'\t' -v p="$pid" '$1 == p && $2 ~ /^Lock contention on / && $2 !~ /a monitor lock/ { s += $4 }
		END { print s }' "$d/truth/blocked.tsv")" \
	"the main thread's time waiting for ART's own locks (thread list lock ...): kind lock"
# The checker fails on a wrong name and on a wrong owner.
sed "s/FinalizerDaemon/Finalizer/" "$d/truth/threads.tsv" >"$T/bad.tsv"
mkdir -p "$T/bad" && cp "$d/truth/"* "$T/bad/" && cp "$T/bad.tsv" "$T/bad/threads.tsv"
like "$($CK truth "$T/bad" "$T/d1.db")" "^threads \(tid, name\): extra" "the checker sees a wrong name"
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $4 = "-" } 1' "$d/truth/monitor.tsv" >"$T/bad/monitor.tsv"
cp "$d/truth/threads.tsv" "$T/bad/threads.tsv"
like "$($CK truth "$T/bad" "$T/d1.db")" "^monitor edges" "the checker sees a wrong owner"
cp "$d/truth/monitor.tsv" "$T/bad/monitor.tsv"
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $4 = "-" } 1' "$d/truth/locks.tsv" >"$T/bad/locks.tsv"
like "$($CK truth "$T/bad" "$T/d1.db")" "^ART lock edges" "the checker sees a lock wait's wrong owner"

# Real traces: every Perfetto trace's threads, names, header count, monitor
# owners and blocked time against pf_names.py's reading.
n=0
for f in "$REAL"/nowinandroid-trace/*.perfetto-trace "$REAL"/perfetto-api32-startup-warm/*.perfetto-trace \
	"$REAL"/perfetto-api32-startup-warm/derived/*.pb "$REAL"/perfetto-nested-tracks/*.perfetto-trace \
	"$REAL"/systing-trace/trace.pb "$REAL"/perfetto-difftest-textproto/*.pb; do
	[ -s "$f" ] || continue
	n=$((n + 1))
	rm -f "$T/r.db"
	"$BIN" import -q "$f" -o "$T/r.db" 2>/dev/null
	r=$($CK real "$f" "$T/r.db")
	[ "$r" = ok ] || echo "# ${f#$REAL/}: $r"
	echo "$r"
done >"$T/real.out"
grep '^#' "$T/real.out"
is "$(grep -vc '^#' "$T/real.out")/$(grep -c '^ok$' "$T/real.out")" "$n/$n" "all $n real Perfetto traces: threads as pf_names.py reads them"
check "the real traces are there" test "$n" -ge 40

ss=$REAL/perfetto-api32-startup-warm/derived/api32_system_server_only.pb
"$BIN" import -q "$ss" --process system_server -o "$T/ss.db" 2>/dev/null
is "$($CK real "$ss" "$T/ss.db")" ok "system_server: its threads, 84 monitor waits' owners as pf_names.py resolves them"
is "$(q "$T/ss.db" "SELECT count(*), count(waker_tid) FROM blocking_edges WHERE kind = 'monitor'")" "84	84" \
	"system_server: 84 monitor waits, every owner known"
is "$(q "$T/ss.db" "SELECT count(*), count(waker_tid), sum(waker_tid IN (SELECT tid FROM threads)) FROM blocking_edges WHERE kind = 'lock'")" \
	"6	5	5" "system_server: 6 waits on ART's thread list lock, 5 owners (one says tid 0), each one of its threads"
is "$(q "$T/ss.db" "SELECT count(*) FROM blocking_edges b WHERE kind = 'monitor' AND waker_tid NOT IN (SELECT tid FROM threads)")" 0 \
	"system_server: every owner is one of its threads"
is "$(q "$T/ss.db" "SELECT name FROM threads WHERE tid = 2053")" "android.anim" \
	"system_server: android.anim (ART's 17) is tid 2053, by compact sched's comm"
is "$(q "$T/ss.db" "SELECT count(*) FROM blocking_edges WHERE kind = 'monitor' AND waker_tid = 17")" 0 \
	"system_server: no owner is ART's thread id"
is "$($CK blocked "$T/ss.db")" ok "system_server: every calltree and methods row's blocked self time within its self time"
is "$(q "$T/ss.db" "SELECT count(*), count(name) FROM threads")" "208	33" "system_server: 208 threads, 33 named"
like "$("$BIN" -q "$T/ss.db" | sed -n 3p)" ", 208 threads$" "system_server: the header's 208 threads"
# The derived file without --process: the app system_server launched, by
# its launching: slice, not system_server with the most slices.
"$BIN" import -q "$ss" -o "$T/ss2.db" 2>/dev/null
is "$(q "$T/ss2.db" "SELECT group_concat(value, ' / ') FROM (SELECT value FROM meta WHERE key IN ('pid', 'process_choice') ORDER BY key)")" \
	"7663 / launching: androidx.benchmark.integration.macrobenchmark.target" "the derived trace's app: the one launched (pid 7663), not the one with most slices"
# nowinandroid: atrace only, no names anywhere: said so.
"$BIN" import -q "$REAL/nowinandroid-trace/trace.perfetto-trace" -o "$T/now.db" 2>"$T/now.err"
is "$(q "$T/now.db" "SELECT count, detail LIKE '%holds no process tree, thread descriptors or scheduler events' FROM diagnostics WHERE code = 'perfetto_no_thread_names'")" \
	"4	1" "nowinandroid: its 4 threads have no names, and the report says why"
is "$(q "$T/now.db" "SELECT value FROM meta WHERE key = 'process_name'")" "com.google.samples.apps.nowinandroid.demo" \
	"nowinandroid: the process named by its surfaces' frame timeline (TX - PKG/ACTIVITY)"
