#!/bin/sh
# iOS lock waits in a database with both per-row and batch tables (format
# spec §10.1, mkios.py --storage both): one lock's contention samples, the
# two halves of a pair too, sit in either table, so read table by table
# they are out of time order. Every wait must be paired as the truth has
# it (begin, end, waker), a half without its other half counted in a
# diagnostic (--lose-halves), and a timer sample inside a wait must keep
# the frames below the wait's to its end, the wait's blocked time going
# where its wall time went: self_blocked_ns <= self_ns in calltree,
# methods and callers, for every thread and method, in every policy.
# tests/fixtures/check_ios_waits.py prints the figures compared here.
. tests/lib.sh
MKIOS="python3 $ROOT/tests/fixtures/mkios.py"
CHECK="python3 $ROOT/tests/fixtures/check_ios.py"
WAITS="python3 $ROOT/tests/fixtures/check_ios_waits.py"

# case name, then mkios options (every case: both storages, 12 waits)
while read -r name opts; do
	case $name in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086
	$MKIOS "$T/$name" --storage both --samples 2000 --locks 12 $opts >/dev/null
	in=$T/$name/trace.db
	[ -f "$in" ] || in=$T/$name/trace.db.gz
	"$BIN" "$in" --db "$T/$name.db" -q -o /dev/null
	is "$?" 0 "$name: analysis exits 0"
	$WAITS "$T/$name.db" "$T/$name" >"$T/$name.out"
	like "$(sed -n 1p "$T/$name.out")" '^split: [1-9][0-9]* of 12 ' "$name ($opts): some waits have their halves in two tables"
	is "$(sed -n 2p "$T/$name.out")" "waits: 12 of 12 right, 0 invented, 0 missing" \
		"$name: every wait's begin, end and waker are the truth's"
	like "$(sed -n 3p "$T/$name.out")" '^inner: ([0-9]+) of \1 waits' \
		"$name: below a wait, a timer sample's frames run from the wait's begin to its end"
	like "$(sed -n 3p "$T/$name.out")" '^inner: [0-9]+ of [1-9]' "$name: some waits have a timer sample inside"
	is "$(sed -n 4p "$T/$name.out")" \
		"self_blocked > self: calltree 0, methods 0, callers 0; incl_blocked > incl: calltree 0, methods 0; threads: 0" \
		"$name: no call path, method or caller row has more blocked than wall time"
	like "$(sed -n 5p "$T/$name.out")" '^blocked: main thread ([0-9]+) ns, its waits \1 ns$' \
		"$name: the main thread's blocked time is its waits'"
	"$BIN" import -q "$in" -o "$T/$name.imp.db"
	is "$($CHECK "$T/$name.imp.db" "$T/$name")" ok "$name: the import equals the truth (check_ios.py)"
done <<'CASES'
# name  mkios options
v3s1    --version 3 --seed 1
v3s2    --version 3 --seed 2
v3s3    --version 3 --seed 3
v1s6    --version 1 --seed 6
v2s7    --version 2 --seed 7 --threads 5
v4s8    --version 4 --seed 8
v3gz    --version 3 --seed 9 --gzip --main-not-smallest
CASES

# The other policies and frames named by --symbols (one frame for the
# kernel trap's leaf addresses) keep blocked time within wall time too.
for p in midpoint btrace; do
	"$BIN" "$T/v3s1/trace.db" --slice-policy $p --db "$T/v3s1-$p.db" -q -o /dev/null
	is "$($WAITS "$T/v3s1-$p.db" "$T/v3s1" | sed -n 4p)" \
		"self_blocked > self: calltree 0, methods 0, callers 0; incl_blocked > incl: calltree 0, methods 0; threads: 0" \
		"--slice-policy $p: no row has more blocked than wall time"
done
"$BIN" "$T/v3s2/trace.db" --symbols "$T/v3s2/symbols.txt" --db "$T/v3s2-sym.db" -q -o /dev/null
is "$($WAITS "$T/v3s2-sym.db" "$T/v3s2" | sed -n 4p)" \
	"self_blocked > self: calltree 0, methods 0, callers 0; incl_blocked > incl: calltree 0, methods 0; threads: 0" \
	"--symbols: no row has more blocked than wall time"
is "$(q "$T/v3s1.db" "SELECT sum(self_count) FROM method_blocking WHERE kind = 'lock'")" 12 \
	"method_blocking still counts each wait once"

