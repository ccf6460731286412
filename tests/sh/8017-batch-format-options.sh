#!/bin/sh
# batch over a folder of mixed formats with options only some formats take
# (issue 38 item 1): one trace alone refuses an option its format cannot
# use (tests/sh/0030), so batch gives --retrace, --symbols and
# --slice-policy only to the workers of the traces they apply to, and every
# trace is analysed; --strict goes to every worker.
. tests/lib.sh

in=$T/in
mkdir -p "$in/dump"
cp "$FIX/example/sampling.bin" "$FIX/example/sampling-mapping.bin" "$in/dump/"
python3 tests/fixtures/mkios.py "$T/ios" --seed 2 >/dev/null
cp "$T/ios/trace.db" "$in/ios.db"
python3 tests/fixtures/mkperfetto.py "$in/t.pb" --flavor btrace3 --seed 1 --slices 400 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$in/m.trace" --seed 3 --no-truth >/dev/null
pg=$ROOT/examples/retrace-mapping.txt
sym=$T/ios/symbols.txt

"$BIN" batch -q "$in" -o "$T/out" -j 2 --db --slice-policy midpoint --retrace "$pg" --symbols "$sym" --strict
is "$?" 0 "a batch of four formats with --slice-policy, --retrace, --symbols: exit 0"
m=$T/out/manifest.jsonl
is "$(man "$m" 'sorted((x["format"], x["status"]) for x in l if x["format"])')" \
	"[('android-sampling', 'ok'), ('art-method-trace', 'ok'), ('ios-database', 'ok'), ('perfetto', 'ok')]" \
	"every trace ok"
db() {   # format: its kept database
	echo "$T/out/db/$(man "$m" "[x['hash'] for x in l if x['format'] == '$1'][0]").db"
}
meta() {   # format key
	q "$(db "$1")" "SELECT coalesce((SELECT value FROM meta WHERE key = '$2'), '-')"
}
is "$(meta android-sampling slice_policy) $(meta android-sampling retrace) $(meta android-sampling symbols)" \
	"midpoint $pg -" "the dump took --slice-policy and --retrace, not --symbols"
is "$(meta ios-database slice_policy) $(meta ios-database retrace) $(meta ios-database symbols)" \
	"midpoint - $sym" "the iOS database took --slice-policy and --symbols, not --retrace"
is "$(meta perfetto slice_policy) $(meta perfetto retrace) $(meta perfetto symbols)" \
	"imported - -" "the Perfetto trace took none of them"
is "$(meta art-method-trace slice_policy) $(meta art-method-trace retrace)" \
	"imported -" "the ART method trace took none of them"

# --strict goes to every worker: a Perfetto trace cut short fails it.
mkdir -p "$T/in2"
head -c 20000 "$in/t.pb" >"$T/in2/cut.pb"
"$BIN" batch -q "$T/in2" -o "$T/out2" --strict --slice-policy midpoint 2>/dev/null
is "$?" 4 "--strict reaches a Perfetto trace's worker (--slice-policy does not)"
like "$(man "$T/out2/manifest.jsonl" 'l[0]["error"]')" "offset" "... which refuses the cut trace"
