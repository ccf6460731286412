# analyze -o x.html: one self-contained page, checked by its real consumer,
# headless Chromium: it loads with no console error and nothing fetched,
# the flame graph and the timeline drew (the page counts what it drew in
# data-* attributes), the example's one linked wait has exactly its arrow,
# the page's own #selftest (click to zoom, hover, search, reset, wheel,
# drag) passes, and a screenshot is not blank. Hostile symbols stay text,
# and a page whose script is broken is caught, so the checks can fail.
. tests/lib.sh
CHROME=${CHROME:-/usr/bin/chromium}
if [ ! -x "$CHROME" ]; then
	echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	exit 0
fi

# Load url headless; stdout to $T/out, console messages to $T/console.
chrome() {   # url, extra args...
	url=$1; shift
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "$url" >"$T/out" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
	return 0
}

# The value of the first name="..." attribute in a DOM dump.
attr() {   # file name
	grep -o " $2=\"[^\"]*\"" "$1" | head -n 1 | sed 's/^[^"]*"//; s/"$//'
}

# Share of a PNG's pixels in flame-graph colours (warm: red high, blue low),
# in per mille, decoded with the standard library only.
warm_pixels() {   # png
	python3 - "$1" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat = 8, b''
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, warm = zlib.decompress(idat), w * bpp, bytearray(w * bpp), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    warm += sum(1 for x in range(0, stride, bpp) if line[x] > 190 and line[x + 2] < 120)
    prev = line
print(1000 * warm // (w * h))
EOF
}

"$MKDUMP" --records 200000 --seed 42 --no-truth "$T/d200k" >/dev/null
for case in example bundled d200k; do   # the spec's example, examples/sampling.bin, 200k records
	case $case in example) in=$FIX/example ;; bundled) in=$ROOT/examples/sampling.bin ;; *) in=$T/d200k ;; esac
	"$BIN" analyze -q "$in" -o "$T/$case.html"
	is "$?" 0 "$case: analyze -o x.html exits 0"
	check "$case: the page is written" test -s "$T/$case.html"
	is "$(grep -Eci 'https?://|src=|href=|url\(|@import' "$T/$case.html")" 0 "$case: nothing refers outside the page"
	like "$(grep -c '<script type="application/json" id="bt-data">' "$T/$case.html")" '^1$' "$case: one embedded data block"

	chrome "file://$T/$case.html#selftest" --dump-dom
	cp "$T/out" "$T/$case.dom"
	is "$(cat "$T/console")" "" "$case: no console message"
	is "$(grep -c 'ERR_\|net::' "$T/err")" 0 "$case: no network request"
	is "$(attr "$T/$case.dom" data-errors)" 0 "$case: the page recorded no error"
	is "$(attr "$T/$case.dom" data-ready)" 1 "$case: the script ran to its end"
	is "$(attr "$T/$case.dom" data-selftest)" pass "$case: the page's self-test passes"
	sed -n '/<pre id="bt-selftest"/,/<\/pre>/p' "$T/$case.dom" | grep '^not ok' | sed 's/^/# /'
	frames=$(attr "$T/$case.dom" data-flame-frames)
	check "$case: the flame graph drew frames ($frames)" test "${frames:-0}" -gt 3 -a "${frames:-0}" -lt 20000
	slices=$(attr "$T/$case.dom" data-tl-slices)
	check "$case: the timeline drew slices ($slices)" test "${slices:-0}" -gt 0
	check "$case: and messages" test "$(attr "$T/$case.dom" data-tl-messages)" -gt 0

	chrome "file://$T/$case.html" --screenshot="$T/$case.png" --window-size=1400,1000
	check "$case: a screenshot is taken" test -s "$T/$case.png"
	is "$(head -c 8 "$T/$case.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "$case: it is a PNG"
	check "$case: larger than a blank page" test "$(wc -c <"$T/$case.png")" -gt 30000
	warm=$(warm_pixels "$T/$case.png")
	check "$case: flame colours cover part of it ($warm per mille)" test "${warm:-0}" -gt 20
done

