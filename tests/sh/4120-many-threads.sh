# The built-in report scales with the input (issue 34 item 7): a systrace
# of 200k threads ended at the attribution rule's own memory limit (its
# threads table held a Lua row per thread). The table now lists the 200
# threads with most wall time and the main thread; the process's totals
# count every thread; the rule's memory no longer grows with the threads.
. tests/lib.sh
J=$ROOT/tests/fixtures/report_json.py
SLOW=1
case $B in *asan*) SLOW=3 ;; esac

python3 - "$T/st.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    out.write("# tracer: nop\n#\n")
    us = 51234 * 1000000
    sec = lambda t: f"{t // 1000000}.{t % 1000000:06d}"
    for i in range(200000):   # a thread of the app's process each, one slice each
        tid = 5000 + i
        out.write(f" t{i}-{tid} (4001) [000] ...1 {sec(us)}: tracing_mark_write: B|4001|w{i % 97}\n")
        out.write(f" t{i}-{tid} (4001) [000] ...1 {sec(us + 2 + i % 5)}: tracing_mark_write: E|4001\n")
        us += 8
PY
if [ -x /usr/bin/time ]; then TIME="/usr/bin/time -f %M -o $T/rss"; else TIME=; fi
$TIME timeout $((120 * SLOW)) "$BIN" -q "$T/st.txt" -o "$T/r.json" 2>"$T/err"
is "$?" 0 "200k threads: the default analysis ends (exit 0)"
is "$(cat "$T/err")" "" "200k threads: nothing on stderr"
is "$(python3 "$J" metric "$T/r.json" process.threads)" 200000 "process.threads counts every thread"
is "$(python3 "$J" metric "$T/r.json" process.wall_ns)" \
	"$(python3 -c 'print(sum(2000 + i % 5 * 1000 for i in range(200000)))')" "process.wall_ns sums every thread's slices"
is "$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tables"]["threads"]; print(len(t["rows"]), t["title"])' \
	"$T/r.json")" "200 Threads: the 200 with most wall time, of 200000" "the threads table lists 200 of them, and says so"
if [ -n "$TIME" ]; then
	mb=$(($(tail -1 "$T/rss") / 1024))
	check "200k threads: peak RSS ${mb} MB under 600 MB" test "$mb" -lt $((600 * SLOW))
fi
