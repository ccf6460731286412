#!/bin/sh
# compare's command line (issue 20, items 4 and 6): -o repeats and one
# comparison is written to every output, each in its extension's format,
# all or none (a failing output leaves no file); every input is checked
# before the first run is analysed (a missing head run is told at once,
# with none of the base runs' warnings before it); the runs' warnings are
# told once, each kind with its runs, and listed in the JSON.
. tests/lib.sh
dump() {   # name seed [mkdump options]: a small dump with recoverable oddities
	name=$1 seed=$2
	shift 2
	"$MKDUMP" --seed "$seed" --records 3000 --no-truth "$@" "$T/$name" >/dev/null
}
for s in 1 2 3; do dump b$s $s --bad-depth 3 --unmapped 2; done
dump h1 9 --count-delta 5 --bad-utf8
dump h2 9 --pid 70000
for r in b1 b2 b3 h1 h2; do "$BIN" -q "$T/$r" -o "$T/$r.json"; done
BASE="$T/b1 $T/b2 $T/b3"
HEAD="$T/h1 $T/h2"
export SOURCE_DATE_EPOCH=1700000000   # the same workbook bytes from run to run

# -o repeated: every format from one run, each equal to its single-output run.
mkdir "$T/all" "$T/one"
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o "$T/all/c.md" -o "$T/all/c.json" -o "$T/all/c.txt" \
	-o "$T/all/c.xlsx" 2>"$T/all.err"
rc=$?
# shellcheck disable=SC2086
for f in md json txt xlsx; do "$BIN" compare -q --base $BASE --head $HEAD -o "$T/one/c.$f"; done
is "$(ls "$T/all" | tr '\n' ' ')" "c.json c.md c.txt c.xlsx " "four -o: four files, nothing else"
for f in md json txt xlsx; do
	check "four -o: c.$f equals compare -o c.$f alone" cmp "$T/all/c.$f" "$T/one/c.$f"
done
# shellcheck disable=SC2086
"$BIN" compare -q --base $BASE --head $HEAD -o "$T/one/c.json"
is "$rc" "$?" "four -o: the exit status of one"
like "$(head -1 "$T/all/c.md")" "^## btrace-analyze compare: " "four -o: Markdown by extension"
like "$(head -1 "$T/all/c.txt")" "^btrace-analyze compare: " "four -o: text by extension"
is "$(valid "$T/all/c.json")" valid "four -o: the JSON validates"
is "$(python3 -c 'import openpyxl, sys; print(openpyxl.load_workbook(sys.argv[1]).sheetnames[0])' \
	"$T/all/c.xlsx" 2>&1)" Summary "four -o: openpyxl opens the workbook"
is "$(grep -c 'depth_mismatch' "$T/all.err")" 1 "four -o: the runs were analysed once (one warning line per kind)"
# shellcheck disable=SC2086
"$BIN" compare -q --base $BASE --head $HEAD -o - -o "$T/c2.json" >"$T/stdout.txt"
check "-o - and a file: text on stdout" cmp "$T/stdout.txt" "$T/one/c.txt"
check "-o - and a file: the file too" cmp "$T/c2.json" "$T/one/c.json"
# shellcheck disable=SC2086
"$BIN" compare -q --base $BASE --head $HEAD --format md >"$T/stdout.md"
check "--format without -o: stdout in that format" cmp "$T/stdout.md" "$T/one/c.md"

# Usage: --format with several -o, one path twice.
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o "$T/u.json" -o "$T/u.md" --format md 2>"$T/err"
is "$?" 2 "--format with several -o: usage error"
like "$(cat "$T/err")" "--format applies to one output" "--format with several -o: says why"
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o "$T/u.json" -o "$T/u.md" -o "$T/u.json" 2>"$T/err"
is "$?" 2 "one path twice: usage error"
like "$(cat "$T/err")" "'$T/u.json' and '$T/u.json' are one output" "one path twice: names it"
# shellcheck disable=SC2086
(cd "$T" && "$BIN" compare --base $BASE --head $HEAD -o u.json -o ./all/../u.json 2>"$T/err")
is "$?" 2 "one file by two paths: usage error"
like "$(cat "$T/err")" "'u.json' and './all/../u.json' are one output" "one file by two paths: names both"
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o - -o - 2>"$T/err" >/dev/null
is "$?" 2 "stdout twice: usage error"
check "usage errors: no output" test ! -e "$T/u.json" -o -e "$T/u.md"

