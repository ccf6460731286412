#!/bin/sh
# The workbook's Frames sheet (issue 37 item 3): every row of ui_frames,
# not only the worst the frames table lists, read back by openpyxl (an
# independent reader) and compared with the database of the same input
# read by sqlite3: the count, the janky count, a few frames' values (the
# worst, the first, one with a draw), and every cell
# (tests/fixtures/check_xlsx.py frames). On the device simulator's feed,
# the real API 32 start (frames with a RenderThread draw), a dump without
# frames (no sheet, no link) and hostile rows; the checker fails on a
# table that differs from the sheet.
. tests/lib.sh
CHECK=$ROOT/tests/fixtures/check_xlsx.py

# Values of the workbook's Frames sheet: a python expression over rows
# (the data rows as tuples, from row 3), title and names (the sheets).
sheet() {   # xlsx expression
	python3 - "$1" "$2" <<'EOF'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
names = wb.sheetnames
ws = wb["Frames"] if "Frames" in names else None
rows = list(ws.iter_rows(min_row=3, values_only=True)) if ws else []
title = ws["A1"].value if ws else None
print(eval(sys.argv[2]))
EOF
}

D=$T/feed
python3 "$ROOT/tests/fixtures/mkdevice.py" "$D" --model feed --seed 931 --records 20000 >/dev/null
"$BIN" -q "$D" -o "$T/feed.xlsx"
is "$?" 0 "feed: analyze -o x.xlsx exits 0"
"$BIN" import -q "$D" -o "$T/feed.db"
db() { sqlite3 -separator ' ' "$T/feed.db" "$1"; }
is "$(sheet "$T/feed.xlsx" 'len(rows), sum(r[7] == "yes" for r in rows)' | tr -d '(),')" \
	"$(db "SELECT count(*), sum(janky) FROM ui_frames")" "feed: a row per frame, janky ones marked yes (SELECT count(*), sum(janky))"
is "$(sheet "$T/feed.xlsx" '"Frames" in names and "Worst frames" in names and names.index("Frames") < names.index("Worst frames")')" True \
	"feed: the Frames sheet, before the frames table's (Worst frames)"
like "$(sheet "$T/feed.xlsx" 'title')" "^Frames: $(db "SELECT sum(janky) || ' of ' || count(*) FROM ui_frames") janky" \
	"feed: its title counts them"
t0=$(db "SELECT value FROM meta WHERE key = 'first_ts'")
worst=$(db "SELECT id FROM ui_frames ORDER BY missed_vsyncs DESC, end_ts - ts DESC, id LIMIT 1")
is "$(sheet "$T/feed.xlsx" "[(r[0], round(r[2], 6), round(r[3], 6), round(r[4], 6), round(r[6], 6), r[7], r[8], r[11]) for r in rows if r[0] == $worst][0]")" \
	"$(python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); r = c.execute("SELECT id, ts, end_ts, dur, deadline_ts, janky, missed_vsyncs, cause FROM ui_frames WHERE id = ?", (int(sys.argv[2]),)).fetchone(); t0 = int(sys.argv[3]); print((r[0], round((r[1] - t0) / 1e6, 6), round((r[2] - r[1]) / 1e6, 6), round(r[3] / 1e6, 6), round((r[4] - t0) / 1e6, 6), "yes" if r[5] else "no", r[6], r[7]))' "$T/feed.db" "$worst" "$t0")" \
	"feed: the worst frame ($worst): its start, frame time, main-thread time, deadline (ms), jank, vsyncs missed and cause"
is "$(sheet "$T/feed.xlsx" 'rows[0][0], round(rows[0][2], 6), rows[0][7]' | tr -d "(),'")" \
	"$(db "SELECT id, round((ts - $t0) / 1e6, 6), CASE janky WHEN 1 THEN 'yes' ELSE 'no' END FROM ui_frames ORDER BY ts, id LIMIT 1")" \
	"feed: the first row is the first frame, at ms from the trace's start"
is "$(python3 "$CHECK" frames "$T/feed.xlsx" "$BIN" "$T/feed.db")" ok "feed: every cell of the sheet as the database has it"
"$BIN" -q "$D" -o "$T/feed.json"
is "$(python3 "$CHECK" report "$T/feed.xlsx" "$T/feed.json" "$BIN" "$T/feed.db")" ok \
	"feed: and the whole workbook agrees with the JSON report, the Summary linking the Frames sheet"

# The checker fails when the sheet and the table differ.
cp "$T/feed.db" "$T/mut.db"
sqlite3 "$T/mut.db" "UPDATE ui_frames SET janky = 1 - janky WHERE id = $worst"
like "$(python3 "$CHECK" frames "$T/feed.xlsx" "$BIN" "$T/mut.db")" '^Frames: ' "the checker rejects a table with one frame's jank flipped"

# A real start (API 32): its frames have a RenderThread draw.
P=$REAL/perfetto-api32-startup-warm/derived/api32_app7663_only.pb
"$BIN" import -q "$P" -o "$T/pf.db"
"$BIN" -q "$T/pf.db" -o "$T/pf.xlsx"
is "$(python3 "$CHECK" frames "$T/pf.xlsx" "$BIN" "$T/pf.db")" ok "API 32 start: every cell of the Frames sheet as the database has it"
is "$(sheet "$T/pf.xlsx" 'len(rows), sum(r[9] is not None and r[10] is not None for r in rows)' | tr -d '(),')" \
	"$(sqlite3 -separator ' ' "$T/pf.db" "SELECT count(*), count(draw_ts) FROM ui_frames")" "API 32 start: its frames, the draws' columns filled where they have one"

# No frames: no sheet, no link.
"$MKDUMP" --records 3000 --seed 5 "$T/plain" >/dev/null
"$BIN" -q "$T/plain" -o "$T/plain.xlsx"
is "$("$BIN" query -q "$T/plain" "SELECT count(*) FROM ui_frames" --format tsv | sed -n 2p)" 0 "no frames: the dump has none"
is "$(sheet "$T/plain.xlsx" '"Frames" in names')" False "no frames: no Frames sheet"
unlike "$(unzip -p "$T/plain.xlsx" xl/worksheets/sheet1.xml)" "Frames" "no frames: and no link to one"

# Hostile rows: times at the int64 limits, a cause with markup; a workbook
# still, every row in it, numbers finite.
cp "$T/feed.db" "$T/hostile.db"
sqlite3 "$T/hostile.db" "UPDATE ui_frames SET ts = 9223372036854775807, end_ts = -9223372036854775808,
	deadline_ts = 9223372036854775807, draw_ts = -9223372036854775808, draw_dur = 5, cause = '<b>&amp;' || char(1)
	WHERE id = (SELECT min(id) FROM ui_frames)"
"$BIN" -q "$T/hostile.db" -o "$T/hostile.xlsx"
is "$?" 0 "hostile: analyze -o x.xlsx exits 0"
is "$(sheet "$T/hostile.xlsx" 'len(rows), all(abs(v) < 1e13 for r in rows for k, v in enumerate(r) if k > 1 and isinstance(v, (int, float)))' | tr -d '(),')" \
	"$(sqlite3 "$T/hostile.db" "SELECT count(*) FROM ui_frames") True" "hostile: every row, its times sane (under 1e13 ms)"
