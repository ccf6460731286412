#!/bin/sh
# --retrace rewrites obfuscated class and method names (ProGuard/R8
# mapping.txt); long imports show progress only when stderr is a terminal.
. tests/lib.sh

# The example's symbols play the obfuscated names here.
cat >"$T/mapping.txt" <<'MAP'
# compiler: R8
com.original.HomeActivity -> com.example.Main:
    int counter -> a
    1:5:void loadEverything():10:14 -> load
    void onCreate(android.os.Bundle) -> onCreate
com.original.SyncWorker -> com.example.Worker:
    void runSync() -> run
MAP
db=$T/r.db
"$BIN" import -q "$FIX/example" --retrace "$T/mapping.txt" -o "$db"
got=$("$BIN" query "$db" "SELECT name FROM frames WHERE name != '(idle)' ORDER BY id" --format tsv | sed 1d | tr '\n' '|')
is "$got" "void android.os.Looper.loop()|com.original.HomeActivity.onCreate(android.os.Bundle)|com.original.HomeActivity.loadEverything()|void java.lang.Object.wait(long, int)|com.original.SyncWorker.runSync()|void java.lang.Object.notifyAll()|" "retraced names (return type dropped), framework names kept"
is "$(q "$db" "SELECT class || '.' || method FROM frames WHERE id = 3")" "com.original.HomeActivity.loadEverything" "retraced name parsed into class and method"
is "$(q "$db" "SELECT value FROM meta WHERE key = 'retraced_frames'")" 3 "retraced frame count recorded"
err=$("$BIN" import "$FIX/example" --retrace "$T/none.txt" -o "$T/x.db" 2>&1)
is "$?" 1 "missing retrace mapping: exit 1"
like "$err" "cannot open '.*none.txt'" "missing retrace mapping: message"
check "missing retrace mapping: no database" test ! -e "$T/x.db"

# Progress: a pseudo-terminal gets percentages, a pipe gets nothing.
"$MKDUMP" --records 140000 --seed 5 --no-truth "$T/big" >/dev/null
out=$(script -qec "'$BIN' import '$T/big' -o '$T/big.db'" /dev/null | tr '\r' '\n')
like "$out" "importing '.*big': +[0-9]+%" "progress shown on a terminal"
rm -f "$T/big.db"
err=$("$BIN" import "$T/big" -o "$T/big.db" 2>&1 >/dev/null)
is "$(printf '%s\n' "$err" | grep -c importing)" 0 "no progress when stderr is not a terminal"
