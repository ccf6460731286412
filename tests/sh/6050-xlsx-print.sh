#!/bin/sh
# xlsx for print and review, read back by openpyxl: every sheet of the
# example's workbook and of a compare workbook prints landscape, one page
# wide and any number tall, with a print area, and each table's title and
# header rows repeat on every page; the call tree's rows carry outline
# levels equal to the JSON rows' indent depth (capped at Excel's 7), the
# names without the spaces but indented; table sheets read as people do.
# Printed, they read whole (issue 36, item 8; tests/fixtures/check_xlsx_print.py):
# a heading over numbers is right-aligned over them (left-aligned, it read
# as the previous column's); a finding's message and evidence, and any long
# text, wrap in their column, the row tall enough (they were cut by the
# next cell or the page's edge); compare's headline wraps over merged
# columns (it was cut at column B). LibreOffice (where installed) prints
# the workbook in far fewer pages than the same workbook without the print
# setup, and every long text whole.
. tests/lib.sh
CHECK=tests/fixtures/check_xlsx.py
EX=$ROOT/examples/sampling.bin
"$BIN" analyze -q "$EX" -o "$T/ex.xlsx"
is "$?" 0 "analyze -o ex.xlsx exits 0"
"$BIN" analyze -q "$EX" -o "$T/ex.json"
is "$(python3 "$CHECK" report "$T/ex.xlsx" "$T/ex.json" "$BIN" "$EX")" ok \
	"check_xlsx.py: sheets, cells, print setup, outline and names agree with the JSON report"

setup() {   # workbook: one line per sheet not printed as it should be, or "ok N"
	python3 - "$1" <<'PY'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
bad = []
for ws in wb:
    ps, pr = ws.page_setup, ws.sheet_properties.pageSetUpPr
    if ps.orientation != "landscape" or not (pr and pr.fitToPage) or int(ps.fitToWidth or 1) != 1 \
            or ps.fitToHeight is None or int(ps.fitToHeight) != 0 or not ws.print_area:
        bad.append(f"{ws.title}: {ps.orientation} fit {pr and pr.fitToPage} {ps.fitToWidth}x{ps.fitToHeight} "
                   f"area {ws.print_area}")
print("\n".join(bad) or f"ok {len(wb.sheetnames)}")
PY
}
like "$(setup "$T/ex.xlsx")" '^ok 1[0-9]$' "example: every sheet landscape, fit to 1 page wide by any tall, a print area"

