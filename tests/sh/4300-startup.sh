# examples/startup.lua against the writer's truth: every finding is a
# recorded wait, binder call, loadLibrary, GC wait or message of the main
# thread, with the right method, caller, waker and time, and none is
# missed (tests/fixtures/check_startup.py); thresholds follow --set; the
# checker itself rejects findings that point elsewhere.
. tests/lib.sh
R=$ROOT/examples/startup.lua
C=$ROOT/tests/fixtures/check_startup.py
low="lock_ms=1 binder_ms=0 loadlibrary_ms=0 gc_ms=0 message_ms=16 alloc_kb=512 majflt=10 cap=0 package=com.example.app.startup first_frame=%.doFrame$"
sets() { for kv in "$@"; do printf -- '--set %s ' "$kv"; done; }

for d in small seed2 seed3; do
	# shellcheck disable=SC2046
	"$BIN" -q "$FIX/$d" --rules "$R" $(sets $low) -o "$T/$d.json"
	is "$?" 0 "$d: startup rules with low thresholds"
	# shellcheck disable=SC2086
	is "$(python3 "$C" "$T/$d.json" "$FIX/$d" $low)" ok "$d: findings match truth"
	# shellcheck disable=SC2046
	"$BIN" -q "$FIX/$d" --rules "$R" $(sets $low first_frame=NoSuchFrame) -o "$T/$d-whole.json"
	# shellcheck disable=SC2086
	is "$(python3 "$C" "$T/$d-whole.json" "$FIX/$d" $low first_frame=none)" ok \
		"$d: without a first frame, startup is the whole trace and GC waits match truth"
done

# a dump where every allocation is recorded: per-method bytes are exact
al="$low alloc_kb=1 first_frame=NoSuchFrame"
# shellcheck disable=SC2046
"$BIN" -q "$FIX/allocs" --rules "$R" $(sets $al) -o "$T/allocs.json"
# shellcheck disable=SC2086
is "$(python3 "$C" "$T/allocs.json" "$FIX/allocs" $al first_frame=none exact_alloc=1)" ok "allocs: findings match truth, allocation bytes exactly"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
f = [x for x in r["findings"] if x["rule"] == "startup-method-alloc"][0]
f["evidence"]["incl_alloc_bytes"] += 1
json.dump(r, open(sys.argv[2], "w"))' "$T/allocs.json" "$T/allocs-bad.json"
# shellcheck disable=SC2086
unlike "$(python3 "$C" "$T/allocs-bad.json" "$FIX/allocs" $al first_frame=none exact_alloc=1)" '^ok$' "checker: one byte off fails"

count() {   # report rule
	python3 -c 'import json, sys
print(sum(f["rule"] == sys.argv[2] for f in json.load(open(sys.argv[1]))["findings"]))' "$1" "$2"
}
for r in startup-duration main-lock-wait main-binder main-loadlibrary long-message startup-method-alloc startup-method-faults; do
	like "$(count "$T/seed2-whole.json" $r)" '^[1-9][0-9]*$' "seed2: $r fired over the whole trace"
done
like "$(count "$T/seed2-whole.json" startup-gc)" '^[1-9][0-9]+$' "seed2: startup-gc fired over the whole trace"
like "$(count "$T/allocs.json" startup-method-alloc)" '^[1-9][0-9]*$' "allocs: startup-method-alloc fired"

# thresholds: defaults, a global --set, a per-rule --set
"$BIN" -q "$FIX/seed2" --rules "$R" --set cap=0 --set 'first_frame=%.doFrame$' -o "$T/def.json"
is "$(python3 "$C" "$T/def.json" "$FIX/seed2" lock_ms=5 binder_ms=5 loadlibrary_ms=0 gc_ms=2 message_ms=50 alloc_kb=1024 majflt=20)" ok \
	"seed2: default thresholds match truth"
"$BIN" -q "$FIX/seed2" --rules "$R" --set cap=0 --set 'first_frame=%.doFrame$' --set lock_ms=1000 --set main-binder.binder_ms=1000 -o "$T/hi.json"
is "$(count "$T/hi.json" main-lock-wait) $(count "$T/hi.json" main-binder)" "0 0" "--set raises the thresholds"
is "$(count "$T/hi.json" long-message)" "$(count "$T/def.json" long-message)" "a per-rule --set leaves the other rules alone"
"$BIN" -q "$FIX/seed2" --rules "$R" --set cap=0 --set main-binder.framework=java. -o "$T/fw.json"
is "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
c = lambda rule: {f["evidence"]["caller"].split("(")[0].split()[-1].rsplit(".", 1)[0] for f in r["findings"] if f["rule"] == rule}
print(c("main-binder") == {"android.os.BinderProxy"}, all(x.startswith("com.example") for x in c("main-lock-wait")))' "$T/fw.json")" \
	"True True" "a per-rule framework list changes that rule's callers only"
"$BIN" -q "$FIX/seed2" --rules "$R" --set lock_ms=soon >/dev/null 2>&1
is "$?" 2 "a threshold that is not a number is a usage error"

# metrics
is "$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); m = r["metrics"]
f = [x for x in r["findings"] if x["rule"] == "startup-duration"][0]
print(m["startup.duration_ns"] == f["dur"], m["startup.first_frame_found"], "thread.main.wall_ns" in m)' "$T/seed2.json")" \
	"True 1 True" "metrics: startup duration and window, and the built-in attribution's"

