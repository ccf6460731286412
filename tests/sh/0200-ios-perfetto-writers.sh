#!/bin/sh
# The independent iOS database and Perfetto trace writers (tests/fixtures/
# mkios.py, mkperfetto.py) on their own: sqlite3 opens what mkios writes (also
# gzipped), every version has the spec's tables and columns, blob sizes follow
# the layouts, protoc decodes what mkperfetto writes, the truth counts equal
# what sqlite3 / protoc show, the same seed gives the same bytes, and a
# mutation makes a check fail.
. tests/lib.sh
MKIOS="python3 tests/fixtures/mkios.py"
MKPF="python3 tests/fixtures/mkperfetto.py"
PROTO=engine/proto/perfetto_trace.proto

sq() {   # db sql
	sqlite3 "file:$1?immutable=1" "$2"
}
tv() {   # dir key
	awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/truth/summary.tsv"
}

# ---- iOS: every version, batch-only and row-only storage
for v in 1 2 3 4; do
	$MKIOS "$T/b$v" --version "$v" --seed $((40 + v)) --storage batch --samples 150 >/dev/null
	$MKIOS "$T/r$v" --version "$v" --seed $((50 + v)) --storage row --samples 150 >/dev/null
	db=$T/b$v/trace.db
	is "$(sq "$db" 'PRAGMA integrity_check')" ok "ios v$v: sqlite3 opens the database"
	is "$(od -An -tu1 -j18 -N2 "$db" | tr -s ' ')" " 2 2" "ios v$v: header says WAL (bytes 18-19 = 2)"
	is "$(sq "$db" 'SELECT version FROM BTraceModel')" "$v" "ios v$v: BTraceModel.version"
	is "$(sq "$db" "SELECT group_concat(name, ',') FROM pragma_table_info('BTraceModel')")" \
		"trace_id,start_time,end_time,sdk_init_time,os_version,bundle_id,dump_time,tag,info,version,main_tid" \
		"ios v$v: BTraceModel columns"
	is "$(sq "$db" "SELECT group_concat(name, ',') FROM pragma_table_info('CallStackTableModel')")" \
		"trace_id,nodes" "ios v$v: CallStackTableModel columns"
	is "$(sq "$db" 'SELECT length(nodes) % 16, length(nodes) / 16 FROM CallStackTableModel')" \
		"0|$(tv "$T/b$v" nodes)" "ios v$v: trie blob = 16-byte nodes, as many as the truth's"
	is "$(sq "$db" 'SELECT count(*) FROM ImageInfoModel WHERE type = 0')" "$(tv "$T/b$v" images)" "ios v$v: images"
	named=$(awk -F'\t' 'NR > 1 && $2 != ""' "$T/b$v/truth/threads.tsv" | wc -l | tr -d ' ')
	is "$(sq "$db" 'SELECT count(*) FROM ThreadInfoModel')" "$named" "ios v$v: one ThreadInfoModel row per named thread"
	# batch node sizes from the spec (§10.2-§10.7), per version
	if [ "$v" = 4 ]; then
		set -- ProfileBatchSampleModel:profile:20 TimeRangeBatchSampleModel:time_range:28 \
			DispatchBatchSampleModel:dispatch:28 LockBatchSampleModel:lock:28
		absent="CPUSampleModel CPUBatchSampleModel MemSampleModel MemBatchSampleModel DateBatchSampleModel AsyncBatchSampleModel"
	elif [ "$v" = 1 ]; then
		set -- CPUBatchSampleModel:cpu:12 CPUBatchIntervalSampleModel:cpu_interval:20 \
			MemBatchSampleModel:mem:20 DateBatchSampleModel:date:12 DispatchBatchSampleModel:dispatch:20 \
			AsyncBatchSampleModel:async:20 LockBatchSampleModel:lock:20
		absent="ProfileBatchSampleModel TimeRangeBatchSampleModel"
	else
		set -- CPUBatchSampleModel:cpu:20 CPUBatchIntervalSampleModel:cpu_interval:28 \
			MemBatchSampleModel:mem:28 DateBatchSampleModel:date:20 DispatchBatchSampleModel:dispatch:28 \
			AsyncBatchSampleModel:async:28 LockBatchSampleModel:lock:28
		absent="ProfileBatchSampleModel TimeRangeBatchSampleModel"
	fi
	bad=
	for spec in "$@"; do
		tab=${spec%%:*}; rest=${spec#*:}; kind=${rest%%:*}; size=${rest#*:}
		want=$(tv "$T/b$v" "samples.$kind")
		got=$(sq "$db" "SELECT coalesce(sum(length(nodes)), 0) FROM $tab")
		[ "$got" = $((want * size)) ] || bad="$bad $tab($got != $want x $size)"
	done
	is "$bad" "" "ios v$v: batch blobs hold the truth's sample count x the spec's node size"
	bad=
	for tab in $absent; do
		[ -z "$(sq "$db" "SELECT name FROM sqlite_master WHERE name = '$tab'")" ] || bad="$bad $tab"
	done
	is "$bad" "" "ios v$v: no tables the version excludes"
	# per-row tables: one row per sample
	rdb=$T/r$v/trace.db
	if [ "$v" = 4 ]; then
		set -- ProfileSampleModel:profile TimeRangeSampleModel:time_range DispatchSampleModel:dispatch LockSampleModel:lock
	else
		set -- CPUSampleModel:cpu CPUIntervalSampleModel:cpu_interval MemSampleModel:mem DateSampleModel:date \
			DispatchSampleModel:dispatch AsyncSampleModel:async LockSampleModel:lock
	fi
	bad=
	for spec in "$@"; do
		tab=${spec%%:*}; kind=${spec#*:}
		[ "$(sq "$rdb" "SELECT count(*) FROM $tab")" = "$(tv "$T/r$v" "samples.$kind")" ] || bad="$bad $tab"
	done
	is "$bad" "" "ios v$v: per-row tables hold one row per truth sample"
	case $v in 1) ls=24 ;; *) ls=32 ;; esac
	is "$(sq "$rdb" 'SELECT DISTINCT length(sample) FROM LockSampleModel')" "$ls" "ios v$v: lock sample blob is $ls bytes"
