#!/bin/sh
# Import dumps from the test writer and compare row counts with its truth:
# samples, threads, distinct frames, distinct nodes, records per type, and
# samples and names per thread. Several seeds and layout versions.
. tests/lib.sh

for f in small seed2 seed3 v3 v4 faults; do
	d=$FIX/$f
	db=$T/$f.db
	"$BIN" import -q "$d/sampling.bin" -o "$db"
	is "$(q "$db" 'SELECT count(*) FROM samples')" "$(truth "$d" valid_samples)" "$f: samples = truth"
	is "$(q "$db" 'SELECT count(*) FROM threads')" "$(truth "$d" threads)" "$f: threads = truth"
	is "$(q "$db" 'SELECT count(*) FROM frames WHERE id IN (SELECT frame_id FROM nodes)')" "$(truth "$d" distinct_frames)" "$f: distinct frames = truth"
	is "$(q "$db" "SELECT count(*) FROM frames WHERE id NOT IN (SELECT frame_id FROM nodes) AND address < 9223372036854775806 AND name != '(idle)'")" 0 "$f: other frames are only upstream's synthetic leaves and the idle policy's (idle)"
	is "$(q "$db" 'SELECT count(*) FROM nodes')" "$(truth "$d" distinct_nodes)" "$f: distinct nodes = truth"
	is "$(q "$db" 'SELECT max(depth) + 1 FROM nodes')" "$(truth "$d" max_depth)" "$f: max depth = truth"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'records'")" "$(truth "$d" records_written)" "$f: records read = written"
	is "$(q "$db" "SELECT value FROM meta WHERE key = 'version'")" "$(truth "$d" version)" "$f: version"
	want=$(awk -F'\t' '$1 ~ /^records\.type\./ { sub("records.type.", "", $1); print $1 "=" $2 }' "$d/truth/summary.tsv" | sort -n | tr '\n' ' ')
	got=$("$BIN" query -q "$db" "SELECT type || '=' || count(*) FROM samples GROUP BY type ORDER BY type" --format tsv | sed 1d | tr '\n' ' ')
	# depth-fault records are in the file but are not samples
	[ "$f" = faults ] || is "$got" "$want" "$f: records per type = truth"
	want=$(awk -F'\t' 'NR > 1 && $4 > 0 { print $1 ":" $4 }' "$d/truth/threads.tsv" | sort | tr '\n' ' ')
	got=$("$BIN" query -q "$db" "SELECT tid || ':' || count(*) FROM samples GROUP BY tid" --format tsv | sed 1d | sort | tr '\n' ' ')
	is "$got" "$want" "$f: samples per thread = truth"
	want=$(awk -F'\t' 'NR > 1 && $2 != "" { print $1 ":" $2 ":" $3 }' "$d/truth/threads.tsv" | sort | tr '\n' ' ')
	got=$("$BIN" query -q "$db" "SELECT tid || ':' || name || ':' || is_main FROM threads WHERE name IS NOT NULL" --format tsv | sed 1d | sort | tr '\n' ' ')
	[ "$f" = faults ] || is "$got" "$want" "$f: thread names and main flag = truth"
done

# Frames are stored root-first: every sample's leaf node has the largest
# depth on its path, and the outermost frame of main-thread stacks is the
# simulation's root.
d=$FIX/small
is "$(q "$T/small.db" "SELECT count(*) FROM nodes c JOIN nodes p ON p.id = c.parent_id WHERE c.depth != p.depth + 1")" 0 "nodes: depth = parent depth + 1"
is "$(q "$T/small.db" "SELECT count(*) FROM nodes WHERE (parent_id IS NULL) != (depth = 0)")" 0 "nodes: only depth 0 has no parent"
is "$(q "$T/small.db" "SELECT DISTINCT f.name FROM nodes n JOIN frames f ON f.id = n.frame_id WHERE n.depth = 0 AND n.id IN (SELECT r.id FROM samples s JOIN threads t USING (tid) JOIN nodes r ON r.depth = 0 WHERE t.is_main) LIMIT 1")" \
	"void com.android.internal.os.ZygoteInit.main(java.lang.String[])" "nodes: main-thread stacks start at ZygoteInit.main"
is "$(q "$T/small.db" "SELECT count(*) FROM frames WHERE name LIKE '%(%' AND (method IS NULL OR class IS NULL OR return_type IS NULL) AND id IN (SELECT frame_id FROM nodes)")" 0 "frames: symbols parsed into parts"

# Counters are stored as recorded: per thread they never decrease in ts order
# for point samples (cumulative thread counters).
is "$(q "$T/small.db" "SELECT count(*) FROM (SELECT alloc_bytes - lag(alloc_bytes) OVER (PARTITION BY tid ORDER BY ts, id) AS d FROM samples WHERE end_ts IS NULL) WHERE d < 0")" 0 "samples: cumulative allocation counters never decrease"
