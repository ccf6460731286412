# Hostile rules and gate scripts (DESIGN §7, issue 17): one time budget
# per file covers Lua, pattern matching and SQL; finalizers are refused;
# one memory account covers Lua's heap, the copies into the report and the
# file's SQLite statements; transactions and pragma tables are refused; a
# finding keeps text after a NUL. Each stop is the run's error (exit 1,
# no report) naming file, rule and limit.
# Every run is under `timeout`, so a hole fails the test instead of hanging.
# Also the 20k-method dump without page faults, which was quadratic.
# Its time bounds are of CPU time (user + system of the commands run), which
# another test beside it on the cores does not stretch as it does wall time
# (20k methods: 0.6 s of CPU either way; 2.2 s of wall beside a busy test).
. tests/lib.sh
H=$ROOT/tests/rules/hostile
J=$ROOT/tests/fixtures/report_json.py
SLOW=1
case $B in *asan*) SLOW=4 ;; esac   # the sanitizers' own cost

# mark NAME: the CPU time of every command waited for so far; spent A B:
# the milliseconds of it between two marks (times(1) reports the children's
# user and system time on its second line, "0m1.230000s 0m0.100000s").
mark() { times >"$T/mark.$1"; }
spent() {
	awk 'FNR == 2 { for (i = 1; i <= 2; i++) { sub(/s$/, "", $i); split($i, x, "m"); v[FILENAME] += x[1] * 60 + x[2] } }
		END { printf "%d\n", 1000 * (v[ARGV[2]] - v[ARGV[1]]) }' "$T/mark.$1" "$T/mark.$2"
}

run() {   # name [options...]: analyse seed2 with hostile/NAME.lua into $T/NAME.json
	_n=$1; shift
	timeout 60 "$BIN" -q "$FIX/seed2" --rules "$H/$_n.lua" -o "$T/$_n.json" "$@" 2>"$T/$_n.err"
	is "$?" 0 "$_n: the analysis ends (exit 0)"
}
stop() {   # name [options...]: as run, for a file a limit stops: exit 1, no report
	_n=$1; shift
	timeout 60 "$BIN" -q "$FIX/seed2" --rules "$H/$_n.lua" -o "$T/$_n.json" "$@" 2>"$T/$_n.err"
	is "$?" 1 "$_n: the stop is an error (exit 1)"
	check "$_n: no report" test ! -e "$T/$_n.json"
}
finding() {   # name rule -> "severity: message"
	python3 "$J" finding "$T/$1.json" "$2"
}
stopped() {   # name rule limit
	like "$(cat "$T/$1.err")" "^btrace-analyze: error: rule '$2' in '.*hostile/$1\\.lua' stopped: .*$3 limit" \
		"$1: rule $2 stopped by the $3 limit, file named"
}

# Time: 60 spinning rules share one budget.
mark a
stop spin60
mark b; t=$(spent a b)
stopped spin60 spin1 time
like "$(cat "$T/spin60.err")" "spin60\\.lua:3: time limit: 200000000 instructions " \
	"spin60: the stop says where and which budget"
check "spin60: stopped within the one budget (${t} ms of CPU)" test "$t" -lt $((10000 * SLOW))

stop pcall-loop --set lua.max_instructions=20000000
stopped pcall-loop pcall-loop time

# Finalizers: refused by setmetatable, an ordinary error.
run finalizer
like "$(finding finalizer gc)" "^error: .*finalizer\\.lua:5: setmetatable: __gc metamethods are not allowed" \
	"a __gc metamethod is refused"
is "$(finding finalizer gc-later)" "info: no finalizer ran" "a __gc added later never runs"
is "$(finding finalizer gc-close)" "info: plain metatables still work" "setmetatable without __gc works"
printf 'setmetatable({}, { __gc = print })\n' >"$T/gc.lua"
timeout 60 "$BIN" -q "$FIX/seed2" --rules "$T/gc.lua" -o "$T/gc.json" 2>"$T/gc.err"
like "$?-$(cat "$T/gc.err")" "^1-btrace-analyze: error: .*gc\\.lua:1: setmetatable: __gc metamethods are not allowed" \
	"an uncaught __gc refusal ends the run (exit 1)"

# Pattern matching: the matcher charges its steps, and gives Lua's results.
run patterns-ok
is "$(finding patterns-ok patterns)" "info: patterns agree" "find, match, gmatch and gsub give Lua's results"
for p in find gsub gmatch plain; do
	mark a
	stop pattern-$p --set lua.max_instructions=20000000
	mark b; t=$(spent a b)
	stopped pattern-$p $p time
	check "pattern-$p: stopped in ${t} ms of CPU" test "$t" -lt $((5000 * SLOW))
done

# SQL: the VM's steps count.
for s in cte join; do
	stop sql-$s --set lua.max_instructions=20000000
	stopped sql-$s $s time
done

# Transactions and pragma tables refused; the schema's pragmas kept.
run sql-refused
for sql in "BEGIN" "SAVEPOINT s" "RELEASE s" "COMMIT" "ROLLBACK" "SELECT * FROM pragma_database_list" \
	"SELECT * FROM pragma_compile_options" "SELECT * FROM pragma_function_list" \
	"SELECT count(*) FROM pragma_table_list"; do
	like "$(finding sql-refused "$sql")" "^error: .*sql-refused\\.lua:6: query refused" "refused: $sql"
