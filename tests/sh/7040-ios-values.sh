#!/bin/sh
# iOS columns at the int64 edges (DESIGN §11): sample columns beyond 32
# bits (start_cpu_time 2^32, alloc_size 2^40, alloc_count -2^63, stack_id
# 2^63 - 1) skip their row as bad_row_value; time-series counters of 1e300,
# 2^53 or -1e20 (beyond pipeline.h's 2^53) or at timestamps +-2^63 us are
# skipped as bad_time_series; every output is then made, exit 0, without
# overflow under `make asan`; a BTraceModel end_time of 2^63 - 1 us is an
# error naming the column. The database comes from tests/fixtures/mkios.py.
. tests/lib.sh

python3 tests/fixtures/mkios.py "$T/ios" --threads 3 --samples 200 --no-truth --storage row >/dev/null
db=$T/ios/trace.db
nth() {   # type k: rowid of the k-th (0-based) time-series row of type
	echo "(SELECT rowid FROM TimeSeriesModel WHERE type = '$1' ORDER BY rowid LIMIT 1 OFFSET $2)"
}
sqlite3 "$db" "
UPDATE TimeSeriesModel SET info = '{\"val\": 1e300, \"perfetto_type\": \"counter\"}' WHERE rowid = $(nth cpu_usage 0);
UPDATE TimeSeriesModel SET info = '{\"val\": 9007199254740992, \"perfetto_type\": \"counter\"}' WHERE rowid = $(nth mem_usage 0);
UPDATE TimeSeriesModel SET info = '{\"val\": -1e20, \"perfetto_type\": \"counter\"}' WHERE rowid = $(nth mem_usage 1);
UPDATE TimeSeriesModel SET info = '{\"val\": 9007199254740991, \"perfetto_type\": \"counter\"}' WHERE rowid = $(nth mem_usage 2);
UPDATE TimeSeriesModel SET timestamp = 9223372036854775807 WHERE rowid = $(nth cpu_usage 1);
UPDATE TimeSeriesModel SET timestamp = -9223372036854775808 WHERE rowid = $(nth cpu_usage 2);
UPDATE CPUSampleModel SET start_time = 4294967295 WHERE rowid = 3;
UPDATE CPUSampleModel SET start_cpu_time = 4294967296 WHERE rowid = 5;
UPDATE CPUSampleModel SET alloc_size = 1099511627776 WHERE rowid = 7;
UPDATE CPUSampleModel SET alloc_count = -9223372036854775808 WHERE rowid = 9;
UPDATE CPUSampleModel SET stack_id = 9223372036854775807 WHERE rowid = 11;"

err=$("$BIN" import "$db" -o "$T/i.db" 2>&1 >/dev/null)
is "$?" 0 "edge values: import exits 0"
is "$(q "$T/i.db" "SELECT group_concat(code || '=' || count, ' ') FROM (SELECT code, count FROM diagnostics ORDER BY code)")" \
	"bad_row_value=4 bad_time_series=5 empty_stack=2" "4 sample rows and 5 counters skipped, counted"
like "$err" "counter 'mem_usage' value is beyond 2\\^53; skipped|\\[bad_time_series, 5 times\\]" "the warning says why"
is "$(q "$T/i.db" "SELECT count(*) FROM counters WHERE value = 9007199254740991")" 1 "a counter of 2^53 - 1 kept"
like "$("$BIN" -q "$T/i.db")" "bad_time_series \\(5\\): " "the report shows the diagnostic"
for rep in r.json r.html r.xlsx; do
	err=$("$BIN" "$db" -o "$T/$rep" --pprof "$T/p.pb.gz" --folded "$T/f.txt" --perfetto "$T/p.pb" 2>&1)
	is "$?" 0 "edge values: $rep and every export made"
	unlike "$err" "runtime error|Sanitizer" "edge values: $rep without overflow"
done

sqlite3 "$db" "UPDATE BTraceModel SET end_time = 9223372036854775807"
err=$("$BIN" import "$db" -o "$T/e.db" 2>&1 >/dev/null)
is "$?" 1 "end_time 2^63 - 1: exit 1"
like "$err" "^btrace-analyze: error: bad end_time 9223372036854775807 in '.*trace.db' table 'BTraceModel'" \
	"end_time 2^63 - 1: the message names the file, table and column"
