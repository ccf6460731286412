#!/bin/sh
# Salvage of iOS databases cut short (issue 17): a .db truncated at some
# page, or a .db.gz whose stream ends early, imports what SQLite can read,
# table by table; the trace is marked partial, a diagnostic gives the
# offset, the bytes and the tables lost, the report says so at its top,
# exit 0. A file whose schema (or BTraceModel) is gone is refused clearly;
# --strict refuses every cut file. Each table's readable rows are counted
# by the sqlite3 shell on the same bytes, and a cut inside a page must
# read as the cut at the page before (no half page read as rows).
. tests/lib.sh

python3 tests/fixtures/mkios.py "$T/ios" --samples 3000 --no-truth >/dev/null
db=$T/ios/trace.db
size=$(wc -c <"$db")
page=$(sqlite3 "$db" "PRAGMA page_size")
pages=$((size / page))
is "$((pages * page))" "$size" "the database is whole pages"
meta() { q "$1" "SELECT value FROM meta WHERE key = '$2'"; }
mkdir -p "$T/tmp"
export TMPDIR="$T/tmp"

# readable FILE TABLE: the rows of TABLE (every column) the sqlite3 shell
# reads in rowid order before it meets a missing page, then "!" if it met one
readable() {
	cols=$(sqlite3 "$db" "SELECT group_concat('quote(\"' || name || '\") IS NULL', ', ') FROM pragma_table_info('$2')")
	out=$(sqlite3 -cmd "PRAGMA writable_schema=ON" "$1" "SELECT rowid, $cols FROM \"$2\" WHERE trace_id = 1 ORDER BY rowid" 2>/dev/null)
	rc=$?
	printf '%s' "$out" | grep -c . | tr -d '\n'
	[ "$rc" -ne 0 ] && printf '!'
	echo
}

# tables NAME: "T N" for each table the reason lists as cut (N: rows read)
tables() {
	meta "$T/$1.db" partial_reason | sed -n 's/.*tables read up to the cut: //p' | tr ',' '\n' |
		sed "s/^ *'\([A-Za-z]*\)' after \([0-9]*\) rows/\1 \2/; s/^ *'\([A-Za-z]*\)' lost/\1 0/"
}

# cut NAME BYTES: import the first BYTES of the database
cut() {
	head -c "$2" "$db" >"$T/$1.db.in"
	err=$("$BIN" import "$T/$1.db.in" -o "$T/$1.db" 2>&1 >/dev/null)
	is "$?" 0 "$1: exit 0"
	is "$(meta "$T/$1.db" partial)" 1 "$1: meta partial = 1"
	like "$(meta "$T/$1.db" partial_reason)" "^'.*$1.db.in' is cut at byte offset $2 of the $size its header says \\($((size - $2)) bytes lost\\); tables read up to the cut: " \
		"$1: the reason gives the offset and the bytes lost"
	like "$(q "$T/$1.db" "SELECT count || ' ' || detail FROM diagnostics WHERE code = 'truncated_database'")" "^1 '.*$1.db.in' is cut at byte offset $2 " \
		"$1: the diagnostic"
	like "$err" "warning: '.*$1.db.in' is cut at byte offset $2 .*\\[truncated_database\\]" "$1: warned on stderr"
	like "$("$BIN" -q "$T/$1.db" | head -1)" "^PARTIAL   the input is cut short: '.*$1.db.in' is cut at byte offset $2 " "$1: the report's first line"
}

# at whole pages: each table the reason lists stopped where the shell
# stops, and the shell reads every other table whole
at=$((pages * 3 / 4 * page))
cut aligned "$at"
tables aligned >"$T/listed"
bad=
while read -r t n; do
	[ "$(readable "$T/aligned.db.in" "$t")" = "$n!" ] || bad="$bad $t:$n/$(readable "$T/aligned.db.in" "$t")"
done <"$T/listed"
is "$(wc -l <"$T/listed" | tr -d ' ')$bad" "$(wc -l <"$T/listed" | tr -d ' ')" "aligned: each cut table read up to where SQLite stops"
check "aligned: a table read in part (rows, not all or nothing)" grep -q ' [1-9]' "$T/listed"
for t in CPUSampleModel ThreadInfoModel BTraceModel DateSampleModel; do
	r=$(readable "$T/aligned.db.in" "$t")
	case $r in
	*!) grep -q "^$t " "$T/listed" || echo "not ok - aligned: $t is cut ($r) but not listed" ;;
	*) unlike "$(cat "$T/listed")" "^$t " "aligned: $t read whole ($r rows), not listed" ;;
	esac
