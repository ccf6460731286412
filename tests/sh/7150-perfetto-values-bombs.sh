#!/bin/sh
# Perfetto values and bombs (DESIGN §11): times at 2^62 ns and beyond and
# counters at 2^53 and beyond are skipped and counted, and every output is
# made (exit 0, no overflow under UBSan); field number 0 (zero bytes after
# a valid start) is an error with the offset; a gzip'd trace inflating
# past 4 GiB stops at the cap; a flood of empty packets (gzip'd, or inside
# compressed_packets) stops after 2^20 of them, in well under a second.
. tests/lib.sh

rows() {   # db sql: rows as 'a|b|c' lines joined by spaces
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d | tr '\t' '|' | tr '\n' ' ' | sed 's/ $//'
}

# fatal NAME FILE PATTERN: exit 1, the message, no database
fatal() {
	err=$("$BIN" import "$2" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$1: exit 1"
	like "$err" "^btrace-analyze: error: $3" "$1: message names the file and the byte offset"
	is "$(ls "$T" | grep -c '^out\.')" 0 "$1: no partial database"
}

# ---- values at the edges
python3 tests/fixtures/mkpfcase.py huge-times "$T/ht.pb"
err=$("$BIN" import "$T/ht.pb" -o "$T/ht.db" 2>&1 >/dev/null)
is "$?" 0 "huge times: exit 0"
is "$(rows "$T/ht.db" "SELECT code, count FROM diagnostics ORDER BY code")" \
	"perfetto_bad_timestamp|1 perfetto_counter_range|5 perfetto_event_time|6" \
	"huge times: 6 track events past 2^62 ns, an ftrace print, 5 counter values counted"
like "$err" "warning: a counter value of '.*ht.pb' at byte offset [0-9]+ is not a number below 2\\^53; skipped" \
	"huge times: the counter warning names the offset"
is "$(rows "$T/ht.db" "SELECT ts, dur FROM slices") $(rows "$T/ht.db" "SELECT ts, value FROM counters")" \
	"1000|4611686018427386903 2000|5" "huge times: the slice ending at 2^62 - 1 and the counter 5 kept"
for rep in r.json r.html r.xlsx r.txt; do
	err=$("$BIN" "$T/ht.pb" -o "$T/$rep" --pprof "$T/p.pb.gz" --folded "$T/f.txt" --perfetto "$T/p.pb" 2>&1)
	is "$?" 0 "huge times: $rep and every export made"
	unlike "$err" "runtime error|Sanitizer" "huge times: $rep without overflow"
done

# ---- invalid protobuf: field number 0
python3 -c 'import sys, gzip; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
h = m.head(); open(sys.argv[1] + ".n", "w").write(str(len(h)))
with gzip.open(sys.argv[1], "wb") as f:
    f.write(h + bytes(1 << 24))' "$T/zeros.pb.gz"
fatal "zero bytes after the head" "$T/zeros.pb.gz" \
	"not a Perfetto trace: field number 0 at byte offset $(cat "$T/zeros.pb.gz.n") of '.*zeros.pb.gz'"
python3 -c 'import sys, zlib; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
open(sys.argv[1], "wb").write(m.head() + m.packet(m.fb(50, zlib.compress(bytes(64)))))' "$T/zc.pb"
fatal "zero bytes in compressed_packets" "$T/zc.pb" \
	"corrupt compressed_packets in '.*zc.pb' at byte offset [0-9]+ \\(field number 0 at inflated byte 0\\)"

# ---- bombs
# a gzip'd trace whose one unknown field runs past 4 GiB: the head, then
# 257 gzip members of 16 MiB of zeros each (gzread reads on across members)
python3 -c 'import sys, gzip; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
n = 257 << 24
z = gzip.compress(bytes(1 << 24), 9)
with open(sys.argv[1], "wb") as f:
    f.write(gzip.compress(m.head() + m.varint(2 << 3 | 2) + m.varint(n)))
    for _ in range(257):
        f.write(z)' "$T/big.pb.gz"
fatal "4 GiB inflated" "$T/big.pb.gz" "gzip'd '.*big.pb.gz' inflates to more than 4294967296 bytes \\(the cap\\) at byte offset [0-9]+"

python3 -c 'import sys, gzip; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
with gzip.open(sys.argv[1], "wb", 9) as f:
    f.write(m.head())
    for _ in range(64):
        f.write(b"\x0a\x00" * (1 << 20))' "$T/empty.pb.gz"
start=$(date +%s)
fatal "64M empty packets" "$T/empty.pb.gz" \
	"over 1048576 empty packets in '.*empty.pb.gz' \\(the last at byte offset [0-9]+\\): not a trace a writer makes"
is "$(($(date +%s) - start < 10))" 1 "64M empty packets: stopped within seconds"

python3 -c 'import sys, zlib; sys.path.insert(0, "tests/fixtures"); import mkpfcase as m
z = m.packet(m.fb(50, zlib.compress(b"\x0a\x00" * (1 << 19), 9)))
open(sys.argv[1], "wb").write(m.head() + z * 3)' "$T/cempty.pb"
fatal "empty packets in compressed_packets" "$T/cempty.pb" "over 1048576 empty packets in '.*cempty.pb'"