done
is "$(sq "$T/r1/trace.db" "SELECT group_concat(name, ',') FROM pragma_table_info('CPUSampleModel')")" \
	"trace_id,tid,start_time,start_cpu_time,stack_id" "ios v1: CPUSampleModel without alloc columns"
is "$(sq "$T/r3/trace.db" "SELECT group_concat(name, ',') FROM pragma_table_info('DispatchSampleModel')")" \
	"trace_id,source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id,alloc_size,alloc_count" \
	"ios v3: DispatchSampleModel columns"
is "$(sq "$T/r4/trace.db" "SELECT group_concat(name, ',') FROM pragma_table_info('DispatchSampleModel')")" \
	"trace_id,tid,time,cpu_time,target_tid,target_time,stack_id,alloc_size,alloc_count" \
	"ios v4: DispatchSampleModel columns"
# v3 lock contention: the first 8 bytes are id | action << 48; the truth's edges are there
e=$(awk -F'\t' 'NR == 2 { print $2, $3, $4 / 10000 }' "$T/r3/truth/lock_edges.tsv")
set -- $e
is "$(sq "$T/r3/trace.db" "SELECT count(*) FROM LockSampleModel WHERE substr(hex(sample), 1, 16) = '$(python3 -c "import struct;print(struct.pack('<Q', $1 | $2 << 48).hex().upper())")'")" \
	"$(awk -F'\t' -v id="$1" -v a="$2" 'NR > 1 && $2 == id && $3 == a' "$T/r3/truth/lock_edges.tsv" | wc -l | awk '{ print $1 * 2 }')" \
	"ios v3: two contention samples per truth edge of that lock"

