#!/bin/sh
# Seed a corpus from generated dumps and run the importer fuzzer for
# $FUZZ_SECONDS seconds; prints libFuzzer's final statistics.
set -eu
B=${B:-build-fuzz}
dir=$B/fuzz
mkdir -p "$dir/corpus" "$dir/artifacts"
pack() {   # sampling mapping out
	n=$(wc -c <"$1")
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((n & 255)) $((n >> 8 & 255)) \
		$((n >> 16 & 255)) $((n >> 24 & 255)))" >"$3"
	cat "$1" "$2" >>"$3"
}
i=0
for opts in "--example" "--records 40" "--records 30 --version 3" "--records 30 --version 4" \
	"--records 30 --trace-arg 3 --flush 2" "--records 20 --bad-depth 2 --zero-depth 1"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	"$B/tests/mkdump" $opts --no-truth "$dir/seed$i" >/dev/null
	pack "$dir/seed$i/sampling.bin" "$dir/seed$i/sampling-mapping.bin" "$dir/corpus/seed$i"
done
build-fuzz/fuzz_android -max_total_time="${FUZZ_SECONDS:-600}" -max_len=16384 -timeout=10 \
	-rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "$dir/corpus" \
	2>&1 | tail -n 25
