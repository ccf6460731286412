#!/bin/sh
# Seed a corpus for each importer fuzzer in $FUZZ_TARGETS (default:
# android ios perfetto json btrace2 art systrace fleet manifest) from generated inputs and run them
# one after the other, $FUZZ_SECONDS in all (split evenly); prints libFuzzer's final
# statistics and exits non-zero if a fuzzer found a crash or a leak. Target lua
# is no libFuzzer program: generated rule files try to escape the sandbox's
# budgets for $FUZZ_LUA_SECONDS (tests/fuzz/lua_escapes.py).
set -eu
B=${B:-build-fuzz}
targets=${FUZZ_TARGETS:-android ios perfetto json btrace2 art systrace fleet manifest lua}
ntargets=$(echo $targets | sed 's/\<lua\>//' | wc -w)   # lua: FUZZ_LUA_SECONDS of its own
seconds=$((${FUZZ_SECONDS:-600} / ntargets))
[ "$seconds" -gt 0 ] || seconds=1   # 0 would tell libFuzzer to run forever

pack() {   # sampling mapping out: the Android harness's one-input layout
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

seed_perfetto() {   # dir: small mkperfetto traces, every mkpfcase case and our own export
	i=0
	for opts in "--flavor btrace2" "--flavor btrace3" "--flavor btrace3 --gzip" \
		"--flavor btrace3 --no-annotations --threads 1" "--flavor btrace2 --threads 2 --blocks 4" \
		"--flavor device" "--flavor kinds" "--flavor btrace2 --threads 2 --blocks 2 --slices 600 --parks 6 --held"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		python3 tests/fixtures/mkperfetto.py "$1/corpus/seed$i" --seed "$i" --slices 30 --no-truth $opts
	done
	for form in full compact; do   # scheduler data (pf_sched.c, importers/sched.c); the truth beside it is not corpus
		python3 tests/fixtures/mkpfsched.py "$1/sched-$form.pb" --form $form --runs 12
		mv "$1/sched-$form.pb" "$1/corpus/sched-$form"
	done
	# and with other processes' load after it (pf_later.c: bundles read twice)
	python3 tests/fixtures/mkpfsched.py "$1/load.pb" --form compact --runs 4 --no-truth
	python3 tests/fixtures/mkpfload.py "$1/load.pb" --mb 0 --cpus 2-3 --per-bundle 16
	mv "$1/load.pb" "$1/corpus/sched-load"
	for c in $(python3 tests/fixtures/mkpfcase.py --list); do
		python3 tests/fixtures/mkpfcase.py "$c" "$1/corpus/case-$c"
	done
	# callstack samples and a frame timeline (pf_samples.c, pf_frametl.c); its truth is not corpus
	python3 tests/fixtures/mkpfsamples.py "$1/corpus/samples-frames" "$1/samples-truth"
	"$B/tests/mkdump" --records 30 --no-truth "$1/d" >/dev/null
	"$B/btrace-analyze" -q "$1/d" --perfetto "$1/corpus/export.pb"
	# real traces of every kind (Perfetto's parser tests, named tracks, a
	# Linux system trace), read where they are: never copied into the tree
	real=${BT_REAL_TRACES:-../shared/real-traces}
	[ -d "$real" ] || real=/work/shared/real-traces
	for f in "$real"/perfetto-difftest-textproto/*.pb "$real"/perfetto-nested-tracks/*.perfetto-trace \
		"$real"/systing-trace/trace.pb "$real"/perfetto-api32-startup-warm/*.perfetto-trace; do
		[ -f "$f" ] && cp "$f" "$1/corpus/real-$(basename "$f")"
	done
	return 0
}

pack_b2() {   # dir flags out: fuzz_btrace2's one-input layout (u32 length | flags, trace, mapping)
	n=$(($(wc -c <"$1/appTrace.bin") | $2))
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((n & 255)) $((n >> 8 & 255)) \
		$((n >> 16 & 255)) $((n >> 24 & 255)))" >"$3"
	cat "$1/appTrace.bin" >>"$3"
	[ -f "$1/methodMapping.txt" ] && cat "$1/methodMapping.txt" >>"$3"
	return 0
}

seed_btrace2() {   # dir: small mkbtrace2 traces (scratch and kept) and every mkb2case case
	i=0
	for opts in "--threads 1" "--threads 3 --session2 --early --stale 2 --unfinished 1 --pad 2" \
		"--threads 2 --clock same --pid 40000" "--threads 4 --unmapped 3"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		python3 tests/fixtures/mkbtrace2.py "$1/seed$i" --seed "$i" --slices 60 --methods 12 --no-truth $opts
		pack_b2 "$1/seed$i" 0 "$1/corpus/seed$i"
		pack_b2 "$1/seed$i" $((1 << 30)) "$1/corpus/seed$i-kept"
	done
	for c in $(python3 tests/fixtures/mkb2case.py --list); do
		python3 tests/fixtures/mkb2case.py "$c" "$1/case-$c"
		pack_b2 "$1/case-$c" 0 "$1/corpus/case-$c"
	done
}

seed_art() {   # dir: small mkart traces of every variant and every mkartcase case
	i=0
	for v in $(python3 tests/fixtures/mkart.py --list); do
		i=$((i + 1))
		python3 tests/fixtures/mkart.py "$1/corpus/seed-$v" --variant "$v" --seed "$i" --threads 2 --calls 25 \
			--no-truth >/dev/null
	done
	python3 tests/fixtures/mkart.py "$1/corpus/seed-chained" --variant v2s5-dual --chained --threads 2 --calls 25 --no-truth >/dev/null
	python3 tests/fixtures/mkart.py "$1/corpus/seed-sampled" --variant v3-dual --sampled --threads 2 --calls 25 --no-truth >/dev/null
	for c in $(python3 tests/fixtures/mkartcase.py --list); do
		python3 tests/fixtures/mkartcase.py "$c" "$1/corpus/case-$c"
	done
}

seed_systrace() {   # dir: small mksystrace traces of every container
	i=0
	for opts in "--tgid" "--legacy --marker-event 0" "--container gzip --waking" "--container zlib --chunks 3" \
		"--container html --tgid" "--container html-old" "--container js" "--no-sched --ns" "--cut 3000"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		python3 tests/fixtures/mksystrace.py "$1/corpus/seed$i" --seed "$i" --frames 2 --workers 1 --cpus 2 \
			--no-truth $opts
	done
	# a binder call and its reply, with the scheduler's switches around them
	{
		printf '# tracer: nop\n'
		printf '%16s-%-5d (%5d) [000] .... 1.000001: binder_transaction: transaction=1 dest_node=1 dest_proc=20 dest_thread=0 reply=0 flags=0x10 code=0x1\n' c 10 10
		printf '%16s-%-5d (%5d) [000] .... 1.000001: sched_switch: prev_comm=c prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=s next_pid=21 next_prio=120\n' c 10 10
		printf '%16s-%-5d (%5d) [000] .... 1.000002: binder_transaction_received: transaction=1\n' s 21 20
		printf '%16s-%-5d (%5d) [000] .... 1.000009: binder_transaction: transaction=2 dest_node=0 dest_proc=10 dest_thread=10 reply=1 flags=0x0 code=0x0\n' s 21 20
		printf '%16s-%-5d (%5d) [000] .... 1.000009: sched_switch: prev_comm=s prev_pid=21 prev_prio=120 prev_state=S ==> next_comm=c next_pid=10 next_prio=120\n' s 21 20
		printf '%16s-%-5d (%5d) [000] .... 1.000010: binder_transaction_received: transaction=2\n' c 10 10
	} >"$1/corpus/binder"
}

seed_fleet() {   # dir: a report, its summary alone, fleets of them (grouped, and folded past a limit)
	"$B/tests/mkdump" --records 3000 --startup cold --no-truth "$1/d" >/dev/null
	"$B/btrace-analyze" -q "$1/d" -o "$1/corpus/report.json"
	python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["summary"], open(sys.argv[2], "w"))' \
		"$1/corpus/report.json" "$1/corpus/summary.json"
	"$B/btrace-analyze" merge -q "$1/corpus/report.json" -o "$1/corpus/fleet.json"
	"$B/btrace-analyze" merge -q --group v=a "$1/corpus/report.json" --group v=b "$1/corpus/fleet.json" \
		-o "$1/corpus/grouped.json"
}
seed_manifest() {   # dir: a real batch's manifest, one cut by a kill, one resumed after the cut
	"$B/tests/mkdump" --records 200 --no-truth "$1/in/a" >/dev/null
	"$B/tests/mkdump" --records 300 --seed 2 --no-truth "$1/in/b" >/dev/null
	printf 'not a trace\n' >"$1/in/notes.txt"
	"$B/btrace-analyze" batch -q "$1/in" -o "$1/out" >/dev/null 2>&1 || true
	cp "$1/out/manifest.jsonl" "$1/corpus/manifest"
	head -c 150 "$1/out/manifest.jsonl" >"$1/corpus/cut"
	{ head -c 150 "$1/out/manifest.jsonl"; printf '\n'; cat "$1/out/manifest.jsonl"; } >"$1/corpus/resumed"
}
seed_json() {   # dir: the example's JSON report, a bigger run's, and edge cases
	"$B/btrace-analyze" -q examples/sampling.bin -o "$1/corpus/example.json"
	"$B/tests/mkdump" --records 200 --no-truth "$1/d" >/dev/null
	"$B/btrace-analyze" -q "$1/d" -o "$1/corpus/dump.json"
	printf '{"schema":"btrace-analyze/report@1","metrics":{"a":1,"b":null,"c":-2.5e3,"d":"x"}}' \
		>"$1/corpus/edges.json"
	printf '{"schema":"btrace-analyze/report@1","x":[1,[2,{"y":"\\u00e9\\ud83d\\ude00"}],true,false,null],"metrics":{}}' \
		>"$1/corpus/nested.json"
}

status=0
for t in $targets; do
	dir=$B/fuzz/$t
	if [ "$t" = lua ]; then
		mkdir -p "$dir"
		"$B/tests/mkdump" --records 3000 --no-truth "$dir/d" >/dev/null
		echo "# lua escapes: ${FUZZ_LUA_SECONDS:-600}s"
		python3 tests/fuzz/lua_escapes.py "$B/btrace-analyze" "$dir/d" "${FUZZ_LUA_SECONDS:-600}" --slow 5 \
			--keep "$dir/escapes" || { echo "lua escapes: kept in $dir/escapes"; status=1; }
		continue
	fi
	mkdir -p "$dir/corpus" "$dir/artifacts"
	"seed_$t" "$dir"
	case $t in ios) max=32768 ;; json | fleet) max=131072 ;; *) max=16384 ;; esac
	echo "# fuzz_$t: ${seconds}s"
	rc=0
	"$B/fuzz_$t" -max_total_time="$seconds" -max_len="$max" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$dir/artifacts/" -print_final_stats=1 "$dir/corpus" >"$dir/log" 2>&1 || rc=$?
	tail -n 25 "$dir/log"
	[ "$rc" -eq 0 ] || { echo "fuzz_$t: exit $rc (log: $dir/log)"; status=1; }
done
exit $status
