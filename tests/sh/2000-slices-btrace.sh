#!/bin/sh
# Slices with the btrace policy (upstream's algorithm, format spec §8) on
# simulated dumps: the tree is consistent, self times add up, and the
# policy is opt-in while reconstruction is being made fast.
. tests/lib.sh

for f in small faults v3; do
	db=$T/$f.db
	"$BIN" import -q "$FIX/$f" --slice-policy btrace -o "$db"
	is "$(q "$db" 'SELECT count(*) > 0 FROM slices')" 1 "$f: slices reconstructed"
	is "$(q "$db" 'SELECT max(id) = count(*) FROM slices')" 1 "$f: slice ids dense"
	is "$(q "$db" 'SELECT count(*) FROM slices c JOIN slices p ON p.id = c.parent_id WHERE p.depth != c.depth - 1 OR p.tid != c.tid OR p.id >= c.id')" 0 "$f: parents one level up, same thread, earlier"
	is "$(q "$db" 'SELECT count(*) FROM slices WHERE (parent_id IS NULL) != (depth = 0)')" 0 "$f: only depth 0 has no parent"
	is "$(q "$db" 'SELECT count(*) FROM slices p LEFT JOIN (SELECT parent_id, sum(dur) AS d FROM slices WHERE parent_id IS NOT NULL GROUP BY parent_id) k ON k.parent_id = p.id WHERE p.dur - p.self_dur != coalesce(k.d, 0)')" 0 "$f: self time = duration minus children"
	is "$(q "$db" 'SELECT count(*) FROM slices p LEFT JOIN (SELECT parent_id, sum(cpu_dur) AS d FROM slices WHERE parent_id IS NOT NULL GROUP BY parent_id) k ON k.parent_id = p.id WHERE p.cpu_dur - p.self_cpu_dur != coalesce(k.d, 0)')" 0 "$f: self CPU = CPU minus children"
	is "$(q "$db" "SELECT count(*) FROM slices s JOIN frames f ON f.id = s.frame_id WHERE f.name LIKE '<runtime%'")" 0 "$f: runtime frames dropped as upstream does"
done
# GC and monitor records get upstream's synthetic leaf frames.
is "$(q "$T/small.db" "SELECT count(*) FROM slices s JOIN frames f ON f.id = s.frame_id WHERE f.name = 'void Heap.WaitForGcToCompleteLocked()' AND s.type = 11")" \
	"$(q "$T/small.db" "SELECT count(*) FROM slices s JOIN frames f ON f.id = s.frame_id WHERE s.type = 11 AND s.id NOT IN (SELECT parent_id FROM slices WHERE parent_id IS NOT NULL) AND f.name = 'void Heap.WaitForGcToCompleteLocked()'")" "GC waits end in the synthetic GC frame"
is "$(q "$T/small.db" "SELECT count(*) > 0 FROM slices s JOIN frames f ON f.id = s.frame_id WHERE f.name = 'void Monitor:Lock()' AND s.type = 8")" 1 "monitor enters end in the synthetic Monitor:Lock frame"
# WakeUpBy: main-thread waits that upstream links carry the waker's tid.
is "$(q "$T/small.db" "SELECT count(*) > 0 FROM slices WHERE wakeup_tid IS NOT NULL")" 1 "waits carry WakeUpBy"
# An unknown policy is a usage error.
"$BIN" import -q "$FIX/small" --slice-policy nosuch -o "$T/x.db" >/dev/null 2>&1; is "$?" 2 "unknown slice policy: exit 2"
