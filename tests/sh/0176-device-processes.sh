#!/bin/sh
# Several processes of one capture (tests/fixtures/mkdevice.py
# --processes): the feed's main process with :push and :remote (8,000
# records), the media app's with :push (--processes 2, 4,000 records).
# Each process's dump verifies against its own truth and imports alone
# (one dump per database, as the importer reads them today) as its own
# process: its pid, its threads; the dumps line up on the boot clock;
# every written client kBinder record of truth/binder.tsv is in the
# client's database at the truth's span; the server's binder thread has
# samples in the implementation inside each transaction over 2 ms; the
# cold start's main thread waits on a slow call to :push
# (tests/fixtures/check_processes.py). A truth with a transaction moved
# to an idle binder thread, or a client span moved by 1 us, is rejected.
# Without the option, or with --processes 1, the bytes are today's.
. tests/lib.sh
# The simulator itself is under test: every run simulates, none is a kept
# one (tests/fixtures/simcache.py).
unset BT_SIM_CACHE
MK=$ROOT/tests/fixtures/mkdevice.py
CK=$ROOT/tests/fixtures/check_processes.py

imp() {   # outdir dbprefix: import each process's dump, print the databases
	_dbs=
	for _d in $(awk -F'\t' 'NR > 1 { print $3 }' "$1/truth/processes.tsv"); do
		_db=$2-$(basename "$_d").db
		[ "$_d" = . ] && _db=$2-main.db
		"$BIN" import -q "$1/$_d" -o "$_db" >/dev/null 2>&1 || echo "import-failed:$1/$_d"
		_dbs="$_dbs $_db"
	done
	echo "$_dbs"
}

for c in "feed 2 8000 :push,:remote 3" "media 3 4000 2 2"; do
	set -- $c
	d=$T/$1
	python3 "$MK" "$d" --model "$1" --seed "$2" --records "$3" --processes "$4" >/dev/null
	is "$?" 0 "$1 --processes $4: written"
	n=$(awk 'END { print NR - 1 }' "$d/truth/processes.tsv")
	is "$n" "$5" "$1: processes.tsv has the main process and the $(($5 - 1)) others"
	for p in $(awk -F'\t' 'NR > 1 { print $3 }' "$d/truth/processes.tsv"); do
		check "$1 $p: verify_dump agrees" python3 tests/fixtures/verify_dump.py "$d/$p"
		# a service's main thread runs a short message every few seconds:
		# the busy UI thread's sample gap is no measure of it
		bad=$(python3 tests/fixtures/check_device.py "$d/$p" | grep '^not ok' |
			{ if [ "$p" = . ]; then cat; else grep -v "main thread's median gap while running Java"; fi; } | wc -l)
		is "$bad" 0 "$1 $p: check_device.py finds nothing wrong"
	done
	dbs=$(imp "$d" "$T/$1")
	unlike "$dbs" "import-failed" "$1: every dump imports"
	# shellcheck disable=SC2086
	python3 "$CK" "$d" $dbs | sed "s/^\(not \)*ok - /&$1: /"
done

# the feed's capture has every reason for a slow reply
for w in busy blocked queued; do
	k=$(awk -F'\t' -v w=$w 'NR > 1 && $12 == w { n++ } END { print n + 0 }' "$T/feed/truth/binder.tsv")
	check "feed: $k transactions slow as $w" test "$k" -ge 1
done

# the same options give the same bytes, every process
python3 "$MK" "$T/again" --model media --seed 3 --records 4000 --processes 2 >/dev/null
check "same options, same dumps and truth" diff -r "$T/media" "$T/again"

# a truth whose transaction ran on another (idle) binder thread, or whose
# client span is 1 us off, is rejected
d=$T/feed
dbs=$(imp "$d" "$T/feed")
plant() {   # name python-edit-of-row(r: dict of the first long transaction, rows)
	rm -rf "$T/bad"; cp -R "$d" "$T/bad"
	python3 - "$d" "$T/bad/truth/binder.tsv" "$2" <<'PY'
import csv, os, sys
out, path, edit = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.DictReader(open(path), delimiter="\t"))
dirs = {r["pid"]: r["dir"] for r in csv.DictReader(open(os.path.join(out, "truth", "processes.tsv")), delimiter="\t")}
r = next(r for r in rows if int(r["server_end_ns"]) - int(r["server_begin_ns"]) > 2_000_000 and r["recorded"] == "1")
binders = [t["tid"] for t in csv.DictReader(open(os.path.join(out, dirs[r["server_pid"]], "truth", "threads.tsv")), delimiter="\t")
           if t["role"] == "binder" and t["tid"] != r["server_tid"]]
exec(edit)
w = csv.DictWriter(open(path, "w"), fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
	# shellcheck disable=SC2086
	out=$(python3 "$CK" "$T/bad" $dbs)
	like "$out" "$3" "planted: $1 is rejected"
}
plant "a transaction on an idle binder thread" 'r["server_tid"] = binders[0]' \
	"not ok - the server thread has a sample in its method"
plant "a client span 1 us late" 'r["call_end_ns"] = str(int(r["call_end_ns"]) + 1000)' \
	"not ok - every recorded call"

# without the option (or with one process) the bytes are today's
python3 "$MK" "$T/one" --seed 5 --records 2000 >/dev/null
python3 "$MK" "$T/one1" --seed 5 --records 2000 --processes 1 >/dev/null
check "--processes 1 writes what no option writes" diff -r "$T/one" "$T/one1"
python3 "$MK" "$T/x" --processes :sandbox >/dev/null 2>&1
is "$?" 2 "an unknown process exits 2"
python3 "$MK" "$T/x" --processes :push,:push >/dev/null 2>&1
is "$?" 2 "a process named twice exits 2"
