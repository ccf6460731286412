#!/bin/sh
# Several processes of one capture in one database (engine/recon/join.c,
# engine/recon/binder.c): the feed app's main process with :push and
# :remote (tests/fixtures/mkdevice.py --processes, 8,000 records), and the
# media app's with :push. "import A B C" and "btrace-analyze A B C" key
# every thread by its process, follow each recorded binder call to the
# server thread of another process that served it, with why the reply
# was slow (tests/fixtures/check_capture.py against the truth), and the
# startup rules name the server method that held a main-thread binder
# call. Refused, exit 1 naming the inputs: one process twice, a thread
# in two processes, spans that do not meet, a dump without a process id,
# a system trace of another time; a second system trace, a format that
# cannot join and a trace database, exit 2. One dump is its own process,
# as before.
. tests/lib.sh
. tests/chrome.sh
MK=$ROOT/tests/fixtures/mkdevice.py
CK=$ROOT/tests/fixtures/check_capture.py
START=$ROOT/examples/startup.lua

dirs() {   # outdir: the truth's process folders, the main one first
	awk -F'\t' 'NR > 1 { print $3 }' "$1/truth/processes.tsv" | tr '\n' ' '
}

for c in "feed 2 8000 :push,:remote" "media 3 4000 2"; do
	set -- $c
	d=$T/$1
	python3 "$MK" "$d" --model "$1" --seed "$2" --records "$3" --processes "$4" >/dev/null
	is "$?" 0 "$1 --processes $4: written"
	# shellcheck disable=SC2046
	(cd "$d" && "$BIN" import -q $(dirs "$d") -o "$T/$1.db")
	is "$?" 0 "$1: import $(dirs "$d")-o: exit 0"
	# shellcheck disable=SC2046
	(cd "$d" && "$BIN" $(dirs "$d") --rules "$START" -o "$T/$1.json" -o "$T/$1.txt" -q)
	is "$?" 0 "$1: analyze with the startup rules: exit 0"
	python3 "$CK" "$d" "$T/$1.db" "$T/$1.json" | sed "s/^\(not \)*ok - /&$1: /"
done

# the default report leads with the main process and lists the others
d=$T/feed
out=$(cd "$d" && "$BIN" push . remote -q)
is "$?" 0 "feed: the main process given second: exit 0"
procs=$(printf '%s\n' "$out" | awk '/^Processes of the capture/ { on = 1; next } on && /^ *[0-9]/ { print $2, $3 } on && /^Threads/ { exit }')
is "$(printf '%s\n' "$procs" | head -1)" "om.example.feed 1" "feed: the main process leads the processes table"
is "$(printf '%s\n' "$procs" | wc -l)" 3 "feed: the table lists the three processes"
# a scratch analysis keeps no slices: each process's count is the one the
# database keeps, counted as they were made, not read back (0 before)
is "$(printf '%s\n' "$out" | awk '/^Processes of the capture/ { on = 1; next } on && /^ *[0-9]/ { print $1, $7 } on && /^Threads/ { exit }' | sort -n | tr '\n' ' ')" \
	"$(q "$T/feed.db" "SELECT group_concat(pid || ' ' || n, ' ') || ' ' FROM (SELECT t.pid, count(*) AS n FROM slices JOIN threads t USING (tid) GROUP BY t.pid ORDER BY t.pid)")" \
	"feed: the processes table's slices in a scratch analysis are the database's"
like "$out" "process   pid $(awk -F'\t' 'NR == 2 { print $1 }' "$d/truth/processes.tsv"), main thread" \
	"feed: the report's facts are the main process's"
like "$(cat "$T/feed.txt")" "served by ample.feed:push's binder:[0-9]+_[0-9]+ in TokenStore.load \(busy\)" \
	"feed: the startup's main-thread binder call names :push's binder thread and TokenStore.load"

# the Perfetto export keeps the processes apart: a process track each, every
# thread under its own (pf_names.py reads the tgids back), and it imports
# back with --process all as the same three processes and slices
(cd "$d" && "$BIN" . push remote -q -o /dev/null --perfetto "$T/cap.pb")
is "$?" 0 "feed: --perfetto: exit 0"
python3 tests/fixtures/pf_names.py "$T/cap.pb" | awk -F'\t' '!/^P/ { print $1 "\t" $2 }' | sort >"$T/pf.tsv"
sqlite3 -separator '	' "$T/feed.db" "SELECT tid, pid FROM threads ORDER BY tid" | sort >"$T/db.tsv"
check "feed: --perfetto: each thread under its own process" cmp -s "$T/pf.tsv" "$T/db.tsv"
"$BIN" import -q "$T/cap.pb" --process all -o "$T/back.db"
is "$(q "$T/back.db" "SELECT group_concat(pid || ':' || is_lead || ':' || threads, ' ') FROM (SELECT * FROM processes ORDER BY pid)")" \
	"$(q "$T/feed.db" "SELECT group_concat(pid || ':' || is_lead || ':' || threads, ' ') FROM (SELECT * FROM processes ORDER BY pid)")" \
	"feed: --perfetto imported back with --process all: the same processes, lead and threads"
