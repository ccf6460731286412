#!/bin/sh
# The device simulator (tests/fixtures/mkdevice.py). Both models with 3, 5
# and 8 threads, with and without --poll-records: verify_dump.py agrees
# with the truth, check_device.py checks what the writer may write and the
# truth's consistency (the wall split adds up per thread, every role; the
# main thread's and HandlerThreads' consecutive messages never share a
# message id: next() polls at least once per message). Two
# 20000-record dumps (feed, media) assert the realism figures: the main
# thread's sample gap while running Java, the hooks of contention, waits,
# natives and libraries present, idle per role, the main thread's busy
# share, kGC as the first record of pool and binder tasks. The same options
# give the same bytes, a damaged truth is rejected, the scorers run.
. tests/lib.sh
# The simulator itself is under test: every run simulates, none is a kept
# one (tests/fixtures/simcache.py).
unset BT_SIM_CACHE
MK=$ROOT/tests/fixtures/mkdevice.py
CK=$ROOT/tests/fixtures/check_device.py
for m in feed media; do
	for n in 3 5 8; do
		for p in "" --poll-records; do
			d=$T/$m$n${p:+p}
			python3 "$MK" "$d" --model "$m" --threads "$n" --records 3000 --seed "$n" $p >/dev/null
			check "$m --threads $n $p: verify_dump agrees" python3 tests/fixtures/verify_dump.py "$d"
			python3 "$CK" "$d" ${p:+--poll} | grep -v '^#' | sed "s/^\(not \)*ok - /&$m $n${p:+ poll}: /"
		done
	done
done

# the realism figures, asserted on 20000 records of each model
gcfirst=0 tasks=0
for m in feed media; do
	d=$T/${m}20k
	python3 "$MK" "$d" --model "$m" --records 20000 --seed 11 >/dev/null
	python3 "$CK" "$d" --realism >"$T/$m.out"
	grep -v '^# split' "$T/$m.out" | sed "s/^\(not \)*ok - /&$m 20k: /"
	set -- $(sed -n 's/^# pool\/binder tasks with a record: \([0-9]*\), first record a kGC: \([0-9]*\).*/\1 \2/p' "$T/$m.out")
	tasks=$((tasks + $1)) gcfirst=$((gcfirst + $2))
done
# a task's first allocation waits for a blocking GC as often as one runs:
# about 1 % of the pool and binder tasks
check "kGC first in $gcfirst of $tasks pool/binder tasks (at least 0.3 %)" \
	test $((gcfirst * 1000)) -ge $((tasks * 3))

python3 "$MK" "$T/again" --threads 3 --records 3000 --seed 3 >/dev/null
check "same options, same dump" cmp "$T/feed3/sampling.bin" "$T/again/sampling.bin"
check "same options, same mapping" cmp "$T/feed3/sampling-mapping.bin" "$T/again/sampling-mapping.bin"
check "same options, same truth" diff -r "$T/feed3/truth" "$T/again/truth"
python3 "$MK" "$T/nt" --threads 3 --records 3000 --seed 3 --no-truth >/dev/null
check "--no-truth writes the same dump" cmp "$T/feed3/sampling.bin" "$T/nt/sampling.bin"
python3 "$MK" "$T/x" --model tv >/dev/null 2>&1; is "$?" 2 "an unknown model exits 2"

# The kept runs (tests/fixtures/simcache.py): a run with the options of a
# kept one copies its files, the same bytes as the run that simulated; other
# options, a failed run or a directory with other files in it keep nothing.
C=$T/cache
entries() { find "$C" -mindepth 2 -maxdepth 2 -type d ! -name '*.tmp-*' | wc -l; }
BT_SIM_CACHE=$C python3 "$MK" "$T/k1" --threads 3 --records 3000 --seed 3 >/dev/null
is "$(entries)" 1 "a run kept"
check "... the same bytes as the run without the cache" diff -r "$T/feed3" "$T/k1"
for f in "$C"/*/*/truth/summary.tsv; do echo x >"$f"; done   # marked: a copy shows the mark
BT_SIM_CACHE=$C python3 "$MK" "$T/k2" --threads 3 --records 3000 --seed 3 >/dev/null
is "$(cat "$T/k2/truth/summary.tsv")" x "the same options again: the kept files, copied"
BT_SIM_CACHE=$C python3 "$MK" "$T/k3" --threads 3 --records 500 --seed 3 >/dev/null
is "$(entries)" 2 "other options: simulated and kept apart"
BT_SIM_CACHE=$C python3 "$MK" "$T/k4" --model tv >/dev/null 2>&1
is "$?$(entries)" 22 "an unknown model exits 2, nothing kept"
mkdir -p "$T/k5"; : >"$T/k5/other"
BT_SIM_CACHE=$C python3 "$MK" "$T/k5" --threads 3 --records 400 --seed 3 >/dev/null
is "$(entries)" 2 "a directory with other files in it: not kept"

# a damaged truth is rejected: an activation shifted by 2 ms
mkdir -p "$T/bad/truth"
cp "$T/feed5/"*.bin "$T/bad/"
cp "$T/feed5/truth/"*.tsv "$T/bad/truth/"
python3 -c 'import sys
rows = open(sys.argv[1]).read().split("\n")
i = next(i for i, r in enumerate(rows) if "FeedAdapter.onBindViewHolder" in r)
f = rows[i].split("\t"); f[3] = str(int(f[3]) + 2000000); f[4] = str(int(f[4]) + 2000000); rows[i] = "\t".join(f)
open(sys.argv[2], "w").write("\n".join(rows))' "$T/feed5/truth/intervals.tsv" "$T/bad/truth/intervals.tsv"
got=$(python3 "$CK" "$T/bad" | grep -c '^not ok')
check "check_device.py rejects a shifted activation ($got failures)" test "$got" -ge 1

# the scorers read the truth (their figures are not looked at here)
"$BIN" import -q "$T/feed5" -o "$T/feed5.db" 2>/dev/null
check "score_threads.py runs on the output" python3 tests/fixtures/score_threads.py "$T/feed5" "x=$T/feed5.db"
python3 tests/fixtures/check_thread_states.py "$T/feed5" "$T/feed5.db" >/dev/null 2>&1
st=$?
check "check_thread_states.py runs on the output (exit $st: 0 or 1 for the tool's parts)" test "$st" -le 1
