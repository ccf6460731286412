# The default policy (midpoint) without a flag, and slices on demand: a
# scratch analysis fills slices only when a query reads them, and then
# they equal those stored by a kept import, column for column.
. tests/lib.sh
cols='s.*'
"$BIN" import -q "$FIX/seed2" -o "$T/default.db"
"$BIN" import -q "$FIX/seed2" --slice-policy midpoint -o "$T/midpoint.db"
is "$(q "$T/default.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" midpoint "default policy recorded as midpoint"
is "$(q "$T/default.db" "SELECT (SELECT value FROM meta WHERE key = 'slices') = count(*) FROM slices")" 1 "meta counts the stored slices"
"$BIN" query "$T/default.db" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/kept.tsv"
"$BIN" query "$T/midpoint.db" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/mid.tsv"
check "no flag equals --slice-policy midpoint" cmp -s "$T/kept.tsv" "$T/mid.tsv"
"$BIN" query "$FIX/seed2" "SELECT * FROM slices ORDER BY id" --format tsv >"$T/scratch.tsv" 2>/dev/null
check "slices filled on demand equal the kept import's" cmp -s "$T/kept.tsv" "$T/scratch.tsv"
is "$(wc -l <"$T/kept.tsv")" "$(($(q "$T/default.db" 'SELECT count(*) FROM slices') + 1))" "every slice listed"
"$BIN" query "$FIX/seed2" "SELECT * FROM messages ORDER BY tid, ts" --format tsv >"$T/m1.tsv" 2>/dev/null
"$BIN" query "$T/default.db" "SELECT * FROM messages ORDER BY tid, ts" --format tsv >"$T/m2.tsv"
check "messages are stored in a scratch analysis too" cmp -s "$T/m1.tsv" "$T/m2.tsv"
is "$(q "$FIX/seed2" "SELECT count(*) FROM slices s JOIN slices p ON p.id = s.parent_id WHERE p.depth != s.depth - 1")" 0 "joins over slices filled on demand"
