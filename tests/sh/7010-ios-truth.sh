#!/bin/sh
# iOS import against the independent writer's truth (tests/fixtures/mkios.py):
# versions 1-4, per-row, batch and mixed storage, gzip, legacy metadata
# (no version/main_tid: the smallest sampled tid is main), a worker port
# below main's, stack ids missing from the trie, several seeds, with and
# without --symbols. tests/fixtures/check_ios.py compares every thread,
# sample (lock-contention pairs merged into one lock wait), stack, frame,
# lock edge, dispatch, counter and track slice with the truth; then it is
# shown to fail on another seed's truth and on each kind of damage.
. tests/lib.sh
MKIOS="python3 $ROOT/tests/fixtures/mkios.py"
CHECK="python3 $ROOT/tests/fixtures/check_ios.py"

# case name, then mkios options; "sym" first means import with --symbols
while read -r name sym opts; do
	case $name in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086
	$MKIOS "$T/$name" $opts >/dev/null
	in=$T/$name/trace.db
	[ -f "$in" ] || in=$T/$name/trace.db.gz
	if [ "$sym" = sym ]; then
		"$BIN" import -q "$in" -o "$T/$name.db" --symbols "$T/$name/symbols.txt"
		flag=--symbols
	else
		"$BIN" import -q "$in" -o "$T/$name.db"
		flag=
	fi
	is "$?" 0 "$name: import exits 0"
	# shellcheck disable=SC2086
	is "$($CHECK "$T/$name.db" "$T/$name" $flag)" ok "$name ($sym $opts): the database equals the truth"
done <<'CASES'
# name    symbols  mkios options
v3both    sym      --version 3 --seed 1 --storage both --samples 600
v3plain   -        --version 3 --seed 1 --storage both --samples 600
v1legacy  -        --version 1 --seed 2 --storage row --legacy-meta --main-not-smallest
v1both    sym      --version 1 --seed 8 --storage both
v2gz      sym      --version 2 --seed 3 --storage batch --gzip
v2row     -        --version 2 --seed 7 --storage row --samples 2000 --threads 6 --locks 12 --dispatch 30
v3gz      -        --version 3 --seed 6 --storage batch --gzip --unknown-stack 3 --main-not-smallest --trace-id 2
v4both    -        --version 4 --seed 4 --storage both --unknown-stack 5
v4row     sym      --version 4 --seed 5 --storage row --main-not-smallest --locks 9
CASES

is "$(ls "$T"/*/ | grep -c -- '-wal$\|-shm$')" 0 "no -wal or -shm files beside the inputs (they are in WAL mode, spec §1)"

