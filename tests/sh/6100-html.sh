# analyze -o x.html: one self-contained page, checked by its real consumer,
# headless Chromium: it loads with no console error and nothing fetched,
# the flame graph and the timeline drew (the page counts what it drew in
# data-* attributes), the example's one linked wait has exactly its arrow,
# the page's own #selftest passes, each of its checks a line here (click
# to zoom, hover, search, the weight switch, the callers and callees view,
# a lane per thread, slices drawn after zooming into the first 1 %, tick
# labels that differ down to the 10 us floor, a finding's link moving the
# timeline, wheel, drag, reset); every slice of every thread is in the
# page (its sums against the database's), the findings fold per rule under
# a table of contents whose links all land, and screenshots of the page
# and of the timeline alone are not blank. Hostile symbols stay text, and
# a page whose script is broken is caught, so the checks can fail.
. tests/lib.sh
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

# Shares of a PNG's pixels, in per mille: warm (the app's frames: red high,
# blue low), cool (the framework's: blue above red) and not white, decoded
# by tests/fixtures/png.py; "warm cool ink".
pixels() {   # png
	python3 - "$ROOT/tests/fixtures" "$1" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
from png import pixels
px = pixels(sys.argv[2])
w, h = next(px)
warm = cool = ink = 0
for r, g, b in px:
    warm += r > 190 and b < 120
    cool += b > r + 25 and b > 150
    ink += r + g + b < 720
print(1000 * warm // (w * h), 1000 * cool // (w * h), 1000 * ink // (w * h))
EOF
}

# Per thread with slices: tid:count:sums of starts and ends (us from the
# page's t0), frame ids, depths and CPU tenths, as the page's digest says.
digest() {   # input page
	t0=$(grep -o '"t0":"[0-9-]*"' "$2" | head -n 1 | tr -dc '0-9-')
	"$BIN" query -q "$1" "SELECT group_concat(x, ' ') FROM (SELECT tid || ':' || count(*) || ':' ||
		sum(ts / 1000 - $t0 / 1000) || ':' || sum((ts + max(dur, 0)) / 1000 - $t0 / 1000) || ':' ||
		sum(max(frame_id, 0)) || ':' || sum(depth) || ':' ||
		sum(CASE WHEN dur > 0 THEN (min(max(cpu_dur, 0), dur) * 10 + dur / 2) / dur ELSE 0 END) AS x
		FROM slices GROUP BY tid ORDER BY tid)" --format tsv | sed -n 2p
}

