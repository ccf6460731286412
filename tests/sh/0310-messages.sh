#!/bin/sh
# Messages that name the file and the cause (issue 17): an SQLite file
# whose schema page is damaged is not "no supported format", plain or
# gzip'd; a file with our meta but not our tables names the missing table
# rather than the first query it breaks; compare's FIFO is not "no such
# file or directory".
. tests/lib.sh

python3 tests/fixtures/mkios.py --no-truth "$T/ios" >/dev/null
cp "$T/ios/trace.db" "$T/damaged.db"
printf '\377\377\377\377\377\377\377\377\377\377\377\377' |
	dd of="$T/damaged.db" bs=1 seek=100 conv=notrunc status=none
out=$("$BIN" -q "$T/damaged.db" 2>&1)
is "$?" 1 "a damaged schema page: exit 1"
like "$out" "damaged SQLite file '$T/damaged.db': its schema \(table sqlite_master, from page 1 at byte offset 100\) cannot be read: database disk image is malformed" \
	"the message says what is wrong and where"
gzip -c "$T/damaged.db" >"$T/damaged.gz"
out=$("$BIN" -q "$T/damaged.gz" 2>&1)
is "$?" 1 "the same gzip'd: exit 1"
like "$out" "damaged SQLite file '$T/damaged.gz'" "the message names the .gz"

refused() {   # db what message: analyze and query of db exit 1, saying message
	for cmd in analyze query; do
		if [ $cmd = query ]; then out=$("$BIN" query "$1" "SELECT 1" 2>&1); else out=$("$BIN" "$1" 2>&1); fi
		is "$?" 1 "$cmd of a database $2: exit 1"
		like "$out" "$3" "$cmd: the message names the file and what it lacks"
	done
}
sqlite3 "$T/meta.db" "CREATE TABLE meta(key TEXT PRIMARY KEY, value); INSERT INTO meta VALUES('tool', 'btrace-analyze');"
refused "$T/meta.db" "with only our meta" \
	"'$T/meta.db' is not a btrace-analyze trace database: it has no table 'threads'"
# A table of ours without a column (a damaged or older file) is named at
# open, before any query: each table's statement is the schema's or its
# columns are looked for; a statement of ours that meets one later says so.
"$BIN" import -q "$FIX/small" -o "$T/ok.db" && cp "$T/ok.db" "$T/col.db" &&
	sqlite3 "$T/col.db" "ALTER TABLE threads DROP COLUMN name"
refused "$T/col.db" "whose threads lack a column" \
	"'$T/col.db' is not a btrace-analyze trace database of this version: table 'threads' lacks column 'name'"
is "$("$BIN" query "$T/ok.db" "SELECT count(*) > 0 FROM threads" --format tsv | tail -1)" 1 "the same database whole: queried"

mkfifo "$T/r.fifo"
out=$(timeout 20 "$BIN" compare --base "$T/r.fifo" --head "$T/r.fifo" 2>&1)
is "$?" 1 "compare of a FIFO: exit 1"
like "$out" "cannot read '$T/r.fifo': it is a FIFO, not a regular file" "compare says it is a FIFO"
unlike "$out" "no such file" "not 'no such file or directory'"
out=$(timeout 20 "$BIN" -q "$T/ios/trace.db" --symbols "$T/r.fifo" 2>&1)
is "$?" 1 "--symbols a FIFO: exit 1, no hang"
like "$out" "cannot read '$T/r.fifo': it is a FIFO, not a regular file" "--symbols says it is a FIFO"
:
