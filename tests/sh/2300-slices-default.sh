# The default policy (idle) without a flag, and slices on demand: a
# scratch analysis fills slices only when a query reads them, and then
# they equal those stored by a kept import, column for column. Its
# samples and nodes stay in memory (temp.samples, temp.nodes) and read the
# same as stored ones.
. tests/lib.sh
cols='s.*'
"$BIN" import -q "$FIX/seed2" -o "$T/default.db"
"$BIN" import -q "$FIX/seed2" --slice-policy idle -o "$T/idle.db"
is "$(q "$T/default.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" idle "default policy recorded as idle"
is "$(q "$T/default.db" "SELECT (SELECT value FROM meta WHERE key = 'slices') = count(*) FROM slices")" 1 "meta counts the stored slices"
"$BIN" query "$T/default.db" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/kept.tsv"
"$BIN" query "$T/idle.db" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/idle.tsv"
check "no flag equals --slice-policy idle" cmp -s "$T/kept.tsv" "$T/idle.tsv"
like "$(q "$T/default.db" "SELECT count(*) FROM slices WHERE idle")" '^[1-9]' "the default policy finds idle slices"
"$BIN" query "$FIX/seed2" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/scratch.tsv" 2>/dev/null
check "slices filled on demand equal the kept import's" cmp -s "$T/kept.tsv" "$T/scratch.tsv"
is "$(wc -l <"$T/kept.tsv")" "$(($(q "$T/default.db" 'SELECT count(*) FROM slices') + 1))" "every slice listed"
"$BIN" query "$FIX/seed2" "SELECT * FROM messages ORDER BY tid, ts" --format tsv >"$T/m1.tsv" 2>/dev/null
"$BIN" query "$T/default.db" "SELECT * FROM messages ORDER BY tid, ts" --format tsv >"$T/m2.tsv"
check "messages are stored in a scratch analysis too" cmp -s "$T/m1.tsv" "$T/m2.tsv"
is "$(q "$FIX/seed2" "SELECT count(*) FROM slices s JOIN slices p ON p.id = s.parent_id WHERE p.depth != s.depth - 1")" 0 "joins over slices filled on demand"

# samples of a scratch analysis, read from memory
"$BIN" query "$T/default.db" "SELECT * FROM samples ORDER BY id" --format tsv >"$T/s1.tsv"
"$BIN" query -q "$FIX/seed2" "SELECT * FROM samples ORDER BY id" --format tsv >"$T/s2.tsv"
check "samples in memory equal the stored ones, NULLs included" cmp -s "$T/s1.tsv" "$T/s2.tsv"
"$BIN" query -q "$FIX/seed2" "SELECT * FROM samples" --format tsv >"$T/s3.tsv"
check "samples in memory come in id order" cmp -s "$T/s1.tsv" "$T/s3.tsv"
for w in "id = 4321" "tid = 4243" "tid = 4243 AND id = 4321" "id = 4321 AND tid = 4242" "tid = 'x'" "id = 0" "id = 5001" "id > 4990"; do
	is "$(q "$FIX/seed2" "SELECT count(*) || '/' || coalesce(sum(node_id), 0) FROM samples WHERE $w")" \
		"$(q "$T/default.db" "SELECT count(*) || '/' || coalesce(sum(node_id), 0) FROM samples WHERE $w")" "samples in memory: WHERE $w"
done
is "$(q "$FIX/seed2" "SELECT count(*) FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id WHERE s.node_id IS NOT NULL")" \
	"$(q "$T/default.db" "SELECT count(*) FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id WHERE s.node_id IS NOT NULL")" \
	"samples in memory: LEFT JOIN by id"
unlike "$("$BIN" query -q "$FIX/seed2" "EXPLAIN QUERY PLAN SELECT * FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id" --format tsv)" \
	"AUTOMATIC|MATERIALIZE" "samples in memory: a LEFT JOIN by id looks rows up, no copy"
"$BIN" query -q "$FIX/seed2" "DELETE FROM samples" >/dev/null 2>"$T/err"
is "$?" 2 "samples in memory: writes refused"
like "$(cat "$T/err")" "only read-only SQL" "samples in memory: the usual message"

# nodes of a scratch analysis, read from memory
"$BIN" query "$T/default.db" "SELECT * FROM nodes ORDER BY id" --format tsv >"$T/n1.tsv"
"$BIN" query -q "$FIX/seed2" "SELECT * FROM nodes" --format tsv >"$T/n2.tsv"
check "nodes in memory equal the stored ones, in id order, depth and NULL parents included" cmp -s "$T/n1.tsv" "$T/n2.tsv"
for w in "id = 77" "id = 0" "id > 5000" "parent_id IS NULL" "frame_id = 3"; do
	is "$(q "$FIX/seed2" "SELECT count(*) || '/' || coalesce(sum(depth), 0) FROM nodes WHERE $w")" \
		"$(q "$T/default.db" "SELECT count(*) || '/' || coalesce(sum(depth), 0) FROM nodes WHERE $w")" "nodes in memory: WHERE $w"
done
is "$(q "$FIX/seed2" "SELECT count(*) FROM samples s JOIN nodes n ON n.id = s.node_id LEFT JOIN nodes p ON p.id = n.parent_id WHERE p.frame_id IS NOT NULL")" \
	"$(q "$T/default.db" "SELECT count(*) FROM samples s JOIN nodes n ON n.id = s.node_id LEFT JOIN nodes p ON p.id = n.parent_id WHERE p.frame_id IS NOT NULL")" \
	"nodes in memory: joins by id"
"$BIN" query -q "$FIX/seed2" "UPDATE nodes SET depth = 0" >/dev/null 2>"$T/err"
is "$?" 2 "nodes in memory: writes refused"

# the call tree of a scratch analysis (a table in memory): read by id, so
# ORDER BY id needs no sort, and the rows are those stored, in that order
"$BIN" query "$T/default.db" "SELECT * FROM calltree ORDER BY id" --format tsv >"$T/c1.tsv"
"$BIN" query -q "$FIX/seed2" "SELECT * FROM calltree ORDER BY id" --format tsv >"$T/c2.tsv"
check "the call tree in memory, ORDER BY id, equals the stored one's" cmp -s "$T/c1.tsv" "$T/c2.tsv"
"$BIN" query -q "$FIX/seed2" "SELECT * FROM calltree WHERE tid = 4243 ORDER BY id" --format tsv >"$T/c3.tsv"
"$BIN" query "$T/default.db" "SELECT * FROM calltree WHERE tid = 4243 ORDER BY id" --format tsv >"$T/c4.tsv"
check "the call tree in memory, one thread's ORDER BY id, equals the stored one's" cmp -s "$T/c3.tsv" "$T/c4.tsv"
unlike "$("$BIN" query -q "$FIX/seed2" "EXPLAIN QUERY PLAN SELECT * FROM calltree ORDER BY id" --format tsv)" \
	"TEMP B-TREE" "the call tree in memory: ORDER BY id without a sort"
like "$("$BIN" query -q "$FIX/seed2" "EXPLAIN QUERY PLAN SELECT * FROM calltree ORDER BY id DESC" --format tsv)" \
	"TEMP B-TREE" "the call tree in memory: ORDER BY id DESC sorted"