done
is "$(finding sql-refused schema)" "info: schema pragma tables still work: true" "pragma_table_info still works"

# Memory: one account for Lua, the host copies and SQLite.
rss() {   # command... -> peak RSS in MB on stdout, the command's output to $T/rss.out
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$T/rss" "$@" >"$T/rss.out" 2>&1
		echo $(($(tail -1 "$T/rss") / 1024))
	else
		"$@" >"$T/rss.out" 2>&1; echo 0
	fi
}
for m in findings evidence cells lua randomblob printf sql-cell sql-agg param; do
	mb=$(rss timeout 60 "$BIN" -q "$FIX/seed2" --rules "$H/mem-$m.lua" -o "$T/mem-$m.json" --set lua.max_cpu_ms=60000)
	like "$(cat "$T/rss.out")" "^btrace-analyze: error: rule '[^']*' in '.*hostile/mem-$m\\.lua' stopped: .*memory limit" \
		"mem-$m: stopped by the memory limit, file named"
	is "$(wc -l <"$T/rss.out")" 1 "mem-$m: one line on stderr"
	check "mem-$m: peak RSS ${mb} MB is bounded" test "$mb" -lt $((900 * SLOW))
	check "mem-$m: no report" test ! -e "$T/mem-$m.json"
done

# A NUL does not cut a finding's text.
run nul
is "$(finding nul nul)" "info: before�after" "the text after a NUL is kept (the NUL shown as U+FFFD)"
is "$(python3 -c 'import json, sys
f = [f for f in json.load(open(sys.argv[1]))["findings"] if f["rule"] == "nul"][0]
print(sorted(f["evidence"]))' "$T/nul.json")" "['e', 'k�ey']" "an evidence key after a NUL is kept too"

# 40k metrics from a rule, each set twice: fast (and no leak under make asan).
mark a
run metrics40k
mark b; t=$(spent a b)
is "$(python3 "$J" metric "$T/metrics40k.json" m.40000)" 80000 "metrics40k: a metric set again takes the later value"
check "metrics40k: 80k bt.metric calls in ${t} ms of CPU" test "$t" -lt $((2000 * SLOW))

# 40k parameter names read: kept in a hash, not a list searched each time.
mark a
run param40k --set p40000=2
mark b; t=$(spent a b)
is "$(finding param40k param40k)" "info: read 40001" "param40k: every bt.param read, --set applied"
check "param40k: 40k bt.param calls in ${t} ms of CPU" test "$t" -lt $((2000 * SLOW))

# Gate scripts: the same sandbox, one budget per script.
timeout 60 "$BIN" -q "$FIX/seed2" -o "$T/r.json"
gate() {   # name limit-pattern
	timeout 60 "$BIN" compare --base "$T/r.json" --head "$T/r.json" --rules "$H/$1.lua" -o "$T/g.txt" 2>"$T/g.err"
	is "$?" 1 "$1: the compare fails (exit 1)"
	like "$(cat "$T/g.err")" "^btrace-analyze: error: gate script.*hostile/$1\\.lua.*$2" "$1: $2"
	check "$1: no output" test ! -e "$T/g.txt"
}
gate gate-budget "stopped: .*time limit"
gate gate-spin "stopped: .*time limit"
gate gate-pattern "stopped: .*time limit"
gate gate-memory "stopped: (.*:[0-9]+: )?memory limit"
gate gate-gc "__gc metamethods are not allowed"

# The default rules on 20k distinct methods and no page faults: each
# method's share is under the cut, so no method.* metric (0 >= 0 made
# every method 10 metrics, found by linear search: 109 s).
timeout 120 "$MKDUMP" --methods 20000 --no-faults "$T/m20k" >/dev/null
is "$?" 0 "mkdump --methods 20000 --no-faults"
is "$(q "$T/m20k" "SELECT count(DISTINCT frame_id) || ' ' || sum(self_majflt) FROM methods")" "20001 0" \
	"the dump has 20k distinct methods (and Looper.loop) and no page faults"
mark a
timeout 120 "$BIN" -q "$T/m20k" -o "$T/m20k.json"
is "$?" 0 "20k methods: exit 0"
mark b; t=$(spent a b)
check "20k methods, no faults: analysed in ${t} ms of CPU (< 2 s)" test "$t" -lt $((2000 * SLOW))
is "$(python3 -c 'import json,sys; print(sum(k.startswith("method.") for k in json.load(open(sys.argv[1]))["metrics"]))' "$T/m20k.json")" \
	10 "only Looper.loop, the one method over the cut, gets method.* metrics"

# The promises are stated where users look.
h=$("$BIN" help rules)
like "$h" "so is a compare gate script" "help rules: gate scripts share the sandbox"
like "$h" "no I/O .*no io, os" "help rules: no I/O"
like "$h" "time .*one budget of Lua instructions, pattern-matching steps and SQL" "help rules: one time budget"
like "$h" "memory .*one account for the Lua heap" "help rules: one memory account"
