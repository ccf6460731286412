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

# compare DIR walks its folders the same way (engine/base/walk.c, one walk
# for batch, merge and compare): a link back up and a second path to one
# report neither repeat a run nor hang (it took each path as a run); a
# folder linked in is read, once (it was left out).
mkdir -p "$T/c/a/sub" "$T/c/b" "$T/c/elsewhere"
for s in 1 2 3; do
	"$MKDUMP" --build-seed 23 --records 6000 --seed "$s" --startup cold --no-truth "$T/c$s" >/dev/null
	"$BIN" -q "$T/c$s" -o "$T/c/b/r$s.json"
done
cp "$T/c/b/r1.json" "$T/c/b/r2.json" "$T/c/a/sub/"
cp "$T/c/b/r3.json" "$T/c/elsewhere/"
ln -s . "$T/c/a/self"
ln -s sub/r1.json "$T/c/a/again.json"
ln -s sub/r2.json "$T/c/a/again2.json"
ln -s ../elsewhere "$T/c/a/linked"
timeout 60 "$BIN" compare -q "$T/c/a" "$T/c/b" -o "$T/c.json" 2>"$T/c.err"
like "$?" "^[03]$" "compare of folders with link loops: ends (no hang)"
is "$(jq_ "$T/c.json" 'd["policy"]["fleet"]["base"]["reports"], d["policy"]["fleet"]["head"]["reports"]')" \
	"(3, 3)" "three reports a side: each once, the linked folder's too"

# A method whose entry holds "dist" twice (found by fuzz_fleet): the second
# replaces the first; its buckets were added to the first's, and the fleet
# merge wrote back was one it could not read ("buckets and zeros do not add
# up to its n").
"$BIN" merge -q "$T/c/b/r1.json" -o "$T/f1.json"
python3 - "$T/f1.json" "$T/fdup.json" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
at = t.index('"dist": {', t.index('"methods": {'))
end = t.index('}', at) + 1
t = t[:end] + ', "dist": {"n": 1, "sum": 5, "min": 5, "max": 5, "zeros": 0, "buckets": [[%d, 1]]}' % 100 + t[end:]
open(sys.argv[2], "w").write(t)
PY
"$BIN" merge -q "$T/fdup.json" -o "$T/fback.json" 2>"$T/fdup.err"
is "$?" 0 "a fleet with a doubled dist is read"
"$BIN" merge -q "$T/fback.json" -o "$T/fback2.json" 2>"$T/fback.err"
is "$?-$(cat "$T/fback.err")" "0-" "... and what merge wrote of it reads back"
