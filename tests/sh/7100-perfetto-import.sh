#!/bin/sh
# Perfetto import (importers/perfetto/) against the truth of the
# independent trace writer (tests/fixtures/mkperfetto.py): btrace 2.0
# (atrace prints) and 3.0 (app tracks plus a system part) traces of
# several seeds, thread and wait counts, gzip'd and without annotations,
# compared slice by slice, edge by edge and row by row
# (tests/fixtures/check_perfetto_import.py); a second process in the same
# trace is left out and counted; the checker fails against another seed's
# truth and on mutated databases.
. tests/lib.sh
MKPF="python3 tests/fixtures/mkperfetto.py"
C=tests/fixtures/check_perfetto_import.py

# case NAME FLAVOR SEED [mkperfetto options]: write, import, compare.
case_() {
	name=$1 flavor=$2 seed=$3
	shift 3
	$MKPF "$T/$name/t.pb" --flavor "$flavor" --seed "$seed" "$@" >/dev/null
	"$BIN" import -q "$T/$name/t.pb" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
case_ b2-s1 btrace2 1 --slices 3000
case_ b2-s2-gz btrace2 2 --slices 2000 --threads 1 --blocks 12 --gzip
case_ b2-s3 btrace2 3 --slices 6000 --threads 6 --blocks 20
case_ b3-s1 btrace3 1 --slices 3000
case_ b3-s2-gz btrace3 2 --slices 4000 --threads 5 --blocks 10 --gzip
case_ b3-s3-noann btrace3 3 --slices 2500 --threads 2 --blocks 4 --no-annotations
case_ b3-s4 btrace3 4 --slices 8000 --threads 8 --blocks 24
case_ b3-s5-noblocks btrace3 5 --slices 1200 --threads 1 --blocks 0

# what the cases exercise
is "$(q "$T/b2-s2-gz.db" "SELECT value FROM meta WHERE key = 'format'")" perfetto "gzip'd trace recognised by content"
like "$(q "$T/b3-s1.db" "SELECT count(*) FROM slices s JOIN frames f ON f.id = s.frame_id
	WHERE f.name LIKE 'Object#wait(%' AND s.depth > 0")" '^[1-9]' "btrace3: wait markers nest below app slices"
like "$(q "$T/b3-s1.db" "SELECT count(*) FROM slices WHERE wakeup_tid IS NOT NULL AND type = 6")" '^[1-9]' \
	"btrace3: WakeUpBy and Type kWait read from annotations"
is "$(q "$T/b3-s1.db" "SELECT value FROM meta WHERE key = 'sources'")" "track_event+atrace" "btrace3: both sources"
is "$(q "$T/b2-s1.db" "SELECT value FROM meta WHERE key = 'sources'")" atrace "btrace2: atrace only"
is "$(q "$T/b3-s5-noblocks.db" "SELECT count(*) FROM blocking_edges")" 0 "--blocks 0: no edges"
is "$("$BIN" query -q "$T/b3-s1/t.pb" "SELECT count(*) FROM slices" --format tsv | sed -n 2p)" \
	"$(truth "$T/b3-s1" slices)" "query reads the .pb directly"

# A second process in the same file (btrace 3.0 appends the app trace to a
# system trace): the process most slices begin in is the app; the other's
# slices are counted, not imported.
$MKPF "$T/other/t.pb" --flavor btrace2 --seed 11 --slices 600 --threads 1 >/dev/null
is "$(truth "$T/b3-s1" pid) $(truth "$T/other" pid)" "8137 8463" "the app's pid (seed 1), the other's (seed 11)"
is "$(sort "$T/b3-s1/truth/threads.tsv" "$T/other/truth/threads.tsv" | cut -f1 | uniq -d)" tid "and no tid in both"
cat "$T/b3-s1/t.pb" "$T/other/t.pb" >"$T/mixed.pb"
"$BIN" import -q "$T/mixed.pb" -o "$T/mixed.db"
is "$?" 0 "two processes: import exits 0"
is "$(q "$T/mixed.db" "SELECT count(*) || ' ' || count(DISTINCT tid) FROM slices")" \
	"$(truth "$T/b3-s1" slices) $(truth "$T/b3-s1" threads)" "two processes: only the app's slices and threads"
is "$(q "$T/mixed.db" "SELECT count FROM diagnostics WHERE code = 'perfetto_other_process'")" \
	"$(truth "$T/other" slices)" "two processes: the other's slices counted as perfetto_other_process"
is "$(q "$T/mixed.db" "SELECT group_concat(value, ' ') FROM meta WHERE key IN ('pid', 'main_tid') ORDER BY key")" \
	"8137 8137" "two processes: pid and main thread are the app's"
python3 "$C" "$T/mixed.db" "$T/b3-s1/truth" >"$T/out"
is "$(grep '^not ok' "$T/out")" "not ok - no diagnostics for a well-formed trace" \
	"two processes: every check but the diagnostics one holds against the app's truth"

# The checker can fail: another seed's truth, and mutated databases.
python3 "$C" "$T/b3-s1.db" "$T/b3-s4/truth" >"$T/out"
is "$?" 1 "checker: another seed's truth fails"
like "$(cat "$T/out")" '^not ok - every slice: tid' "checker: and says the slices differ"
mutate() {   # base description check-pattern sql
	cp "$T/$1.db" "$T/mut.db"
	sqlite3 "$T/mut.db" "$4"
	python3 "$C" "$T/mut.db" "$T/$1/truth" >"$T/out"
	is "$?:$(grep -c "^not ok - $3" "$T/out")" 1:1 "checker: $2 fails '$3'"
}
mutate b3-s1 "one slice 1 ns longer" "every slice: tid" "UPDATE slices SET dur = dur + 1 WHERE id = 7"
mutate b3-s1 "a wait marker one level up" "every slice: tid" \
	"UPDATE slices SET depth = depth - 1 WHERE frame_id IN (SELECT id FROM frames WHERE name LIKE 'Object#wait(%')"
mutate b3-s1 "a marker without its parent" "every slice: tid" \
	"UPDATE slices SET parent_id = NULL WHERE id = (SELECT min(s.id) FROM slices s JOIN frames f ON f.id = s.frame_id WHERE f.name LIKE 'binder%' AND s.depth > 0)"
mutate b3-s1 "a CPU time 1 ns off" "every slice: self_dur" "UPDATE slices SET cpu_dur = cpu_dur + 1 WHERE id = 9"
mutate b3-s1 "a lost WakeUpBy" "every slice: self_dur" "UPDATE slices SET wakeup_tid = NULL WHERE wakeup_tid IS NOT NULL"
mutate b2-s1 "a marker's own block time lost" "every slice: self_dur" \
	"UPDATE slices SET block_dur = 0 WHERE type = 8"
mutate b3-s1 "an unknown Type name taken as a type" "every slice: self_dur" \
	"UPDATE slices SET type = 9 WHERE type IS NULL AND depth = 0"
mutate b3-s1 "a waker 1 ns late" "blocking edges" "UPDATE blocking_edges SET waker_ts = waker_ts + 1 WHERE kind = 'wait'"
mutate b2-s1 "a monitor edge with a lock id" "blocking edges" "UPDATE blocking_edges SET lock_id = 1 WHERE kind = 'monitor'"
mutate b3-s1 "'' for a binder call's missing method" "binder_transactions" \
	"UPDATE binder_transactions SET method = '' WHERE method IS NULL"
mutate b3-s1 "a thread creation lost" "thread_creates" "DELETE FROM thread_creates WHERE slice_id = (SELECT min(slice_id) FROM thread_creates)"
mutate b3-s1 "no main thread" "threads" "UPDATE threads SET is_main = 0"
mutate b2-s1 "a wrong main_tid" "meta" "UPDATE meta SET value = 1 WHERE key = 'main_tid'"