# the checker rejects findings that point elsewhere
mutate() {   # rule python-statement-on-f
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
f = [x for x in r["findings"] if x["rule"] == sys.argv[2]][0]
exec(sys.argv[3])
json.dump(r, open(sys.argv[4], "w"))' "$T/seed2-whole.json" "$1" "$2" "$T/bad.json"
	# shellcheck disable=SC2086
	python3 "$C" "$T/bad.json" "$FIX/seed2" $low first_frame=none
}
unlike "$(mutate main-lock-wait 'f["ts"] += 1000')" '^ok$' "checker: a wait at the wrong time fails"
unlike "$(mutate main-lock-wait 'f["evidence"]["waker_tid"] = 1')" '^ok$' "checker: the wrong waker fails"
unlike "$(mutate main-binder 'f["evidence"]["caller"] = "void x.Y.z()"')" '^ok$' "checker: the wrong caller fails"
unlike "$(mutate main-loadlibrary 'r["findings"].remove(f)')" '^ok$' "checker: a missed loadLibrary fails"
unlike "$(mutate long-message 'f["dur"] += 30000000')" '^ok$' "checker: a message 30 ms too long fails"
unlike "$(mutate startup-duration 'f["dur"] -= 30000000')" '^ok$' "checker: a startup 30 ms too short fails"
unlike "$(mutate startup-method-faults 'f["evidence"]["method"] = "void com.example.app.model.Item.getTitle()"')" '^ok$' \
	"checker: a method that did not fault fails"

# the walk-through in examples/README.md
"$BIN" "$ROOT/examples/sampling.bin" --rules "$R" >"$T/ex.txt" 2>"$T/ex.err"
is "$?" 0 "the example dump runs with startup.lua"
like "$(cat "$T/ex.txt")" '\[startup-duration\] cold start of com.example.app: initial display after 387.5 ms' \
	"the example: its cold start found, the duration first"

# The start window's process CPU is within the trace's (issue 36 item 2: a
# waker record's CPU of 0 began each worker's window before the trace:
# 926.7 ms of a trace with 825.7 ms of CPU in all).
"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/ex.json"
is "$(jq_ "$T/ex.json" 'd["metrics"]["startup.process.cpu_ns"] <= d["metrics"]["process.cpu_ns"]')" True \
	"the example: startup.process.cpu_ns $(jq_ "$T/ex.json" 'round(d["metrics"]["startup.process.cpu_ns"] / 1e6, 1)') ms <= the trace's $(jq_ "$T/ex.json" 'round(d["metrics"]["process.cpu_ns"] / 1e6, 1)') ms"
# ...and a waker record's begin CPU is stored as unknown, not as a CPU
# clock of 0, both in a database and in the scratch analysis's samples.
W="SELECT count(*), count(cpu_ns), count(end_cpu_ns) FROM samples WHERE type IN (17, 22, 23)"
"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/ex.db"
is "$(sqlite3 "$T/ex.db" "$W")" "16|0|16" "the example's 16 waker records: begin CPU NULL in the database, end CPU kept"
is "$("$BIN" query "$ROOT/examples/sampling.bin" "$W" --format csv | tr -d "\r" | tail -1)" "16,0,16" \
	"...and in the samples a scratch analysis queries"
is "$(sqlite3 "$T/ex.db" "SELECT count(*) FROM samples WHERE cpu_ns IS NULL")" 16 "no other sample's CPU is NULL"
# The window's process CPU and off-CPU time (gate.lua reads the records
# that begin in it and the waker records, not every record) are what a
# scan of every record gives: the same per-thread first and last record.
P="WITH own AS (SELECT tid, CASE WHEN w THEN end_ts ELSE ts END AS t, coalesce(end_ts, ts) AS te,
  CASE WHEN w THEN end_cpu_ns ELSE cpu_ns END AS c, coalesce(end_cpu_ns, cpu_ns) AS ce
  FROM (SELECT *, type IN (17, 22, 23) AND coalesce(cpu_ns, 0) = 0 AND end_ts IS NOT NULL AS w FROM samples)),
win AS (SELECT ts AS a, end_ts AS b FROM startup LIMIT 1)
SELECT CAST(total(c1 - c0) AS INTEGER) || ' ' || CAST(max(0, total((t1 - t0) - (c1 - c0))) AS INTEGER) FROM
  (SELECT min(t) AS t0, max(te) AS t1, min(c) AS c0, max(ce) AS c1 FROM own, win
   WHERE t >= win.a AND t <= win.b AND c IS NOT NULL GROUP BY tid)"
for x in ex media; do   # a device dump's workers' waker records end some threads' windows
	[ $x = ex ] || python3 "$ROOT/tests/fixtures/mkdevice.py" "$T/media" --model media --seed 17 --records 20000 \
		--no-truth >/dev/null
	in=$ROOT/examples/sampling.bin; [ $x = ex ] || in=$T/media
	"$BIN" -q "$in" -o "$T/$x-pw.json"
	is "$(jq_ "$T/$x-pw.json" 'int(d["metrics"]["startup.process.cpu_ns"]), int(d["metrics"]["startup.process.offcpu_ns"])' |
		tr -d '(),')" "$("$BIN" query -q "$in" "$P" --format tsv | sed -n 2p)" \
		"$x: the start's process CPU and off-CPU time, as a scan of every record has them"
done
