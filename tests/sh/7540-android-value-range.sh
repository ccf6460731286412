#!/bin/sh
# u64 fields at their edges (DESIGN §11): a dump whose times reach 2^62
# ns, or whose allocation counters reach 2^53, or whose header dump time or
# extra JSON startTime lies beyond 2^62 ns, imports with the record dropped
# (or the value left out) and counted as value_out_of_range; every output
# is made from it, exit 0, no negative span, and under `make asan`
# (UBSan) no overflow anywhere, nor in the built-in rules' sums. Values just inside the bounds are kept.
# The corpus comes from tests/fixtures/mutvalues.py.
. tests/lib.sh

"$MKDUMP" --records 300 --no-truth "$T/d" >/dev/null
python3 tests/fixtures/mutvalues.py "$T/d" "$T/m" --field ts --field end_ts --field cpu --field end_cpu \
	--value 2p62m1 --value 2p63 --value 2p64m1 >"$T/times"
python3 tests/fixtures/mutvalues.py "$T/d" "$T/m" --field alloc_objects --field alloc_bytes \
	--value 2p53m1 --value 2p53 --value 2p64m1 >"$T/counters"
python3 tests/fixtures/mutvalues.py "$T/d" "$T/m" --field time_ms --value 2p62 --value 2p64m1 >"$T/header"
python3 tests/fixtures/mutvalues.py "$T/d" "$T/m" --field start_time >"$T/start"

# every output of one input: exit 0, no sanitizer report, a sane span
outputs() {   # dir name: prints nothing, runs the checks
	i=$((i + 1))
	case $((i % 3)) in 0) rep=r.json ;; 1) rep=r.html ;; *) rep=r.xlsx ;; esac
	err=$("$BIN" "$1" -o "$1/$rep" --pprof "$1/p.pb.gz" --folded "$1/f.txt" --perfetto "$1/p.pb" 2>&1)
	is "$?" 0 "$2: $rep, pprof, folded and perfetto made, exit 0"
	unlike "$err" "runtime error|Sanitizer" "$2: no overflow"
	like "$("$BIN" -q "$1")" "^span +[0-9.]+ (ms|s|min)|^span +[0-9]+ (min|h) [0-9.]+ (s|min)$" "$2: the span is not negative"
	# sums over values inside the bounds must not overflow in the rules' SQL
	"$BIN" -q "$1" -o "$1/j.json"
	unlike "$(cat "$1/j.json")" '"severity": "error"' "$2: no rule failed (no SQL integer overflow)"
}
i=0

for d in $(cat "$T/times" "$T/counters"); do
	name=$(basename "$d")
	outputs "$d" "$name"
	n=$(q "$d" "SELECT coalesce(sum(count), 0) FROM diagnostics WHERE code = 'value_out_of_range'")
	case $name in
	*-2p62m1 | *-2p53m1) is "$n" 0 "$name: just inside the bound, kept" ;;
	*) is "$n" 43 "$name: the 43 records beyond the bound dropped and counted" ;;
	esac
done

for d in $(cat "$T/header" "$T/start"); do
	name=$(basename "$d")
	outputs "$d" "$name"
	case $name in
	*-2p53) is "$(q "$d" "SELECT count(*) FROM diagnostics WHERE code = 'value_out_of_range'")" 1 \
		"$name: beyond 2^62 ns once in ns, counted" ;;
	*) like "$("$BIN" -q "$d" 2>&1)" "value_out_of_range \\(1\\): .*(dump time|startTime) -?[0-9]+ ms" \
		"$name: counted and shown in the report" ;;
	esac
done

# the warning names the record, its offset, the field and the value
err=$("$BIN" import "$T/m/ts-2p63" -o "$T/x.db" 2>&1 >/dev/null)
like "$err" "warning: record 0 at offset [0-9]+ of '.*sampling.bin' has timestamp 9223372036854775808 \\(beyond 2\\^62\\); skipped \\[value_out_of_range, 43 times\\]" \
	"the warning names the record, offset, field and value"
is "$(q "$T/x.db" "SELECT count(*) FROM samples WHERE ts < 0 OR end_ts < 0 OR cpu_ns < 0")" 0 "no negative time stored"