python3 - "$T/ex.xlsx" "$T/ex.json" >"$T/tree" <<'PY'
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
rep = json.load(open(sys.argv[2]))
rows = rep["tables"]["main_calltree"]["rows"]
ws = wb["Main thread call tree"]
depth = [(len(r[0]) - len(r[0].lstrip(" "))) // 2 for r in rows]
level = [ws.row_dimensions[i + 3].outline_level or 0 for i in range(len(rows))]
indent = [int(ws.cell(i + 3, 1).alignment.indent or 0) for i in range(len(rows))]
sig = [c.value for c in ws[2]].index("method signature") + 1   # the full names, folded away
text = [ws.cell(i + 3, sig).value for i in range(len(rows))]
print(ws.print_title_rows)
print(len(rows) > 20, max(depth) > 7)
print(level == [min(d, 7) for d in depth], indent == [min(d, 15) for d in depth])
print(text == [r[0].lstrip(" ") for r in rows])
print(ws.sheet_properties.outlinePr.summaryBelow)
PY
is "$(sed -n 1p "$T/tree")" '$1:$2' "call tree: its title and header rows repeat on every printed page"
is "$(sed -n 2p "$T/tree")" 'True True' "call tree: the example's is deeper than Excel's 7 outline levels"
is "$(sed -n 3p "$T/tree")" 'True True' "call tree: outline level = the JSON row's depth (at most 7), cell indent too (at most 15)"
is "$(sed -n 4p "$T/tree")" 'True' "call tree: method signatures without the leading spaces"
is "$(sed -n 5p "$T/tree")" 'False' "call tree: a subtree folds under its caller's row, above it"

python3 - "$T/ex.xlsx" >"$T/names" <<'PY'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
print(all(len(n) <= 31 and "_" not in n for n in wb.sheetnames), len(set(n.lower() for n in wb.sheetnames)) == len(wb.sheetnames))
links = {c.value: c.hyperlink.location for r in wb["Summary"].iter_rows() for c in r if c.hyperlink}
print(links.get("Main thread: call tree (top-down)"))
print(sorted(n for n in wb.sheetnames if n.startswith("Main thread")))
PY
is "$(sed -n 1p "$T/names")" 'True True' "sheet names: within 31 characters, no table_name style, unique"
is "$(sed -n 2p "$T/names")" "'Main thread call tree'!A1" "the Summary's link to the call tree follows its new name"
is "$(sed -n 3p "$T/names")" "['Main thread call tree', 'Main thread inclusive time', 'Main thread messages', 'Main thread self time', 'Main thread waits']" \
	"the main thread's sheets read as people say them"

# A compare workbook: every sheet, Charts and Diff included.
for s in 1 2; do
	"$MKDUMP" --records 20000 --build-seed 7 --seed $s --no-truth "$T/b$s" >/dev/null
	"$MKDUMP" --records 20000 --build-seed 7 --seed $((s + 10)) --lock-scale 2 --no-truth "$T/h$s" >/dev/null
	"$BIN" analyze -q "$T/b$s" -o "$T/b$s.json"
	"$BIN" analyze -q "$T/h$s" -o "$T/h$s.json"
done
"$BIN" compare -q --base "$T/b1.json" "$T/b2.json" --head "$T/h1.json" "$T/h2.json" -o "$T/cmp.xlsx" 2>/dev/null
"$BIN" compare -q --base "$T/b1.json" "$T/b2.json" --head "$T/h1.json" "$T/h2.json" -o "$T/cmp.json" 2>/dev/null
like "$(setup "$T/cmp.xlsx")" '^ok [0-9]+$' "compare: every sheet landscape, fit to 1 page wide by any tall, a print area"
is "$(python3 "$CHECK" compare "$T/cmp.xlsx" "$T/cmp.json")" ok "compare: check_xlsx.py agrees, print titles on the table sheets"

# Read whole: the example's findings (startup.lua over a 50 ms budget: long
# messages and evidence), and a compare whose headline is over 200 characters
# (5 + 5 runs, a method made slower in the head).
PRINT=tests/fixtures/check_xlsx_print.py
"$BIN" analyze -q "$EX" --rules examples/startup.lua --set budget_ms=50 -o "$T/st.xlsx"
for n in 1 2 3 4 5 6 7 8 9 10; do
	set --
	[ "$n" -gt 5 ] && set -- --slow-method 'Compressor.gzip(:200'
	"$MKDUMP" --records 3000 --build-seed 23 --seed "$n" --startup cold --no-truth "$@" "$T/r$n" >/dev/null
	"$BIN" analyze -q "$T/r$n" -o "$T/r$n.json"
done
"$BIN" compare -q --base "$T/r1.json" "$T/r2.json" "$T/r3.json" "$T/r4.json" "$T/r5.json" \
	--head "$T/r6.json" "$T/r7.json" "$T/r8.json" "$T/r9.json" "$T/r10.json" -o "$T/c5.xlsx" -o "$T/c5.json" 2>/dev/null
python3 "$PRINT" "$T/st.xlsx" heads wraps >"$T/st.print" 2>&1
python3 "$PRINT" "$T/c5.xlsx" heads wraps para "$T/c5.json" >"$T/c5.print" 2>&1
like "$(sed -n 1p "$T/st.print")" '^ok [1-9][0-9]* right [1-9][0-9]* left$' \
	"report: every heading over numbers is right-aligned over them, and only those"
like "$(sed -n 1p "$T/c5.print")" '^ok [1-9][0-9]* right [1-9][0-9]* left$' \
	"compare: likewise, on every sheet"
like "$(sed -n 2p "$T/st.print")" '^ok [1-9][0-9]* wrapped$' \
	"report: the findings' long messages and evidence wrap in columns at most 60 wide, their rows tall enough"
like "$(sed -n 2p "$T/c5.print")" '^ok [1-9][0-9]* wrapped$' \
	"compare: long metric names, reasons and the diff's methods likewise"
like "$(sed -n 3p "$T/c5.print")" '^ok 2[0-9][0-9] characters$' \
	"compare: the Summary's headline (and its other long lines) merged over 80+ characters of columns, wrapped, the row tall enough, in the print area"

# LibreOffice prints it: far fewer pages than without the print setup.
SOFFICE=$(command -v soffice || command -v libreoffice)
if [ -z "$SOFFICE" ]; then
	echo "ok - LibreOffice prints the example in few pages # SKIP no soffice (apt-get install libreoffice-calc-nogui)"
	echo "ok - and fewer than without the print setup # SKIP no soffice"
	echo "ok - LibreOffice prints every long text whole: the findings' messages and evidence # SKIP no soffice"
	echo "ok - and compare's headline, policy, metric names, reasons and the diff's methods # SKIP no soffice"
	exit 0
fi
python3 - "$T/ex.xlsx" "$T/plain.xlsx" <<'PY'
import re, sys, zipfile
# The same workbook without the print setup: no page setup, fit or print
# titles and areas, as a workbook made without them.
src, dst = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED)
for item in src.infolist():
    data = src.read(item.filename).decode()
    if item.filename.startswith("xl/worksheets/sheet"):
        data = re.sub(r"<pageSetUpPr[^>]*/>", "", data)
        data = re.sub(r"<pageSetup[^>]*/>", "", data)
        data = re.sub(r"<headerFooter>.*?</headerFooter>", "", data)
    if item.filename == "xl/workbook.xml":
        data = re.sub(r"<definedName name=\"_xlnm\.Print_(Area|Titles)\"[^>]*>[^<]*</definedName>", "", data)
        data = data.replace("<definedNames></definedNames>", "")
    dst.writestr(item, data)
