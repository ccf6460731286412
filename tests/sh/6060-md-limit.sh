#!/bin/sh
# The Markdown report is for a pull-request comment (65,536 characters):
# per-method metrics are counted, not listed, and a report that would be
# longer is cut under 60,000 characters, the least important parts first
# (the metrics, the last tables, ...), at a row, with a note at the end.
. tests/lib.sh
md_check() {   # file: "ok" or what is wrong
	python3 - "$1" <<'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
bad = []
if len(t) >= 60000:
    bad.append(f"{len(t)} characters")
if t.count("<details>") != t.count("</details>"):
    bad.append("an open <details>")
if not t.startswith("# btrace-analyze report: "):
    bad.append("no title first")
print(bad or "ok")
PY
}

"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/ex.md"
is "$(md_check "$T/ex.md")" ok "the example: under 60,000 characters, well formed"
unlike "$(cat "$T/ex.md")" "Left out to stay under" "the example: nothing left out"
"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/ex.json"
n=$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
print(sum(1 for k in m if k.startswith("method.") or ".method." in k or ".by." in k))' "$T/ex.json")
like "$(cat "$T/ex.md")" "<summary>Metrics \\([0-9]+(; [0-9]+ of 0 left out)?; $n per-method metrics in the JSON report\\)" \
	"the per-method metrics are counted, not listed ($n)"
unlike "$(cat "$T/ex.md")" "^\\| method\\." "no method.* row"

# 3,000 findings with long messages: the report would be ~600 KB.
cat >"$T/many.lua" <<'LUA'
bt.rule{ id = "many", severity = "warning", run = function()
  for i = 1, 3000 do
    bt.finding{ message = string.format("finding %d: %s", i, string.rep("long words ", 15)) }
  end
end }
LUA
"$BIN" -q "$ROOT/examples/sampling.bin" --rules "$T/many.lua" -o "$T/many.md"
is "$(md_check "$T/many.md")" ok "3,000 findings: under 60,000 characters, well formed"
like "$(tail -1 "$T/many.md")" "^> Left out to stay under GitHub's comment limit \\(60000 characters here\\): .*findings \\(cut\\)" \
	"3,000 findings: the note says the findings were cut"
like "$(cat "$T/many.md")" "^\\| warning \\| many \\| finding 1: " "3,000 findings: the first rows are kept"
unlike "$(cat "$T/many.md")" "finding 3000:" "3,000 findings: the last are not"
