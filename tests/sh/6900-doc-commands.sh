# The docs run as written (issue 21; issue 36 item 10): every command of
# the ```sh blocks of README.md, examples/README.md and docs/*.md, each
# page in a workspace of its own laid out as a reader's clone after the
# set-up (examples/ and build/; `make runs` and `make samples` give the
# inputs those targets make, generated here once by the same scripts),
# exits as documented, says no error, and prints the output the page
# quotes (tests/fixtures/doc_commands.py). The README is a front door of
# at most 250 lines with a tour of at most 40; docs/README.md lists every
# page; every local link resolves.
. tests/lib.sh
D=$ROOT/tests/fixtures/doc_commands.py

# The inputs of `make runs` and `make samples`, made once for every page
# (the Makefile's targets run these scripts: checked below).
sh "$ROOT/examples/runs.sh" "$BIN" "$MKDUMP" "$T/prep/runs" || echo "not ok - examples/runs.sh failed"
sh "$ROOT/examples/samples.sh" "$T/prep/samples" || echo "not ok - examples/samples.sh failed"
is "$(ls "$T/prep/runs/base" | wc -l) $(ls "$T/prep/runs/head" | wc -l) $(ls -d "$T/prep/runs/dumps"/*/* | wc -l)" \
	"10 5 15" "examples/runs.sh: ten base runs and five head runs, dumps and reports"
is "$(cd "$T/prep/samples" && ls | tr '\n' ' ')" \
	"README.txt btrace2 btrace3.pb ios-symbols.txt ios.sqlite.gz method.trace streaming.trace systrace.html " \
	"examples/samples.sh: a trace of each other format"
made=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n -C "$ROOT" B="$B" RUNS="$T/x/runs" SAMPLES="$T/x/samples" \
	runs samples 2>&1)
like "$made" "sh examples/runs.sh $B/btrace-analyze $B/tests/mkdump $T/x/runs" "make runs runs examples/runs.sh"
like "$made" "sh examples/samples.sh $T/x/samples" "make samples runs examples/samples.sh"

python3 "$D" run "$ROOT" "$ROOT/$B" "$T/prep" "$T/pages" \
	"$ROOT/README.md" "$ROOT/examples/README.md" "$ROOT"/docs/*.md

# What the fleet page's commands made: a regression found in the head's
# five traces, and the two builds grouped.
is "$(jq_ "$T/pages/docs_fleet_md/fleet.json" 'd["verdict"], d["policy"]["fleet"]["head"]["reports"]')" \
	"('regressed', 5)" "docs/fleet.md: batch made a report per trace, compare found the slower build"
is "$(jq_ "$T/pages/docs_fleet_md/builds.json" '[d["groups"]["build"]["values"][k]["traces"] for k in ("base", "head")]')" \
	"[10, 5]" "docs/fleet.md: merge grouped the reports by build"

# The front door's size, the contents page, the links.
n=$(wc -l <"$ROOT/README.md")
check "README.md is at most 250 lines ($n)" test "$n" -le 250
n=$(awk '/^## A short tour/ { t = 1 } t && /^```sh/ { c = 1; next } c && /^```/ { exit } c { n++ } END { print n + 0 }' \
	"$ROOT/README.md")
check "the README's tour is at most 40 lines ($n)" test "$n" -gt 0 -a "$n" -le 40
for f in "$ROOT"/docs/*.md; do
	[ "$f" = "$ROOT/docs/README.md" ] && continue
	p=$(basename "$f")
	check "docs/README.md links $p" grep -q "]($p)" "$ROOT/docs/README.md"
done
python3 "$D" links "$ROOT" "$ROOT/README.md" "$ROOT/examples/README.md" "$ROOT"/docs/*.md
