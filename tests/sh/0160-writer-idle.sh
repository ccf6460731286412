#!/bin/sh
# The writer's idle model (mkdump --app idle, issue 18): verify_dump.py
# agrees with its records, its idle and I/O truth is consistent with the
# activations (check_idle.py, shown to fail on a damaged row), it has the
# phenomena (every idle kind, HandlerThread messages, I/O waits with the
# same stack on both sides), and --app classic is the default byte for
# byte.
. tests/lib.sh
C=$ROOT/tests/fixtures/check_idle.py

for s in 1 2 3; do
	"$MKDUMP" --app idle --records 12000 --seed "$s" "$T/i$s" >/dev/null
	check "--app idle seed $s: verify_dump agrees with the truth" python3 tests/fixtures/verify_dump.py "$T/i$s"
	"$BIN" import -q "$T/i$s" -o "$T/i$s.db"
	got=$(python3 "$C" "$T/i$s" "$T/i$s.db")
	like "$got" '^ok binder=[1-9][0-9]* io=[1-9][0-9]* looper=[1-9][0-9]* pool=[1-9][0-9]* same_stack=[1-9]' \
		"--app idle seed $s: idle and I/O truth consistent, every kind present ($got)"
done
"$MKDUMP" --app idle --records 12000 --seed 1 "$T/again" >/dev/null
check "--app idle: same seed, same dump" cmp "$T/i1/sampling.bin" "$T/again/sampling.bin"
check "--app idle: same seed, same idle truth" cmp "$T/i1/truth/idle.tsv" "$T/again/truth/idle.tsv"
"$MKDUMP" --app idle --records 12000 --seed 1 --alloc-records all --version 3 "$T/all" >/dev/null
check "--app idle --alloc-records all --version 3: verify_dump agrees" python3 tests/fixtures/verify_dump.py "$T/all"

names=$(cut -f2 "$T/i1/truth/threads.tsv" | tr '\n' ' ')
like "$names" 'okhttp-io-1 .*HandlerThread-1 HandlerThread-2 binder:4242_1 binder:4242_2 binder:4242_3' \
	"--app idle: I/O pool, HandlerThreads and binder threads are named ($names)"
ht=$(awk -F'\t' '$2 == "HandlerThread-2" { print $1 }' "$T/i1/truth/threads.tsv")
msgs=$(awk -F'\t' -v t="$ht" '$1 == t' "$T/i1/truth/messages.tsv" | wc -l | tr -d ' ')
check "--app idle: HandlerThread-2 runs messages ($msgs)" test "$msgs" -ge 5
ids=$(python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT count(DISTINCT msg_id) FROM samples WHERE tid = ?", (int(sys.argv[2]),)).fetchone()[0])' "$T/i1.db" "$ht")
check "--app idle: HandlerThread-2's records carry changing message ids ($ids)" test "$ids" -ge 3

# A damaged row is caught: a pool worker's idle stretch begins 1 ns late.
mkdir -p "$T/bad/truth"
cp "$T/i1/truth/"*.tsv "$T/bad/truth/"
python3 -c 'import sys
rows = open(sys.argv[1]).read().split("\n")
i = next(i for i, r in enumerate(rows) if "\tpool\t" in r)
f = rows[i].split("\t"); f[2] = str(int(f[2]) + 1); rows[i] = "\t".join(f)
open(sys.argv[2], "w").write("\n".join(rows))' "$T/i1/truth/idle.tsv" "$T/bad/truth/idle.tsv"
like "$(python3 "$C" "$T/bad")" 'is no (Unsafe.park|nativePollOnce) activation|overlaps' "check_idle.py fails on a shifted idle stretch"

# --app classic is the default: the same bytes and truth, no idle files.
"$MKDUMP" --records 3000 --seed 4 "$T/c0" >/dev/null
"$MKDUMP" --app classic --records 3000 --seed 4 "$T/c1" >/dev/null
check "--app classic writes the default dump" cmp "$T/c0/sampling.bin" "$T/c1/sampling.bin"
check "--app classic writes the default truth" diff -r "$T/c0/truth" "$T/c1/truth"
check "--app classic: no idle.tsv" test ! -e "$T/c1/truth/idle.tsv"
"$MKDUMP" --app idle --build-seed 3 "$T/d" >/dev/null 2>&1; is "$?" 2 "--app idle with --build-seed exits 2"
"$MKDUMP" --app busy "$T/d" >/dev/null 2>&1; is "$?" 2 "an unknown --app model exits 2"
