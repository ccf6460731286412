#!/bin/sh
# merge DIR walks each directory and reads each report once however many
# links reach them (issue 34 item 5): a link back up (self -> .) and two
# folders linked to each other neither repeat reports nor hang; a second
# path to one report (a file link) is the same report.
. tests/lib.sh
mkdir -p "$T/r/x" "$T/r/y"
"$BIN" -q "$ROOT/examples/sampling.bin" -o "$T/r/x/a.json"
"$MKDUMP" --records 800 --seed 3 --no-truth "$T/d" >/dev/null
"$BIN" -q "$T/d" -o "$T/r/y/b.json"
ln -s . "$T/r/self"
ln -s ../y "$T/r/x/to-y"
ln -s ../x "$T/r/y/to-x"
ln -s a.json "$T/r/x/again.json"
timeout 60 "$BIN" merge "$T/r" -o "$T/m.json" 2>"$T/err"
is "$?" 0 "merge of a folder with link loops: exit 0, no hang"
like "$(cat "$T/err")" "merged 2 traces \\(2 reports" "two reports merged, each once"
is "$(jq_ "$T/m.json" 'd["all"]["traces"]')" 2 "the summary counts two traces"