# the default (both storages), gzip, legacy metadata, determinism
$MKIOS "$T/d1" --seed 7 --samples 200 >/dev/null
$MKIOS "$T/d2" --seed 7 --samples 200 >/dev/null
$MKIOS "$T/d3" --seed 8 --samples 200 >/dev/null
check "ios: same seed, same database" cmp "$T/d1/trace.db" "$T/d2/trace.db"
check "ios: same seed, same truth" diff -r "$T/d1/truth" "$T/d2/truth"
check "ios: same seed, same symbols" cmp "$T/d1/symbols.txt" "$T/d2/symbols.txt"
check "ios: another seed, another database" sh -c "! cmp -s '$T/d1/trace.db' '$T/d3/trace.db'"
total=0
for tab in $(sq "$T/d1/trace.db" "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%Sample%' AND name NOT LIKE '%Batch%'"); do
	total=$((total + $(sq "$T/d1/trace.db" "SELECT count(*) FROM $tab")))
done
batch=$(sq "$T/d1/trace.db" "SELECT count(*) FROM sqlite_master WHERE name LIKE '%Batch%SampleModel'")
is "$batch" 7 "ios: the default writes both per-row and batch tables (7 batch kinds)"
check "ios: the default splits samples over both storages" test "$total" -gt 0 -a "$total" -lt "$(tv "$T/d1" samples)"
$MKIOS "$T/gz" --seed 7 --samples 200 --gzip >/dev/null
check "ios --gzip: gzip magic" sh -c "od -An -tx1 -N2 '$T/gz/trace.db.gz' | grep -q '1f 8b'"
gunzip -c "$T/gz/trace.db.gz" >"$T/gz.db"
check "ios --gzip: gunzipped bytes = the plain database" cmp "$T/gz.db" "$T/d1/trace.db"
is "$(sq "$T/gz.db" 'PRAGMA integrity_check')" ok "ios --gzip: sqlite3 opens it after gunzip"
$MKIOS "$T/lg" --version 1 --legacy-meta --main-not-smallest --seed 9 --samples 100 >/dev/null
is "$(sq "$T/lg/trace.db" "SELECT count(*) FROM pragma_table_info('BTraceModel') WHERE name IN ('version', 'main_tid')")" 0 \
	"ios --legacy-meta: no version/main_tid columns"
is "$(awk -F'\t' '$3 == 1 { print $1 }' "$T/lg/truth/threads.tsv")" \
	"$(awk -F'\t' 'NR > 1 && $4 > 0 { print $1 }' "$T/lg/truth/threads.tsv" | sort -n | head -1)" \
	"ios --legacy-meta: main thread = smallest sampled tid"
is "$(wc -l <"$T/d1/symbols.txt" | tr -d ' ')" "$(tv "$T/d1" symbols)" "ios: symbols.txt has the truth's count"
check "ios: every symbols.txt address is a trie address" python3 -c "
import sqlite3, struct, sys
db = sqlite3.connect('file:$T/d1/trace.db?immutable=1', uri=True)
b = db.execute('SELECT nodes FROM CallStackTableModel').fetchone()[0]
addrs = {struct.unpack_from('<Q', b, i + 8)[0] for i in range(0, len(b), 16)}
syms = {int(l.split()[0], 16) for l in open('$T/d1/symbols.txt')}
sys.exit(not syms <= addrs)"
# mutation: a deleted row breaks the count check
cp "$T/r3/trace.db" "$T/mut.db"
sqlite3 "$T/mut.db" 'DELETE FROM CPUSampleModel WHERE rowid = 1'
check "ios mutation: a deleted row no longer matches the truth" \
	test "$(sq "$T/mut.db" 'SELECT count(*) FROM CPUSampleModel')" != "$(tv "$T/r3" samples.cpu)"

