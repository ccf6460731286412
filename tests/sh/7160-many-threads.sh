#!/bin/sh
# Memory per thread follows what the thread has (DESIGN §11): an iOS
# database and a Perfetto trace with thousands of small threads import
# with a peak RSS growing by a bounded amount per thread, measured as the
# slope between N and 2N threads (/usr/bin/time -v). An iOS thread of two
# samples and ~14 call paths takes ~3.5 KB (its paths in the call tree at
# ~160 B each, rows of methods and callers only while it is stored):
# bound 5 KB (it was 7.4 KB when every thread's method rows stayed in
# memory to the end). A Perfetto thread with one slice takes ~1 KB (its
# track, name, map slots and call path): bound 2 KB.
. tests/lib.sh

# ---- iOS: a small database, then N more threads of two CPU samples each
python3 tests/fixtures/mkios.py "$T/ios" --threads 3 --samples 300 --locks 0 --dispatch 0 --mem 0 \
	--date 0 --async 0 --no-truth --storage row >/dev/null
ios_threads() {   # n: the database with n more threads, its path printed
	cp "$T/ios/trace.db" "$T/ios$1.db"
	sqlite3 "$T/ios$1.db" "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $1)
		INSERT INTO CPUSampleModel SELECT s.trace_id, 100000 + c.n, s.start_time + c.n % 1000,
		s.start_cpu_time, s.stack_id, s.alloc_size, s.alloc_count FROM c,
		(SELECT * FROM CPUSampleModel WHERE rowid IN (SELECT rowid FROM CPUSampleModel LIMIT 2)) s;
		WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < $1)
		INSERT INTO ThreadInfoModel SELECT 1, 100000 + n, 'worker-' || n FROM c;"
	echo "$T/ios$1.db"
}
a=$(peak "$BIN" import -q "$(ios_threads 8000)" -o "$T/a.db")
b=$(peak "$BIN" import -q "$(ios_threads 16000)" -o "$T/b.db")
is "$(q "$T/b.db" "SELECT count(*) >= 16000 FROM threads")" 1 "iOS: 16k threads imported"
per=$(((b - a) * 1024 / 8000))
rss_bound "$per" 5120 "iOS: under 5 KB per thread ($per bytes)"

# ---- Perfetto: N threads with a track and one slice each
pf_threads() {   # n: the trace, its path printed
	python3 -c 'import sys; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
n = int(sys.argv[2]); out = [m.process_track(1, 300, "com.example.z")]
for i in range(n):
    out.append(m.thread_track(100 + i, 300, 1000 + i, "w%d" % i))
    out.append(m.slice_pair(100 + i, "f%d" % (i % 50), 1000 + i, 2000 + i))
open(sys.argv[1], "wb").write(b"".join(out))' "$T/pf$1.pb" "$1"
	echo "$T/pf$1.pb"
}
a=$(peak "$BIN" import -q "$(pf_threads 20000)" -o "$T/pa.db")
b=$(peak "$BIN" import -q "$(pf_threads 40000)" -o "$T/pb.db")
is "$(q "$T/pb.db" "SELECT count(*) FROM threads")" 40000 "Perfetto: 40k threads imported"
per=$(((b - a) * 1024 / 20000))
rss_bound "$per" 2048 "Perfetto: under 2 KB per thread ($per bytes)"