is "$(q "$T/back.db" "SELECT count(*) FROM slices")" "$(q "$T/feed.db" "SELECT count(*) FROM slices")" \
	"feed: --perfetto imported back: every slice"

# the HTML timeline groups each process's lanes under its header, the
# lead's first, then by pid
(cd "$d" && "$BIN" . push remote -q -o "$T/cap.html")
chrome "file://$T/cap.html#only=timeline" "$T/cap.png"
want=$(q "$T/feed.db" "SELECT group_concat(pid, ' ') FROM (SELECT pid FROM processes ORDER BY is_lead DESC, pid)")
is "$(attr data-tl-groups | tr '|' '\n' | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//')" "$want" \
	"feed: the timeline's lanes in a group per process, the lead first ($(attr data-tl-groups))"
is "$(attr data-tl-groups | tr '|' '\n' | cut -d: -f2 | awk '{ s += $1 } END { print s }')" "$(attr data-tl-lanes)" \
	"feed: every lane in its process's group"
check "feed: a screenshot of the grouped timeline ($(wc -c <"$T/cap.png") bytes)" test "$(wc -c <"$T/cap.png")" -gt 20000
check "feed: no console error" test ! -s "$T/console"

# causes name the process: a main-thread binder wait's holder is the
# server's method "in" its process; --set scope.process (compare
# --process) makes another process's main thread the rules' main thread
m=$(jq_ "$T/feed.json" "[k for k in d['metrics'] if k.startswith('startup.main.wait.binder.by.') and k.endswith(' in ample.feed:push.ns')]")
like "$m" "TokenStore.load\(\) in ample.feed:push.ns" "feed: the startup's binder wait is held by TokenStore.load in :push"
push_main=$(q "$T/feed.db" "SELECT main_tid FROM processes WHERE name LIKE '%:push'")
(cd "$d" && "$BIN" . push remote -q --set scope.process=:push -o "$T/push.json")
# process.* and method.* are the process in scope's: the lead's by default,
# :push's with scope.process (the tables list every thread)
(cd "$d" && "$BIN" . push remote -q -o "$T/lead.json")
own() {   # pid: "threads cpu_ns" of its threads' methods
	q "$T/feed.db" "SELECT count(DISTINCT m.tid) || ' ' || sum(m.self_cpu_ns) FROM methods m JOIN threads t USING (tid) WHERE t.pid = $1"
}
lead=$(q "$T/feed.db" "SELECT pid FROM processes WHERE is_lead")
push=$(q "$T/feed.db" "SELECT pid FROM processes WHERE name LIKE '%:push'")
is "$(jq_ "$T/lead.json" "'%d %d' % (d['metrics']['process.threads'], d['metrics']['process.cpu_ns'])")" "$(own "$lead")" \
	"feed: process.threads and process.cpu_ns are the lead process's"
is "$(jq_ "$T/push.json" "'%d %d' % (d['metrics']['process.threads'], d['metrics']['process.cpu_ns'])")" "$(own "$push")" \
	"feed: with scope.process=:push, :push's"
is "$(jq_ "$T/lead.json" "any('TokenStore.load' in k for k in d['metrics'] if k.startswith('method.'))") $(jq_ "$T/push.json" "any('TokenStore.load' in k for k in d['metrics'] if k.startswith('method.'))")" \
	"False True" "feed: method.* has :push's TokenStore.load with scope.process=:push only"
is "$(jq_ "$T/push.json" "d['metrics'].get('thread.main.msgs.count')")" \
	"$(q "$T/feed.db" "SELECT count(*) FROM messages WHERE tid = $push_main")" \
	"feed: --set scope.process=:push: the main thread's messages are :push's main thread's"
"$BIN" compare --base "$T/feed.db" "$T/feed.db" --head "$T/feed.db" "$T/feed.db" --process :push -q -o "$T/cmp.json"
is "$?" 0 "compare --process :push: exit 0"
is "$(jq_ "$T/cmp.json" "[m['base']['values'] for m in d['metrics'] if m['name'] == 'thread.main.msgs.count']")" \
	"[[$(q "$T/feed.db" "SELECT count(*) FROM messages WHERE tid = $push_main"), $(q "$T/feed.db" "SELECT count(*) FROM messages WHERE tid = $push_main")]]" \
	"compare --process :push: gates :push's main thread"
