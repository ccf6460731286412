#!/bin/sh
# Times a rule sets at the ends of the integers (issue 34 item 10): a
# finding at INT64_MIN or INT64_MAX and a table's ts column of them reach
# every writer's "since the start" arithmetic, held at the ends rather than
# overflowing (UBSan aborts on an overflow: `make asan` runs this too);
# every format is written, exit 0.
. tests/lib.sh
cat >"$T/ends.lua" <<'LUA'
bt.rule{ id = "ends", run = function()
  bt.finding{ message = "at the start of time", tid = bt.main_tid(), ts = math.mininteger, dur = 1 }
  bt.finding{ message = "at the end of time", tid = bt.main_tid(), ts = math.maxinteger, dur = math.maxinteger }
  bt.table{ name = "ends", title = "Ends", columns = { "ts", "v" },
    rows = { { math.mininteger, 1 }, { math.maxinteger, 2 } } }
end }
LUA
for f in txt md html xlsx json; do
	"$BIN" -q "$ROOT/examples/sampling.bin" --rules "$T/ends.lua" -o "$T/r.$f" 2>"$T/err.$f"
	is "$?" 0 "$f: written"
	is "$(grep -c 'runtime error' "$T/err.$f")" 0 "$f: no arithmetic overflow"
done
like "$(grep -o 'data-ts="[^"]*"' "$T/r.html" | tr '\n' ' ')" 'data-ts="-9223372036854775808".*data-ts="9223372[0-9]{12}"' \
	"HTML: the findings' times since the start (the first held at the end of the integers)"
like "$(grep 'start of time' "$T/r.md")" "-9223372036854\\.8" "Markdown: the finding's time, a finite number of ms"
python3 -c 'import openpyxl, sys; openpyxl.load_workbook(sys.argv[1]); print("read")' "$T/r.xlsx" >"$T/x" 2>&1
is "$(cat "$T/x")" read "xlsx: openpyxl reads the workbook"
