#!/bin/sh
# btrace 2.0 raw traces (importers/btrace2/) against the truth of the
# independent writer (tests/fixtures/mkbtrace2.py): several seeds, thread
# counts, both clock cases, a second tracing session with a call begun
# before it, an earlier session's records, unfinished slots and padding,
# a pid past 15 bits, no mapping; compared slice by slice, thread by
# thread, fact by fact and diagnostic by diagnostic
# (tests/fixtures/check_btrace2_import.py). The directory, the file and
# --mapping give the same import; a scratch analysis (slices deferred,
# stored when read) gives the same rows as a kept database; the checker
# fails against another seed's truth and on a mutated database.
. tests/lib.sh
MK="python3 tests/fixtures/mkbtrace2.py"
C=tests/fixtures/check_btrace2_import.py

# case NAME [mkbtrace2 options]: write, import, compare.
case_() {
	name=$1
	shift
	$MK "$T/$name" "$@" >/dev/null
	"$BIN" import -q "$T/$name" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
case_ s1 --seed 1 --slices 3000
case_ s2-one-thread-same-clock --seed 2 --slices 1500 --threads 1 --clock same
case_ s3-sessions --seed 3 --slices 5000 --threads 6 --session2 --early --stale 9 --unfinished 4 --pad 100
case_ s4-no-mapping --seed 4 --slices 2000 --threads 3 --no-mapping
case_ s5-pid-past-15-bits --seed 5 --slices 2000 --threads 3 --pid 1000000 --session2 --early
case_ s6-many-threads --seed 6 --slices 8000 --threads 40 --unmapped 5
case_ s7-all-mapped --seed 7 --slices 2500 --threads 2 --unmapped 0 --clock same --pad 3

# what the cases exercise
is "$(q "$T/s1.db" "SELECT count(*) FROM slices WHERE depth >= 5")" "$(awk -F'\t' 'NR > 1 && $2 >= 5' "$T/s1/truth/slices.tsv" | wc -l)" \
	"s1: nested five levels and more, as the truth"
like "$(q "$T/s1.db" "SELECT count(*) FROM slices s JOIN slices p ON p.id = s.parent_id WHERE s.ts = p.ts")" '^[1-9]' \
	"s1: calls that begin with their caller"
like "$(q "$T/s1.db" "SELECT count(*) FROM slices s JOIN slices p ON p.id = s.parent_id WHERE s.ts + s.dur = p.ts + p.dur")" '^[1-9]' \
	"s1: calls that end with their caller"
like "$(q "$T/s1.db" "SELECT count(*) FROM slices a JOIN slices b ON b.tid = a.tid AND b.ts = a.ts + a.dur AND b.depth = a.depth
	AND b.parent_id IS a.parent_id")" '^[1-9]' "s1: a call that begins as its sibling ends"
like "$(grep -c '^[0-9]*,[0-9]*,[^ ]* [^ ]* ([^)]*/' "$T/s1/methodMapping.txt") $(grep -c '^[0-9]*,[0-9]*,[^ ]* [^ ]* ([^)]*L[a-z]*\.' "$T/s1/methodMapping.txt")" \
	'^[1-9][0-9]* [1-9]' "s1: the mapping has descriptors slashed (btrace's) and dotted (Matrix's)"
like "$(q "$T/s1.db" "SELECT count(*) FROM frames WHERE name LIKE '%(?)'")" '^[1-9]' "s1: a native method: no descriptor"
like "$(q "$T/s1.db" "SELECT count(*) FROM frames WHERE name LIKE '<unknown method %>'")" '^[1-9]' "s1: ids the mapping lacks"
like "$(q "$T/s1.db" "SELECT count(*) FROM frames WHERE class = 'com.example.app.net.ApiClient\$Callback' AND method IS NOT NULL AND params IS NOT NULL")" \
	'^[1-9]' "s1: frames parsed into class, method and parameters"
is "$(q "$T/s3-sessions.db" "SELECT value FROM meta WHERE key = 'empty_slots'")" 100 "s3: the zero slots counted in meta"
is "$(q "$T/s5-pid-past-15-bits.db" "SELECT tid FROM threads WHERE is_main")" $((1000000 & 32767)) "s5: the main thread's tid as 15 bits"

# the same import from the file, and with --mapping from elsewhere
"$BIN" import -q "$T/s1/appTrace.bin" -o "$T/file.db"
mkdir "$T/bare"
cp "$T/s1/appTrace.bin" "$T/bare/trace"
"$BIN" import -q "$T/bare/trace" --mapping "$T/s1/methodMapping.txt" -o "$T/mapped.db"
all="SELECT s.id, s.tid, s.depth, s.parent_id, f.name, s.ts, s.dur, s.self_dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.id"
h() { "$BIN" query -q "$1" "$2" --format csv | md5sum | cut -d' ' -f1; }
is "$(h "$T/file.db" "$all")" "$(h "$T/s1.db" "$all")" "the appTrace.bin given: the same slices as its directory"
is "$(h "$T/mapped.db" "$all")" "$(h "$T/s1.db" "$all")" "--mapping: the same slices"

# a scratch analysis: the slices deferred, stored when read, the same rows
for qq in "SELECT * FROM slices ORDER BY id" "SELECT * FROM calltree ORDER BY 1" "SELECT * FROM messages ORDER BY 1, 2" \
	"SELECT * FROM methods ORDER BY 1, 2" "SELECT * FROM threads ORDER BY tid" "SELECT * FROM diagnostics ORDER BY code" \
	"SELECT key, value FROM meta WHERE key NOT IN ('source', 'mapping') ORDER BY key"; do
	is "$(h "$T/s3-sessions" "$qq")" "$(h "$T/s3-sessions.db" "$qq")" "scratch analysis = kept database: $qq"
done

# the checker can fail
python3 "$C" "$T/s1.db" "$T/s6-many-threads/truth" >"$T/out"
like "$(grep -c '^not ok' "$T/out")" '^[3-9]' "checker: another trace's truth fails"
cp "$T/s1.db" "$T/bad.db"
python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE slices SET dur = dur + 1 WHERE id = 77"); c.commit()' "$T/bad.db"
python3 "$C" "$T/bad.db" "$T/s1/truth" >"$T/out"
is "$(grep '^not ok' "$T/out" | head -n 1)" "not ok - every slice: thread, depth, begin, length, method, parent (3000)" \
	"checker: one slice 1 ns longer fails"
