#!/bin/sh
# Options that depend on the input's format (issue 38 item 1): each
# importer declares what its format brings (struct bt_importer's brings,
# engine/recon/pipeline.h), and bt_cmd_load refuses an option that needs
# what the format lacks, before anything is read: exit 2, the message
# naming what it lacks and which formats take the option, no output left.
# The matrix below is every format against every such option, so a flag
# set wrong in one importer's descriptor, or a refusal lost, fails here.
. tests/lib.sh

ex=$FIX/example
python3 tests/fixtures/mkios.py "$T/ios" --seed 2 >/dev/null
python3 tests/fixtures/mkperfetto.py "$T/t.pb" --flavor btrace3 --seed 1 --slices 400 --no-truth >/dev/null
python3 tests/fixtures/mksystrace.py "$T/st.txt" --seed 1 --frames 3 --no-truth >/dev/null
python3 tests/fixtures/mkart.py "$T/m.trace" --seed 3 --no-truth >/dev/null
python3 tests/fixtures/mkbtrace2.py "$T/b2" --seed 3 --no-truth >/dev/null
map=$ROOT/examples/sampling-mapping.bin
pg=$ROOT/examples/retrace-mapping.txt
sym=$T/ios/symbols.txt

# run NAME INPUT OPTION...: analyze into $T/out/NAME.*, its exit status and
# stderr kept.
run() {
	name=$1 in=$2
	shift 2
	mkdir -p "$T/out"
	"$BIN" -q "$in" "$@" -o "$T/out/$name.json" --db "$T/out/$name.db" --folded "$T/out/$name.txt" \
		>/dev/null 2>"$T/out/$name.err"
	echo $? >"$T/out/$name.rc"
}

# One line per format: its input, its name in the messages, then for each
# option (--slice-policy --process --mapping --retrace --symbols
# --folded-metric cpu) R if refused, A if it applies.
while read -r fmt in noun want; do
	set -- $want
	for opt in slice process mapping retrace symbols cpu; do
		exp=$1
		shift
		case $opt in
		slice) args="--slice-policy midpoint" ;;
		process) args="--process com.nope" ;;
		mapping) args="--mapping $map" ;;
		retrace) args="--retrace $pg" ;;
		symbols) args="--symbols $sym" ;;
		cpu) args="--folded-metric cpu" ;;
		esac
		# shellcheck disable=SC2086
		run "$fmt-$opt" "$(eval echo "$in")" $args
		err=$(head -1 "$T/out/$fmt-$opt.err")
		rc=$(cat "$T/out/$fmt-$opt.rc")
		if [ "$exp" = R ]; then
			is "$rc" 2 "$fmt: ${args%% *} refused: exit 2"
			like "$err" "^btrace-analyze: error: ${args%% *}( cpu)? does not apply to '[^']*': $(echo "$noun" | tr _ ' ') " \
				"... naming what the format lacks"
			check "... and nothing written" sh -c "! ls '$T/out/$fmt-$opt'.json '$T/out/$fmt-$opt'.db '$T/out/$fmt-$opt'.txt"
		else
			unlike "$err" "does not apply" "$fmt: ${args%% *} applies"
		fi
	done
	run "$fmt-plain" "$(eval echo "$in")"
	is "$(cat "$T/out/$fmt-plain.rc")" 0 "$fmt: without those options, it loads"
done <<EOF
android \$ex a_btrace_3.0_sampling_dump    A R A A R A
ios     \$T/ios/trace.db an_iOS_database   A R R R A A
perfetto \$T/t.pb a_Perfetto_trace         R A R R R A
systrace \$T/st.txt a_systrace             R A R R R A
art     \$T/m.trace an_ART_method_trace    R R R R R A
btrace2 \$T/b2 a_btrace_2.0_trace          R R A R R R
EOF

# The messages in full: what the format lacks, and the formats that take it.
is "$(head -1 "$T/out/art-process.err")" \
	"btrace-analyze: error: --process does not apply to '$T/m.trace': an ART method trace holds one process (only a systrace or a Perfetto trace holds several)" \
	"--process: the formats with several processes"
