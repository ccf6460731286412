# Errors that help (issue 21): a failing rule file is the run's error
# naming file:line (exit 1, never a finding nor --fail-on's 3, no report);
# a mistyped option, --set key or rule id gets a "did you mean".
. tests/lib.sh
S=$ROOT/examples/startup.lua

printf 'bt.rule{ id = "late", run = function()\n  bt.query("SELECT nope FROM samples")\nend }\n' >"$T/late.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/late.lua" --fail-on error -o "$T/late.md" 2>"$T/err"
is "$?" 1 "a rule failing in SQL: exit 1 under --fail-on"
like "$(cat "$T/err")" "^btrace-analyze: error: .*late\\.lua:2: .*nope.*\\(rule 'late'\\)$" "the SQL failure names file:line and rule"
check "no report written" test ! -e "$T/late.md"
printf 'bt.builtin("attribution")\nbt.rule{ id = "x", run = function() error("broken") end }\n' >"$T/after.lua"
"$BIN" -q "$FIX/seed2" --rules "$T/after.lua" -o "$T/after.json" 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-btrace-analyze: error: .*after\\.lua:2: broken \\(rule 'x'\\)$" \
	"after the built-in rules ran, a failing rule still ends the run"
"$BIN" -q "$FIX/seed2" --rules "$T/after.lua" -o "$T/after.json" --perfetto "$T/p.json" 2>/dev/null
check "no export written either" test ! -e "$T/after.json" -a ! -e "$T/p.json"
# The built-in files run compiled (lua/lua2bc.c) with their debug
# information: an error inside one names its file and line as the text does.
printf 'bt.rule{ id = "x", run = function() bt.methods({ order = {} }) end }\n' >"$T/inbt.lua"
line=$(grep -n 'if not order:match' "$ROOT/lua/bt.lua" | cut -d: -f1)
"$BIN" -q "$FIX/seed2" --rules "$T/inbt.lua" -o "$T/inbt.json" 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-btrace-analyze: error: .*inbt\\.lua: builtin/bt\\.lua:$line: attempt to call a nil value \\(method 'match'\\) \\(rule 'x'\\)$" \
	"an error inside a built-in file names it and its line ($line)"

"$BIN" -q "$FIX/seed2" --rule "$S" >/dev/null 2>"$T/err"
is "$?" 2 "--rule: a usage error"
like "$(cat "$T/err")" "unknown option '--rule' for 'analyze'; did you mean '--rules'\\?" "--rule: did you mean --rules"
"$BIN" compare --base x --haed y 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*unknown option '--haed' for 'compare'; did you mean '--head'\\?" "a swap of letters is one edit"
"$BIN" -q "$FIX/seed2" --zzzz 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*unknown option '--zzzz' for 'analyze' \\(see 'btrace-analyze help analyze'\\)" \
	"nothing close: no guess, the help named"

"$BIN" -q "$FIX/seed2" --rules "$S" --set lockms=20 >/dev/null 2>"$T/err"
is "$?" 2 "--set lockms: a usage error"
like "$(cat "$T/err")" "no rule has a parameter 'lockms'; did you mean 'lock_ms'\\?" "--set lockms: did you mean lock_ms"
"$BIN" -q "$FIX/seed2" --rules "$S" --set lua.max_memry_mb=9 >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*did you mean 'lua.max_memory_mb'\\?" "the sandbox's own keys are suggested"
"$BIN" -q "$FIX/seed2" --rules "$S" --set startup-duratoin.x=1 >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*no rule 'startup-duratoin' ran; did you mean 'startup-duration'\\?" \
	"a mistyped rule id: the close ids"
"$BIN" -q "$FIX/seed2" --rules "$S" --set nosuchrule.x=1 >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*no rule 'nosuchrule' ran \\(rules that ran: '[^']+', .*\\)" \
	"an id close to none: the ids that ran"
"$BIN" -q "$FIX/seed2" --set qqqqqq=1 >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^2-.*no rule has a parameter 'qqqqqq'$" "nothing close: no guess"

# Inputs recognised by content but not traces are named, with what to pass.
"$BIN" "$ROOT/examples/sampling-mapping.bin" >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-.*sampling-mapping.bin': this is a sampling-mapping file .*pass the sampling\\.bin beside it" \
	"the mapping given as INPUT: named, the dump asked for"
printf '# compiler: R8\ncom.example.Foo -> a.b:\n    void run() -> a\n' >"$T/mapping.txt"
"$BIN" "$T/mapping.txt" >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-.*this is a ProGuard/R8 mapping\\.txt; pass the trace and give this file with --retrace" \
	"a ProGuard mapping given as INPUT: --retrace suggested"
printf 'SIMPLEPERF\0\0\0\0\0\0' >"$T/perf.data"
"$BIN" "$T/perf.data" >/dev/null 2>"$T/err"
like "$?-$(cat "$T/err")" "^1-.*simpleperf perf\\.data file; not supported" "simpleperf's perf.data: named"
help=$("$BIN" help)
for f in android-sampling ios perfetto "trace database"; do
	like "$help" "^  $f  " "top-level help lists the input format $f"
done

# A dump without its mapping says so at the top of every report.
mkdir "$T/nomap" && cp "$ROOT/examples/sampling.bin" "$T/nomap/"
for f in txt md json html; do "$BIN" -q "$T/nomap/sampling.bin" -o "$T/nm.$f"; done
is "$(head -c 8 "$T/nm.txt")" "NO NAMES" "text: the first line says the names are missing"
like "$(sed -n 3p "$T/nm.md")" "^> \\*\\*No names\\*\\*: analysed without its mapping file" "markdown: under the title"
like "$(jq_ "$T/nm.json" "d['trace']['no_names']")" "pass the sampling-mapping.bin beside the dump" "json: trace.no_names"
like "$(grep -c 'No names' "$T/nm.html")" "^[1-9]" "html: the banner"
"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/named.json"
is "$(jq_ "$T/named.json" "d['trace'].get('no_names', 'none')")" none "with its mapping: no banner"
