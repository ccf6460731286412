#!/bin/sh
# mkperfetto.py --flavor appstart and check_pf_startup.py on their own:
# protoc decodes the trace, the truth's phases nest as the kinds say (cold
# has bindApplication, hot no activityStart), surfaceflinger has more
# slices than the app, the same seed gives the same bytes; the checker
# passes the database its truth implies (--make-db) and fails on each
# mutation of it.
. tests/lib.sh
MKPF="python3 tests/fixtures/mkperfetto.py"
CHK="python3 tests/fixtures/check_pf_startup.py"
PROTO=engine/proto/perfetto_trace.proto

tj() {   # dir python-expression over t (the truth)
	python3 -c "import json,sys; t = json.load(open(sys.argv[1] + '/truth/startup.json')); print($2)" "$1"
}

for k in cold warm hot; do
	$MKPF "$T/$k/t.pb" --flavor appstart --start $k --seed 11
	check "$k: protoc decodes the trace" sh -c "protoc --proto_path=engine/proto --decode=perfetto.protos.Trace \
		$PROTO < '$T/$k/t.pb' > '$T/$k/t.txt'"
	is "$(grep -c 'launching: com.example.app' "$T/$k/t.txt")" 2 "$k: system_server's launching: S and F prints"
	is "$(tj "$T/$k" "t['kind'] + ' ' + ','.join(p['phase'] for p in t['phases'])")" \
		"$(case $k in
			cold) echo "cold startup,bind_application,activity_launch,activity_create,activity_start,activity_resume,first_frame,fully_drawn" ;;
			warm) echo "warm startup,activity_launch,activity_create,activity_start,activity_resume,first_frame,fully_drawn" ;;
			hot) echo "hot startup,activity_resume,first_frame,fully_drawn" ;;
		esac)" "$k: the truth's phases"
	is "$(tj "$T/$k" "int(t['startup']['end_ts'] == [p['ts'] + p['dur'] for p in t['phases'] if p['phase'] == 'first_frame'][0])")" 1 \
		"$k: the startup ends where the first frame does"
	is "$(tj "$T/$k" "int(max(p['slices'] for p in t['processes'] if 'surfaceflinger' in p['name']) > 2 * [p['slices'] for p in t['processes'] if p['name'] == 'com.example.app'][0])")" 1 \
		"$k: surfaceflinger has more than twice the app's slices"
done
is "$(tj "$T/cold" "t['startup']['source']")/$(tj "$T/warm" "t['startup']['source']")" \
	"first main-thread record/launching: com.example.app" "cold starts at the process, warm at the launch"
is "$(grep -c 'B|[0-9]*|Choreographer#doFrame 19[0-9]*' "$T/cold/t.txt")" "$(grep -c 'B|[0-9]*|Choreographer#doFrame' "$T/cold/t.txt")" \
	"frames are named as atrace writes them (with the frame number)"
$MKPF "$T/again/t.pb" --flavor appstart --start cold --seed 11
check "same seed, same bytes" cmp "$T/cold/t.pb" "$T/again/t.pb"
check "same seed, same truth" cmp "$T/cold/truth/startup.json" "$T/again/truth/startup.json"
$MKPF "$T/nfd/t.pb" --flavor appstart --start warm --seed 11 --no-fully-drawn --no-launching
is "$(tj "$T/nfd" "(t['startup']['ttfd_ns'], t['launch'], t['process_choice'])")" "(None, None, 'activityStart')" \
	"--no-fully-drawn --no-launching: no TTFD, no launch, chosen by activityStart"
is "$(grep -c 'launching: ' "$T/nfd/t.pb")" 0 "--no-launching: no launching: slice written"

# ---- the checker: the truth's own database passes, each mutation fails
$CHK "$T/cold/truth" --make-db "$T/h.db"
is "$($CHK "$T/cold/truth" "$T/h.db")" ok "checker: the truth's database passes"
mutate() {   # description sql pattern
	cp "$T/h.db" "$T/m.db"
	sqlite3 "$T/m.db" "$2"
	out=$($CHK "$T/cold/truth" "$T/m.db"); rc=$?
	like "$rc:$out" "^1:.*$3" "checker fails: $1"
}
mutate "pid" "UPDATE meta SET value = value + 1 WHERE key = 'pid'" "meta pid"
mutate "process choice" "UPDATE meta SET value = 'most slices' WHERE key = 'process_choice'" "process_choice"
mutate "kind" "UPDATE startup SET kind = 'warm'" "startup.kind"
mutate "start 1 ns late" "UPDATE startup SET ts = ts + 1" "startup.ts"
mutate "end" "UPDATE startup SET end_ts = end_ts - 1" "startup.end_ts"
mutate "TTFD missing" "UPDATE startup SET ttfd_ns = NULL" "startup.ttfd_ns"
mutate "no end source" "UPDATE startup SET end_source = NULL" "end_source"
mutate "two startups" "INSERT INTO startup SELECT * FROM startup" "2 startup rows"
mutate "a phase 1 ns long" "UPDATE startup_phases SET dur = dur + 1 WHERE phase = 'activity_resume'" "phase activity_resume"
mutate "a phase missing" "DELETE FROM startup_phases WHERE phase = 'bind_application'" "phase bind_application: 0 rows"
mutate "inexact" "UPDATE startup_phases SET exact = 0 WHERE phase = 'first_frame'" "exact 0"
mutate "an extra phase" "INSERT INTO startup_phases VALUES ('content_providers', 1, 1, 'x', 1, NULL, NULL, NULL, NULL)" \
	"phases the truth lacks: content_providers"
mutate "breakdown not adding up" "UPDATE startup_phases SET cpu_ns = 1, blocked_ns = 1, idle_ns = 1, unexplained_ns = 1 WHERE phase = 'startup'" \
	"cpu \+ blocked"
cp "$T/h.db" "$T/m.db"
sqlite3 "$T/m.db" "UPDATE startup SET ts = ts + 5; UPDATE startup_phases SET ts = ts + 5"
is "$($CHK "$T/cold/truth" "$T/m.db" --tol 5)" ok "checker: --tol 5 takes a 5 ns shift"