# The example's one wait linked to its waker: notifyAll on 1001 at 1.009 s
# ended main's wait that began at 1.002 s and lasted 8 ms.
is "$(attr "$T/example.dom" data-tl-arrows)" 1 "example: one arrow"
is "$(sed -n 's/.*<pre id="tl-arrows"[^>]*>\([^<]*\)<\/pre>.*/\1/p' "$T/example.dom")" \
	"1001 1009000000 -&gt; 1000 1010000000 wait" "example: from the waker (1001 at 1.009 s) to the wait's end (1000 at 1.010 s)"
arrows=$(attr "$T/d200k.dom" data-tl-arrows)
check "d200k: arrows drawn, at most 200 ($arrows)" test "${arrows:-0}" -gt 0 -a "${arrows:-0}" -le 200
like "$(grep -o 'data-tl-view="[0-9]* [0-9]*"' "$T/d200k.dom")" 'data-tl-view="0 [1-9][0-9]+"' "d200k: the timeline ends where it began after reset"

check "the same input gives the same bytes" sh -c "'$BIN' analyze -q '$FIX/example' -o '$T/again.html' && cmp '$T/again.html' '$T/example.html'"
"$BIN" analyze -q "$FIX/example" --format html >"$T/stdout.html"
check "--format html writes the same page to stdout" cmp "$T/stdout.html" "$T/example.html"
like "$(grep -o '[0-9]* more rows not shown' "$T/d200k.html")" '^[1-9][0-9]* more rows not shown$' \
	"d200k: a long table is cut, with a note of the rows left out"
size=$(wc -c <"$T/d200k.html")
check "d200k: the page stays small ($size bytes)" test "$size" -lt 4000000

# Hostile text: symbols and rule output holding markup stay text.
"$BIN" import -q "$FIX/example" -o "$T/hostile.db"
sqlite3 "$T/hostile.db" "UPDATE frames SET name = '</script><b id=\"pwn\">\$x & y</b>' WHERE id = (SELECT min(id) FROM frames)"
cat >"$T/hostile.lua" <<'EOF'
bt.rule{ id = "hostile", severity = "warning", run = function()
  bt.table{ name = "t", title = "<b id=\"pwn\">T</b>", columns = { "text" }, rows = { { "</script><b id=\"pwn\">&amp;</b>" } } }
  bt.finding{ message = "<b id=\"pwn\">m</b> & $1" }
end }
EOF
"$BIN" analyze -q "$T/hostile.db" -o "$T/hostile.html"
"$BIN" analyze -q "$T/hostile.db" --rules "$T/hostile.lua" -o "$T/hostile-rule.html"
is "$(cat "$T/hostile.html" "$T/hostile-rule.html" | grep -c '<b id')" 0 "hostile: no markup from the trace or the rules"
like "$(cat "$T/hostile-rule.html")" '&lt;b id=&quot;pwn&quot;&gt;m&lt;/b&gt; &amp; \$1' "hostile: a finding's message is escaped"
for h in hostile hostile-rule; do
	chrome "file://$T/$h.html#selftest" --dump-dom
	is "$(cat "$T/console")" "" "$h: no console message"
	is "$(attr "$T/out" data-ready)/$(attr "$T/out" data-errors)" 1/0 "$h: the script ran without error"
	is "$(grep -c '<b id' "$T/out")" 0 "$h: no element from the text"
done

# Mutation: a syntax error in the script must show, in the console and in the page.
sed 's/var D = JSON.parse(/var D = = JSON.parse(/' "$T/example.html" >"$T/broken.html"
check "mutation: the copy differs" sh -c "! cmp -s '$T/broken.html' '$T/example.html'"
chrome "file://$T/broken.html#selftest" --dump-dom
like "$(cat "$T/console")" 'SyntaxError' "mutation: the syntax error is a console message"
is "$(attr "$T/out" data-errors)" 1 "mutation: the page recorded it"
is "$(attr "$T/out" data-ready)" "" "mutation: the script did not run"

# Errors: an unwritable -o fails cleanly.
"$BIN" analyze -q "$FIX/example" -o "$T/nodir/x.html" 2>"$T/e"; is "$?" 1 "unwritable -o: exit 1"
check "and no file left behind" test ! -e "$T/nodir/x.html"
