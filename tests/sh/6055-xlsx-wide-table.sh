#!/bin/sh
# A rule table wider than Excel's 16,384 columns (issue 34, item 12): the
# columns past it were dropped from the workbook without a word. Now the
# sheet says so under the table: how many, from which column on (openpyxl
# reads it back); the JSON keeps every column.
. tests/lib.sh

cat >"$T/wide.lua" <<'LUA'
bt.rule{ id = "wide", severity = "info", run = function()
  local cols, row = {}, {}
  for i = 1, 16400 do cols[i] = "c" .. i; row[i] = i end
  bt.table{ name = "wide", title = "A wide table", columns = cols, rows = { row, row } }
end }
LUA
"$MKDUMP" --seed 1 --records 3000 --no-truth "$T/d" >/dev/null
"$BIN" -q "$T/d" --rules "$T/wide.lua" -o "$T/w.xlsx" && "$BIN" -q "$T/d" --rules "$T/wide.lua" -o "$T/w.json"
is "$?" 0 "a 16,400-column table: exit 0"
is "$(python3 - "$T/w.xlsx" <<'PY'
import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["A wide table"]
print(ws.max_column, ws.cell(3, 16384).value, ws.cell(5, 1).value)
PY
)" "16384 16384 (16 more columns, from 'c16385' on: Excel holds 16384)" \
	"the sheet holds 16,384 columns and says, under the table, that 16 more were left out"
is "$(jq_ "$T/w.json" 'len(d["tables"]["wide"]["columns"])')" 16400 "the JSON has every column"
