#!/bin/sh
# iOS database import (format spec ios-database.md): small databases built
# here with the sqlite3 CLI from the spec's statements (§2), its worked
# example (§12) and blob layouts (§7, §10): row counts, image+offset frames,
# --symbols, ns times with the 10 µs tick scaling, the main thread, a lock
# wait linked to its releaser, dispatches, gzip'd input, the default report,
# and bad input.
. tests/lib.sh

# Little-endian hex of a u32 and of a u64 (below 2^63).
u32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
u64() { u32 $(($1 & 4294967295)); u32 $(($1 >> 32)); }
# A call-stack trie node (§7): id, parent, address.
node() { u32 "$1"; u32 "$2"; u64 "$3"; }
# Concatenated u32s.
u32s() { for v; do u32 "$v"; done; }
# A v2/v3 LockSampleModel.sample (§10.6): id action time cpu stack tid MiB count.
lock() { u64 $(($1 | $2 << 48)); u32s "$3" "$4" "$5" "$6" "$7" "$8"; }

TRIE=$(node 1 0 4294971392; node 2 1 4294971648; node 3 2 4294971904; node 4 2 4294972160)

# mkdb FILE VERSION [SQL]: the §12 example at VERSION, plus SQL.
mkdb() {
	rm -f "$1"
	sqlite3 "$1" <<EOF
create table if not exists BTraceModel(trace_id INTEGER,start_time INTEGER,end_time INTEGER,sdk_init_time REAL,os_version TEXT,bundle_id TEXT,dump_time INTEGER,tag TEXT,info TEXT,version INTEGER,main_tid INTEGER);
insert into BTraceModel(trace_id,start_time,end_time,sdk_init_time,os_version,bundle_id,dump_time,tag,info,version,main_tid) values(1,1700000000000000,1700000005000000,1699999999000.0,'17.0','com.example.ios',0,'','',$2,259);
create table if not exists CallStackTableModel(trace_id INTEGER,nodes BLOB);
insert into CallStackTableModel(trace_id,nodes) values(1,X'$TRIE');
create table if not exists CPUBatchSampleModel(trace_id INTEGER,tid INTEGER,nodes BLOB);
insert into CPUBatchSampleModel(trace_id,tid,nodes) values(1,259,X'$(u32s 100 50 3 1 10 200 60 4 1 12)');
create table if not exists CPUBatchIntervalSampleModel(trace_id INTEGER,tid INTEGER,nodes BLOB);
insert into CPUBatchIntervalSampleModel(trace_id,tid,nodes) values(1,259,X'$(u32s 300 70 3 500 90 2 20)');
create table if not exists LockSampleModel(trace_id INTEGER,sample BLOB);
insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 737894400291 15 400 80 4 259 3 30)');
create table if not exists DispatchSampleModel(trace_id INTEGER,source_tid INTEGER,source_time INTEGER,source_cpu_time INTEGER,target_tid INTEGER,target_time INTEGER,stack_id INTEGER,alloc_size INTEGER,alloc_count INTEGER);
insert into DispatchSampleModel(trace_id,source_tid,source_time,source_cpu_time,target_tid,target_time,stack_id,alloc_size,alloc_count) values(1,771,150,5,259,160,2,0,0);
create table if not exists ThreadInfoModel(trace_id INTEGER,tid INTEGER,name TEXT);
insert into ThreadInfoModel(trace_id,tid,name) values(1,771,'worker');
create table if not exists ImageInfoModel(trace_id INTEGER,address INTEGER,len INTEGER,type INTEGER,name TEXT,uuid TEXT);
insert into ImageInfoModel(trace_id,address,len,type,name,uuid) values(1,4294967296,16384,0,'/private/var/containers/Bundle/Application/X/App.app/App','0123456789abcdef0123456789abcdef');
create table if not exists TimeSeriesModel(trace_id INTEGER,tid INTEGER,timestamp INTEGER,type TEXT,info TEXT);
insert into TimeSeriesModel(trace_id,tid,timestamp,type,info) values(1,259,1700000001000000,'mem_usage','{"val":104857600,"perfetto_type":"counter"}');
$3
EOF
}

