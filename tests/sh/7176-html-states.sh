#!/bin/sh
# The HTML timeline's state bands (issue 33 item 2: thread states under
# each thread's slices, as Perfetto draws them): drawn by headless Chromium,
# every state of the database in the band of its thread (the view widened
# to the states that outlast the slices), the legend's state colours only
# where the trace has states; a dump has neither. A screenshot is taken.
. tests/lib.sh
. tests/chrome.sh

mkdir -p "$T/s"
python3 tests/fixtures/mkpfsched.py "$T/s/t.pb" --form compact --seed 2 --runs 60
"$BIN" import -q "$T/s/t.pb" -o "$T/s.db"
"$BIN" -q "$T/s.db" -o "$T/s.html"
chrome "file://$T/s.html#selftest"
is "$(cat "$T/console")" "" "no console message"
is "$(attr data-ready)/$(attr data-errors)/$(attr data-selftest)" 1/0/pass "the script ran, no error, self-test passes"
is "$(attr data-tl-states)" "$(q "$T/s.db" "SELECT count(*) FROM thread_states")" "every state of the database drawn in its thread's band"
like "$(cat "$T/dom")" '<i style="background: rgb\(46, 154, 68\);"></i>running</span>' "the legend gives the running colour"
like "$(cat "$T/dom")" 'uninterruptible</span>.*I/O</span>' "and uninterruptible's and I/O's"
first=$(q "$T/s.db" "SELECT min(ts) FROM thread_states")
last=$(q "$T/s.db" "SELECT max(ts + dur) FROM thread_states")
t0=$(q "$T/s.db" "SELECT value FROM meta WHERE key = 'first_ts'")
set -- $(attr data-tl-view)
check "the view holds every state (view $1..$2, states $((first - t0))..$((last - t0)))" \
	test "$1" -le $((first - t0)) -a "$2" -ge $((last - t0))
chrome "file://$T/s.html#only=timeline" "$T/states.png"
check "a screenshot of the timeline with its state bands ($(wc -c <"$T/states.png") bytes)" test -s "$T/states.png"

# a dump: no states, no band, no state colours in the legend
"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/d.html"
chrome "file://$T/d.html#selftest"
is "$(attr data-selftest)/$(attr data-tl-states)" pass/0 "a dump: self-test passes, no state drawn"
unlike "$(cat "$T/dom")" '</i>running</span>' "a dump: no state colours in the legend"
