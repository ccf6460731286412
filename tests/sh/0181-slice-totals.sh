#!/bin/sh
# The scorers' sums of a database's slices (tests/scoring/slice_totals.c,
# which score_slices.py and score_threads.py run): per (thread, method)
# inclusive wall and CPU, nested repeats counted once, on slices small
# enough to work out by hand, and the Python it replaced on a real import.
. tests/lib.sh
ST=$ROOT/$B/tests/slice_totals
tab=$(printf '\t')
sqlite3 "$T/t.db" <<'SQL'
CREATE TABLE frames(id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE slices(id INTEGER PRIMARY KEY, parent_id INTEGER, tid INTEGER, frame_id INTEGER, dur INTEGER,
	cpu_dur INTEGER);
INSERT INTO frames VALUES (1, 'void a()'), (2, 'void b()'), (3, 'void c()'), (4, NULL), (5, 'void a()');
-- thread 1: a() holds b(), which calls a() again (frame 5, the same name: counted once) and c()
INSERT INTO slices VALUES (1, NULL, 1, 1, 100, 60), (2, 1, 1, 2, 45, 20), (3, 2, 1, 5, 10, NULL),
	(4, 2, 1, 3, 10, 7);
-- a frame without a name: skipped, its child (whose parent is not on the path) starts again at the root
INSERT INTO slices VALUES (5, 1, 1, 4, 30, 3), (6, 5, 1, 1, 8, 2), (7, 6, 1, 99, 1, 1);
-- thread 2: the same names, its own totals
INSERT INTO slices VALUES (8, NULL, 2, 5, 5, 1), (9, NULL, 2, 3, 20, 5);
SQL
"$ST" "$T/t.db" | sort >"$T/out"
is "$(cat "$T/out")" "1${tab}10${tab}7${tab}void c()
1${tab}108${tab}62${tab}void a()
1${tab}45${tab}20${tab}void b()
2${tab}20${tab}5${tab}void c()
2${tab}5${tab}1${tab}void a()" \
	"wall and CPU per thread and method: a nested repeat once (its NULL CPU unread), a nameless frame's slice skipped"
sqlite3 "$T/t.db" "UPDATE slices SET cpu_dur = NULL WHERE id = 9"
"$ST" "$T/t.db" >"$T/bad.out" 2>"$T/bad.err"
is "$? $(wc -c <"$T/bad.out")" "1 0" "a counted slice without its CPU: exit 1, nothing written"
like "$(cat "$T/bad.err")" "t.db: a slice with a NULL dur or cpu_dur" "... naming the file"
"$ST" "$T/missing.db" 2>/dev/null
is "$?" 1 "a missing database: exit 1"
sqlite3 "$T/empty.db" "CREATE TABLE frames(id, name); CREATE TABLE slices(id, parent_id, tid, frame_id, dur, cpu_dur)"
is "$("$ST" "$T/empty.db"; echo "rc $?")" "rc 0" "no slices: nothing, exit 0"

# the Python it replaced (score_slices.py before), on an import of a writer's dump
"$BIN" import -q "$FIX/seed2" -o "$T/seed2.db"
python3 - "$T/seed2.db" "$ST" >"$T/cmp" <<'PY'
import sqlite3, subprocess, sys
from collections import defaultdict
con = sqlite3.connect(sys.argv[1])
names = dict(con.execute("SELECT id, name FROM frames"))
wall, cpu, path, open_ = defaultdict(int), defaultdict(int), [], defaultdict(int)
for sid, pid, tid, fid, dur, cdur in con.execute("SELECT id, parent_id, tid, frame_id, dur, cpu_dur FROM slices ORDER BY id"):
    nm = names.get(fid)
    if nm is None:
        continue
    while path and path[-1][0] != pid:
        open_[path.pop()[1]] -= 1
    nested = open_[nm] > 0
    path.append((sid, nm))
    open_[nm] += 1
    if not nested:
        wall[(tid, nm)] += dur
        cpu[(tid, nm)] += cdur
got = {}
for line in subprocess.run([sys.argv[2], sys.argv[1]], stdout=subprocess.PIPE, check=True).stdout.decode().splitlines():
    t, w, c, nm = line.split("\t", 3)
    got[(int(t), nm)] = (int(w), int(c))
want = {k: (wall[k], cpu[k]) for k in wall}
print(len(want), got == want)
PY
like "$(cat "$T/cmp")" "^[0-9]+ True$" "an import of seed2: the same totals as the Python it replaced ($(cut -d' ' -f1 "$T/cmp") methods)"
