#!/bin/sh
# Every systrace/atrace file of ../shared/real-traces (catapult's and
# Perfetto's test data, recorded on devices: HTML pages old and new, ftrace
# text with and without TGIDs, atrace's raw and zlib'd output) imports
# (exit 0) with the slices an independent reading gives: a small Python
# reader below (catapult's line expressions, its own HTML and zlib
# handling) pairs the B/E markers per thread itself. Where a file has
# scheduler data its slices get CPU times; where it has none, NULL.
. tests/lib.sh

# independent reading: slices (every B, closed or not), unfinished, threads with slices
read_() {
	python3 - "$1" <<'PY'
import re, sys, zlib, gzip
data = open(sys.argv[1], "rb").read()
if data[:2] == b"\x1f\x8b":
    data = gzip.decompress(data)
i = data.find(b"TRACE:\n")
if 0 <= i < 4096:
    rest = data[i + 7:].lstrip(b"\r\n")
    if rest[:1] == b"x":
        data = zlib.decompressobj().decompress(rest)
    else:
        data = rest
text = data.decode("utf-8", "replace")
lines = text.split("\n")
if text.lstrip().lower().startswith(("<!doctype html", "<html")):
    m = re.search(r'var linuxPerfData = "\\\n(.*?)\\n";', text, re.S)
    if m:
        lines = m.group(1).split("\n")
    else:
        blocks = re.findall(r'<script class="trace-data" type="application/text">\n(.*?)</script>', text, re.S)
        lines = next((b for b in blocks if b.lstrip().startswith("#")), "").split("\n")
lines = [l[:-3] if l.endswith("\\n\\") else l for l in lines]
lines = [l[:-4] if l.endswith('\\n";') else l for l in lines]
res = [re.compile(r"^\s*(.+)-(\d+)\s+\(\s*(\d+|-+)\)\s\[(\d+)\]\s+[dX.][N.][Hhs.][0-9a-f.]\s+(\d+\.\d+):\s+(\S+):\s(.*)$"),
       re.compile(r"^\s*(.+)-(\d+)()\s+\[(\d+)\]\s+[dX.][N.][Hhs.][0-9a-f.]\s+(\d+\.\d+):\s+(\S+):\s(.*)$"),
       re.compile(r"^\s*(.+)-(\d+)()\s+\[(\d+)\]\s*(\d+\.\d+):\s+(\S+):\s(.*)$")]
stacks, slices, threads, span, per_pid = {}, 0, set(), [], {}
for l in lines:
    for r in res:
        m = r.match(l)
        if m:
            break
    else:
        continue
    tid, ev, args = int(m.group(2)), m.group(6), m.group(7).rstrip("\0\n ")
    if not re.match(r"^(tracing_mark_write: )?trace_event_clock_sync", args):
        sec, frac = m.group(5).split(".")
        span.append(int(sec) * 10**9 + int((frac + "000000000")[:9]))
    if ev not in ("tracing_mark_write", "0", "print"):
        continue
    if re.match(r"^B\|\d+\|", args):
        stacks.setdefault(tid, []).append(1)
        slices += 1
        threads.add(tid)
        pid = int(m.group(3)) if m.group(3).isdigit() else int(args.split("|")[1])   # else the marker's
        per_pid[pid] = per_pid.get(pid, 0) + 1
    elif re.match(r"^E(\||$)", args) and stacks.get(tid):
        stacks[tid].pop()
print(slices, sum(len(s) for s in stacks.values()), len(threads), max(span) - min(span) if span else 0,
      ",".join("%d:%d" % kv for kv in sorted(per_pid.items())) or "-")
PY
}

n=0
for f in "$REAL"/catapult-systrace/* "$REAL"/catapult-atrace/* "$REAL"/perfetto-systrace-text/*; do
	case $f in */SOURCE*) continue ;; esac
	n=$((n + 1))
	name=$(basename "$f")
	"$BIN" import -q "$f" -o "$T/$n.db"
	is "$?" 0 "$name: import exits 0"
	set -- $(read_ "$f")
	is "$(q "$T/$n.db" "SELECT count(*) || ' ' || count(DISTINCT tid) FROM slices")" "$1 $3" \
		"$name: $1 slices on $3 threads, as the independent reading pairs them"
	is "$(q "$T/$n.db" "SELECT coalesce(sum(count), 0) FROM diagnostics WHERE code = 'systrace_unfinished_slices'")" "$2" \
		"$name: $2 slices never ended, counted"
	is "$(q "$T/$n.db" "SELECT value FROM meta WHERE key = 'format'")" systrace "$name: read as systrace"
	is "$(q "$T/$n.db" "SELECT coalesce((SELECT value FROM meta WHERE key = 'last_ts') - (SELECT value FROM meta WHERE key = 'first_ts'), 0)")" "$4" \
		"$name: its span is its events' (clock syncs left out), $4 ns"
	# --process all: every thread keyed by the process its lines print
	"$BIN" import -q "$f" --process all -o "$T/$n-all.db"
	is "$(q "$T/$n-all.db" "SELECT coalesce(group_concat(k, ','), '-') FROM (SELECT coalesce(t.pid, 0) || ':' || count(*) AS k
		FROM slices s JOIN threads t USING (tid) GROUP BY coalesce(t.pid, 0) ORDER BY coalesce(t.pid, 0))")" "$5" \
		"$name: --process all: the slices of each process ($5), by their lines' TGIDs (else the markers' pids)"