# All or none: a full disk among the outputs leaves none of them, and the
# files there before keep their bytes.
echo old >"$T/keep.json"
# shellcheck disable=SC2086
"$BIN" compare -q --base $BASE --head $HEAD -o "$T/keep.json" -o /dev/full -o "$T/new.md" 2>"$T/err"
is "$?" 1 "an output on a full disk: exit 1"
like "$(cat "$T/err")" "cannot write '/dev/full': No space left on device" "the error names the output"
check "the other outputs are not replaced" test "$(cat "$T/keep.json")" = old
check "nor created" test ! -e "$T/new.md"
is "$(find "$T" -name '*.tmp-*' | wc -l)" 0 "no temporary file is left"
# An output that cannot be created is told before any run is analysed.
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o "$T/c3.json" -o "$T/nodir/c.md" 2>"$T/err"
is "$?" 1 "an output in a missing folder: exit 1"
is "$(cat "$T/err")" "btrace-analyze: error: cannot create '$T/nodir/c.md': No such file or directory" \
	"the output is checked first: its error and nothing else (no run's warnings)"
check "an output in a missing folder: no other output" test ! -e "$T/c3.json"

# Inputs first: the base runs' analysis would print their warnings; a bad
# head run, gate script or rule file stops compare before any of it.
bad_input() {   # what, then the expected message: compare with that input, exit 1, one line
	what=$1 want=$2
	shift 2
	# shellcheck disable=SC2086
	"$BIN" compare "$@" -o "$T/in.json" 2>"$T/err"
	is "$?" 1 "$what: exit 1"
	is "$(cat "$T/err")" "btrace-analyze: error: $want" "$what: told before any run is analysed"
	check "$what: no output" test ! -e "$T/in.json"
}
# shellcheck disable=SC2086
bad_input "a missing head run" "cannot open '$T/nope': No such file or directory" \
	--base $BASE --head "$T/h1" "$T/nope"
printf 'garbage!' >"$T/junk"
# shellcheck disable=SC2086
bad_input "a head run no importer knows" "unrecognised input '$T/junk': bytes 67 61 72 62 at offset 0 match no supported format" \
	--base $BASE --head "$T/junk"
mkdir "$T/empty"
# shellcheck disable=SC2086
bad_input "a head folder without a trace" "no trace found in directory '$T/empty' (looked for sampling, sampling.bin, appTrace.bin)" \
	--base $BASE --head "$T/empty"
# shellcheck disable=SC2086
bad_input "a missing --analyze-rules file" "cannot open '$T/nope.lua': No such file or directory" \
	--base $BASE --head $HEAD --analyze-rules "$T/nope.lua"
# shellcheck disable=SC2086
bad_input "a missing gate script" "cannot open '$T/gates.lua': No such file or directory" \
	--base $BASE --head $HEAD --rules "$T/gates.lua"

# One summary of the runs' warnings: each kind once, with its runs.
# shellcheck disable=SC2086
"$BIN" compare --base $BASE --head $HEAD -o "$T/w.json" 2>"$T/err"
is "$(grep -c 'btrace-analyze: warning: .*\[depth_mismatch, ' "$T/err")" 1 "a warning of three runs: one line"
like "$(cat "$T/err")" "^btrace-analyze: warning: 3 of 5 runs \\('$T/b1', '$T/b2', '$T/b3'\\): record 500 at offset [0-9]+ stores [0-9]+ of [0-9]+ frames; skipped \\[depth_mismatch, 9 times\\]$" \
	"the line: how many runs, which, an example, how often in all"
like "$(cat "$T/err")" "^btrace-analyze: warning: 1 of 5 runs \\('$T/h2'\\): pid 70000 does not fit the format's 16-bit tids.* \\[pid_truncated, 1 time\\]$" \
	"a head run's own warning names that run"
like "$(cat "$T/err")" "^btrace-analyze: warning: 1 of 5 runs \\('$T/h1'\\): header of '$T/h1/sampling.bin' says 3005 records, the file holds 3000 \\[record_count_mismatch, 1 time\\]$" \
	"a truncated count: its run"
