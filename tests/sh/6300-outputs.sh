#!/bin/sh
# The outputs of one analysis (reports/outputs/): every report format and
# export of a run is committed only when all of them succeeded (DESIGN §3),
# an old output stays as it was after a failed run, and the exports taken
# from the one reconstruction (written beside the rules, on threads of
# their own) are the same whether asked for alone or together, from a
# dump or from its database.
. tests/lib.sh

ex=$FIX/example
"$MKDUMP" --records 20000 --seed 9 --no-truth "$T/d" >/dev/null

# A failing export fails the run, and nothing of it is left: before, the
# Perfetto trace was committed on its own.
"$BIN" -q "$ex" -o "$T/r.json" --perfetto "$T/ok.pb" --pprof "$T/nodir/x.pb.gz" 2>"$T/err"
is "$?" 1 "a failing --pprof: exit 1"
like "$(cat "$T/err")" "cannot create '$T/nodir/x.pb.gz'" "the failing output is named"
check "no report and no Perfetto trace" test ! -e "$T/r.json" -a ! -e "$T/ok.pb"
is "$(ls "$T" | grep -c 'tmp-')" 0 "no temporary files left"

"$BIN" -q "$ex" -o "$T/nodir/r.json" --perfetto "$T/ok.pb" --folded "$T/ok.txt" 2>/dev/null
is "$?" 1 "a failing report: exit 1"
check "no export of it" test ! -e "$T/ok.pb" -a ! -e "$T/ok.txt"

echo old >"$T/keep.pb"
echo old >"$T/keep.json"
"$BIN" -q "$ex" -o "$T/keep.json" --perfetto "$T/keep.pb" --folded "$T/nodir/f.txt" 2>/dev/null
is "$?" 1 "a failing --folded: exit 1"
is "$(cat "$T/keep.pb") $(cat "$T/keep.json")" "old old" "the outputs a failed run named keep their old contents"

# Together or alone, from the dump or from its database: the same bytes.
"$BIN" -q "$T/d" -o "$T/all.html" --perfetto "$T/all.pb" --pprof "$T/all.pb.gz" --folded "$T/all.txt"
is "$?" 0 "every export and the HTML report in one run: exit 0"
"$BIN" -q "$T/d" -o "$T/alone.html"
"$BIN" -q "$T/d" -o "$T/r.json" --perfetto "$T/alone.pb"
"$BIN" -q "$T/d" -o "$T/r.json" --pprof "$T/alone.pb.gz"
"$BIN" -q "$T/d" -o "$T/r.json" --folded "$T/alone.txt"
for f in html pb pb.gz txt; do
	check "$f: the same from one run with everything as alone" cmp -s "$T/all.$f" "$T/alone.$f"
done
"$BIN" import -q "$T/d" -o "$T/d.db"
"$BIN" -q "$T/d.db" -o "$T/db.html" --perfetto "$T/db.pb" --pprof "$T/db.pb.gz" --folded "$T/db.txt"
is "$?" 0 "every export from the trace database: exit 0"
for f in html pb pb.gz txt; do
	check "$f: the same from the database (its slices replayed) as from the dump" cmp -s "$T/all.$f" "$T/db.$f"
done
"$BIN" -q "$T/d" --db "$T/kept.db" -o "$T/kept.html" --perfetto "$T/kept.pb" --pprof "$T/kept.pb.gz" \
	--folded "$T/kept.txt"
for f in html pb pb.gz txt; do
	check "$f: the same from a run that keeps its database" cmp -s "$T/all.$f" "$T/kept.$f"
done

# The export to stdout shares it with nothing: written in turn, whole.
"$BIN" -q "$T/d" -o "$T/r.json" --folded - >"$T/stdout.txt"
check "--folded - writes the folded stacks to stdout" cmp -s "$T/stdout.txt" "$T/alone.txt"

# Any number of -o beside every export: eight reports and the exports were
# one more output than the table had room for, and the run aborted.
set --
for k in 1 2 3 4 5 6 7 8; do set -- "$@" -o "$T/many$k.json"; done
"$BIN" -q "$ex" "$@" --perfetto "$T/many.pb" --pprof "$T/many.pb.gz" --folded "$T/many.txt" 2>"$T/err"
is "$?" 0 "eight -o and every export: exit 0"
check "and every file written" test -s "$T/many8.json" -a -s "$T/many.pb" -a -s "$T/many.pb.gz" -a -s "$T/many.txt"
