#!/bin/sh
# run.sh [android] [ios]: seed a corpus for each importer fuzzer (Android
# dumps from mkdump, iOS databases from mkios.py turned into the harness's
# input by ios_seed.py) and run it for $FUZZ_SECONDS seconds; prints
# libFuzzer's final statistics. Crashes land in $B/fuzz/<target>/artifacts.
set -eu
B=${B:-build-fuzz}
pack() {   # sampling mapping out
	n=$(wc -c <"$1")
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((n & 255)) $((n >> 8 & 255)) \
		$((n >> 16 & 255)) $((n >> 24 & 255)))" >"$3"
	cat "$1" "$2" >>"$3"
}
seed_android() {   # dir
	i=0
	for opts in "--example" "--records 40" "--records 30 --version 3" "--records 30 --version 4" \
		"--records 30 --trace-arg 3 --flush 2" "--records 20 --bad-depth 2 --zero-depth 1"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		"$B/tests/mkdump" $opts --no-truth "$1/seed$i" >/dev/null
		pack "$1/seed$i/sampling.bin" "$1/seed$i/sampling-mapping.bin" "$1/corpus/seed$i"
	done
}
seed_ios() {   # dir
	i=0
	for opts in "--version 1" "--version 2 --storage row" "--version 3" "--version 3 --storage batch" \
		"--version 4" "--version 4 --storage row" "--version 1 --legacy-meta --unknown-stack 2"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		python3 tests/fixtures/mkios.py "$1/seed$i" $opts --seed $i --samples 30 --threads 1 --locks 2 \
			--dispatch 2 --mem 3 --date 2 --async 1 >/dev/null
		python3 tests/fuzz/ios_seed.py "$1/seed$i/trace.db" "$1/seed$i/symbols.txt" "$1/corpus/seed$i"
	done
}
[ $# -gt 0 ] || set -- android
for t in "$@"; do
	dir=$B/fuzz/$t
	mkdir -p "$dir/corpus" "$dir/artifacts"
	"seed_$t" "$dir"
	case $t in android) max=16384 ;; *) max=32768 ;; esac
	echo "# fuzz_$t for ${FUZZ_SECONDS:-600} s"
	"$B/fuzz_$t" -max_total_time="${FUZZ_SECONDS:-600}" -max_len=$max -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/" -print_final_stats=1 "$dir/corpus" \
		2>&1 | tail -n 25
done
