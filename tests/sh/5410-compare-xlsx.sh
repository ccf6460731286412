#!/bin/sh
# compare -o x.xlsx: the Charts sheet, read by openpyxl. Runs of one
# simulated build (mkdump --build-seed), 5 + 5: main-thread lock waits made
# twice as long regress some metrics, and each regressed metric gets one
# column chart titled by its name (a cell holding it), its unit on the
# value axis, a base and a head series of one value per run; the same
# build on both sides has no chart, and says so.
. tests/lib.sh
run() {   # name seed [mkdump options]
	name=$1 seed=$2
	shift 2
	"$MKDUMP" --build-seed 7 --seed "$seed" --main-messages 300 --records 2000000 --no-truth \
		"$@" "$T/$name" >/dev/null && "$BIN" -q "$T/$name" -o "$T/$name.json"
}
for s in 1 2 3 4 5; do
	run base$s $s
	run same$s $((s + 10))
	run lock$s $((s + 10)) --lock-scale 2
done
side() { for s in 1 2 3 4 5; do printf '%s ' "$T/$1$s.json"; done; }
charts() {   # workbook compare.json: one line per chart, and a last line with the check
	python3 - "$1" "$2" <<'PY'
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
d = json.load(open(sys.argv[2]))
ws = wb["Charts"]
reg = [m for m in d["metrics"] if m["gated"] and m["verdict"] == "regressed"]
def cell(ref):   # 'Charts!$A$3' -> its value
    sheet, at = ref.split("!")
    return wb[sheet.strip("'")][at.replace("$", "")].value
def count(ref):   # rows in 'Charts!$B$6:$B$10'
    a, b = ref.split("!")[1].replace("$", "").split(":")
    return int(b[1:]) - int(a[1:]) + 1
bad, seen = [], []
for ch in ws._charts:
    title = cell(ch.title.tx.strRef.f)
    seen.append(title)
    names = [cell(s.tx.strRef.f) for s in ch.series]
    lens = [count(s.val.numRef.f) for s in ch.series]
    unit = cell(ch.y_axis.title.tx.strRef.f)
    m = [m for m in reg if m["name"] == title]
    want = m and {"ns": "ms", "bytes": "MiB"}.get(m[0]["unit"], m[0]["unit"])
    if type(ch).__name__ != "BarChart" or names != ["base", "head"] or lens != [5, 5] or not m or unit != want:
        bad.append((title, names, lens, unit, want))
print(len(ws._charts), len(reg))
print(ws["A1"].value)
print(sorted(seen) == sorted(m["name"] for m in reg[:20]) and not bad or bad)
PY
}

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) -o "$T/lock.xlsx" 2>/dev/null
is "$?" 3 "lock waits twice as long: exit 3, the workbook written"
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) -o "$T/lock.json" 2>/dev/null
charts "$T/lock.xlsx" "$T/lock.json" >"$T/c"
set -- $(head -n 1 "$T/c")
check "lock waits: some metrics regressed ($2)" test "${2:-0}" -gt 0
is "$1" "$2" "lock waits: one chart per regressed metric"
like "$(sed -n 2p "$T/c")" "^Every run's value of each regressed metric" "lock waits: the sheet says what the charts show"
is "$(sed -n 3p "$T/c")" True "lock waits: each chart titled by its metric, base and head series of 5 runs, its unit on the axis"
python3 -c 'import openpyxl, sys
ws = openpyxl.load_workbook(sys.argv[1])["Summary"]
print(any(c.value == "Charts: every run'"'"'s value of the regressed metrics" and c.hyperlink for r in ws.iter_rows() for c in r))' \
	"$T/lock.xlsx" >"$T/l"
is "$(cat "$T/l")" True "the Summary links to the Charts sheet"

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) -o "$T/same.xlsx"
is "$?" 0 "same build: exit 0"
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) -o "$T/same.json"
charts "$T/same.xlsx" "$T/same.json" >"$T/c"
is "$(head -n 1 "$T/c")" "0 0" "same build: no chart"
is "$(sed -n 2p "$T/c")" "No metric regressed: no charts." "same build: the sheet says so"

# More than 20 regressed: 20 charts and a note. Every metric gated at a
# zero threshold against a slower build regresses many, at alpha 0.05: at
# 0.01 a count that is the same in every run of a side (messages over
# 16 ms) is perfectly apart, and the family's least p, 2 of 252
# relabelings, is then every metric's.
cat >"$T/all.lua" <<'LUA'
gate.metric("*", { gate = true, max_regress = "0%", noise_floor = "0" })
LUA
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) --rules "$T/all.lua" --alpha 0.05 -o "$T/many.xlsx" 2>/dev/null
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) --rules "$T/all.lua" --alpha 0.05 -o "$T/many.json" 2>/dev/null
charts "$T/many.xlsx" "$T/many.json" >"$T/c"
set -- $(head -n 1 "$T/c")
check "many regressed: more than 20 ($2)" test "${2:-0}" -gt 20
is "$1" 20 "many regressed: 20 charts"
like "$(sed -n 2p "$T/c")" "the first 20 of $2 regressed metrics" "many regressed: a note says how many more"
is "$(sed -n 3p "$T/c")" True "many regressed: the first 20 charted, each right"
