# The rule engine (DESIGN §7): sandbox escapes are refused with errors
# naming file and line (caught here by pcall in each rule); a rule that
# fails ends the run with that error, exit 1, no report; the bt
# API (parameters, SQL values, metrics, tables, findings); --set and
# --fail-on on the command line.
. tests/lib.sh
R=$ROOT/tests/rules
J=$ROOT/tests/fixtures/report_json.py

"$BIN" -q "$FIX/seed2" --rules "$R/escape.lua" --set lua.max_instructions=5000000 \
	--set lua.max_memory_mb=32 -o "$T/escape.json"
is "$?" 0 "escaping rules: the analysis still succeeds"
finding() {   # rule -> "severity: message" of its finding
	python3 "$J" finding "$T/escape.json" "$1"
}
for rule in io os require dofile loadfile debug package dump; do
	like "$(finding $rule)" "^error: .*escape\\.lua:[0-9]+: attempt to (index|call) a nil value" "$rule is not reachable"
done
like "$(finding bytecode)" "^error: .*escape\\.lua:24: attempt to load a binary chunk" "load refuses bytecode"
like "$(finding attach)" "^error: .*escape\\.lua:27: query refused" "SQL ATTACH refused"
like "$(finding pragma)" "^error: .*escape\\.lua:29: query refused" "SQL pragma refused"
like "$(finding write)" "^error: .*escape\\.lua:30: query would modify the trace" "SQL writes refused"
is "$(finding survivor)" "info: still running" "a rule after the failures still runs"
check "nothing escaped to the file system" test ! -e /tmp/btrace-escape -a ! -e /tmp/btrace-escape.db
is "$(q "$FIX/seed2" "SELECT count(*) > 0 FROM samples")" 1 "the trace is intact"

"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --set api.threshold_ms=1 --set label=hello \
	--set strict=yes --set top_level=9 -o "$T/api.json"
is "$?" 0 "api rules: exit 0"
m() { python3 "$J" metric "$T/api.json" "$1"; }
is "$(m api.threshold_ms)" 1 "--set RULE.param overrides a default"
is "$(m api.strict)" 1 "booleans parse from --set"
is "$(m api.top_level)" 9 "bt.param at top level reads --set"
is "$(m api.main_samples)" "$(q "$FIX/seed2" "SELECT count(*) FROM samples WHERE tid = 4242")" "bt.scalar binds parameters"
is "$(m api.is_integer)" 1 "integers stay integers"
is "$(m api.half)" 0.5 "reals stay reals"
is "$(m api.rows_break)" 3 "bt.rows stops at break"
is "$(python3 "$J" table "$T/api.json" api_threads)" \
	"$(q "$FIX/seed2" "SELECT group_concat(tid || '/' || name || '/' || is_main, ' ') FROM (SELECT * FROM threads ORDER BY tid)")" \
	"bt.table rows from bt.query, by column name"
is "$(python3 "$J" finding "$T/api.json" api)" "warning: hello: long message" "finding takes the rule's severity and --set label"
is "$(python3 "$J" finding-json "$T/api.json" api)" \
	"$(q "$FIX/seed2" "SELECT '{\"dur\": ' || dur || ', \"evidence\": {\"dur_ns\": ' || dur || ', \"list\": [1, 2, 3], \"nested\": {\"a\": \"b\"}}, \"tid\": ' || tid || ', \"ts\": ' || ts || '}' FROM messages ORDER BY dur DESC LIMIT 1")" \
	"finding points at the longest message; evidence keeps its shape"
printf -- '-- a rule that fails at run time\nbt.rule{ id = "boom", run = function() local t = nil; return t.x end }\n' >"$T/boom.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/boom.lua" --fail-on error -o "$T/boom.json" 2>"$T/err"
is "$?" 1 "a rule failing at run time: exit 1, not a gate's 3"
like "$(cat "$T/err")" "^btrace-analyze: error: .*boom\\.lua:2: attempt to index a nil value .*rule 'boom'" \
	"a failing rule names file, line and rule"
