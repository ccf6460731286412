#!/bin/sh
# A systrace keeps every process's slices (issue 33 item 7: one process
# label agrees with the figures under it): the header names the app and
# says how many other processes' threads its figures count, in text,
# Markdown, HTML and JSON (meta other_processes); counted here
# independently from the trace's B|PID| markers. A dump (one process)
# says nothing of others.
. tests/lib.sh
r=$REAL/catapult-systrace/android_systrace.html
"$BIN" import -q "$r" -o "$T/a.db"
is "$?" 0 "android_systrace.html imports"
pid=$(q "$T/a.db" "SELECT value FROM meta WHERE key = 'pid'")
others=$(grep -o 'B|[0-9]*|' "$r" | sort -u | grep -vc "^B|$pid|\$")
check "the trace holds markers of other processes than pid $pid ($others)" test "$others" -gt 0
is "$(q "$T/a.db" "SELECT value FROM meta WHERE key = 'other_processes'")" "$others" \
	"meta other_processes: the processes with markers besides the app's"
"$BIN" -q "$T/a.db" -o "$T/a.txt"
like "$(sed -n 3p "$T/a.txt")" "^ +and the threads of $others other processes: every figure below counts them too\$" \
	"text: said under the process line"
"$BIN" -q "$T/a.db" --format md -o "$T/a.md"
like "$(cat "$T/a.md")" "main thread tid [0-9]+, and the threads of $others other processes \\(every figure counts them too\\)" \
	"Markdown: said after the process"
"$BIN" -q "$T/a.db" --format html -o "$T/a.html"
like "$(cat "$T/a.html")" "and the threads of $others other processes \\(every figure counts them too\\)" "HTML: said after the process"
"$BIN" -q "$T/a.db" --format json -o "$T/a.json"
is "$(jq_ "$T/a.json" 'd["trace"]["other_processes"]')" "$others" "JSON: trace.other_processes"
is "$(python3 -c 'import json, jsonschema, sys
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
print("valid")' "$T/a.json" "$ROOT/reports/json/report.schema.json" 2>&1 | tail -1)" valid "JSON: valid against report.schema.json"

"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/one.txt"
"$BIN" -q "$ROOT/examples/sampling.bin" --format json -o "$T/one.json"
unlike "$(sed -n 1,8p "$T/one.txt")" "other process" "a dump (one process's): no word of others"
is "$(jq_ "$T/one.json" '"other_processes" in d["trace"]')" False "its JSON has no other_processes"
