# --perfetto: the export decoded by protoc (not by us) and read as trace
# processor reads it (sequences, interned names, default tracks, clocks)
# matches the trace database slice for slice and value for value, with
# upstream's annotations and one flow arrow per linked wait naming where
# the wait was and what ended it (their app frames, bt_app_node, as the
# waits table: 6085); a scratch analysis writes the same bytes
# as a kept database; a failed export leaves nothing behind.
. tests/lib.sh
PROTO=engine/proto/perfetto_trace.proto
slices_sql="SELECT s.tid, f.name, s.ts, s.ts + s.dur, s.depth, s.cpu_dur, s.self_dur, s.self_cpu_dur, s.block_dur,
	s.sample_count, s.msg_id, s.alloc_objects, s.alloc_bytes, s.majflt, s.nvcsw, s.nivcsw, coalesce(s.wakeup_tid, ''),
	CASE WHEN s.type IS NULL THEN '' WHEN s.type > 0 AND r.name IS NOT NULL THEN r.name ELSE s.type END,
	s.gap_dur, s.gap_cpu_dur, s.idle
	FROM slices s JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type"
edges_sql="SELECT e.id, e.waiter_tid, e.ts, e.waker_tid, e.waker_ts, coalesce(wf.name, ''), coalesce(pf.name, ''),
	coalesce(kf.name, '')
	FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id
	LEFT JOIN nodes wn ON wn.id = bt_app_node(coalesce(s.node_id, e.waiter_node_id)) LEFT JOIN frames wf ON wf.id = wn.frame_id
	LEFT JOIN nodes pn ON pn.id = wn.parent_id LEFT JOIN frames pf ON pf.id = pn.frame_id
	LEFT JOIN nodes kn ON kn.id = bt_app_node(e.waker_node_id) LEFT JOIN frames kf ON kf.id = kn.frame_id
	WHERE e.waker_tid IS NOT NULL"
for f in small seed2 v4 flush; do
	for p in btrace midpoint idle; do
		"$BIN" import -q "$FIX/$f" --slice-policy $p -o "$T/$f-$p.db"
		"$BIN" analyze -q "$T/$f-$p.db" --perfetto "$T/$f-$p.pb" >/dev/null
		check "$f/$p: protoc decodes the export" \
			sh -c "protoc --decode perfetto.protos.Trace -I engine/proto $PROTO <'$T/$f-$p.pb' >'$T/$f-$p.txt'"
		"$BIN" query "$T/$f-$p.db" "$slices_sql" --format tsv | tail -n +2 >"$T/s.tsv"
		"$BIN" query "$T/$f-$p.db" "$edges_sql" --format tsv | tail -n +2 >"$T/e.tsv"
		python3 tests/fixtures/check_perfetto.py "$T/$f-$p.txt" "$T/s.tsv" "$T/e.tsv" | sed "s/^\(ok\|not ok\) - /&$f\/$p: /"
	done
done
is "$(grep -c 'terminating_flow_ids' "$T/small-midpoint.txt")" "$(q "$T/small-midpoint.db" 'SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL')" "small: a terminating flow per linked wait"
check "seed2/idle: some slices are idle (the checker compares each one's Idle)" \
	test "$(q "$T/seed2-idle.db" 'SELECT count(*) FROM slices WHERE idle')" -gt 0
is "$(grep -c '"Idle"' "$T/seed2-midpoint.txt")" 0 "seed2/midpoint: no Idle annotations"
check "small: some waits know the frame they waited in, its caller and the waker's frame (the checker compares them)" \
	test "$(q "$T/small-midpoint.db" "SELECT count(*) FROM blocking_edges e JOIN samples s ON s.id = e.waiter_sample_id
		JOIN nodes wn ON wn.id = s.node_id JOIN nodes pn ON pn.id = wn.parent_id JOIN nodes kn ON kn.id = e.waker_node_id")" -gt 0
