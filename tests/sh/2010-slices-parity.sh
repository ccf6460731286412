#!/bin/sh
# --slice-policy btrace against an independent reference of the upstream
# converter (tests/fixtures/btrace_convert.py, written from the format spec
# alone): every slice and annotation equal, on dumps with every record
# shape: duration pairs, v5 wakers, kFlush, kTraceArg, startTime clamping,
# layouts v3/v4/v5, and the same-depth duration-split quirk.
. tests/lib.sh

cols="s.tid, s.depth, f.name, s.ts, s.ts + s.dur, s.sample_count, coalesce(s.type, -1), s.cpu_dur,
	s.block_dur, s.self_dur, s.self_cpu_dur, coalesce(s.wakeup_tid, 0), s.gap_dur, s.gap_cpu_dur, s.msg_id,
	s.alloc_objects, s.alloc_bytes, s.majflt, s.nvcsw, s.nivcsw"
for f in example small seed2 seed3 v3 v4 faults flush; do
	"$BIN" import -q "$FIX/$f" --slice-policy btrace -o "$T/$f.db"
	"$BIN" query "$T/$f.db" "SELECT $cols FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.id" --format tsv |
		sed 1d | sort >"$T/$f.ours"
	python3 tests/fixtures/btrace_convert.py "$FIX/$f" | sort >"$T/$f.ref"
	n=$(wc -l <"$T/$f.ref" | tr -d ' ')
	if cmp -s "$T/$f.ours" "$T/$f.ref"; then
		echo "ok - $f: $n slices equal the reference converter"
	else
		echo "not ok - $f: slices differ from the reference converter"
		diff "$T/$f.ref" "$T/$f.ours" | head -6 | sed 's/^/#   /'
	fi
	check "$f: the reference saw slices" test "$n" -gt 0
done
# The same-depth quirk (spec Q-5) is exercised: zero-length slices with Count -1.
is "$(q "$T/seed2.db" 'SELECT count(*) > 0 FROM slices WHERE sample_count = -1 AND dur = 0')" 1 "seed2 exercises the Q-5 zero-length slices"
is "$(q "$T/flush.db" 'SELECT count(*) > 0 FROM slices WHERE type = 16')" 1 "flush exercises kFlush spans"
is "$(q "$T/flush.db" 'SELECT count(*) > 0 FROM slices WHERE ts = 14800000000')" 1 "flush exercises startTime clamping"
is "$(q "$T/small.db" 'SELECT count(*) > 0 FROM slices WHERE wakeup_tid IS NOT NULL AND type IN (6, 7, 8)')" 1 "small exercises waker links"