mkdb "$T/ex.db" 3
err=$("$BIN" import "$T/ex.db" -o "$T/ex.out.db" 2>&1 >/dev/null)
is "$?" 0 "v3 example: import exits 0"
D=$T/ex.out.db
is "$(q "$D" "SELECT value FROM meta WHERE key='format'")" "ios-database" "v3 example: recognised by content"
is "$(q "$D" "SELECT count(*) FROM samples")" 5 "v3 example: 5 samples (2 cpu, 1 interval, 1 lock, 1 dispatch)"
is "$(q "$D" "SELECT count(*) FROM frames")" 4 "v3 example: 4 frames"
is "$(q "$D" "SELECT count(*) FROM nodes")" 4 "v3 example: 4 nodes"
is "$(q "$D" "SELECT group_concat(name, ' ') FROM (SELECT name FROM frames ORDER BY name)")" \
	"App+0x1000 App+0x1100 App+0x1200 App+0x1300" "v3 example: frames are image+0xoffset"
is "$(q "$D" "SELECT group_concat(ts || ':' || coalesce(end_ts, '-') || ':' || cpu_ns, ' ') FROM (SELECT * FROM samples WHERE tid = 259 ORDER BY ts)")" \
	"1000000:-:500000 2000000:-:600000 3000000:5000000:700000 4000000:-:800000" "v3 example: ns times, 10 us ticks scaled"
is "$(q "$D" "SELECT group_concat(alloc_bytes || '/' || alloc_objects, ' ') FROM (SELECT * FROM samples WHERE tid = 259 ORDER BY ts)")" \
	"1048576/10 1048576/12 2097152/20 3145728/30" "v3 example: alloc counters in bytes"
is "$(q "$D" "SELECT tid FROM threads WHERE is_main = 1")" 259 "v3 example: main thread from main_tid"
is "$(q "$D" "SELECT name FROM threads WHERE tid = 771")" worker "v3 example: thread names"
is "$(q "$D" "SELECT source_tid || '>' || target_tid || ' ' || source_ts || ' ' || target_ts FROM dispatches")" \
	"771>259 1500000 1600000" "v3 example: dispatch links the enqueuing thread to the executing one"
is "$(q "$D" "SELECT f.name FROM samples s JOIN nodes n ON n.id = s.node_id JOIN frames f ON f.id = n.frame_id WHERE s.tid = 771")" \
	"App+0x1100" "v3 example: dispatch sample's leaf frame"
is "$(q "$D" "SELECT count FROM diagnostics WHERE code = 'unpaired_lock_contention'")" 1 "v3 example: the lone contention sample is counted"
is "$(q "$D" "SELECT value FROM meta WHERE key='wall_start_ns'")" 1700000000000000000 "v3 example: wall start in meta"
like "$(q "$D" "SELECT count(*) FROM slices WHERE tid = 259")" '^[1-9]' "v3 example: slices reconstructed"

# Version 2: times in µs, no scaling.
mkdb "$T/v2.db" 2
is "$(q "$T/v2.db" "SELECT group_concat(ts, ' ') FROM (SELECT ts FROM samples WHERE tid = 259 ORDER BY ts)")" \
	"100000 200000 300000 400000" "v2: µs times"

# TimeSeriesModel (§8): perfetto_type counters to counters (mem_usage in
# bytes, as recorded), slices to track_slices (ns since the trace start);
# other event types counted in meta; malformed rows skipped and counted.
ts() {   # wall offset from the trace start (µs), type, info
	printf "insert into TimeSeriesModel(trace_id,tid,timestamp,type,info) values(1,259,%s,'%s','%s');\n" \
		$((1700000000000000 + $1)) "$2" "$3"
}
mkdb "$T/series.db" 3 "$(ts 2000000 cpu_usage '{"val":0.25,"perfetto_type":"counter"}')
$(ts 1000000 hitch '{"begin_time":1000,"end_time":60000,"perfetto_type":"slice"}')
$(ts 1100000 hitch '{"perfetto_type":"slice","end_time":70000.5,"begin_time":65000}')
$(ts 5000 timer '{"id":7,"sub_type":"dispatch","action":"create"}')
$(ts 6000 view '{"name":"DMFeed","perfetto_type":"flow"}')
$(ts 7000 hitch '{"begin_time":9000,"end_time":8000,"perfetto_type":"slice"}')
$(ts 8000 hitch '{"begin_time":-5,"end_time":8000,"perfetto_type":"slice"}')
$(ts 10000 mem_usage '{"val":1,"perfetto_type":"counter"')
$(ts 9000 mem_usage '{"perfetto_type":"counter"}')
$(ts 9500 mem_usage '{"val":"12","perfetto_type":"counter"}')
$(ts 11000 cpu_usage '[1]')
insert into TimeSeriesModel(trace_id,tid,timestamp,type,info) values(1,259,1700000000012000,'cpu_usage',NULL);
insert into TimeSeriesModel(trace_id,tid,timestamp,type,info) values(2,259,1700000000013000,'cpu_usage','{\"val\":9,\"perfetto_type\":\"counter\"}');"
"$BIN" import -q "$T/series.db" -o "$T/series.out.db" 2>/dev/null
is "$?" 0 "series: import exits 0"
D=$T/series.out.db
is "$(q "$D" "SELECT group_concat(track || '@' || ts || '=' || value, ' ') FROM (SELECT * FROM counters ORDER BY ts)")" \
	"mem_usage@1000000000=104857600.0 cpu_usage@2000000000=0.25" "series: counters in ns since the start, values as recorded"
