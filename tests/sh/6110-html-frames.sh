#!/bin/sh
# The HTML timeline's frames track (issue 37 item 3): drawn by headless
# Chromium above the main thread's lane, every display frame of the input
# and a mark for every janky one, counted by the page as it draws them
# (data-tl-frames, data-tl-janky) and compared here with the database of
# the same input, read by sqlite3; the page's own self-test hovers the
# worst frame (its id, jank and cause in the tooltip) and clicks it (the
# view zooms to its span, the main thread's slices in it, its deadline a
# tick). On the device simulator's feed (seed 931, 120 Hz), the real
# API 32 start, a dump without frames (no track, no legend entry), a
# hostile table (times at the int64 limits, markup in a cause) and one of
# more frames than a page keeps. Screenshots of the timeline show the
# janky marks' colours, and none without frames.
. tests/lib.sh
. tests/chrome.sh
selftest() {   # name: the page's self-test lines about frames, as TAP
	sed -n '/<pre id="bt-selftest"/,/<\/pre>/p' "$T/dom" | sed 's/<[^>]*>//g; s/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g' |
		grep -E '^(ok|not ok) - (the frames track|and marked every janky|hovering a frame|a click on it|the main thread.s slices in it|its vsync and deadline|after reset, every frame|no frames)' |
		sed "s/^\(not ok\|ok\) - /\1 - $1: page: /"
}
# Pixels of a PNG in the janky marks' colours (util.js jankColor, within 8
# a channel), decoded by tests/fixtures/png.py.
janky_pixels() {   # png
	python3 - "$ROOT/tests/fixtures" "$1" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from png import pixels
px = pixels(sys.argv[2])
next(px)
jank = [(0xef, 0x6c, 0x5a), (0xd3, 0x2f, 0x2f), (0xa3, 0x15, 0x15)]
near = {(r + i, g + j, b + k) for r, g, b in jank
        for i in range(-8, 9) for j in range(-8, 9) for k in range(-8, 9)}
print(sum(p in near for p in px))
EOF
}
# The page of db: self-test, frames and janky frames drawn against the table.
page() {   # name html db
	chrome "file://$2#selftest"
	is "$(cat "$T/console")" "" "$1: no console message"
	is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "$1: the script ran, no error, self-test passes"
	selftest "$1"
	is "$(attr data-tl-frames) $(attr data-tl-janky)" "$(sqlite3 "$3" "SELECT count(*), count(nullif(janky, 0)) FROM ui_frames" | tr '|' ' ')" \
		"$1: the frames track drew every frame of ui_frames and marked every janky one"
}

# The device simulator's feed: thousands of frames, some janky.
D=$T/feed
python3 "$ROOT/tests/fixtures/mkdevice.py" "$D" --model feed --seed 931 --records 20000 >/dev/null
"$BIN" -q "$D" -o "$T/feed.html"
is "$?" 0 "feed: analyze -o x.html exits 0"
"$BIN" import -q "$D" -o "$T/feed.db"
set -- $(sqlite3 "$T/feed.db" "SELECT count(*), sum(janky) FROM ui_frames" | tr '|' ' ')
check "feed: the input has frames ($1) and janky ones ($2)" test "${1:-0}" -gt 1000 -a "${2:-0}" -gt 10
page feed "$T/feed.html" "$T/feed.db"
is "$(attr data-tl-frames) $(attr data-tl-janky)" "$1 $2" "feed: drawn, as SELECT count(*), sum(janky) FROM ui_frames says"
like "$(attr data-tl-frame)" '^[0-9]+$' "feed: a frame was clicked ($(attr data-tl-frame))"
is "$(sqlite3 "$T/feed.db" "SELECT janky FROM ui_frames WHERE id = $(attr data-tl-frame)")" 1 "feed: and it is janky"
like "$(cat "$T/dom")" '</i>janky frame, 1 vsync missed</span>.*</i>frame deadline</span>' \
	"feed: the legend gives the janky frames' colours and the deadline's"
