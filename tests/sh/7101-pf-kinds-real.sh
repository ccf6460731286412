#!/bin/sh
# Every kind of Perfetto event in real traces (issue 22, item 4): each .pb of
# ../shared/real-traces/perfetto-difftest-textproto (Perfetto's own parser
# tests: interning, legacy phases, flows, counters, atrace beside track
# events), perfetto-nested-tracks, systing-trace (a Linux system trace) and
# the API 32 system trace import (exit 0) with the thread slices, track
# slices, instants and counter values, and the not-imported kinds, that an
# independent wire reading gives (tests/fixtures/check_pf_kinds.py); the
# .textproto files are named in the error; a trace without thread slices
# says so at the top of every report format; systing's compact sched gives
# every thread's Running rows (tests/fixtures/check_pf_sched.py runs).
. tests/lib.sh
C=tests/fixtures/check_pf_kinds.py
qa() {   # input sql: every row
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d
}
D=$REAL/perfetto-difftest-textproto
check "the difftest traces are there ($D)" test -d "$D"
n=0
for f in "$D"/*.pb "$REAL"/perfetto-nested-tracks/*.perfetto-trace "$REAL"/systing-trace/trace.pb \
	"$REAL"/perfetto-api32-startup-warm/*.perfetto-trace; do
	name=$(basename "$f")
	rm -f "$T/k.db"
	"$BIN" import -q "$f" -o "$T/k.db" 2>"$T/err"
	is "$?" 0 "$name imports"
	python3 "$C" "$f" "$T/k.db" --name "$name"
	n=$((n + 1))
done
check "36 difftest traces and 3 others read" test "$n" -ge 39

# --process all (issue 40): every process of the system traces, each
# thread keyed by its process as pf_names.py's wire reading gives its
# tgid, every process's thread slices (check_pf_kinds.py --all); the app
# still leads (its main thread is threads.is_main, meta its pid)
for f in "$REAL"/perfetto-api32-startup-warm/*.perfetto-trace "$REAL"/systing-trace/trace.pb; do
	name=$(basename "$f")
	rm -f "$T/all.db"
	"$BIN" import -q "$f" --process all -o "$T/all.db"
	is "$?" 0 "$name --process all imports"
	python3 "$C" "$f" "$T/all.db" --name "$name --process all" --all
	python3 tests/fixtures/pf_names.py "$f" | awk -F'\t' '!/^P/ && $2 != "-" { print $1 "\t" $2 }' | sort >"$T/want"
	qa "$T/all.db" "SELECT tid, pid FROM threads WHERE pid IS NOT NULL" | sort >"$T/got"
	check "$name --process all: $(wc -l <"$T/want") threads, each with its process as pf_names.py reads it" \
		cmp -s "$T/want" "$T/got"
	is "$(q "$T/all.db" "SELECT count(*) FROM processes")" "$(cut -f2 "$T/want" | sort -u | wc -l)" \
		"$name --process all: a process for each tgid"
	is "$(q "$T/all.db" "SELECT count(*) FROM threads WHERE pid IS NULL")" 0 "$name --process all: no thread without its process"
done
is "$(q "$T/all.db" "SELECT count(*) FROM processes WHERE is_lead")" 0 \
	"systing --process all: no lead (no process has slices of its own to be the app)"
f=$REAL/perfetto-api32-startup-warm/api32_startup_warm.perfetto-trace
"$BIN" import -q "$f" --process all -o "$T/all.db"
is "$(q "$T/all.db" "SELECT p.pid || ' ' || t.tid FROM processes p JOIN threads t ON t.is_main WHERE p.is_lead")" "7663 7663" \
	"api32 --process all: the app being started leads, its main thread the main one"
# its binder calls: each as pf_binder.py pairs the driver's tracepoints
# itself (client, server, sent, received, replied, ended), every two-way
# call a blocking edge ended by its server, why from the server's states
python3 tests/fixtures/pf_binder.py "$f" | sort >"$T/want"
sqlite3 -separator '	' "$T/all.db" "SELECT client_tid, server_tid, ts, server_first_ts, coalesce(server_last_ts, '-'),
	CASE WHEN oneway THEN '-' ELSE ts + dur END, oneway FROM binder_calls" | sort >"$T/got"
check "api32 --process all: $(wc -l <"$T/want") binder calls, each paired as pf_binder.py reads the trace" \
	cmp -s "$T/want" "$T/got"
is "$(q "$T/all.db" "SELECT count(*) FROM blocking_edges e JOIN binder_calls c ON c.client_tid = e.waiter_tid AND c.ts = e.ts
	AND e.waker_tid = c.server_tid WHERE e.kind = 'binder'")" "$(q "$T/all.db" "SELECT count(*) FROM binder_calls WHERE NOT oneway")" \
	"api32 --process all: every two-way call a binder edge ended by its server"
is "$(qa "$T/all.db" "SELECT DISTINCT why FROM binder_calls WHERE NOT oneway ORDER BY 1" | tr '\n' ' ')" \
	"blocked busy queued runnable " "api32 --process all: slow replies told apart (blocked, busy, queued, runnable)"
# the same tracepoints as systrace prints them (pf2systrace.py --binder:
# its compact sched is not written, so no states): the same calls, why
# left unknown (NULL) unless the wait for a server outlasted the serving
python3 tests/fixtures/pf2systrace.py "$f" "$T/api32.txt" --binder
"$BIN" import -q "$T/api32.txt" --process all -o "$T/st.db"
sqlite3 -separator '	' "$T/st.db" "SELECT client_tid, server_tid, ts, server_first_ts, coalesce(server_last_ts, '-'),
	CASE WHEN oneway THEN '-' ELSE ts + dur END, oneway FROM binder_calls" | sort >"$T/got"
check "api32 as systrace text, --process all: the same $(wc -l <"$T/want") binder calls" cmp -s "$T/want" "$T/got"
is "$(q "$T/st.db" "SELECT count(*) FROM binder_calls WHERE NOT oneway AND (why IS NULL OR why = 'queued') AND blocked_dur IS NULL")" \
	"$(q "$T/st.db" "SELECT count(*) FROM binder_calls WHERE NOT oneway")" \
	"api32 as systrace text: without states, each two-way call's why unknown or queued, its blocked time unknown"
"$BIN" import -q "$T/api32.txt" -o "$T/st1.db"
is "$(q "$T/st1.db" "SELECT count(*) FROM binder_calls")" 0 "api32 as systrace text, without --process all: no binder call read"
"$BIN" import -q "$f" -o "$T/one.db"
is "$(q "$T/one.db" "SELECT count(*) FROM binder_calls")" 0 "api32 without --process all: no binder call read"
"$BIN" "$f" --process all -q -o "$T/all.txt"
like "$(cat "$T/all.txt")" "Processes of the capture: the 25 with most CPU time and slices, of 672" \
	"api32 --process all: the report lists the processes"

# legacy phases: B/E and X as thread slices, 'T' and 'p' counted by phase
f=$D/parser_track_event_legacy_async_event.pb
"$BIN" import -q "$f" -o "$T/a.db"
is "$(qa "$T/a.db" "SELECT track, name, ts, dur, depth FROM track_slices ORDER BY ts")" \
"name1	name1	1000	7000	0
name1	name1	2000	1000	1" "legacy S/F by global id: paired by id, LIFO, across the process's threads"
is "$(q "$T/a.db" "SELECT group_concat(code || '=' || count, ' ') FROM (SELECT * FROM diagnostics WHERE code LIKE 'perfetto_not_imported:%' ORDER BY code)")" \
	"perfetto_not_imported:legacy_phase_T=1 perfetto_not_imported:legacy_phase_p=1" "async steps counted by phase"
f=$D/parser_track_event_flow_events_proto_v1.pb
"$BIN" import -q "$f" -o "$T/x.db"
is "$(qa "$T/x.db" "SELECT s.tid, f.name, s.ts, s.dur FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.ts")" \
"1	FlowBeginSlice	10000	10000
1	FlowStepSlice	50000	10000" "legacy X events are thread slices of duration_us (the app's: pid 1's; pid 2's counted)"
is "$(q "$T/x.db" "SELECT count FROM diagnostics WHERE code = 'perfetto_other_process'")" 2 "the other process's two X events"
# counters: unit_multiplier, incremental per sequence, extra values, defaults
"$BIN" import -q "$D/parser_track_event_incremental_counter_sequences.pb" -o "$T/i.db"
is "$(q "$T/i.db" "SELECT group_concat(ts || ':' || value, ' ') FROM (SELECT * FROM counters ORDER BY ts)")" \
	"100:100.0 150:50.0 200:110.0 250:55.0" "incremental counters sum per sequence"
"$BIN" import -q "$D/parser_track_event_track_event_counters.pb" -o "$T/c.db" 2>/dev/null
is "$(q "$T/c.db" "SELECT group_concat(ts || ':' || value, ' ') FROM (SELECT * FROM counters WHERE track = 'thread_time (tid 1)' ORDER BY ts, value)")" \
	"1000:1000000.0 1100:1010000.0 2000:2000000.0 2000:2010000.0 2200:2020000.0 2200:2030000.0 4000:2040000.0" \
	"extra counter values of a thread's unnamed counter: in us, delta-coded, restarting when the sequence is cleared"
is "$(q "$T/c.db" "SELECT group_concat(ts || ':' || value, ' ') FROM (SELECT * FROM counters WHERE track = 'MySizeCounter' ORDER BY ts)")" \
	"3000:1024.0 3100:2048.0 4000:1024.0 4500:4096.0" "a global counter, by events and an extra value"
is "$(qa "$T/c.db" "SELECT tid, name, ts FROM instants WHERE tid IS NOT NULL ORDER BY ts")" \
"1	event4_on_t1	4000
1	float_counter_on_t1	4500" "instants on a thread"

# the text protos are named, with how to encode them
for f in "$D"/parser_atrace_bad_print.textproto "$D"/parser_track_event_incremental_counter_sequences.textproto; do
	"$BIN" import "$f" -o "$T/t.db" 2>"$T/err"
	is "$?" 1 "$(basename "$f") is refused"
	like "$(cat "$T/err")" "Perfetto trace in protobuf's text format .* protoc --encode=perfetto.protos.Trace" \
		"$(basename "$f"): named, with the command that encodes it"
done

# no thread data: said at the top of every format, and where the data went
f=$REAL/perfetto-nested-tracks/nested_tracks.perfetto-trace
"$BIN" import -q "$f" -o "$T/n.db"
for x in txt md json html xlsx; do
	"$BIN" -q "$T/n.db" -o "$T/n.$x"
	is "$?" 0 "nested tracks: the $x report"
done
want="1,364 slices on 1,364 tracks that belong to no thread are in the track_slices table"
like "$(head -3 "$T/n.txt")" "^NO THREADS no slice of this trace is on a thread" "text: the banner first"
like "$(tr '\n' ' ' <"$T/n.txt")" "$want" "text: where the slices are"
like "$(cat "$T/n.md")" "> \*\*No thread data\*\*: no slice .*1,364 tracks that belong to no thread are in the track._slices table" "markdown (escaped)"
like "$(jq_ "$T/n.json" "d['trace']['no_threads']")" "$want" "json: trace.no_threads"
like "$(cat "$T/n.html")" "<strong>No thread data</strong>: no slice .*$want" "html"
like "$(unzip -p "$T/n.xlsx" xl/sharedStrings.xml)" "NO THREADS.*$want" "xlsx"
f=$REAL/systing-trace/trace.pb
"$BIN" import -q "$f" -o "$T/s.db"
"$BIN" -q "$T/s.db" -o "$T/s.txt" && "$BIN" -q "$T/s.db" -o "$T/s.json"
is "$?" 0 "systing: reports"
unlike "$(tr '\n' ' ' <"$T/s.txt")" "NO THREADS" \
	"systing: its sampled threads are threads (tests/sh/7131)"
like "$(tr '\n' ' ' <"$T/s.txt")" "perfetto_not_imported \(8575\): 4,284 softirq_entry events \(ftrace\), 4,284 softirq_exit events \(ftrace\), 3 irq_handler_entry events \(ftrace\), 3 irq_handler_exit events \(ftrace\), 1 sched_process_exit events \(ftrace\)" \
	"systing: the diagnostics name the kinds in one line, most first"
# its 5,053 compact switches: every thread's runs, as an independent reading has them
python3 tests/fixtures/check_pf_sched.py runs "$f" "$T/s.db" | sed 's/^\(ok\|not ok\) - /&systing: /'
is "$(jq_ "$T/s.json" "sum(1 for x in d['diagnostics'] if x['code'].startswith('perfetto_not_imported'))")" 1 \
	"json: one diagnostic for the kinds"
