# xlsx: analyze's and compare's workbooks read back by openpyxl (an
# independent reader) agree with the JSON output of the same run, sheet by
# sheet and cell by cell (facts, findings by severity, metrics, tables with
# frozen header, autofilter, number formats and top-10 highlights, native
# charts whose data equals the database's); the bytes do not depend on when
# they were written; a failed run leaves no workbook.
. tests/lib.sh
# A $TMPDIR of its own: "no temporary workbook left" below must not count
# those of a test running beside this one.
TMPDIR=$T/tmp
export TMPDIR
mkdir -p "$TMPDIR"
CHECK=tests/fixtures/check_xlsx.py

report() {   # name input [analyze options]: the xlsx and JSON of one analysis
	name=$1 in=$2; shift 2
	"$BIN" analyze -q "$in" "$@" -o "$T/$name.xlsx"
	is "$?" 0 "$name: analyze -o $name.xlsx exits 0"
	"$BIN" analyze -q "$in" "$@" -o "$T/$name.json"
	is "$(python3 "$CHECK" report "$T/$name.xlsx" "$T/$name.json" "$BIN" "$in")" ok \
		"$name: openpyxl reads back the JSON report's sheets, cells, formats and charts"
}
EX=$ROOT/examples/sampling.bin
cat >"$T/sev.lua" <<'EOF'
bt.builtin("attribution")
bt.rule{ id = "sev", run = function()
  bt.finding{ severity = "info", message = "an info" }
  bt.finding{ severity = "error", message = "an <error> & more", tid = bt.main_tid(), ts = 12000000000,
    dur = 5000000, evidence = { wall_ns = 12345678, what = "x" } }
  bt.finding{ severity = "warning", message = "a warning" }
  for _, name in ipairs{ "a/b*c?[d]:e\\f", "'quoted'", "summary", "History",
      "a name that is longer than thirty-one characters", "a name that is longer than thirty-one characters too",
      "\xff\xfe bad utf-8", "" } do
    bt.table{ name = name, title = "odd name " .. name, columns = { "k", "wall_ns" },
      rows = { { name, 1500000 }, { "x", 2500000 } } }
  end
end }
EOF
report example "$EX"
report startup "$EX" --rules examples/startup.lua --set budget_ms=50
report severities "$EX" --rules "$T/sev.lua"
report d200k "$FIX/d200k"
is "$(python3 -c 'import json, sys; print(sorted({f["severity"] for f in json.load(open(sys.argv[1]))["findings"]}))' "$T/startup.json")" \
	"['info', 'warning']" "startup.lua over a 50 ms budget: warnings to check, and the breakdown"

sleep 1
"$BIN" analyze -q "$EX" --rules examples/startup.lua --set budget_ms=50 -o "$T/again.xlsx"
check "the same input a second later: byte-identical (fixed document time)" cmp "$T/startup.xlsx" "$T/again.xlsx"
TZ=Asia/Tokyo "$BIN" analyze -q "$EX" --rules examples/startup.lua --set budget_ms=50 -o "$T/tz.xlsx"
check "and in another time zone" cmp "$T/startup.xlsx" "$T/tz.xlsx"
"$BIN" analyze -q "$EX" --format xlsx >"$T/stdout.xlsx"
check "--format xlsx to stdout: the same bytes" cmp "$T/example.xlsx" "$T/stdout.xlsx"
like "$(unzip -p "$T/example.xlsx" docProps/core.xml)" '2000-01-01T00:00:00Z' "the document's time is the fixed one"
check "the zip is sound (unzip -t)" unzip -tq "$T/d200k.xlsx"

# The checker fails when the workbook and the report disagree.
unlike "$(python3 "$CHECK" report "$T/example.xlsx" "$T/startup.json" "$BIN" "$EX")" '^ok' \
	"the checker rejects a workbook against another run's report"
python3 - "$T/example.json" "$T/mut.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["tables"]["threads"]["rows"][0][3] += 1000
json.dump(d, open(sys.argv[2], "w"))
EOF
like "$(python3 "$CHECK" report "$T/example.xlsx" "$T/mut.json" "$BIN" "$EX")" 'Threads!D3' \
	"the checker names a cell that is off by 1 us"

# compare: lock waits doubled, five runs a side (one a side decides nothing).
for s in 1 2 3 4 5; do
	"$MKDUMP" --records 5000 --build-seed 7 --seed $s --jitter 0.02 --no-truth "$T/b$s" >/dev/null
	"$MKDUMP" --records 5000 --build-seed 7 --seed $((s + 10)) --jitter 0.02 --lock-scale 2 \
		--no-truth "$T/h$s" >/dev/null
	"$BIN" analyze -q "$T/b$s" -o "$T/b$s.json"
	"$BIN" analyze -q "$T/h$s" -o "$T/h$s.json"