# ---- Perfetto
for f in btrace2 btrace3; do
	$MKPF "$T/$f/t.pb" --flavor $f --seed 5 --slices 1500 >/dev/null
	check "$f: protoc decodes the trace" \
		sh -c "protoc --decode perfetto.protos.Trace -I engine/proto $PROTO <'$T/$f/t.pb' >'$T/$f.txt'"
	check "$f: protoc --decode_raw decodes it (ftrace fields are not in the repo's proto)" \
		sh -c "protoc --decode_raw <'$T/$f/t.pb' >'$T/$f.raw'"
	is "$(grep -c 'type: TYPE_SLICE_BEGIN' "$T/$f.txt")" "$(tv "$T/$f" slices.app)" "$f: SLICE_BEGIN events = app slices"
	is "$(grep -c 'type: TYPE_SLICE_END' "$T/$f.txt")" "$(tv "$T/$f" slices.app)" "$f: SLICE_END events = app slices"
	is "$(grep -c '2: "B|' "$T/$f.raw")" "$(tv "$T/$f" slices.atrace)" "$f: atrace B prints = atrace slices"
	is "$(grep -c '2: "E|' "$T/$f.raw")" "$(tv "$T/$f" slices.atrace)" "$f: atrace E prints = atrace slices"
	is "$(grep -c '^packet {' "$T/$f.txt")" "$(tv "$T/$f" packets)" "$f: packet count"
	is "$(($(wc -l <"$T/$f/truth/slices.tsv") - 1))" "$(tv "$T/$f" slices)" "$f: slices.tsv rows = the slice count"
	is "$(grep -c 'binder transact\[' "$T/$f.raw")" "$(($(tv "$T/$f" binder) * 1))" "$f: binder prints = binder truth rows"
	is "$(grep -c '"B|[0-9]*|pthread_create tid=' "$T/$f.raw")" "$(tv "$T/$f" pthread_create)" "$f: pthread_create prints"
	check "$f: some blocking edges" test "$(tv "$T/$f" edges)" -gt 0
done
is "$(grep -c 'track_descriptor {' "$T/btrace3.txt")" "$(tv "$T/btrace3" track_descriptors)" "btrace3: track descriptors"
is "$(grep -c '^ *uuid: 0$' "$T/btrace3.txt")" 1 "btrace3: the process track is uuid 0 (Q-6)"
is "$(grep -c 'trusted_packet_sequence_id: 0' "$T/btrace3.txt")" "$(($(tv "$T/btrace3" slices.app) * 2))" \
	"btrace3: every event packet sets sequence id 0 explicitly"
is "$(grep -c 'name: "WakeUpBy"' "$T/btrace3.txt")" "$(grep -c '^wait' "$T/btrace3/truth/edges.tsv")" \
	"btrace3: one WakeUpBy per wait/notify edge"
is "$(awk -F'\t' '$1 == "wait" && $6 != ""' "$T/btrace2/truth/edges.tsv" | wc -l | tr -d ' ')" \
	"$(grep -c '^wait' "$T/btrace2/truth/edges.tsv")" "btrace2: wait edges carry the object id"
w=$(awk -F'\t' '$1 == "wait" { print $6; exit }' "$T/btrace2/truth/edges.tsv")
check "btrace2: the wait's object appears in a wait and a notify print" \
	sh -c "grep -q 'Object#wait(obj:$w, timeout:0)' '$T/btrace2.raw' && grep -q 'Object#notify(obj:$w)' '$T/btrace2.raw'"
$MKPF "$T/p1.pb" --seed 3 --slices 800 --no-truth >/dev/null
$MKPF "$T/p2.pb" --seed 3 --slices 800 --no-truth >/dev/null
$MKPF "$T/p3.pb" --seed 4 --slices 800 --no-truth >/dev/null
$MKPF "$T/pz.pb" --seed 3 --slices 800 --no-truth --gzip >/dev/null
check "perfetto: same seed, same bytes" cmp "$T/p1.pb" "$T/p2.pb"
check "perfetto: another seed, other bytes" sh -c "! cmp -s '$T/p1.pb' '$T/p3.pb'"
check "perfetto --gzip: gunzips to the plain trace" sh -c "gunzip -c '$T/pz.pb' | cmp - '$T/p1.pb'"
check "perfetto --no-truth writes the same trace as with truth" sh -c \
	"$MKPF '$T/p4/t.pb' --seed 3 --slices 800 >/dev/null && cmp '$T/p4/t.pb' '$T/p1.pb'"
# mutation: a truncated trace no longer decodes
head -c $(($(wc -c <"$T/p1.pb") - 3)) "$T/p1.pb" >"$T/cut.pb"
check "perfetto mutation: protoc rejects a truncated trace" \
	sh -c "! protoc --decode perfetto.protos.Trace -I engine/proto $PROTO <'$T/cut.pb' >/dev/null 2>&1"
