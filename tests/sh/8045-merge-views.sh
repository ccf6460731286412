#!/bin/sh
# The fleet report for people, in its real consumers: the HTML page in
# headless Chromium (no console message, nothing fetched, the script ran,
# a histogram per group with a startup, a table of contents whose links
# land, a screenshot that is not blank); the xlsx workbook in openpyxl
# (its sheets, every p50/p90/p99 equal to the fleet JSON's, ms cells);
# the Markdown's figures; all of a fleet where version B's
# ConfigLoader.applyDefaults takes 40 ms more, which the methods table
# and the time to initial display show. Same inputs, same bytes.
. tests/lib.sh
GEN=$ROOT/tests/fixtures/mksummaries.py

mkdir -p "$T/reps"
for s in 1 2 3; do
	"$MKDUMP" --records 6000 --seed $s --startup cold --no-truth "$T/d$s" >/dev/null
	"$BIN" analyze -q "$T/d$s" -o "$T/reps/r$s.json"
done
python3 "$GEN" --n 300 --seed 9 --shift 40 --method ConfigLoader.applyDefaults "$T/sums" "$T"/reps/*.json
"$BIN" merge -q --group version=A "$T/sums/A" --group version=B "$T/sums/B" \
	-o "$T/f.json" -o "$T/f.md" -o "$T/f.html" -o "$T/f.xlsx"
is "$?" 0 "merge to json, md, html and xlsx exits 0"
"$BIN" merge -q --group version=A "$T/sums/A" --group version=B "$T/sums/B" -o "$T/g.xlsx" -o "$T/g.html" -o "$T/g.md"
check "the same inputs give the same xlsx bytes" cmp "$T/f.xlsx" "$T/g.xlsx"
check "and the same HTML and Markdown" sh -c "cmp '$T/f.html' '$T/g.html' && cmp '$T/f.md' '$T/g.md'"

# Markdown: the shifted method leads, and is slower in B.
md=$(cat "$T/f.md")
like "$(printf '%s\n' "$md" | sed -n '/^## version = B/,$p' | awk '/^### Methods/ { on = 1 } on && /^\| [A-Z]/ { print; exit }')" \
	"^\| ConfigLoader.applyDefaults \| 150 \|" "version B: ConfigLoader.applyDefaults dominates, in all 150 traces (short name)"
mean() {   # version: the method's mean self CPU in ms
	printf '%s\n' "$md" | sed -n "/^## version = $1/,/^## /p" | grep '^| ConfigLoader.applyDefaults |' | head -n 1 |
		awk -F'|' '{ gsub(/ ms| /, "", $5); print $5 }'
}
# (the 150 traces a side draw their devices' speeds apart: the rest of the
# method's time moves by up to a tenth of it between the versions)
check "its mean self CPU is about 40 ms more in B ($(mean A) -> $(mean B) ms)" \
	awk -v a="$(mean A)" -v b="$(mean B)" 'BEGIN { m = a / 10 > 10 ? a / 10 : 10; exit !(b - a > 40 - m && b - a < 40 + m) }'
like "$md" "\| time to initial display \| 300 \|" "the distributions table has the time to initial display of all 300"
like "$md" "### Waits most often on the startup's critical path" "and the waits on the critical path"

# xlsx in openpyxl: the figures are the fleet JSON's.
python3 - "$T/f.xlsx" "$T/f.json" <<'PY'
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
d = json.load(open(sys.argv[2]))
print(("ok" if wb.sheetnames == ["Summary", "Distributions", "Methods", "Waits"] else "not ok") +
      f" - the workbook's sheets: {wb.sheetnames}")
ws = wb["Distributions"]
head = [c.value for c in ws[1]]
col = {h: i for i, h in enumerate(head)}
bad = rows = 0
for r in ws.iter_rows(min_row=2, values_only=True):
    g, name = r[col["group"]], r[col["name"]]
    grp = d["all"] if g == "all traces" else d["groups"][g.split(" = ")[0]]["values"][g.split(" = ")[1]]
    dist = grp["values"][name]
    scale = 1e6 if name.endswith("_ns") or "_ns." in name else 1
    for k in ("p50", "p90", "p99"):
        if abs(r[col[k + (" ms" if True else "")]] * scale - dist[k]) > 0.5:
            bad += 1
    rows += 1
print(("ok" if rows > 30 and not bad else "not ok") + f" - Distributions: {rows} rows, every quantile the JSON's ({bad} differ)")
ws = wb["Methods"]
top = [r for r in ws.iter_rows(min_row=2, values_only=True) if r[0] == "version = B"][0]
print(("ok" if top[1] == "ConfigLoader.applyDefaults" and "applyDefaults(java.util.Map)" in top[8] else "not ok") +
      f" - Methods: version B's first is {top[1]}, its signature in the folded column")
fmt = ws.cell(row=2, column=5).number_format
print(("ok" if "0.0" in fmt else "not ok") + f" - self CPU cells in ms ({fmt})")
print(("ok" if wb["Summary"]["A1"].value == "Fleet" else "not ok") + " - the Summary sheet opens with its title")
PY

# HTML in Chromium.
if [ ! -x "$CHROME" ]; then
	echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	exit 0
fi
chrome() {   # url, extra args...
	url=$1; shift
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "$url" >"$T/out" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
	return 0
}
attr() { grep -o " $2=\"[^\"]*\"" "$1" | head -n 1 | sed 's/^[^"]*"//; s/"$//'; }
is "$(grep -Eci 'https?://[^"]*"[^>]*(src|href)|src=|href="[^#]|url\(|@import' "$T/f.html")" 0 "nothing refers outside the page"
chrome "file://$T/f.html" --dump-dom
cp "$T/out" "$T/dom"
is "$(cat "$T/console")" "" "no console message"
is "$(grep -c 'ERR_\|net::' "$T/err")" 0 "no network request"
is "$(attr "$T/dom" data-errors)" 0 "the page recorded no error"
is "$(attr "$T/dom" data-ready)" 1 "its script ran"
groups=$(grep -c '<section id="group-' "$T/dom")
is "$(grep -c '<figure><svg' "$T/dom")" "$groups" "a histogram for each of the $groups groups"
toc=$(sed -n 's/.*<nav id="toc">\(.*\)<\/nav>.*/\1/p' "$T/dom" | grep -o 'href="#[^"]*"' | sed 's/href="#//; s/"$//')
missing=0
for id in $toc; do grep -q " id=\"$id\"" "$T/dom" || missing=$((missing + 1)); done
check "the table of contents links every group ($(echo $toc | wc -w)), each to its section ($missing missing)" \
	test "$(echo $toc | wc -w)" -eq "$groups" -a "$missing" -eq 0
like "$(grep -o 'title="void com.example.app.startup.ConfigLoader.applyDefaults(java.util.Map)"' "$T/dom" | head -n 1)" \
	"applyDefaults" "a short method name carries its signature on hover"
chrome "file://$T/f.html" --screenshot="$T/f.png" --window-size=1400,1000
check "a screenshot is taken" test -s "$T/f.png"
check "larger than a blank page ($(wc -c <"$T/f.png") bytes)" test "$(wc -c <"$T/f.png")" -gt 30000