is "$(head -1 "$T/out/systrace-slice.err")" \
	"btrace-analyze: error: --slice-policy does not apply to '$T/st.txt': a systrace brings its own slices, taken as it gives them (only a btrace 3.0 sampling dump or an iOS database is sliced from samples)" \
	"--slice-policy: the formats sliced from samples"
is "$(head -1 "$T/out/perfetto-mapping.err")" \
	"btrace-analyze: error: --mapping does not apply to '$T/t.pb': a Perfetto trace names its methods itself (only a btrace 3.0 sampling dump or a btrace 2.0 trace reads a mapping)" \
	"--mapping: the formats with a mapping"
is "$(head -1 "$T/out/ios-retrace.err")" \
	"btrace-analyze: error: --retrace does not apply to '$T/ios/trace.db': an iOS database is not de-obfuscated here (only a btrace 3.0 sampling dump is)" \
	"--retrace: the format de-obfuscated"
is "$(head -1 "$T/out/android-symbols.err")" \
	"btrace-analyze: error: --symbols does not apply to '$ex': a btrace 3.0 sampling dump names its frames itself (only an iOS database has addresses to name)" \
	"--symbols: the format with addresses"
is "$(head -1 "$T/out/btrace2-cpu.err")" \
	"btrace-analyze: error: --folded-metric cpu does not apply to '$T/b2': a btrace 2.0 trace gives no CPU time (--folded-metric wall or alloc can)" \
	"--folded-metric cpu: a format with wall time only"
"$BIN" -q "$T/b2" --folded "$T/b2off.txt" --folded-metric offcpu -o /dev/null 2>/dev/null
is "$?" 2 "--folded-metric offcpu on a btrace 2.0 trace: refused too"
"$BIN" -q "$T/b2" --folded-metric cpu -o /dev/null 2>/dev/null
is "$?" 0 "--folded-metric cpu without --folded: nothing to refuse"

# Where an option applies, it still does what it did.
is "$(q "$T/out/android-slice.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" midpoint \
	"a dump takes --slice-policy"
is "$(q "$T/out/ios-slice.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" midpoint \
	"an iOS database takes --slice-policy"
is "$(q "$T/out/ios-symbols.db" "SELECT value FROM meta WHERE key = 'symbols'")" "$sym" \
	"an iOS database takes --symbols"
is "$(q "$T/out/android-retrace.db" "SELECT value FROM meta WHERE key = 'retrace'")" "$pg" \
	"a dump takes --retrace"
like "$(head -1 "$T/out/perfetto-process.err")" "no process 'com.nope'" "a Perfetto trace takes --process (and names its candidates)"
is "$(cat "$T/out/art-cpu.rc")" 0 "an ART method trace with both clocks writes cpu stacks"

# Every format's own slices, reconstructed or given: a dump's and an iOS
# database's by the policy, the others' as imported (BT_BRINGS_SLICES).
for f in android:idle ios:idle perfetto:imported systrace:imported art:imported btrace2:imported; do
	is "$(q "$T/out/${f%%:*}-plain.db" "SELECT value FROM meta WHERE key = 'slice_policy'")" "${f#*:}" \
		"${f%%:*}: slices ${f#*:}"
done

# A dump's waits are linked to its waker records by the pipeline
# (BT_BRINGS_WAKERS); a dump's idle time uses its capture throttle.
"$BIN" import -q "$FIX/small" -o "$T/small.db"
check "a dump's main-thread waits are linked to their wakers" \
	test "$(q "$T/small.db" "SELECT count(*) FROM blocking_edges WHERE waker_sample_id IS NOT NULL")" -gt 0

# A trace database keeps what it was imported with: every such option is refused.
for o in "--slice-policy midpoint" "--process x" "--mapping $map" "--retrace $pg" "--symbols $sym"; do
	# shellcheck disable=SC2086
	"$BIN" -q "$T/small.db" $o -o "$T/db.json" 2>"$T/db.err"
	is "$?" 2 "${o%% *} with a trace database: exit 2"
	like "$(head -1 "$T/db.err")" "^btrace-analyze: error: ${o%% *} does not apply to '.*small.db': a trace database keeps the (slices|process|names) it was imported with" \
		"... saying it keeps what it was imported with"
	check "... and no report" test ! -e "$T/db.json"
done
