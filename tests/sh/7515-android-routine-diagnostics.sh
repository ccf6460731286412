#!/bin/sh
# Routine oddities are counted, not printed on every run (issue 21): a
# main-thread wait whose waker was not recorded and a waker record whose
# wait the rate limit dropped happen in every healthy trace, so the
# report's diagnostics count them and stderr tells them only with -v;
# what an import really recovered from is still told. No user message
# cites the format spec's ids.
. tests/lib.sh
EX=$ROOT/examples/sampling.bin

"$BIN" "$EX" -o "$T/x.json" 2>"$T/err"
unlike "$(cat "$T/err")" "unlinked_wait|orphan_waker" "the example: no routine warning on stderr"
is "$(python3 -c 'import json, sys; print(sorted(d["code"] for d in json.load(open(sys.argv[1]))["diagnostics"]))' "$T/x.json")" \
	"['orphan_waker', 'unlinked_wait']" "the example: the report still counts both"
"$BIN" -v "$EX" -o "$T/x.json" 2>"$T/err"
like "$(cat "$T/err")" "\\[unlinked_wait\\]" "-v: the unlinked wait told"
like "$(cat "$T/err")" "\\[orphan_waker, 2 times\\]" "-v: the orphan wakers told"
unlike "$(cat "$T/err")" "spec [Q§]" "no message cites a spec id"

"$MKDUMP" --records 300 --seed 9 --bad-utf8 --no-truth "$T/d" >/dev/null
"$BIN" "$T/d" -o "$T/d.json" 2>"$T/err"
like "$(cat "$T/err")" "^btrace-analyze: warning: .*\\[invalid_utf8" "what an import recovered from is still told without -v"

"$BIN" compare --base "$T/d.json" --head "$T/x.json" -o "$T/c.json" 2>"$T/err"
unlike "$(cat "$T/err")" "unlinked_wait|orphan_waker" "compare: no routine warning in its summary"
"$BIN" compare -v --base "$T/d.json" --head "$T/x.json" -o "$T/c.json" 2>"$T/err"
like "$(cat "$T/err")" "orphan_waker" "compare -v: told"