done
is "$n" 11 "eleven real files"

d=$T/html.db
"$BIN" import -q "$REAL/catapult-systrace/android_systrace.html" -o "$d"
like "$(q "$d" "SELECT count(cpu_dur) FROM slices WHERE cpu_dur > 0")" '^[1-9][0-9]{3}' \
	"android_systrace.html: thousands of slices with CPU time from its sched_switch events"
is "$(q "$d" "SELECT count(*) FROM slices WHERE cpu_dur > dur OR cpu_dur < 0")" 0 "android_systrace.html: CPU times within the slices"
like "$(q "$d" "SELECT count(*) FROM thread_states WHERE state = 'running'")" '^[1-9]' "android_systrace.html: thread states"
is "$(q "$d" "SELECT coalesce(sum(count), 0) FROM diagnostics WHERE code = 'systrace_cpu_unknown'")" \
	"$(q "$d" "SELECT count(*) FROM slices WHERE cpu_dur IS NULL")" \
	"android_systrace.html: slices before their thread's first switch: CPU NULL, counted"
d=$T/z.db
"$BIN" import -q "$REAL/catapult-atrace/compressed_atrace_data.txt" -o "$d"
"$BIN" import -q "$REAL/catapult-atrace/decompressed_atrace_data.txt" -o "$T/plain.db"
all="SELECT s.tid, s.ts, s.dur, s.depth, f.name FROM slices s JOIN frames f ON f.id = s.frame_id ORDER BY s.id"
is "$(q "$d" "SELECT count(*) FROM ($all)")/$("$BIN" query -q "$d" "$all" --format tsv | md5sum)" \
	"$(q "$T/plain.db" "SELECT count(*) FROM ($all)")/$("$BIN" query -q "$T/plain.db" "$all" --format tsv | md5sum)" \
	"compressed_atrace_data.txt: the same slices as its decompressed text"
is "$(q "$d" "SELECT count(*) FROM slices WHERE cpu_dur IS NOT NULL")" 0 "compressed_atrace_data.txt: no sched data: CPU NULL"
like "$(q "$d" "SELECT detail FROM diagnostics WHERE code = 'systrace_trailing_bytes'")" "17600 bytes after the compressed trace" \
	"compressed_atrace_data.txt: the bytes after its zlib stream counted"
is "$(q "$d" "SELECT count(*) FROM track_slices") $(q "$d" "SELECT count(*) FROM counters")" "17 88" \
	"compressed_atrace_data.txt: its async slices and counters"
d=$T/sb.db
"$BIN" import -q "$REAL/perfetto-systrace-text/sched_blocked_systrace.systrace" -o "$d"
is "$("$BIN" query -q "$d" "SELECT tid, state, io_wait, blocked_function FROM thread_states WHERE io_wait IS NOT NULL ORDER BY tid" --format tsv | sed 1d | tr '\t\n' '| ')" \
	"269|uninterruptible|0|worker_thread+0x534/0x820 2172|uninterruptible|1|__filemap_fdatawait_range+0x134/0x150 " \
	"sched_blocked_systrace: the blocked reasons on the uninterruptible sleeps"
is "$(q "$T/11.db" "SELECT name FROM threads WHERE tid = 19999")" real_name "unknown_thread_name: <...> is no name; next_comm gives it"

# --process picks the app of a systrace too: by pid, by name; an unknown
# one is an error naming those with most slices.
f=$REAL/catapult-systrace/android_systrace.html
"$BIN" "$f" -q --process ndroid.launcher -o "$T/p.json"
is "$?" 0 "--process NAME on a systrace: exit 0"
is "$(python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['trace']; print(t['pid'], t['main_tid'])" "$T/p.json")" "655 655" \
	"--process ndroid.launcher: pid 655 and its main thread"
"$BIN" import -q "$f" --process 474 -o "$T/p.db"
is "$(q "$T/p.db" "SELECT group_concat(value, ' ') FROM (SELECT value FROM meta WHERE key IN ('pid', 'process_choice', 'main_tid') ORDER BY key)")" \
	"474 474 --process" "--process PID: pid, why and main thread kept"
is "$(q "$T/p.db" "SELECT tid FROM threads WHERE is_main = 1")" 474 "--process PID: its main thread is the threads table's main"
out=$("$BIN" "$f" -q --process nosuch -o "$T/no.json" 2>&1)
is "$?" 2 "--process of no process: a usage error"
like "$out" "no process 'nosuch' with slices in '.*android_systrace.html'; those with most: surfaceflinger \\(pid 124, 3851 slices\\)" \
	"--process of no process: the error names those with most slices"
test -e "$T/no.json"
is "$?" 1 "--process of no process: no report left"