# Halves lost (a hitch window's batch dump): those waits are not made up,
# the other waits are the truth's, the lone halves are counted.
$MKIOS "$T/lost" --storage both --samples 2000 --locks 12 --seed 4 --lose-halves 3 >/dev/null
"$BIN" import -q "$T/lost/trace.db" -o "$T/lost.db"
is "$($CHECK "$T/lost.db" "$T/lost")" ok "lost halves: the import equals the truth, 9 waits, the 3 halves counted"
is "$(q "$T/lost.db" "SELECT count || ' ' || substr(detail, 1, 70) FROM diagnostics WHERE code = 'unpaired_lock_contention'")" \
	"3 lock-contention samples without the sample that ends or begins them: 3" \
	"lost halves: the diagnostic says how many samples could not be paired"
is "$(q "$T/lost.db" "SELECT count(*) FROM blocking_edges")" 9 "lost halves: 9 waits of 12"

# Waits that overlap (a database that contradicts itself: a thread waits
# for one lock at a time): blocked once, still within wall time.
cp "$T/v3s1/trace.db" "$T/overlap.db"
python3 - "$T/overlap.db" "$T/v3s1/truth/lock_edges.tsv" <<'EOF'
import sqlite3, struct, sys
e = [line.split("\t") for line in open(sys.argv[2])][1:4]
db = sqlite3.connect(sys.argv[1])
for k, (b, end) in enumerate(((int(e[0][3]) + 50000, int(e[0][4]) + 3000000), (int(e[1][3]) - 20000, int(e[2][4])))):
    for t in (end, b):   # end first, as written
        db.execute("INSERT INTO LockSampleModel VALUES (1, ?)",
                   (struct.pack("<QIIIIII", (0x2A0000 + k) | 21 << 48, t // 10000, 7 + k, 0, 259, 0, 0),))
db.commit()
EOF
"$BIN" "$T/overlap.db" --db "$T/overlap.out.db" -q -o /dev/null
is "$(q "$T/overlap.out.db" "SELECT count(*) FROM blocking_edges")" 14 "overlapping waits: each is a wait"
is "$($WAITS "$T/overlap.out.db" "$T/v3s1" | sed -n 4p)" \
	"self_blocked > self: calltree 0, methods 0, callers 0; incl_blocked > incl: calltree 0, methods 0; threads: 0" \
	"overlapping waits: no row has more blocked than wall time"
is "$(q "$T/overlap.out.db" "SELECT (SELECT blocked_dur FROM threads WHERE is_main) < (SELECT sum(dur) FROM blocking_edges)")" 1 \
	"overlapping waits: the time they share is blocked once"

# The checks fail where they should: a wait made longer, a call path with
# more blocked than wall time, a slice below a wait that ends early.
cp "$T/v3s1.db" "$T/bad.db"
sqlite3 "$T/bad.db" "UPDATE blocking_edges SET dur = dur + 10000 WHERE id = 3"
is "$($WAITS "$T/bad.db" "$T/v3s1" | sed -n 2p)" "waits: 11 of 12 right, 1 invented, 1 missing" \
	"checker: a wrong wait is counted"
cp "$T/v3s1.db" "$T/bad.db"
sqlite3 "$T/bad.db" "UPDATE calltree SET self_blocked_ns = self_ns + 1 WHERE id = (SELECT min(id) FROM calltree);
	UPDATE methods SET self_blocked_ns = self_ns + 1 WHERE (tid, frame_id) = (SELECT tid, frame_id FROM methods LIMIT 1)"
like "$($WAITS "$T/bad.db" "$T/v3s1" | sed -n 4p)" '^self_blocked > self: calltree 1, methods 1, callers 0;' \
	"checker: more blocked than wall time is counted"
cp "$T/v3s1.db" "$T/bad.db"
e=$(q "$T/v3s1.db" "SELECT ts + dur FROM blocking_edges ORDER BY ts LIMIT 1")
sqlite3 "$T/bad.db" "UPDATE slices SET dur = dur - 5000 WHERE ts + dur = $e AND depth =
	(SELECT depth + 1 FROM slices WHERE type = 107 AND ts + dur = $e)"
unlike "$($WAITS "$T/bad.db" "$T/v3s1" | sed -n 3p)" '^inner: ([0-9]+) of \1 waits' \
	"checker: a frame below a wait that ends before it is caught"
