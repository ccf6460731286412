# The sandbox's time budget cannot be escaped through C (issue 34 item 3):
# library functions charged by their arguments before they run
# (lua/bounds.c), coroutines charged however short, and a CPU-clock timer
# for what one instruction does in C. Each known escape stops within its
# budget with CPU counted alone and, where the work is a library call's,
# with instructions counted alone; then a generator of new escapes runs for
# 8 s (tests/fuzz/lua_escapes.py; `make test-long` and `make fuzz` run it
# ten minutes: issue 39 moved the soak out of the suite's time).
# Every run is under `timeout`, so an escape fails instead of hanging.
. tests/lib.sh
H=$ROOT/tests/rules/hostile
J=$ROOT/tests/fixtures/report_json.py
SLOW=1
case $B in *asan*) SLOW=5 ;; esac   # as the build's own CPU budget (lua/sandbox.h)

now_ms() { echo $(($(date +%s%N) / 1000000)); }

escape() {   # name rule limit-words [--set...]: stops, exit 1, no report, within 3x the CPU budget
	_n=$1 _r=$2 _w=$3; shift 3
	_t0=$(now_ms)
	timeout $((20 * SLOW)) "$BIN" -q "$FIX/seed2" --rules "$H/escape-$_n.lua" -o "$T/$_n.json" "$@" 2>"$T/$_n.err"
	_rc=$? _t=$(($(now_ms) - _t0))
	is "$_rc" 1 "$_n $*: stopped (exit 1)"
	like "$(cat "$T/$_n.err")" "^btrace-analyze: error: rule '$_r' in '.*escape-$_n\\.lua' stopped: .*time limit: $_w" \
		"$_n $*: by the time limit ($_w)"
	check "$_n $*: in ${_t} ms" test "$_t" -lt $((6000 * SLOW))
	check "$_n $*: no report" test ! -e "$T/$_n.json"
}
cpu_only="--set lua.max_instructions=1000000000000 --set lua.max_cpu_ms=500"
work_only="--set lua.max_cpu_ms=600000 --set lua.max_instructions=20000000"

# Library calls: refused before they run when their work cannot fit.
escape rep rep "1000000000000 instructions|500 ms of CPU" $cpu_only
escape rep rep "20000000 instructions" $work_only
escape move move "1000000000000 instructions" $cpu_only
escape move move "500 ms of CPU" $cpu_only --set move.n=100000000000
escape move move "20000000 instructions" $work_only
# Work charged by what it does: stopped by either budget alone.
for n in wrap:wrap resume:resume find:find sort:sort insert:insert utf8:utf8 gc:gc concat:concat pattern:pattern unpack:unpack argerror:argerror; do
	escape ${n%%:*} ${n#*:} "500 ms of CPU" $cpu_only
	escape ${n%%:*} ${n#*:} "20000000 instructions" $work_only
done
# One instruction's work in the VM: only the CPU clock sees it. And a stop
# in a nested coroutine that the outer one's pcall catches is caught again.
escape compare compare "500 ms of CPU" --set lua.max_cpu_ms=500
escape equal equal "2000 ms of CPU"
escape nested nested "500 ms of CPU" --set lua.max_cpu_ms=500
like "$(cat "$T/equal.err")" "\\(--set lua.max_cpu_ms=N\\)" "the CPU stop names its setting"

# A large block's pages are charged with its bytes (charged by its bytes
# alone, escape-concat's 2 MB copies ran 40 times their budget here): a
# hundred 1 MiB copies are stopped by the budget, which the same number of
# 64 KiB copies fit in.
"$BIN" -q "$FIX/seed2" --rules "$H/fresh-pages.lua" -o "$T/fresh.json" --set lua.max_cpu_ms=600000 \
	--set lua.max_instructions=3000000 2>"$T/fresh.err"
like "$?:$(cat "$T/fresh.err")" "^1:btrace-analyze: error: rule 'fresh' .*time limit: 3000000 instructions" \
	"fresh-pages: 100 copies of 1 MiB are over 3M instructions"
"$BIN" -q "$FIX/seed2" --rules "$H/fresh-pages.lua" -o "$T/fresh.json" --set lua.max_cpu_ms=600000 \
	--set lua.max_instructions=3000000 --set fresh.kb=64 2>"$T/fresh.err"
is "$?:$(python3 "$J" finding "$T/fresh.json" fresh)" "0:warning: done 6553792" "fresh-pages: 100 copies of 64 KiB are not"

# What rules may still do: the wrappers keep Lua's results.
timeout $((20 * SLOW)) "$BIN" -q "$FIX/seed2" --rules "$H/escapes-ok.lua" -o "$T/ok.json" 2>"$T/ok.err"
is "$?" 0 "escapes-ok: coroutines, sort, insert, rep, utf8 and errors through wrap still work"
is "$(python3 "$J" finding "$T/ok.json" ok)" "info: fine false boom 6" "escapes-ok: their results"

# Gate scripts share the sandbox.
timeout 60 "$BIN" -q "$FIX/seed2" -o "$T/r.json"
for g in coroutines rep; do
	_t0=$(now_ms)
	timeout $((20 * SLOW)) "$BIN" compare --base "$T/r.json" --head "$T/r.json" --rules "$H/gate-$g.lua" \
		-o "$T/g.txt" 2>"$T/g.err"
	is "$?" 1 "gate-$g: the compare fails (exit 1)"
	like "$(cat "$T/g.err")" "^btrace-analyze: error: gate script.*hostile/gate-$g\\.lua.*stopped: .*time limit" \
		"gate-$g: stopped by the time limit"
	check "gate-$g: in $(($(now_ms) - _t0)) ms" test "$(($(now_ms) - _t0))" -lt $((6000 * SLOW))
	check "gate-$g: no output" test ! -e "$T/g.txt"
done

like "$("$BIN" help rules)" "lua.max_cpu_ms=N, default 2000" "help rules: the CPU budget"

# New escapes: random compositions of library calls with extreme arguments.
python3 "$ROOT/tests/fuzz/lua_escapes.py" "$BIN" "$FIX/seed2" "${LUA_ESCAPE_SECONDS:-8}" --slow "$SLOW" \
	--keep "$T/escapes" >"$T/gen.out" 2>&1
_rc=$?
cat "$T/gen.out" >&2
for f in "$T"/escapes/*.lua; do   # the escapes, in the log (the test's folder goes)
	[ -f "$f" ] && { echo "# $f:"; sed -n '/^bt.rule/,$s/^/#   /p' "$f"; } >&2
done
is "$_rc" 0 "the generator found no escape: $(head -1 "$T/gen.out")"
like "$(head -1 "$T/gen.out")" "^seed [0-9]+: [0-9]+ cases, [0-9]+ stopped by time" "the generator ran"