for case in example bundled d200k; do   # the spec's example, examples/sampling.bin, 200k records
	case $case in example) in=$FIX/example ;; bundled) in=$ROOT/examples/sampling.bin ;; *) in=$FIX/d200k ;; esac
	rules=
	[ $case = bundled ] && rules="--rules $ROOT/examples/startup.lua"   # findings with times to link
	"$BIN" analyze -q "$in" $rules -o "$T/$case.html"
	is "$?" 0 "$case: analyze -o x.html exits 0"
	check "$case: the page is written" test -s "$T/$case.html"
	is "$(grep -Eci 'https?://|src=|href="[^#]|url\(|@import' "$T/$case.html")" 0 "$case: nothing refers outside the page"
	like "$(grep -c '<script type="application/json" id="bt-data">' "$T/$case.html")" '^1$' "$case: one embedded data block"

	chrome "file://$T/$case.html#selftest" --dump-dom
	cp "$T/out" "$T/$case.dom"
	is "$(cat "$T/console")" "" "$case: no console message"
	is "$(grep -c 'ERR_\|net::' "$T/err")" 0 "$case: no network request"
	is "$(attr "$T/$case.dom" data-errors)" 0 "$case: the page recorded no error"
	is "$(attr "$T/$case.dom" data-ready)" 1 "$case: the script ran to its end"
	is "$(attr "$T/$case.dom" data-selftest)" pass "$case: the page's self-test passes"
	sed -n '/<pre id="bt-selftest"/,/<\/pre>/p' "$T/$case.dom" | sed 's/<[^>]*>//g; s/&gt;/>/g; s/&lt;/</g' |
		grep -E '^(ok|not ok) - ' | sed "s/^\(not ok\|ok\) - /\1 - $case: page: /"
	frames=$(attr "$T/$case.dom" data-flame-frames)
	check "$case: the flame graph drew frames ($frames)" test "${frames:-0}" -gt 3 -a "${frames:-0}" -lt 20000
	slices=$(attr "$T/$case.dom" data-tl-slices)
	check "$case: the timeline drew slices ($slices)" test "${slices:-0}" -gt 0
	check "$case: and messages" test "$(attr "$T/$case.dom" data-tl-messages)" -gt 0
	threads=$("$BIN" query -q "$in" "SELECT count(DISTINCT tid) FROM slices" --format tsv | sed -n 2p)
	lanes=$(attr "$T/$case.dom" data-tl-lanes)
	check "$case: a lane for each of the $threads threads with slices ($lanes)" test "${lanes:-0}" -ge "$threads"
	is "$(attr "$T/$case.dom" data-tl-digest | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')" \
		"$(digest "$in" "$T/$case.html" | tr ' ' '\n' | sort -n | tr '\n' ' ' | sed 's/ $//')" \
		"$case: every slice of every thread is in the page (counts and sums per thread as in the database)"
	toc=$(sed -n 's/.*<nav id="toc">\(.*\)<\/nav>.*/\1/p' "$T/$case.dom" | grep -o 'href="#[^"]*"' | sed 's/href="#//; s/"$//')
	missing=0
	for id in $toc; do grep -q " id=\"$id\"" "$T/$case.dom" || missing=$((missing + 1)); done
	check "$case: the table of contents has links ($(echo $toc | wc -w)), each to a section of the page ($missing missing)" \
		test "$(echo $toc | wc -w)" -gt 5 -a "$missing" -eq 0

	# at half the pixels per CSS pixel: the same layout, a quarter of the
	# pixels for pixels() to decode (4 s a shot at full scale)
	chrome "file://$T/$case.html" --screenshot="$T/$case.png" --window-size=1400,1000 --force-device-scale-factor=0.5
	check "$case: a screenshot is taken" test -s "$T/$case.png"
	is "$(head -c 8 "$T/$case.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "$case: it is a PNG"
	check "$case: larger than a blank page" test "$(wc -c <"$T/$case.png")" -gt 30000
	set -- $(pixels "$T/$case.png")
	check "$case: app colours (warm) cover part of it ($1 per mille)" test "${1:-0}" -gt 10
	check "$case: framework colours (cool) too ($2 per mille)" test "${2:-0}" -gt 20
	chrome "file://$T/$case.html#only=timeline" --screenshot="$T/$case-tl.png" --window-size=1400,1000 \
		--force-device-scale-factor=0.5
	set -- $(pixels "$T/$case-tl.png")
	check "$case: the timeline alone is drawn ($3 per mille of the shot)" test "${3:-0}" -gt 50
	check "$case: in app and framework colours ($1 and $2 per mille)" test "${1:-0}" -gt 3 -a "${2:-0}" -gt 3
done

# Findings: one folded group per rule, with its count; open ones only for
# the headlines. The bundled example has startup.lua's findings.
"$BIN" analyze -q "$ROOT/examples/sampling.bin" --rules "$ROOT/examples/startup.lua" -o "$T/bundled.json"
like "$(python3 "$ROOT/tests/fixtures/check_html_findings.py" "$T/bundled.dom" "$T/bundled.json")" '^ok [3-9]' \
	"bundled: a folded group per rule and severity, each count its rows, adding up to every finding; only the headlines' open"
check "bundled: each finding with a time links to the timeline" test "$(grep -c 'class="jump" href="#timeline" data-ts=' "$T/bundled.dom")" -gt 5

# The time to draw: navigation to the timeline drawn, a real clock (no
# virtual time budget); the 1M-record figure is in BENCHMARKS.md.
timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/chrome" \
	--dump-dom "file://$T/d200k.html" >"$T/timed" 2>/dev/null
ms=$(attr "$T/timed" data-render-ms)
echo "# d200k: $(wc -c <"$T/d200k.html") bytes drawn in ${ms:-?} ms ($(attr "$T/timed" data-phases))"
check "d200k: drawn in under 5 s (${ms:-?} ms)" test "${ms:-99999}" -lt 5000

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
nsl=$("$BIN" query -q "$FIX/d200k" "SELECT count(*) FROM slices" --format tsv | sed -n 2p)
check "d200k: the page holds its $nsl slices in under 8 bytes each, plus 3 MB ($size bytes)" \
	test "$size" -lt $((8 * nsl + 3000000))

# Names: short in labels, with the full signature beside each for
# tooltips; --full-names shows the signatures themselves.
like "$(grep -o '"names":\[[^]]*\]' "$T/example.html")" '"Looper\.loop"' "short names by default"
like "$(grep -o '"full":\[[^]]*\]' "$T/example.html")" '"void android\.os\.Looper\.loop\(\)"' \
	"the full signatures beside them, for tooltips"
"$BIN" analyze -q "$FIX/example" --full-names -o "$T/full.html"
like "$(grep -o '"names":\[[^]]*\]' "$T/full.html")" '"void android\.os\.Looper\.loop\(\)"' "--full-names: full signatures"

# Progress: once the write has taken a second (here it waits on a reader
# that sleeps 2 s after the first bytes) a terminal gets its percentages,
# the line cleared at the end; a quick write, or a stderr that is no
# terminal, gets none.
slow='(head -c 1 >/dev/null; sleep 2; cat >/dev/null)'
out=$(script -qec "'$BIN' '$FIX/d200k' --format html | $slow" /dev/null | tr '\r' '\n')
like "$out" "writing 'stdout': +[0-9]+%" "d200k: a slow write shows its progress on a terminal"
like "$(printf '%s\n' "$out" | tail -n 1 | od -An -c | tr -d ' \n')" '^033\[K' "and clears the line when done"
out=$(script -qec "'$BIN' '$FIX/example' -o '$T/quick.html'" /dev/null | tr '\r' '\n')
is "$(printf '%s\n' "$out" | grep -c "writing")" 0 "a quick write shows no progress"
"$BIN" "$FIX/d200k" --format html 2>"$T/e" | sh -c "$slow"
is "$(grep -c writing "$T/e")" 0 "no progress when stderr is not a terminal"

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
sed 's/var D = BT.D = JSON.parse(/var D = = JSON.parse(/' "$T/example.html" >"$T/broken.html"
check "mutation: the copy differs" sh -c "! cmp -s '$T/broken.html' '$T/example.html'"
chrome "file://$T/broken.html#selftest" --dump-dom
like "$(cat "$T/console")" 'SyntaxError' "mutation: the syntax error is a console message"
is "$(attr "$T/out" data-errors)" 1 "mutation: the page recorded it"
is "$(attr "$T/out" data-ready)" "" "mutation: the script did not run"

# Errors: an unwritable -o fails cleanly.
"$BIN" analyze -q "$FIX/example" -o "$T/nodir/x.html" 2>"$T/e"; is "$?" 1 "unwritable -o: exit 1"
check "and no file left behind" test ! -e "$T/nodir/x.html"