is "$(q "$D" "SELECT group_concat(track || ':' || name || '@' || ts || '+' || dur || '/' || depth, ' ') FROM (SELECT * FROM track_slices ORDER BY ts)")" \
	"hitch:hitch@1000000+59000000/0 hitch:hitch@65000000+5000500/0" "series: slices from begin_time/end_time (µs since the start) in ns"
is "$(q "$D" "SELECT group_concat(code || '=' || count, ' ') FROM (SELECT * FROM diagnostics WHERE code LIKE 'bad_time_series%' ORDER BY code)")" \
	"bad_time_series=5 bad_time_series_slice=2" "series: malformed rows counted"
like "$(q "$D" "SELECT detail FROM diagnostics WHERE code = 'bad_time_series_slice'")" \
	"table 'TimeSeriesModel' row 6: slice 'hitch' ends before it begins" "series: a reversed slice is named by row"
is "$(q "$D" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM meta WHERE key IN ('counter_values', 'track_slices', 'time_series_other') ORDER BY key)")" \
	"counter_values=2 time_series_other=2 track_slices=2" "series: counts in meta, other event types among them"
like "$(q "$D" "SELECT detail FROM diagnostics WHERE code = 'bad_time_series'")" \
	"'.*series.db' table 'TimeSeriesModel' row 8 info: byte 34: unexpected end of the JSON text; skipped" \
	"series: bad JSON is named by row and byte offset"

# Memory samples (§10.3): the allocation's size (0 for a free) is kept in
# sample_args, from per-row and batch tables alike.
mkdb "$T/mem.db" 3 "create table if not exists MemSampleModel(trace_id INTEGER,tid INTEGER,addr INTEGER,size INTEGER,time INTEGER,cpu_time INTEGER,stack_id INTEGER,alloc_size INTEGER,alloc_count INTEGER);
insert into MemSampleModel values(1,259,171798691,4096,250,65,3,1,11);
create table if not exists MemBatchSampleModel(trace_id INTEGER,tid INTEGER,nodes BLOB);
insert into MemBatchSampleModel values(1,771,X'$(u32s 171798691 0 170 6 2 0 1 171798692 48 180 7 1 0 2)');"
"$BIN" import -q "$T/mem.db" -o "$T/mem.out.db"
is "$(q "$T/mem.out.db" "SELECT group_concat(s.tid || '@' || s.ts || '=' || a.arg, ' ') FROM (SELECT * FROM samples WHERE type = 103 ORDER BY tid, ts) s JOIN sample_args a ON a.sample_id = s.id")" \
	"259@2500000=4096 771@1700000=0 771@1800000=48" "memory: each sample's size (0: a free) in sample_args"