# The cases cover what they claim (otherwise a check could pass vacuously).
tv() { awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$T/$1/truth/summary.tsv"; }
check "the cases have lock edges, dispatch and async links, counters, slices, empty and unknown stacks" \
	test "$(tv v3plain lock_edges)" -gt 0 -a "$(tv v3plain dispatch_links)" -gt 0 -a "$(tv v3plain async_links)" -gt 0 \
	-a "$(tv v3plain counters)" -gt 0 -a "$(tv v3plain ts_slices)" -gt 0 -a "$(tv v3plain empty_stacks)" -gt 0 \
	-a "$(tv v4both unknown_stacks)" -gt 0
is "$(q "$T/v3plain.db" "SELECT count(*) FROM frames WHERE name NOT LIKE '%+0x%' AND name NOT LIKE '<%'")" 0 \
	"without --symbols every frame is image+0xoffset"
like "$(q "$T/v3both.db" "SELECT count(*) FROM frames WHERE name LIKE '-[DM%'")" '^[1-9]' "with --symbols frames carry the map's names"
like "$(q "$T/v3both.db" "SELECT count(*) FROM frames WHERE name LIKE 'libsystem_kernel.dylib+0x%'")" '^[1-9]' \
	"with --symbols addresses the map lacks stay image+0xoffset"
is "$(q "$T/v1legacy.db" "SELECT tid FROM threads WHERE is_main")" "$(tv v1legacy main_tid)" \
	"legacy metadata: the smallest sampled tid is main"
is "$(q "$T/v4row.db" "SELECT tid FROM threads WHERE is_main")" 2563 "main_tid is preferred to the smallest tid (I-1)"
is "$(q "$T/v3plain.db" "SELECT count(*) FROM samples WHERE type = 107")" "$(tv v3plain lock_edges)" \
	"one lock-wait sample per contention pair"

# The checker fails on another seed's truth, and with the wrong naming.
unlike "$($CHECK "$T/v3plain.db" "$T/v1both")" '^ok$' "checker: another seed's truth fails"
unlike "$($CHECK "$T/v3plain.db" "$T/v3plain" --symbols)" '^ok$' "checker: image+offset frames are not the symbols"
unlike "$($CHECK "$T/v3both.db" "$T/v3both")" '^ok$' "checker: symbol names are not image+offset frames"

# Each kind of damage to the imported database is caught by its check.
damage() {   # description, sql, pattern of the first problem line
	cp "$T/v3plain.db" "$T/bad.db"
	sqlite3 "$T/bad.db" "$2"
	like "$($CHECK "$T/bad.db" "$T/v3plain" | sed -n 1p)" "$3" "checker catches $1"
}
damage "a sample time" "UPDATE samples SET ts = ts + 1 WHERE id = 7" '^samples \(type'
damage "a CPU time" "UPDATE samples SET cpu_ns = cpu_ns + 10000 WHERE id = 9" '^samples \(type'
damage "an allocation counter" "UPDATE samples SET alloc_bytes = alloc_bytes + 1 WHERE id = 11" '^samples \(type'
damage "a lost memory size" "DELETE FROM sample_args WHERE rowid = (SELECT min(rowid) FROM sample_args)" '^samples \(type'
damage "a stack" "UPDATE samples SET node_id = (SELECT max(id) FROM nodes) WHERE id = 3" '^samples \(type'
damage "a lock wait made a plain lock sample" \
	"UPDATE samples SET type = 106 WHERE id = (SELECT min(id) FROM samples WHERE type = 107)" '^samples \(type'
damage "a renamed frame" "UPDATE frames SET name = name || 'x' WHERE id = 2" '^samples \(type'
damage "a thread name" "UPDATE threads SET name = 'x' WHERE name IS NOT NULL" '^threads \(tid'
damage "the main thread" "UPDATE threads SET is_main = 1 - is_main" '^threads \(tid'
damage "the wall start in meta" "UPDATE meta SET value = value + 1000 WHERE key = 'wall_start_ns'" '^meta wall_start_ns'
damage "a waker's time" "UPDATE blocking_edges SET waker_ts = waker_ts - 10000 WHERE id = 1" '^lock edge at'
damage "a waker" "UPDATE blocking_edges SET waker_tid = waker_tid + 1 WHERE id = 1" '^lock edge at'
damage "a wait's duration" "UPDATE blocking_edges SET dur = dur + 10000 WHERE id = 2" '^lock edge at'
damage "a lost lock edge" "DELETE FROM blocking_edges WHERE id = 1" '^lock edges'
damage "a dispatch target" "UPDATE dispatches SET target_tid = source_tid WHERE id = 1" '^dispatches'
damage "a dispatch's start" "UPDATE dispatches SET target_ts = target_ts + 10000 WHERE id = 2" '^dispatches'
damage "a counter value" "UPDATE counters SET value = value * 2 WHERE rowid = 2" '^counters'
damage "a counter in MiB" "UPDATE counters SET value = value / 1048576 WHERE track = 'mem_usage'" '^counters'
damage "a track slice" "UPDATE track_slices SET dur = dur - 1000 WHERE rowid = 1" '^track_slices'
damage "an extra diagnostic" "INSERT INTO diagnostics(code, count, detail) VALUES ('odd', 1, 'x')" '^diagnostics'
damage "an extra node" "INSERT INTO nodes(id, parent_id, frame_id, depth) VALUES (100000, NULL, 1, 0)" '^nodes'
