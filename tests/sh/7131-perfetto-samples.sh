#!/bin/sh
# Callstack samples (perf_sample, StreamingProfilePacket) into slices and
# the flame graph, and the frame timeline into display_frames.
# mkpfsamples.py writes both with a known truth: the --folded output and
# the display_frames rows match it exactly. systing's real Linux trace:
# check_pf_samples.py reads its perf_samples and interned callstacks on
# its own and agrees on the count, the interval, every thread's time and
# the self time of every call path. nowinandroid's frame timeline is
# imported and counted. Cut and garbled sample and frame packets are
# errors naming the offset, or salvaged, never a crash.
. tests/lib.sh
python3 tests/fixtures/mkpfsamples.py "$T/s.pb" "$T/truth"
"$BIN" -q "$T/s.pb" --folded "$T/f.txt" -o "$T/r.txt"
is "$?" 0 "the written trace: analyses"
is "$(sort "$T/f.txt")" "$(cat "$T/truth/folded.txt")" "the folded stacks are the truth's exactly"
"$BIN" import -q "$T/s.pb" -o "$T/s.db"
is "$?" 0 "the written trace: imports"
is "$("$BIN" query "$T/s.db" "SELECT kind, ts, dur, pid, token, display_frame_token, layer_name, present_type,
	on_time_finish, gpu_composition, jank_type, jank, prediction_type, is_buffer
	FROM display_frames ORDER BY ts, kind" --format tsv | tail -n +2 | tr '\t' '|')" \
	"$(cat "$T/truth/frames.tsv")" "display_frames holds the truth's rows exactly"
is "$("$BIN" query "$T/s.db" "SELECT code || ' ' || count FROM diagnostics WHERE code LIKE 'perfetto_sample%' OR code LIKE 'perfetto_frame%' ORDER BY code" --format tsv | tail -n +2 | tr '\n' ' ')" \
	"perfetto_frame_timeline 6 perfetto_frame_unended 1 perfetto_frame_unmatched_end 1 perfetto_sample_no_stack 1 perfetto_sample_no_thread 1 perfetto_samples 19 " \
	"diagnostics: samples, frames, and what was not imported of them"
like "$(cat "$T/r.txt")" "perfetto_samples \(19\)" "the report counts the samples"

# systing: every perf_sample's callstack, checked against our own reading
sys=$REAL/systing-trace/trace.pb
"$BIN" import -q "$sys" -o "$T/sys.db"
is "$?" 0 "systing: imports"
python3 tests/fixtures/check_pf_samples.py "$sys" "$T/sys.db" --min-samples 5 --top 2 | sed 's/^\(ok\|not ok\) - /&systing: /'
"$BIN" -q "$sys" --folded "$T/sys.txt" >/dev/null
is "$?" 0 "systing: the flame graph is written"
like "$(cat "$T/sys.txt")" "^rcu_preempt;ret_from_fork_asm [^;]*;ret_from_fork [^;]*;kthread [^;]*;rcu_gp_kthread" \
	"systing: its sampled kernel functions, outermost first"

# nowinandroid: its frame timeline, counted on our own
now=$REAL/nowinandroid-trace/trace.perfetto-trace
"$BIN" import -q "$now" -o "$T/now.db"
is "$("$BIN" query "$T/now.db" "SELECT kind || ' ' || COUNT(*) || ' ' || COUNT(dur) FROM display_frames GROUP BY kind ORDER BY kind" --format tsv | tail -n +2 | tr '\n' ' ')" \
	"actual_display 801 801 actual_surface 1068 1067 expected_display 801 801 expected_surface 1068 1068 " \
	"nowinandroid: every frame of its timeline, one surface frame never ended"
is "$(python3 - "$now" <<'PY'
import collections, sys
sys.path.insert(0, "tests/fixtures")
from check_pf_kinds import fields, msg, one
c = collections.Counter()
for f, _, pk in fields(open(sys.argv[1], "rb").read()):
    p = msg(pk)
    if f == 1 and 76 in p:
        for k in msg(one(p, 76)):
            c[k] += 1
print(" ".join("%d:%d" % kv for kv in sorted(c.items())))
PY
)" "1:801 2:801 3:1068 4:1068 5:3737" "nowinandroid: the counts as read on our own (starts by kind, ends)"
is "$("$BIN" query "$T/now.db" "SELECT COUNT(*) FROM display_frames WHERE jank_type > 1" --format tsv | tail -1)" 64 \
	"nowinandroid: 64 janky surface frames"

# hostile: every cut of the written trace imports or fails with an offset
n=$(wc -c <"$T/s.pb")
bad=0
for cut in $(seq 7 37 "$n"); do
	head -c "$cut" "$T/s.pb" >"$T/cut.pb"
	"$BIN" import -q "$T/cut.pb" -o "$T/cut.db" 2>"$T/cut.err"
	rc=$?
	if [ $rc -gt 1 ] || { [ $rc -eq 1 ] && ! grep -q "offset" "$T/cut.err"; }; then
		bad=$((bad + 1))
		echo "# cut at $cut: rc $rc: $(cat "$T/cut.err")"
	fi
done
is "$bad" 0 "cuts of the written trace: imported or an error naming the offset"
python3 - "$T/s.pb" "$T/garbled.pb" <<'PY'
import random, sys
b = bytearray(open(sys.argv[1], "rb").read())
r = random.Random(7)
for _ in range(40):
    b[r.randrange(len(b))] = r.randrange(256)
open(sys.argv[2], "wb").write(bytes(b))
PY
"$BIN" import -q "$T/garbled.pb" -o "$T/g.db" 2>"$T/g.err"
rc=$?
check "garbled bytes: imported or an error, no crash (rc $rc)" [ $rc -le 1 ]