# u32 times wrap (spec Q-4: 10 µs ticks after ~11.9 h): a stream of records
# going back by more than 2^31 has wrapped; a late record from before the
# wrap stays before it; an end or target time past the wrap follows its start.
W=4294967296
mkdb "$T/wrap.db" 3 "delete from CPUBatchSampleModel;
insert into CPUBatchSampleModel(trace_id,tid,nodes) values(1,259,X'$(u32s $((W - 296)) 50 3 1 10 $((W - 96)) 60 4 1 12 100 61 3 1 12 300 62 4 1 12)');
delete from CPUBatchIntervalSampleModel;
insert into CPUBatchIntervalSampleModel(trace_id,tid,nodes) values(1,259,X'$(u32s $((W - 196)) 55 3 50 58 1 10)');
create table if not exists CPUSampleModel(trace_id INTEGER,tid INTEGER,start_time INTEGER,start_cpu_time INTEGER,stack_id INTEGER,alloc_size INTEGER,alloc_count INTEGER);
insert into CPUSampleModel values(1,771,$((W - 6)),1,3,0,0),(1,771,6,2,3,0,0),(1,771,$((W - 16)),3,3,0,0),(1,771,20,4,3,0,0);
update DispatchSampleModel set source_time = $((W - 1)), target_time = 5;"
"$BIN" import -q "$T/wrap.db" -o "$T/wrap.out.db"
is "$?" 0 "wrap: import exits 0"
D=$T/wrap.out.db
is "$(q "$D" "SELECT group_concat(ts || ':' || coalesce(end_ts, '-'), ' ') FROM (SELECT * FROM samples WHERE tid = 259 AND type IN (101, 102) ORDER BY ts)")" \
	"$(((W - 296) * 10000)):- $(((W - 196) * 10000)):$(((W + 50) * 10000)) $(((W - 96) * 10000)):- $(((W + 100) * 10000)):- $(((W + 300) * 10000)):-" \
	"wrap: a batch blob's times after the wrap, and an interval ending after it, are unwrapped"
is "$(q "$D" "SELECT group_concat(ts, ' ') FROM (SELECT ts FROM samples WHERE tid = 771 AND type = 101 ORDER BY id)")" \
	"$(((W - 16) * 10000)) $(((W - 6) * 10000)) $(((W + 6) * 10000)) $(((W + 20) * 10000))" \
	"wrap: per-row times unwrapped in row order, a late pre-wrap row kept before the wrap"
is "$(q "$D" "SELECT source_ts || ' ' || target_ts FROM dispatches")" \
	"$(((W - 1) * 10000)) $(((W + 5) * 10000))" "wrap: a dispatch's target time after the wrap follows its source time"
is "$(q "$D" "SELECT ts FROM samples WHERE type = 106")" 4000000 "wrap: another table's stream starts afresh"

# --symbols: exact and nearest-below names, atos suffixes dropped.
printf '# atos\n0x100001000 main (in App) (main.m:3)\n0x1000010f0 -[AppDelegate run]\n100001200 -[Foo bar]\n' >"$T/syms.txt"
"$BIN" import -q "$T/ex.db" --symbols "$T/syms.txt" -o "$T/sym.db"
is "$(q "$T/sym.db" "SELECT group_concat(name, '|') FROM (SELECT name FROM frames ORDER BY name)")" \
	"-[AppDelegate run]|-[Foo bar]|main" "--symbols: names from the map (0x1300 is inside -[Foo bar])"
is "$(q "$T/sym.db" "SELECT count(*) FROM nodes")" 3 "--symbols: nodes deduplicated by name"
printf '0x100001000\n' >"$T/bad-syms.txt"
err=$("$BIN" import "$T/ex.db" --symbols "$T/bad-syms.txt" -o "$T/x.db" 2>&1)
is "$?" 1 "--symbols: bad line exits 1"
like "$err" "bad line 1 in symbols file '.*bad-syms.txt'" "--symbols: bad line named"

# A main-thread lock wait (the contention pair) linked to the releasing thread.
mkdb "$T/lock.db" 3 "insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 4096 21 380 81 4 259 3 30)');
insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 4096 21 350 81 4 259 3 30)');
insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 4096 22 360 40 2 771 0 0)');
insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 4096 22 370 41 1 771 0 0)');
insert into LockSampleModel(trace_id,sample) values(1,X'$(lock 8192 22 370 41 1 771 0 0)');"
"$BIN" import -q "$T/lock.db" -o "$T/lock.out.db"
D=$T/lock.out.db
is "$(q "$D" "SELECT waiter_tid || ' ' || kind || ' ' || lock_id || ' ' || ts || ' ' || dur || ' ' || waker_tid || ' ' || waker_ts FROM blocking_edges")" \
	"259 lock 4096 3500000 300000 771 3700000" "lock: wait linked to the last release inside it"
is "$(q "$D" "SELECT f.name FROM blocking_edges e JOIN nodes n ON n.id = e.waker_node_id JOIN frames f ON f.id = n.frame_id")" \
	"App+0x1000" "lock: the waker's stack is kept"
is "$(q "$D" "SELECT type || ' ' || ts || ' ' || end_ts FROM samples WHERE id = (SELECT waiter_sample_id FROM blocking_edges)")" \
	"107 3500000 3800000" "lock: the pair is one wait sample"
