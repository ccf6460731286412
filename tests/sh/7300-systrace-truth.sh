#!/bin/sh
# systrace/atrace import (importers/systrace/) against the truth of the
# independent writer (tests/fixtures/mksystrace.py), every variant: ftrace
# text with and without the TGID column, without irq flags, markers as
# "0:" events, gzip'd, atrace's TRACE: + zlib in several chunks, systrace
# HTML (trace-data blocks; the older linuxPerfData string), the string's
# lines alone, without scheduler data (CPU NULL), with sched_waking, cut at
# the start (a ring buffer that wrapped), nanosecond timestamps. Slices,
# CPU times, edges, counters, track slices, thread states, threads, meta
# and diagnostics compared row by row (tests/fixtures/check_systrace_import.py);
# the checker fails against another seed's truth and on mutated databases.
. tests/lib.sh
MK="python3 tests/fixtures/mksystrace.py"
C=tests/fixtures/check_systrace_import.py

case_() {   # name [mksystrace options]
	name=$1
	shift
	$MK "$T/$name/t" "$@"
	"$BIN" import -q "$T/$name/t" -o "$T/$name.db"
	is "$?" 0 "$name: import exits 0"
	python3 "$C" "$T/$name.db" "$T/$name/truth" | sed "s/^\(ok\|not ok\) - /&$name: /"
}
case_ text --seed 1
case_ tgid --seed 2 --tgid
case_ legacy-0 --seed 3 --legacy --marker-event 0
case_ gzip-waking --seed 4 --container gzip --waking
case_ zlib-5 --seed 5 --container zlib --chunks 5 --tgid
case_ html --seed 6 --container html --tgid
case_ html-old --seed 7 --container html-old
case_ js --seed 8 --container js
case_ no-sched --seed 9 --no-sched --tgid
case_ cut --seed 10 --cut 30000 --tgid
case_ ns-2cpu --seed 11 --ns --cpus 2 --workers 6 --frames 100
case_ zlib-cut-waking --seed 12 --cut 200000 --waking --container zlib --chunks 9
case_ many --seed 13 --frames 400 --workers 8 --cpus 8 --container gzip

# what the cases exercise
is "$(q "$T/zlib-5.db" "SELECT group_concat(key || '=' || value, ' ') FROM meta WHERE key IN ('container', 'format') ORDER BY key")" \
	"container=zlib format=systrace" "zlib: read as atrace's compressed output"
like "$(head -c 40 "$T/zlib-5/t" | tr '\n' ' ')" "TRACE: x" "zlib: the file holds TRACE: then zlib"
is "$(python3 -c 'import sys, zlib
d = open(sys.argv[1], "rb").read(); d = d[d.index(b"TRACE:\n") + 7:]; n = 0
while d:
    z = zlib.decompressobj(); z.decompress(d); d = z.unused_data; n += 1
print(n)' "$T/zlib-5/t")" 5 "zlib: five streams, one after another"
is "$(q "$T/html.db" "SELECT value FROM meta WHERE key = 'page'")" html-trace-data "html: read from its trace-data block"
is "$(q "$T/html-old.db" "SELECT value FROM meta WHERE key = 'page'")" html-linuxPerfData "html-old: read from linuxPerfData"
is "$(q "$T/js.db" "SELECT value FROM meta WHERE key = 'page'")" javascript-string "js: a JavaScript string's lines"
is "$(q "$T/no-sched.db" "SELECT count(*) || ' ' || count(cpu_dur) FROM slices") $(q "$T/no-sched.db" "SELECT value FROM meta WHERE key = 'cpu_time'")" \
	"$(truth "$T/no-sched" slices) 0 unknown" "no sched: every slice's CPU NULL, said in meta"
is "$(q "$T/no-sched.db" "SELECT count(*) FROM thread_states")" 0 "no sched: no thread states"
like "$(q "$T/text.db" "SELECT count(*) FROM slices WHERE cpu_dur > 0 AND cpu_dur < dur")" '^[1-9]' \
	"text: slices that ran part of their time"
like "$(q "$T/text.db" "SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL AND kind IN ('monitor', 'wait', 'binder', 'lock')")" '^[1-9]' \
	"text: waits with their kernel wakers"