# --full-names: slices show the signatures themselves, no "signature" beside them.
"$BIN" analyze -q "$T/small-midpoint.db" --full-names --perfetto "$T/full.pb" >/dev/null
protoc --decode perfetto.protos.Trace -I engine/proto $PROTO <"$T/full.pb" >"$T/full.txt"
"$BIN" query "$T/small-midpoint.db" "$slices_sql" --format tsv | tail -n +2 >"$T/s.tsv"
"$BIN" query "$T/small-midpoint.db" "$edges_sql" --format tsv | tail -n +2 >"$T/e.tsv"
is "$(python3 tests/fixtures/check_perfetto.py "$T/full.txt" "$T/s.tsv" "$T/e.tsv" | grep -c '^not ok')" 0 \
	"--full-names: the export reads as the database"
is "$(grep -c '"signature"' "$T/full.txt")" 0 "--full-names: no signature annotations"
like "$(grep -c '"signature"' "$T/small-midpoint.txt")" '^[1-9]' "short names: signature annotations"

# The checker fails on a damaged export, or on a database that is not the export's.
"$BIN" query "$T/small-midpoint.db" "$slices_sql" --format tsv | tail -n +2 >"$T/s.tsv"
"$BIN" query "$T/small-midpoint.db" "$edges_sql" --format tsv | tail -n +2 >"$T/e.tsv"
mutate() {   # description python-on-t file pattern
	cp "$T/small-midpoint.txt" "$T/m.txt"
	cp "$T/s.tsv" "$T/ms.tsv"
	cp "$T/e.tsv" "$T/me.tsv"
	python3 -c "import re, sys; t = open(sys.argv[1]).read(); $2; open(sys.argv[1], 'w').write(t)" "$T/$3"
	like "$(python3 tests/fixtures/check_perfetto.py "$T/m.txt" "$T/ms.tsv" "$T/me.tsv" | grep '^not ok' | grep -E "$4")" \
		. "checker: $1"
}
mutate "a plain name" "t = t.replace('\n    name_iid: ', '\n    name: \"x\"\n    x_iid: ', 1)" m.txt 'plain name'
mutate "a name interned twice" "t = re.sub(r'(    event_names \{\n      iid: 1\n      name: (\"[^\"]*\")\n    \}\n)', r'\1    event_names {\n      iid: 2\n      name: \2\n    }\n', t, 1)" \
	m.txt 'interned once'
mutate "an iid never interned" "t = re.sub(r'    event_names \{\n      iid: 1\n      name: \"[^\"]*\"\n    \}\n', '', t, 1)" m.txt 'interned before'
mutate "a sequence that never clears its state" "t = t.replace('sequence_flags: 1\n', '', 1)" m.txt 'clears its state'
mutate "a clock moved by 1 ns" "t = t.replace('  timestamp: 0\n  trusted', '  timestamp: 1\n  trusted', 2)" m.txt 'slices equal|order'
mutate "CPU time 1 ns off" "l = t.split('\n'); c = l[0].split('\t'); c[5] = str(int(c[5]) + 1); l[0] = '\t'.join(c); t = '\n'.join(l)" \
	ms.tsv 'every value'
mutate "another frame waited in" "t = re.sub(r'^([^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t)', r'\1x', t, 1)" me.tsv 'naming where it waited'
check "small: some waits are linked" test "$(q "$T/small-midpoint.db" 'SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL')" -gt 0
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/scratch.pb" >/dev/null
check "a scratch analysis (slices on demand) exports the same bytes as a kept database" cmp "$T/scratch.pb" "$T/seed2-idle.pb"
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/nodir/x.pb" >/dev/null 2>"$T/err"; is "$?" 1 "unwritable --perfetto path: exit 1"
check "and no file left behind" test ! -e "$T/nodir/x.pb"
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/ok.pb" -o "$T/nodir/r.txt" 2>/dev/null; is "$?" 1 "a failed report: exit 1"
check "and no Perfetto file either" test ! -e "$T/ok.pb"
