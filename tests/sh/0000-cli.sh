#!/bin/sh
# The command line contract (DESIGN §3): commands, help, version, exit
# codes, input recognition, --db and reuse of a trace database.
. tests/lib.sh

ex=$FIX/example

"$BIN" >/dev/null 2>&1; is "$?" 2 "no arguments: exit 2"
like "$("$BIN" --help)" "^usage: btrace-analyze" "--help prints usage"
is "$("$BIN" --version)" "btrace-analyze 0.1.0" "--version"
is "$("$BIN" import --version)" "btrace-analyze 0.1.0" "--version after a command"
like "$("$BIN" help import)" "import INPUT... -o trace.db" "help import"
like "$("$BIN" query --help)" "read-only SQL" "query --help"
"$BIN" help nosuch >/dev/null 2>&1; is "$?" 2 "help of an unknown command: exit 2"
err=$("$BIN" "$ex" --bogus 2>&1); is "$?" 2 "unknown option: exit 2"
like "$err" "error: unknown option '--bogus' for 'analyze'" "unknown option named"
"$BIN" import "$ex" >/dev/null 2>&1; is "$?" 2 "import without -o: exit 2"
"$BIN" query "$ex" "SELECT 1" --format xml >/dev/null 2>&1; is "$?" 2 "unknown query format: exit 2"
"$BIN" "$ex" --format yaml >/dev/null 2>&1; is "$?" 2 "unknown report format: exit 2"
err=$("$BIN" query "$ex" "DELETE FROM samples" 2>&1); is "$?" 2 "modifying SQL refused"
like "$err" "only read-only SQL" "modifying SQL: message"
err=$("$BIN" query "$ex" "SELECT nosuch FROM samples" 2>&1); is "$?" 1 "bad SQL: exit 1, an error (issue 36 item 9: it was a usage error, 2)"
like "$err" "bad query: no such column: nosuch" "bad SQL: SQLite's message"
unlike "$err" "usage:" "bad SQL: no usage line"
is "$("$BIN" query -q "$ex" ".tables" --format tsv | awk -F'\t' '$1 == "samples" { print $2 }')" table \
	"query .tables lists the tables (issue 36 item 9)"
like "$("$BIN" query -q "$ex" " .tables; " --format tsv | grep '^threads')" "^threads	table	.*tid.*name" \
	"... with their columns"
err=$("$BIN" "$T/none.bin" 2>&1); is "$?" 1 "missing input: exit 1"
like "$err" "^btrace-analyze: error: cannot open '.*none.bin': No such file or directory" "missing input: message"
mkdir -p "$T/empty"
err=$("$BIN" "$T/empty" 2>&1); is "$?" 1 "directory without a dump: exit 1"
like "$err" "no trace found in directory" "directory without a dump: message"

# Inputs: a directory, <stem>-mapping.bin beside the dump, --mapping.
like "$("$BIN" "$ex")" "mapping +.*sampling-mapping.bin" "mapping found beside the dump"
like "$("$BIN" "$ex/")" "samples +4 of 4 records" "directory input"
mkdir -p "$T/stem" "$T/elsewhere"
cp "$ex/sampling.bin" "$T/stem/run1.bin"
cp "$ex/sampling-mapping.bin" "$T/stem/run1-mapping.bin"
is "$(q "$T/stem/run1.bin" "SELECT value FROM meta WHERE key = 'mapping'")" "$T/stem/run1-mapping.bin" "<stem>-mapping.bin found"
mkdir -p "$T/device"
cp "$ex/sampling.bin" "$T/device/sampling"
cp "$ex/sampling-mapping.bin" "$T/device/sampling-mapping"
is "$(q "$T/device" "SELECT value FROM meta WHERE key = 'mapping'")" "$T/device/sampling-mapping" "device names in a directory: sampling + sampling-mapping"
is "$(q "$T/device/sampling" "SELECT count(*) FROM frames WHERE name LIKE '<unknown%'")" 0 "device name sampling-mapping found beside sampling"
cp "$ex/sampling.bin" "$T/elsewhere/"
is "$(q "$T/elsewhere/sampling.bin" "SELECT count(*) FROM diagnostics WHERE code = 'mapping_missing'")" 1 "no mapping beside: diagnosed"
is "$("$BIN" query -q "$T/elsewhere/sampling.bin" "SELECT count(*) FROM frames WHERE name LIKE '<unknown%'" --format tsv --mapping "$ex/sampling-mapping.bin" | sed -n 2p)" 0 "--mapping used"
"$BIN" "$ex" --mapping "$T/nomap.bin" >/dev/null 2>&1; is "$?" 1 "--mapping to a missing file: exit 1"

# --db keeps the database; a trace database is reused as it is.
"$BIN" -q "$ex/sampling.bin" --db "$T/kept.db" >/dev/null
check "--db keeps the database" test -f "$T/kept.db"
cp "$T/kept.db" "$T/moved.db"
is "$(q "$T/moved.db" 'SELECT count(*) FROM samples')" 4 "trace database reused without the dump"
is "$(q "$T/moved.db" "SELECT value FROM meta WHERE key = 'tool'")" btrace-analyze "trace database marked"
"$BIN" -q "$T/moved.db" -o "$T/r.json"
like "$(head -c 300 "$T/r.json")" '"schema": "btrace-analyze/report@1"' "analyze of a trace database writes the JSON report"
like "$("$BIN" import -q "$ex" -o "$T/imp.db" && ls "$T")" "imp.db" "import -o"
printf 'SQLite format 3\000 but not really' >"$T/fake.db"
err=$("$BIN" "$T/fake.db" 2>&1); is "$?" 1 "foreign SQLite-looking file: exit 1"