like "$(q "$T/gzip-waking.db" "SELECT count(*) FROM thread_states WHERE state = 'uninterruptible' AND blocked_function IS NOT NULL")" '^[1-9]' \
	"waking: blocked reasons that came after the waking still name the sleep"
is "$(q "$T/text.db" "SELECT name FROM threads WHERE tid = 4003")" io-worker "a renamed thread has its new name"
like "$(q "$T/cut.db" "SELECT detail FROM diagnostics WHERE code = 'systrace_buffer_overrun'")" "dropped [1-9][0-9]* of" \
	"cut: the header's lost events said"

# The checker can fail: another seed's truth, and mutated databases.
python3 "$C" "$T/text.db" "$T/tgid/truth" >"$T/out"
is "$?" 1 "checker: another seed's truth fails"
like "$(cat "$T/out")" '^not ok - every slice' "checker: and says the slices differ"
mutate() {   # base description check-pattern sql
	cp "$T/$1.db" "$T/mut.db"
	sqlite3 "$T/mut.db" "$4"
	python3 "$C" "$T/mut.db" "$T/$1/truth" >"$T/out"
	is "$?:$(grep -c "^not ok - $3" "$T/out")" 1:1 "checker: $2 fails '$3'"
}
mutate text "one slice 1 ns longer" "every slice" "UPDATE slices SET dur = dur + 1 WHERE id = 7"
mutate text "a CPU time 1 ns off" "every slice" "UPDATE slices SET cpu_dur = cpu_dur + 1 WHERE id = 9"
mutate text "a CPU time 0 for NULL" "every slice" "UPDATE slices SET cpu_dur = 0 WHERE id = 9"
mutate no-sched "0 for an unknown CPU time" "every slice" "UPDATE slices SET cpu_dur = 0 WHERE id = 3"
mutate text "a lost kernel waker" "blocking edges" "UPDATE blocking_edges SET waker_tid = NULL WHERE id = 1"
mutate text "a state 1 ns short" "thread_states" "UPDATE thread_states SET dur = dur - 1 WHERE rowid = 5"
mutate text "a runnable state's waker lost" "thread_states" "UPDATE thread_states SET waker_tid = NULL WHERE waker_tid IS NOT NULL"
mutate text "an async slice one level up" "track_slices" "UPDATE track_slices SET depth = depth + 1 WHERE rowid = 1"
mutate text "a counter value off" "counters" "UPDATE counters SET value = value + 1 WHERE rowid = 2"
mutate text "no main thread" "threads" "UPDATE threads SET is_main = 0"
mutate text "an unfinished slice not counted" "diagnostics" "DELETE FROM diagnostics WHERE code = 'systrace_unfinished_slices'"

# A page's PROCESS DUMP names the process, and threads the lines name not
{
	printf '<!DOCTYPE html>\n<html><body>\n  <script class="trace-data" type="application/text">\n'
	printf '# tracer: nop\n'
	printf '           <...>-55    (   50) [000] ...1 7.000001: tracing_mark_write: B|50|work\n'
	printf '           <...>-55    (   50) [000] ...1 7.000002: tracing_mark_write: E|50\n'
	printf '            main-50    (   50) [001] ...1 7.000003: tracing_mark_write: B|50|more\n'
	printf '  </script>\n  <script class="trace-data" type="application/text">\nPROCESS DUMP\n'
	printf 'USER     PID   PPID     VSZ    RSS WCHAN  PC S NAME              COMMAND\n'
	printf 'u0_a5     50    600 1234567 123456 0       0 S com.example.demo  com.example.demo --flag\n'
	printf 'USER PID TID CMD\nu0_a5 50 50 com.example.demo\nu0_a5 50 55 com.example.demo\nu0_a5 50 56 com.example.demo\n'
	printf '  </script>\n</body></html>\n'
} >"$T/dump.html"
"$BIN" import -q "$T/dump.html" -o "$T/dump.db"
is "$?" 0 "a page with a PROCESS DUMP: exit 0"
is "$("$BIN" query -q "$T/dump.db" "SELECT tid, name FROM threads ORDER BY tid" --format tsv | sed 1d | tr '\t\n' '| ')" \
	"50|main 55|com.example.demo " "PROCESS DUMP: a thread the lines name not takes its process's command; one they name keeps it; none is made"
is "$(q "$T/dump.db" "SELECT value FROM meta WHERE key = 'process_name'")" com.example.demo "PROCESS DUMP: the process's name"