done

# inside a page: the half page is missing, not zeros read as rows
cut halfpage $((at + page / 2))
is "$(tables halfpage | tr '\n' ' ')" "$(tables aligned | tr '\n' ' ')" "halfpage: the same tables and rows as the cut at the page before"
is "$(q "$T/halfpage.db" "SELECT count(*) || '/' || sum(ts) FROM samples")" "$(q "$T/aligned.db" "SELECT count(*) || '/' || sum(ts) FROM samples")" \
	"halfpage: the same samples"
cut last $((size - 100))
"$BIN" import -q "$db" -o "$T/whole.db"
like "$(q "$T/last.db" "SELECT count(*) < $(q "$T/whole.db" "SELECT count(*) FROM samples") FROM samples")" '^1$' "last: the last page's rows are lost"

# refused: the schema gone, BTraceModel gone, and everything with --strict
refused() {   # name bytes pattern [option]
	head -c "$2" "$db" >"$T/$1.in"
	rm -f "$T"/out.*
	err=$("$BIN" import $4 "$T/$1.in" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?:$(ls "$T" | grep -c '^out\.')" 1:0 "$1: exit 1, no database"
	like "$err" "^btrace-analyze: error: $3" "$1: the message"
}
refused schema 3000 "'.*schema.in' is cut at byte offset 3000: its schema is lost, nothing can be imported\$"
refused schema2 $((page + 10)) "table 'BTraceModel' of '.*schema2.in' is lost: the file is cut at byte offset $((page + 10)), nothing can be imported\$"
refused strict "$at" "truncated database '.*strict.in': $at bytes, its header says $size\$" --strict
"$BIN" analyze --strict "$T/aligned.db.in" -o "$T/rep.json" >/dev/null 2>&1
is "$?:$(ls "$T" | grep -c '^rep\.')" 1:0 "strict: analyze exits 1, nothing written"

# gzip'd: the stream ends early; what inflated is a cut database
gzip -n -c "$db" >"$T/g.db.gz"
gz=$(wc -c <"$T/g.db.gz")
head -c $((gz / 2)) "$T/g.db.gz" >"$T/gcut.db.gz"
inflated=$(python3 -c 'import sys, zlib; print(len(zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read())))' "$T/gcut.db.gz")
err=$("$BIN" import "$T/gcut.db.gz" -o "$T/gcut.db" 2>&1 >/dev/null)
is "$?:$(meta "$T/gcut.db" partial)" 0:1 "gzip cut: exit 0, partial"
like "$(meta "$T/gcut.db" partial_reason)" \
	"^the gzip stream of '.*gcut.db.gz' ends early at byte offset $((gz / 2)), the database it holds is cut at byte offset $inflated of the $size its header says \\($((size - inflated)) bytes lost\\); tables read up to the cut: " \
	"gzip cut: the reason gives both offsets"
like "$("$BIN" -q "$T/gcut.db" | head -1)" "^PARTIAL   the input is cut short: the gzip stream" "gzip cut: the report's first line"
rm -f "$T"/out.*
err=$("$BIN" import --strict "$T/gcut.db.gz" -o "$T/out.db" 2>&1 >/dev/null)
is "$?:$(ls "$T" | grep -c '^out\.')" 1:0 "gzip cut --strict: exit 1, no database"
like "$err" "^btrace-analyze: error: truncated gzip stream in '.*gcut.db.gz' at byte offset $((gz / 2))\$" "gzip cut --strict: the message"
head -c $((gz - 4)) "$T/g.db.gz" >"$T/gtrail.db.gz"
"$BIN" import -q "$T/gtrail.db.gz" -o "$T/gtrail.db"
is "$?:$(meta "$T/gtrail.db" partial)" 0:1 "gzip without its trailer: exit 0, partial"
like "$(meta "$T/gtrail.db" partial_reason)" "^the gzip stream of '.*gtrail.db.gz' ends early at byte offset $((gz - 4)), but the $size bytes of the database it holds are all there\$" \
	"gzip without its trailer: the database is whole"
is "$(q "$T/gtrail.db" "SELECT count(*) || '/' || sum(ts) FROM samples")" "$(q "$T/whole.db" "SELECT count(*) || '/' || sum(ts) FROM samples")" \
	"gzip without its trailer: every sample"
is "$(ls "$T/tmp" | wc -l | tr -d ' ')" 0 "no temporary file left"