# a fleet of captures scoped the same way: batch --set scope.process
mkdir -p "$T/fleet" && cp "$T/feed.db" "$T/fleet/"
"$BIN" batch "$T/fleet" -o "$T/fleet.out" --set scope.process=:push -q
is "$?" 0 "batch of captures --set scope.process=:push: exit 0"
is "$(jq_ "$(ls "$T"/fleet.out/reports/*.json | head -n 1)" "d['metrics'].get('thread.main.msgs.count')")" \
	"$(q "$T/feed.db" "SELECT count(*) FROM messages WHERE tid = $push_main")" \
	"batch --set scope.process=:push: each report's main thread is :push's"
err=$("$BIN" compare --base "$T/feed.db" "$T/feed.db" --head "$T/feed.db" "$T/feed.db" --process :sandbox -q -o "$T/x.json" 2>&1)
is "$?" 1 "compare --process of no process: exit 1"
like "$err" "no such process in this trace \(it has om.example.feed \(pid [0-9]+\), ample.feed:push" \
	"compare --process of no process: names the processes there are"

# one dump is its own process, as before
"$BIN" import -q "$d/push" -o "$T/one.db"
is "$?" 0 "one dump: exit 0"
pid=$(awk -F'\t' '$3 == "push" { print $1 }' "$d/truth/processes.tsv")
is "$(q "$T/one.db" "SELECT count(*) || ' ' || max(is_lead) || ' ' || max(pid) FROM processes")" "1 1 $pid" \
	"one dump: one process, the lead"
is "$(q "$T/one.db" "SELECT count(*) FROM threads WHERE pid IS NOT $pid")" 0 "one dump: every thread has its pid"
is "$(q "$T/one.db" "SELECT count(*) FROM binder_calls")" 0 "one dump: no binder call is followed"

# refused: exit 1, naming the inputs, no database
refused() {   # description, expected message (grep -E), inputs...
	_what=$1 _msg=$2
	shift 2
	rm -f "$T/bad.db"
	_err=$(cd "$d" && "$BIN" import -q "$@" -o "$T/bad.db" 2>&1)
	is "$?" 1 "$_what: exit 1"
	like "$_err" "$_msg" "$_what: says why"
	check "$_what: no database" test ! -e "$T/bad.db"
}
refused "one process twice" "'push' and 'push' are both process $pid" . push push
cp -R "$d/push" "$T/alias"
python3 - "$T/alias/sampling.bin" "$pid" <<'PY'
import sys
path, pid = sys.argv[1], int(sys.argv[2])
b = open(path, "rb").read()
old, new = b'"processId":%d' % pid, b'"processId":%d' % (pid + 1)
assert b.count(old) == 1 and len(old) == len(new)
open(path, "wb").write(b.replace(old, new))
PY
refused "a thread in two processes" "thread [0-9]+ has records in 'push' \(process $pid\) and in '$T/alias' \(process $((pid + 1))\)" \
	. push "$T/alias"
refused "another boot's dump" "'$T/media/push' \(boot clock [0-9.]+-[0-9.]+ s\) does not overlap the inputs" \
	. "$T/media/push"
refused "a dump without a process id" "'[^']*nopid[^']*' names no process id" . "$FIX/nopid"

# a system trace of another time is refused (exit 1); a second one, or a
# format that cannot join, is a usage error (exit 2)
python3 tests/fixtures/mksystrace.py "$T/st.txt" --seed 1 --frames 3 --no-truth >/dev/null
refused "a system trace of another time" "'$T/st.txt' \([0-9.]+-[0-9.]+ s\) does not overlap the dumps' capture" \
	. "$T/st.txt"
err=$(cd "$d" && "$BIN" import -q . "$T/st.txt" "$T/st.txt" -o "$T/bad.db" 2>&1)
is "$?" 2 "two system traces with a dump: exit 2"
like "$err" "'$T/st.txt' is a systrace.*cannot be one of several processes of a capture \(only a btrace 3.0.*one system trace of the same time may join them\)" \
	"two system traces with a dump: says which formats can"
err=$(cd "$d" && "$BIN" import -q . "$T/one.db" -o "$T/bad.db" 2>&1)
is "$?" 2 "a trace database with a dump: exit 2"
like "$err" "is a trace database: only dumps can be imported together" "a trace database with a dump: says so"