dst.close()
PY
mkdir -p "$T/pdf"   # one start of LibreOffice for all four
timeout 180 "$SOFFICE" -env:UserInstallation="file://$T/lo" --headless --convert-to pdf --outdir "$T/pdf" \
	"$T/ex.xlsx" "$T/plain.xlsx" "$T/st.xlsx" "$T/c5.xlsx" >/dev/null 2>&1
pages() { python3 -c 'import re, sys; print(len(re.findall(rb"/Type\s*/Page(?![s\w])", open(sys.argv[1], "rb").read())))' "$1"; }
ours=$(pages "$T/pdf/ex.pdf" 2>/dev/null || echo 0)
plain=$(pages "$T/pdf/plain.pdf" 2>/dev/null || echo 0)
check "LibreOffice prints the example in few pages ($ours, at most 30)" test "$ours" -gt 0 -a "$ours" -le 30
check "and under half of the pages without the print setup ($plain)" test $((ours * 2)) -lt "$plain"

# Every long text of both workbooks is in the PDF's text whole: LibreOffice
# leaves out what it cuts at the next cell or the page's edge (before the
# wrapping, their text stopped at "over the 50.0" and "(8.303 ms -> 12.98 ms); m").
if ! command -v pdftotext >/dev/null; then
	echo "ok - LibreOffice prints every long text whole: the findings' messages and evidence # SKIP no pdftotext (apt-get install poppler-utils)"
	echo "ok - and compare's headline, policy, metric names, reasons and the diff's methods # SKIP no pdftotext"
	exit 0
fi
like "$(python3 "$PRINT" "$T/st.xlsx" whole "$T/pdf/st.pdf" 2>&1)" '^ok [1-9][0-9]* whole$' \
	"LibreOffice prints every long text whole: the findings' messages and evidence"
like "$(python3 "$PRINT" "$T/c5.xlsx" whole "$T/pdf/c5.pdf" 2>&1)" '^ok [1-9][0-9]* whole$' \
	"and compare's headline, policy, metric names, reasons and the diff's methods"