chrome "file://$T/feed.html#only=timeline" "$T/feed.png"
check "feed: a screenshot of the timeline with its frames ($(wc -c <"$T/feed.png") bytes)" test "$(wc -c <"$T/feed.png")" -gt 20000
n=$(janky_pixels "$T/feed.png")
check "feed: the janky frames' marks show in it ($n pixels)" test "${n:-0}" -gt 50
size=$(wc -c <"$T/feed.html")
data=$(grep -o '"frames":{"rows":\[[^]]*\][^}]*}' "$T/feed.html" | wc -c)
check "feed: the frames cost the page $data of its $size bytes, under 100 a frame" test "$data" -gt 0 -a "$data" -lt $((100 * $1))

# A real start (API 32): its three frames, none janky, each with the
# frame timeline's or the cadence's deadline.
P=$REAL/perfetto-api32-startup-warm/derived/api32_app7663_only.pb
"$BIN" import -q "$P" -o "$T/pf.db"
"$BIN" -q "$T/pf.db" -o "$T/pf.html"
page "API 32 start" "$T/pf.html" "$T/pf.db"

# No frames: no track, no frames in the legend, no janky colour drawn.
"$MKDUMP" --records 3000 --seed 5 "$T/plain" >/dev/null
"$BIN" import -q "$T/plain" -o "$T/plain.db"
is "$(sqlite3 "$T/plain.db" "SELECT count(*) FROM ui_frames")" 0 "no frames: the dump has none"
"$BIN" -q "$T/plain.db" -o "$T/plain.html"
chrome "file://$T/plain.html#selftest"
is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "no frames: the script ran, no error, self-test passes"
selftest "no frames"
is "$(attr data-tl-frames)/$(grep -c '"frames":{' "$T/plain.html")" /0 "no frames: no frames data, nothing counted"
unlike "$(cat "$T/dom")" '</i>(frame: |janky frame|frame deadline)' "no frames: no frames in the legend"
chrome "file://$T/plain.html#only=timeline" "$T/plain.png"
is "$(janky_pixels "$T/plain.png")" 0 "no frames: the screenshot has no janky colour (the count above can fail)"

# Hostile rows: times at the int64 limits, a negative duration, huge vsync
# and id, markup and a long cause; the page stays sane and counts them all.
cp "$T/feed.db" "$T/hostile.db"
sqlite3 "$T/hostile.db" "UPDATE ui_frames SET ts = 9223372036854775807, end_ts = -9223372036854775808,
	expected_ts = -9223372036854775808, deadline_ts = 9223372036854775807, vsync = 9223372036854775807,
	draw_ts = -9223372036854775808, draw_dur = -5, missed_vsyncs = 1000000000000, janky = 7,
	cause = '</script><b id=\"pwn\">x</b>' || replace(hex(zeroblob(400)), '0', 'é')
	WHERE id = (SELECT min(id) FROM ui_frames);
	UPDATE ui_frames SET ts = -9223372036854775808, dur = -9223372036854775808, id = 9223372036854775807,
	period_ns = -1 WHERE id = (SELECT max(id) FROM ui_frames)"
"$BIN" -q "$T/hostile.db" -o "$T/hostile.html"
is "$?" 0 "hostile: analyze exits 0"
is "$(grep -c '<b id' "$T/hostile.html")" 0 "hostile: no markup from a cause"
page hostile "$T/hostile.html" "$T/hostile.db"
is "$(grep -c '<b id' "$T/dom")" 0 "hostile: no element from the text"

# More frames than a page keeps (20,000): the first, and the head says so.
cp "$T/feed.db" "$T/many.db"
for k in 1 2 3 4; do
	sqlite3 "$T/many.db" "INSERT INTO ui_frames SELECT id + $k * 1000000, tid, ts, vsync, dur, end_ts, period_ns,
		expected_ts, deadline_ts, janky, missed_vsyncs, draw_ts, draw_dur, cause FROM ui_frames WHERE id < 1000000"
done
total=$(sqlite3 "$T/many.db" "SELECT count(*) FROM ui_frames")
"$BIN" -q "$T/many.db" -o "$T/many.html"
chrome "file://$T/many.html#selftest"
is "$(attr data-selftest)/$(attr data-tl-frames)" pass/20000 "$total frames: the page keeps and draws the first 20000"
like "$(grep -o '"total":[0-9]*,"janky"' "$T/many.html")" "\"total\":$total," "$total frames: the page knows how many there were"