check "a failing rule: no report written" test ! -e "$T/boom.json"
printf 'bt.rule{ id = "bad", run = function() bt.finding{ message = "bad", severity = "error" } end }\n' >"$T/bad.lua"

"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" >/dev/null
is "$?" 0 "defaults: threshold 5 ms still fires, exit 0 without --fail-on"
"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --set top_level=3 --set top_level=4 -o "$T/api2.json"
is "$?-$(python3 "$J" metric "$T/api2.json" api.top_level)" 0-4 "a repeated --set: the last one wins"
"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --set nope=1 >/dev/null 2>"$T/err"
is "$?" 2 "unknown --set: usage error"
like "$(cat "$T/err")" "no rule has a parameter 'nope'" "unknown --set named"
"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --set api.threshold_ms=abc >/dev/null 2>"$T/err"
is "$?" 2 "non-numeric --set for a number: usage error"
"$BIN" -q "$FIX/seed2" --rules "$T/bad.lua" --fail-on error -o "$T/gate.md" 2>"$T/err"
is "$?" 3 "--fail-on error: an error finding fails the gate"
check "--fail-on still writes the report" test -s "$T/gate.md"
like "$(cat "$T/err")" "gate failed: 1 finding at or above 'error'" "gate failure explained"
"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --fail-on warning >/dev/null 2>&1
is "$?" 3 "--fail-on warning counts warnings too"
"$BIN" -q "$FIX/seed2" --rules "$R/api.lua" --set api.threshold_ms=100000 --fail-on warning >/dev/null 2>&1
is "$?" 0 "no finding: a warning gate passes"
"$BIN" -q "$FIX/seed2" --rules "$T/bad.lua" --fail-on warning >/dev/null 2>&1
is "$?" 3 "error findings reach a warning gate"
"$BIN" -q "$FIX/seed2" --fail-on info >/dev/null 2>&1
is "$?" 0 "the built-in attribution emits no findings"
"$BIN" -q "$FIX/seed2" --fail-on fatal >/dev/null 2>&1
is "$?" 2 "unknown --fail-on severity: usage error"
"$BIN" -q "$FIX/seed2" --rules "$T/missing.lua" >/dev/null 2>"$T/err"
is "$?" 1 "a missing rule file: exit 1"
like "$(cat "$T/err")" "missing\\.lua" "the missing file is named"
printf 'bt.rule{ id = "x", run = function() end\n' >"$T/syntax.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/syntax.lua" --fail-on error -o "$T/syntax.json" 2>"$T/err"
is "$?" 1 "a syntax error: exit 1, not a finding"
like "$(cat "$T/err")" "^btrace-analyze: error: .*syntax\\.lua:2: .*expected" "syntax error names file and line"
check "a syntax error: no report written" test ! -e "$T/syntax.json"
printf 'error("no good")\n' >"$T/chunk.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/chunk.lua" -o "$T/chunk.json" 2>"$T/err"
is "$?-$(cat "$T/err")" "1-btrace-analyze: error: $T/chunk.lua:1: no good" "an error in the file's chunk names file and line"
printf 'bt.rule{ id = "t", run = function() error({}) end }\n' >"$T/table.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/table.lua" -o "$T/table.json" 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-btrace-analyze: error: .*table\\.lua: \\(error object is a table value\\) \\(rule 't'\\)" \
	"an error without a line still names the file and rule"
"$BIN" help rules | sed -n '/^  bt.rule{ id = "main-wait"/,/end }$/p' | sed 's/^  //' >"$T/help.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/help.lua" -o "$T/help.json"
like "$(python3 "$J" finding "$T/help.json" main-wait)" "^warning: wait for [0-9.]+ ms, woken by io-worker-1$" \
	"the example in 'help rules' runs and names the waker"
