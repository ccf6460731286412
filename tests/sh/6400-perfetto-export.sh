# --perfetto: the export decoded by protoc (not by us) matches the trace
# database slice for slice, with upstream's annotations and one flow arrow
# per linked wait; a scratch analysis writes the same bytes as a kept
# database; a failed export leaves nothing behind.
. tests/lib.sh
PROTO=engine/proto/perfetto_trace.proto
slices_sql="SELECT s.tid, f.name, s.ts, s.ts + s.dur, s.depth, s.cpu_dur, s.self_dur, s.sample_count,
	s.msg_id, s.alloc_bytes, s.majflt, coalesce(s.wakeup_tid, ''), coalesce(r.name, '')
	FROM slices s JOIN frames f ON f.id = s.frame_id LEFT JOIN record_types r ON r.type = s.type"
edges_sql="SELECT id, waiter_tid, ts, waker_tid, waker_ts FROM blocking_edges WHERE waker_tid IS NOT NULL"
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
is "$(grep -c '^      name: "Idle"$' "$T/seed2-idle.txt")" "$(q "$T/seed2-idle.db" 'SELECT count(*) FROM slices WHERE idle')" \
	"seed2/idle: an Idle annotation on each idle slice"
check "seed2/idle: some slices are idle" test "$(q "$T/seed2-idle.db" 'SELECT count(*) FROM slices WHERE idle')" -gt 0
is "$(grep -c '"Idle"' "$T/seed2-midpoint.txt")" 0 "seed2/midpoint: no Idle annotations"
check "small: some waits are linked" test "$(q "$T/small-midpoint.db" 'SELECT count(*) FROM blocking_edges WHERE waker_tid IS NOT NULL')" -gt 0
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/scratch.pb" >/dev/null
check "a scratch analysis (slices on demand) exports the same bytes as a kept database" cmp "$T/scratch.pb" "$T/seed2-idle.pb"
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/nodir/x.pb" >/dev/null 2>"$T/err"; is "$?" 1 "unwritable --perfetto path: exit 1"
check "and no file left behind" test ! -e "$T/nodir/x.pb"
"$BIN" analyze -q "$FIX/seed2" --perfetto "$T/ok.pb" -o "$T/nodir/r.txt" 2>/dev/null; is "$?" 1 "a failed report: exit 1"
check "and no Perfetto file either" test ! -e "$T/ok.pb"
