#!/bin/sh
# make bench: generate 200k- and 1M-record dumps with the test writer and
# import each RUNS times; print the median wall time, peak RSS and MB/s.
set -eu
B=${B:-build}
RUNS=${RUNS:-5}
BIN=$B/btrace-analyze
dir=$B/bench
mkdir -p "$dir"
for n in 200000 1000000; do
	[ -f "$dir/$n/sampling.bin" ] || "$B/tests/mkdump" --records $n --seed 42 --no-truth "$dir/$n" >/dev/null
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-10s %8s %10s %10s %12s %8s\n' records MB wall_s cpu_s peak_rss_MB MB/s
for n in 200000 1000000; do
	mb=$(du -m --apparent-size "$dir/$n/sampling.bin" | cut -f1)
	: >"$dir/times"
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -f "$dir/$n.db"
		/usr/bin/time -f '%e %M %U %S' -o "$dir/one" "$BIN" import -q "$dir/$n" -o "$dir/$n.db"
		cat "$dir/one" >>"$dir/times"
		i=$((i + 1))
	done
	wall=$(cut -d' ' -f1 "$dir/times" | median)
	rss=$(cut -d' ' -f2 "$dir/times" | median)
	cpu=$(awk '{ printf "%.2f\n", $3 + $4 }' "$dir/times" | median)
	printf '%-10s %8s %10s %10s %12s %8s\n' $n "$mb" "$wall" "$cpu" $((rss / 1024)) \
		"$(awk -v m="$mb" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? m / w : 0) }')"
done
rm -f "$dir"/*.db
