#!/bin/sh
# compare -o diff.html: the differential flame graph, checked by headless
# Chromium. Runs of one simulated build (mkdump --build-seed), 5 + 5, with
# reports keeping call paths down to 0.02 % of the thread: a method made
# 50 % slower is the reddest node drawn and tops the page's table, grown by
# about half its self time; the same build on both sides draws no red; the
# page's own #selftest (zoom, hover, search, reset) passes; reports without
# the call tree give an empty-state page, malformed trees a clear error.
. tests/lib.sh
if [ ! -x "$CHROME" ]; then
	echo "not ok - Chromium not found at $CHROME (make test-deps installs it)"
	exit 0
fi
SLOW=ConfigLoader.applyDefaults
run() {   # name seed [mkdump options]
	name=$1 seed=$2
	shift 2
	"$MKDUMP" --build-seed 7 --seed "$seed" --main-messages 300 --records 2000000 --no-truth \
		"$@" "$T/$name" >/dev/null &&
		"$BIN" -q "$T/$name" --set attribution.tree_min_pct=0.02 -o "$T/$name.json"
}
for s in 1 2 3 4 5; do
	run base$s $s
	run same$s $((s + 10))
	run slow$s $((s + 10)) --slow-method "$SLOW:50"
done
side() { for s in 1 2 3 4 5; do printf '%s ' "$T/$1$s.json"; done; }

chrome() {   # url, extra args...
	url=$1; shift
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "$url" >"$T/out" 2>"$T/err"
	grep ':CONSOLE' "$T/err" >"$T/console"
	return 0
}
attr() {   # file name: the first name="..." attribute's value
	grep -o " $2=\"[^\"]*\"" "$1" | head -n 1 | sed 's/^[^"]*"//; s/"$//'
}
# The change table's rows: state, method (unescaped), relative change.
rows() {   # page
	python3 - "$1" <<'EOF'
import html, re, sys
t = open(sys.argv[1]).read()
for st, m, rel in re.findall(r'<tr data-state="(\w+)"><td>\w+</td><td[^>]*>([^<]*)</td>(?:<td[^>]*>[^<]*</td>){4}<td[^>]*>([^<]*)</td>', t):
    print(st, html.unescape(m).replace(' ', '_'), rel.replace(' ', ''))
EOF
}
page() {   # name: load the page with its self-test; the DOM in $T/name.dom
	chrome "file://$T/$1.html#selftest" --dump-dom
	cp "$T/out" "$T/$1.dom"
	is "$(cat "$T/console")" "" "$1: no console message"
	is "$(attr "$T/$1.dom" data-errors)/$(attr "$T/$1.dom" data-ready)" 0/1 "$1: the script ran without error"
	is "$(attr "$T/$1.dom" data-selftest)" pass "$1: the page's self-test passes (zoom, hover, search, reset)"
	sed -n '/<pre id="bt-selftest"/,/<\/pre>/p' "$T/$1.dom" | grep '^not ok' | sed 's/^/# /'
}

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) -o "$T/slow.html"
is "$?" 3 "slower method: compare exits 3 and writes the page"
is "$(grep -Eci 'https?://|src=|href=|url\(|@import' "$T/slow.html")" 0 "slow: nothing refers outside the page"
page slow
frames=$(attr "$T/slow.dom" data-flame-frames)
check "slow: the flame graph drew frames ($frames)" test "${frames:-0}" -gt 100
like "$(attr "$T/slow.dom" data-diff-reddest)" "$SLOW" "slow: the slowed method is the reddest node"
delta=$(attr "$T/slow.dom" data-diff-reddest-delta)
check "slow: its self time grew by more than a millisecond ($delta ns)" test "${delta:-0}" -gt 1000000
first=$(rows "$T/slow.html" | grep "$SLOW" | head -n 1)
like "$first" "^grown .*$SLOW.* \\+[0-9.]+%$" "slow: the table marks it grown"
rel=$(echo "$first" | sed 's/.* +\([0-9]*\)\..*%$/\1/')
check "slow: by about half its self time (+$rel %)" test "${rel:-0}" -ge 25 -a "${rel:-0}" -le 120
chrome "file://$T/slow.html" --screenshot="$T/slow.png" --window-size=1400,1000
check "slow: a screenshot is taken" test -s "$T/slow.png"

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) -o "$T/same.html"
is "$?" 0 "same build: compare exits 0"
page same
is "$(attr "$T/same.dom" data-diff-red)" 0 "same build: no red node"
is "$(attr "$T/same.dom" data-diff-reddest)" "" "same build: no reddest node"
check "same build: at most 3 call paths in the change table" test "$(rows "$T/same.html" | wc -l)" -le 3
is "$(rows "$T/same.html" | grep -c '^grown\|^appeared')" 0 "same build: none of them grown"

# Reports without the call tree (other --rules): an empty-state page.
cat >"$T/none.lua" <<'EOF'
bt.rule{ id = "none", severity = "info", run = function() bt.metric("x.count", 1) end }
EOF
"$BIN" -q "$T/base1" --rules "$T/none.lua" -o "$T/none1.json"
"$BIN" -q "$T/base2" --rules "$T/none.lua" -o "$T/none2.json"
"$BIN" compare --base "$T/none1.json" "$T/none2.json" --head "$T/same1.json" "$T/same2.json" -o "$T/none.html"
is "$?" 0 "no tree on the base side: exit 0"
like "$(cat "$T/none.html")" 'id="diff-empty".*no base run.s report has the main thread.s call tree' \
	"no tree: the page says which side lacks it"
page none
is "$(attr "$T/none.dom" data-flame-frames)" 0 "no tree: nothing drawn"

# Malformed trees: the file, the byte offset and the cause; exit 1, no page.
python3 - "$T/same1.json" "$T" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tables"]["main_calltree"]
rows = t["rows"]
bad = {"jump": rows[:1] + [["      " + rows[1][0].strip()] + rows[1][1:]] + rows[2:],
       "odd": [[" " + rows[0][0]] + rows[0][1:]] + rows[1:],
       "twice": rows[:2] + rows[1:2] + rows[2:],
       "text": [rows[0][:1] + ["12"] + rows[0][2:]] + rows[1:]}
for k, r in bad.items():
    t["rows"] = r
    json.dump(d, open(sys.argv[2] + "/" + k + ".json", "w"))
EOF
for k in jump odd twice text; do
	"$BIN" compare --base "$T/base1.json" --head "$T/$k.json" -o "$T/bad.html" 2>"$T/e"
	is "$?" 1 "malformed tree ($k): exit 1"
	like "$(cat "$T/e")" "$k.json: byte [0-9]+: (a main_calltree|a call path)" "malformed tree ($k): file, offset and cause"
	check "malformed tree ($k): no page" test ! -e "$T/bad.html"
done

# --format html to stdout; unknown formats still refused.
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) --format html >"$T/stdout.html"
check "--format html writes the page to stdout" cmp "$T/stdout.html" "$T/same.html"