is "$(sed 's/.*\[\([a-z0-9_]*\),.*/\1/' "$T/err" | sort | uniq -d)" "" "no kind is told twice"
like "$(cat "$T/err")" "^btrace-analyze: wrote $T/w.json \\(" "the output is told (issue 36 item 1)"
is "$(grep -v '^btrace-analyze: \(wrote \|note: \)' "$T/err" | sed 's/.*\[\([a-z0-9_]*\),.*/\1/' | sort | tr '\n' ' ')" \
	"$(for r in b1 b2 b3 h1 h2; do jq_ "$T/$r.json" '"\n".join(x["code"] for x in d["diagnostics"])'; done | sort -u | grep -v -x -e unlinked_wait -e orphan_waker | tr '\n' ' ')" \
	"every kind the runs' reports list, and no other (but the routine ones)"
like "$(cat "$T/err")" "^btrace-analyze: note: nothing decided: inconclusive: need more runs: 3 \\+ 2 cannot reach" \
	"3 + 2 runs decide nothing, and stderr says so"
# shellcheck disable=SC2086
"$BIN" compare -v --base $BASE --head $HEAD -o "$T/w.json" 2>"$T/err"
is "$(grep -v '^btrace-analyze: \(wrote \|note: \)' "$T/err" | sed 's/.*\[\([a-z0-9_]*\),.*/\1/' | sort | tr '\n' ' ')" \
	"$(for r in b1 b2 b3 h1 h2; do jq_ "$T/$r.json" '"\n".join(x["code"] for x in d["diagnostics"])'; done | sort -u | tr '\n' ' ')" \
	"-v: every kind the runs' reports list, the routine ones too"
"$BIN" compare --base "$T/b1" "$T/b2" "$T/b3" "$T/b1.json" --head "$T/h2" 2>"$T/err" >/dev/null
like "$(cat "$T/err")" "^btrace-analyze: warning: 4 of 5 runs \\('$T/b1', '$T/b2', '$T/b3', and 1 more\\): .*\\[depth_mismatch, 12 times\\]$" \
	"past three runs: the first three named, the rest counted"
# shellcheck disable=SC2086
"$BIN" compare -q --base $BASE --head $HEAD >/dev/null 2>"$T/err"
is "$(grep -c warning "$T/err")" 0 "-q: no warnings on stderr"
is "$(valid "$T/w.json")" valid "the JSON with its warnings validates"
is "$(jq_ "$T/w.json" '[(w["count"], w["base"], w["head"]) for w in d["warnings"] if w["code"] == "depth_mismatch"]')" \
	"[(9, [0, 1, 2], [])]" "JSON: a warning's count and runs, as indices into base and head"
is "$(jq_ "$T/w.json" '[(w["base"], w["head"]) for w in d["warnings"] if w["code"] == "pid_truncated"]')" \
	"[([], [1])]" "JSON: a head run's warning"
is "$(jq_ "$T/w.json" 'len(d["warnings"]) == len(set(w["code"] for w in d["warnings"])) > 3')" \
	True "JSON: each kind once"
# The reports' diagnostics are the same warnings as the dumps'.
"$BIN" compare -q --base "$T/b1.json" "$T/b2.json" "$T/b3.json" --head "$T/h1.json" "$T/h2.json" \
	-o "$T/wr.json"
is "$(python3 -c 'import json, sys
a, b = (json.load(open(f))["warnings"] for f in sys.argv[1:])
print(a == b and len(a) > 0)' "$T/w.json" "$T/wr.json")" True "reports read: the same warnings as their dumps analysed here"
printf '{"schema": "btrace-analyze/report@1", "metrics": {"a": 1}, "diagnostics": [{"code": 3}]}' >"$T/bd.json"
"$BIN" compare --base "$T/bd.json" --head "$T/b1.json" -o "$T/in.json" 2>"$T/err"
is "$?" 1 "a report's malformed diagnostic: exit 1"
like "$(cat "$T/err")" "bd.json: byte [0-9]+: a diagnostic's code or detail is not a string" \
	"a report's malformed diagnostic: file, byte and cause"
check "a report's malformed diagnostic: no output" test ! -e "$T/in.json"

# An -o whose extension no compare format has is refused, as analyze's is
# (issue 36 item 1: out.pdf got text, exit 0).
"$BIN" compare --base "$T/b1.json" --head "$T/h1.json" -o "$T/out.pdf" 2>"$T/pdf.err"
like "$?-$(cat "$T/pdf.err")" "^2-btrace-analyze: error: -o .*out\\.pdf: no compare format has the extension '\\.pdf'" \
	"-o out.pdf: exit 2, naming the extension"
check "... nothing written" test ! -e "$T/out.pdf"