like "$(q "$D" "SELECT sum(block_dur) FROM slices WHERE tid = 259")" '^[1-9]' "lock: blocked time reaches the slices"
out=$("$BIN" -q "$T/lock.db" --format json)
is "$?" 0 "lock: analyze exits 0"
like "$out" '"thread.main.blocked_ns.lock": *300000' "lock: the report counts the wait as lock time"

# gzip'd input, recognised by content whatever its name.
gzip -c "$T/ex.db" >"$T/trace.bin"
"$BIN" import -q "$T/trace.bin" -o "$T/gz.db"
is "$?" 0 "gzip: import exits 0"
is "$(q "$T/gz.db" "SELECT count(*) FROM samples")" 5 "gzip: same samples"
is "$(q "$T/gz.db" "SELECT value FROM meta WHERE key='compression'")" gzip "gzip: noted in meta"

# The default report.
out=$("$BIN" analyze -q "$T/ex.db" --format json)
is "$?" 0 "analyze: exits 0"
like "$out" '"thread.main.wall_ns": *[1-9]' "analyze: main-thread wall time"
like "$out" '"thread.main.cpu_ns": *[1-9]' "analyze: main-thread CPU time"
like "$("$BIN" -q "$T/ex.db")" 'App\+0x1' "analyze: text report names image+offset frames"

# A database this tool wrote is not taken for an iOS database.
is "$(q "$T/ex.out.db" "SELECT count(*) FROM samples")" 5 "own database reopened, not re-imported"