done
"$BIN" compare --base "$T"/b?.json --head "$T"/h?.json -o "$T/cmp.xlsx" 2>/dev/null
is "$?" 3 "compare -o cmp.xlsx: a regression still exits 3"
"$BIN" compare --base "$T"/b?.json --head "$T"/h?.json -o "$T/cmp.json" 2>/dev/null
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["verdict"], d["counts"]["regressed"] > 0)' "$T/cmp.json")" \
	"regressed True" "the lock-scaled head regressed"
is "$(python3 "$CHECK" compare "$T/cmp.xlsx" "$T/cmp.json")" ok \
	"compare: openpyxl reads back a sheet per family, base/head columns, coloured changes and verdicts, the diff"
"$BIN" compare --base "$T"/b?.json --head "$T"/h?.json --format xlsx >"$T/cmp2.xlsx" 2>/dev/null
check "compare xlsx: byte-identical run to run" cmp "$T/cmp.xlsx" "$T/cmp2.xlsx"
"$BIN" compare --base "$T/b1.json" "$T/b2.json" --head "$T/h1.json" "$T/h2.json" -o "$T/two.xlsx"
"$BIN" compare --base "$T/b1.json" "$T/b2.json" --head "$T/h1.json" "$T/h2.json" -o "$T/two.json"
is "$(python3 "$CHECK" compare "$T/two.xlsx" "$T/two.json")" ok "compare, 2 + 2 runs (inconclusive): the workbook agrees"
"$BIN" compare --base "$T/b1.json" --head "$T/b2.json" -o "$T/same.xlsx"
is "$?" 0 "compare, the same build: exit 0"
"$BIN" compare --base "$T/b1.json" --head "$T/b2.json" -o "$T/same.json"
is "$(python3 "$CHECK" compare "$T/same.xlsx" "$T/same.json")" ok "compare, the same build: the workbook agrees"
unlike "$(python3 "$CHECK" compare "$T/same.xlsx" "$T/cmp.json")" '^ok' "the checker rejects another compare's workbook"

# Failures leave nothing behind.
"$BIN" analyze -q "$EX" -o "$T/nodir/r.xlsx" 2>"$T/err"; is "$?" 1 "unwritable xlsx path: exit 1"
check "and no file" test ! -e "$T/nodir/r.xlsx"
"$BIN" import -q "$EX" -o "$T/example.db"
TMPDIR=$T/nodir "$BIN" analyze -q "$T/example.db" -o "$T/notmp.xlsx" 2>"$T/err"; is "$?" 1 "no temporary directory: exit 1"
like "$(cat "$T/err")" 'temporary file' "and the error says what failed"
check "and no workbook" test ! -e "$T/notmp.xlsx"
left=$(find "$TMPDIR" -maxdepth 1 -name 'btrace-analyze-xlsx-*' -newer "$T/example.xlsx" 2>/dev/null | wc -l)
is "$left" 0 "no temporary workbook left in the temporary directory"

# libxlsxwriter is loaded when a workbook starts, not linked: a run
# without an xlsx output does not map it (nor minizip and libcrypto with
# it); a library under its soname that lacks a function the writers call
# fails the xlsx output, naming the library and the function, and leaves
# nothing, while the other outputs still work.
unlike "$(readelf -d "$BIN" | grep NEEDED)" 'xlsxwriter' "the program does not link libxlsxwriter"
so=$(objdump -p "$(${CC:-cc} -print-file-name=libxlsxwriter.so)" | awk '$1 == "SONAME" { print $2 }')
mkdir -p "$T/fakelib"
echo 'int workbook_new(void) { return 0; }' >"$T/fake.c"
${CC:-cc} -shared -fPIC -o "$T/fakelib/$so" "$T/fake.c"
LD_LIBRARY_PATH=$T/fakelib "$BIN" analyze -q "$T/example.db" -o "$T/fake.xlsx" 2>"$T/err"
is "$?" 1 "a $so without the writers' functions: exit 1"
like "$(cat "$T/err")" "^btrace-analyze: error: '$T/fake.xlsx': cannot load $so for the xlsx output: no function [a-z_]+$" \
	"... the error names the library and a missing function"
check "... and no workbook" test ! -e "$T/fake.xlsx"
LD_LIBRARY_PATH=$T/fakelib "$BIN" analyze -q "$T/example.db" -o "$T/fake.json"
is "$?" 0 "... a JSON output of the same run does not need it"