# --slice-policy: an unknown one is refused when parsed, whatever the
# input; a known one is refused where slices are not reconstructed here.
err=$("$BIN" "$ex" --slice-policy bogus 2>&1); is "$?" 2 "unknown slice policy with a dump: exit 2"
like "$err" "error: unknown slice policy 'bogus' \(known: idle, midpoint, btrace\)" "unknown slice policy with a dump: message"
err=$("$BIN" "$T/moved.db" --slice-policy bogus 2>&1); is "$?" 2 "unknown slice policy with a trace database: exit 2"
like "$err" "error: unknown slice policy 'bogus'" "unknown slice policy with a trace database: message"
err=$("$BIN" query "$ex" "SELECT 1" --slice-policy=bogus 2>&1); is "$?" 2 "unknown slice policy (query, =VALUE): exit 2"
err=$("$BIN" "$T/moved.db" --slice-policy btrace 2>&1); is "$?" 2 "slice policy with a trace database: exit 2"
like "$err" "error: --slice-policy does not apply to '.*moved.db': a trace database keeps the slices it was imported with" \
	"slice policy with a trace database: message"
"$BIN" query "$T/moved.db" "SELECT 1" --slice-policy midpoint >/dev/null 2>&1; is "$?" 2 "slice policy with a trace database (query): exit 2"
"$BIN" -q "$ex" --perfetto "$T/ex.pb" >/dev/null
err=$("$BIN" "$T/ex.pb" --slice-policy midpoint 2>&1); is "$?" 2 "slice policy with a Perfetto trace: exit 2"
like "$err" "error: --slice-policy does not apply to '.*ex.pb': a Perfetto trace brings its own slices, taken as it gives them \(only a btrace 3.0 sampling dump or an iOS database is sliced from samples\)" \
	"slice policy with a Perfetto trace: message"
"$BIN" import -q "$T/ex.pb" --slice-policy btrace -o "$T/pf.db" >/dev/null 2>&1; is "$?" 2 "slice policy with a Perfetto trace (import): exit 2"
check "slice policy with a Perfetto trace (import): no database left" test ! -e "$T/pf.db"
"$BIN" -q "$T/ex.pb" >/dev/null; is "$?" 0 "a Perfetto trace without --slice-policy still loads"
# ART and btrace 2.0 traces record their calls' entries and exits: no policy
# changes their slices, so none is accepted (it was, and changed nothing).
python3 tests/fixtures/mkart.py "$T/m.trace" --seed 3 >/dev/null
python3 tests/fixtures/mkbtrace2.py "$T/b2" --seed 3 >/dev/null
for x in "m.trace:an ART method trace" "b2:a btrace 2.0 trace"; do
	err=$("$BIN" import -q "$T/${x%%:*}" --slice-policy midpoint -o "$T/x.db" 2>&1)
	is "$?" 2 "slice policy with ${x#*:}: exit 2"
	like "$err" "error: --slice-policy does not apply to '.*${x%%:*}': ${x#*:} brings its own slices" \
		"... saying why"
	check "... and no database left" test ! -e "$T/x.db"
	"$BIN" -q "$T/${x%%:*}" >/dev/null 2>&1; is "$?" 0 "... and without it, it loads"
done
is "$(q "$T/moved.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" idle "a trace database without --slice-policy still loads"
"$BIN" -q "$ex" --slice-policy btrace -o "$T/bt.json"; is "$?" 0 "slice policy with a dump: exit 0"
is "$("$BIN" query -q "$ex" "SELECT value FROM meta WHERE key = 'slice_policy'" --slice-policy btrace --format tsv | sed -n 2p)" btrace \
	"slice policy with a dump: applied"

# -o again: one report in each format (issue 36 item 1: only the last was
# written, exit 0); --format with several is a usage error.
"$BIN" "$ex" -o "$T/m.md" -o "$T/m.json" -o "$T/m.txt" 2>"$T/m.err"
is "$?" 0 "several -o: exit 0"
check "... the Markdown written" grep -q '^# ' "$T/m.md"
is "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["schema"])' "$T/m.json")" "btrace-analyze/report@1" \
	"... the JSON written"
check "... the text written" test -s "$T/m.txt"
is "$(grep -c '^btrace-analyze: wrote ' "$T/m.err")" 3 "... each announced"
"$BIN" -q "$ex" -o "$T/f.md" -o "$T/f.json" --format md 2>"$T/f.err"
like "$?-$(cat "$T/f.err")" "^2-btrace-analyze: error: --format applies to one output" "--format with several -o: exit 2, why"
"$BIN" "$ex" --db "$T/keep.db" -o "$T/k.json" 2>"$T/k.err"
like "$(cat "$T/k.err")" "btrace-analyze: wrote .*keep\\.db \\(" "--db is announced as every other output (issue 36 item 1)"