# Bad input: exit 1, the file named, nothing left behind.
fatal() {
	name=$1; input=$2; pat=$3
	err=$("$BIN" import "$input" -o "$T/bad.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: .*$pat" "$name: message"
	is "$(ls "$T" | grep -c '^bad\.')" 0 "$name: no partial database"
}
mkdb "$T/trunc.db" 3 "update CPUBatchSampleModel set nodes = substr(nodes, 1, 39);"
fatal "truncated blob" "$T/trunc.db" "truncated blob in '.*trunc.db' table 'CPUBatchSampleModel' row 0 at byte offset 20"
mkdb "$T/trunclock.db" 3 "update LockSampleModel set sample = substr(sample, 1, 30);"
fatal "short lock sample" "$T/trunclock.db" "bad blob in '.*trunclock.db' table 'LockSampleModel' row 0"
mkdb "$T/layout.db" 3 "create table CPUSampleModel(trace_id INTEGER,tid INTEGER,start_time INTEGER,start_cpu_time INTEGER);"
fatal "wrong table layout" "$T/layout.db" "table 'CPUSampleModel' in '.*layout.db' lacks column 'stack_id'"
mkdb "$T/v4.db" 4
fatal "v4 with CPU tables" "$T/v4.db" "table 'CPUBatchSampleModel' in '.*v4.db' is not part of a version 4 database"
mkdb "$T/v9.db" 9
fatal "unknown version" "$T/v9.db" "unknown database version 9 in '.*v9.db'"
mkdb "$T/start.db" 3 "update BTraceModel set start_time = 9223372036854775807;"
fatal "start time past 2262" "$T/start.db" "bad start_time 9223372036854775807 in '.*start.db' table 'BTraceModel'"
mkdb "$T/end.db" 3 "update BTraceModel set end_time = -1;"
fatal "negative end time" "$T/end.db" "bad end_time -1 in '.*end.db' table 'BTraceModel'"
head -c 300 "$T/trace.bin" >"$T/cut.gz"
fatal "truncated gzip" "$T/cut.gz" "'.*cut.gz' is cut at byte offset [0-9]+ \\(inflated; the gzip stream ends early\\): its schema is lost"
err=$("$BIN" import --strict "$T/cut.gz" -o "$T/bad.db" 2>&1 >/dev/null)
like "$?:$err" "^1:btrace-analyze: error: truncated gzip stream in '.*cut.gz'" "truncated gzip: --strict names the stream's cut"
cp "$T/trace.bin" "$T/corrupt.gz"
printf '\377\377\377\377\377\377\377\377' | dd of="$T/corrupt.gz" bs=1 seek=40 conv=notrunc status=none
fatal "corrupt gzip" "$T/corrupt.gz" "(corrupt|truncated) gzip stream in '.*corrupt.gz'"
sqlite3 "$T/other.db" "create table t(x);"
err=$("$BIN" import "$T/other.db" -o "$T/bad.db" 2>&1)
is "$?" 1 "other SQLite: exit 1"
like "$err" "unrecognised input '.*other.db'" "other SQLite: not taken for an iOS database"

# A table whose page is damaged fails when read, not as an early end: the
# error names the file and the table.
zero_page() {   # db table
	pg=$(sqlite3 "$1" "SELECT rootpage FROM sqlite_master WHERE name = '$2'")
	size=$(sqlite3 "$1" "PRAGMA page_size")
	dd if=/dev/zero of="$1" bs="$size" seek=$((pg - 1)) count=1 conv=notrunc status=none
}
for tab in BTraceModel ThreadInfoModel CallStackTableModel CPUBatchSampleModel; do
	mkdb "$T/page.db" 3
	zero_page "$T/page.db" $tab
	fatal "damaged $tab page" "$T/page.db" "cannot read table '$tab' of '.*page.db' at row 0: database disk image is malformed"
done

# Recoverable oddities: skipped or repaired, and counted with where they are.
bad_utf8=$(printf 'w\377rker')
mkdb "$T/odd.db" 3 "create table if not exists CPUSampleModel(trace_id INTEGER,tid INTEGER,start_time INTEGER,start_cpu_time INTEGER,stack_id INTEGER,alloc_size INTEGER,alloc_count INTEGER);
insert into CPUSampleModel values(1,'main',1,1,3,0,0),(1,259,1099511627776,1,3,0,0),(1,259,-2147483548,1,3,0,0),(1,259,NULL,1,3,0,0);
insert into CPUBatchSampleModel(trace_id,tid,nodes) values(1,'x',X'$(u32s 100 50 3 1 10)'),(2,259,X'$(u32s 100 50 3 1 10)');
update ThreadInfoModel set name = CAST(X'$(printf %s "$bad_utf8" | od -An -tx1 | tr -d ' \n')' AS TEXT);
update BTraceModel set bundle_id = CAST(X'636fff6d' AS TEXT);
insert into ThreadInfoModel values(7,772,'other trace');
create table Extra(x);"
"$BIN" import -q "$T/odd.db" -o "$T/odd.out.db" 2>/dev/null
is "$?" 0 "oddities: import exits 0"
D=$T/odd.out.db
is "$(q "$D" "SELECT group_concat(code || '=' || count, ' ') FROM (SELECT * FROM diagnostics WHERE code NOT IN ('unpaired_lock_contention') ORDER BY code)")" \
	"bad_row_value=4 invalid_utf8=2 other_trace_rows=2 unknown_table=1" "oddities: each counted"
like "$(q "$D" "SELECT detail FROM diagnostics WHERE code = 'bad_row_value'")" \
	"'.*odd.db' table 'CPUSampleModel' row 0 column 'tid' is not a 32-bit integer; row skipped" "oddities: a bad value is named by table, row and column"
is "$(q "$D" "SELECT max(ts) FROM samples WHERE type = 101")" 21474837480000 \
	"oddities: a u32 stored as a negative int32 reads as the u32"
is "$(q "$D" "SELECT count(*) FROM samples WHERE type = 101")" 3 "oddities: bad rows skipped, the others kept"
is "$(q "$D" "SELECT name FROM threads WHERE tid = 771")" "w�rker" "oddities: a non-UTF-8 thread name is repaired"
is "$(q "$D" "SELECT value FROM meta WHERE key = 'process_name'")" "co�m" "oddities: a non-UTF-8 bundle id is repaired"
is "$(q "$D" "SELECT count(*) FROM threads WHERE tid = 772")" 0 "oddities: another trace's rows are left out"
like "$(q "$D" "SELECT detail FROM diagnostics WHERE code = 'unknown_table'")" "table 'Extra' in '.*odd.db' is not one of the spec's" \
	"oddities: an unknown table is named"

# A cycle in the call-stack trie: the error names the row and byte offset.
CYC=$(node 1 0 4294971392; node 5 6 4294971648; node 6 5 4294971904)
mkdb "$T/cycle.db" 3 "update CallStackTableModel set nodes = X'$CYC';
update CPUBatchSampleModel set nodes = X'$(u32s 100 50 5 1 10)';"
fatal "stack cycle" "$T/cycle.db" "call stack deeper than 4096 \(a cycle\?\) at node [56] in '.*cycle.db' table 'CallStackTableModel' row 0 at byte offset (16|32)"
