# Progress for every phase of a long run (issue 21): on a terminal the
# line names the phase running (importing, the rules, each writer) and
# its time, and is cleared before the run's last words; nothing on a pipe
# or with -q.
. tests/lib.sh

# (7520-android-retrace-progress checks the import's percentage.)
# A rule that takes a while, so its phase outlasts the half second a
# phase runs before the line shows it (100M additions took 0.5-0.9 s on a
# loaded machine, and the line missed them in make asan; 200M, twice).
cat >"$T/slow.lua" <<'LUA'
bt.rule{ id = "slow", run = function()
  local x = 0
  for i = 1, 200000000 do x = x + i end
  bt.metric("slow.x", x)
end }
LUA
pty() { script -qec "$1" /dev/null | tr '\r' '\n'; }

out=$(pty "'$BIN' '$FIX/seed2' --rules '$T/slow.lua' --set lua.max_instructions=2000000000 --set lua.max_cpu_ms=600000 -o '$T/r.txt'")
like "$out" "running the rules \\([0-9]+\\.[0-9] s\\)" "the rules' phase shows, with its time"
like "$(printf '%s' "$out" | tail -n 2)" "wrote .*r\\.txt" "the run's last words after the line"
check "the line is cleared before them" sh -c "script -qec \"'$BIN' '$FIX/seed2' --rules '$T/slow.lua' --set lua.max_instructions=2000000000 --set lua.max_cpu_ms=600000 -o '$T/r2.txt'\" /dev/null | grep -q \"\$(printf '\\r\\033\\[K')btrace-analyze: wrote\""

err=$("$BIN" "$FIX/seed2" --rules "$T/slow.lua" --set lua.max_instructions=2000000000 --set lua.max_cpu_ms=600000 -o "$T/r3.txt" 2>&1 >/dev/null)
is "$(printf '%s\n' "$err" | grep -c 'running the rules\|importing')" 0 "no progress when stderr is a pipe"
out=$(pty "'$BIN' -q '$FIX/seed2' --rules '$T/slow.lua' --set lua.max_instructions=2000000000 --set lua.max_cpu_ms=600000 -o '$T/r4.txt'")
is "$(printf '%s\n' "$out" | grep -c 'running the rules\|importing')" 0 "-q: no progress on a terminal either"
check "the report is the same with the line as without" cmp "$T/r.txt" "$T/r3.txt"
