#!/bin/sh
# The one wait linker for traces with marker slices (issue 38 item 1,
# engine/recon/link.c's bt_link_waits): a Perfetto trace's and a systrace's
# Object#wait is ended by the last Object#notify of its object that another
# thread began inside it, an Unsafe#park by the last Unsafe#unpark of the
# parked thread's hash inside it. The same markers in both containers give
# the same links; the waiter's own notify at its wait's end is not its
# waker (Perfetto's SQL linker took it), a notify or unpark of another
# object or thread is not either.
. tests/lib.sh

cat >"$T/mk.py" <<'PY'
import sys
sys.path.insert(0, "tests/fixtures")
from mkpfcase import ftrace
from mkperfetto import packet, fb, fv
ev = [   # (ts ns, tid, marker)
    (1000, 300, "B|300|Object#wait(obj:0x51, timeout:0)"),
    (1200, 302, "B|300|Object#notify(obj:0x53)"), (1210, 302, "E|300"),   # another object
    (1500, 301, "B|300|Object#notify(obj:0x51)"), (1510, 301, "E|300"),   # its waker
    (2000, 300, "E|300"),
    (2000, 300, "B|300|Object#notify(obj:0x51)"), (2010, 300, "E|300"),   # the waiter's own, at the end
    (3000, 300, "B|300|Unsafe#park(obj:0x77, time:0)"),
    (3200, 301, "B|300|Unsafe#unpark(obj:0x77)"), (3210, 301, "E|300"),
    (3500, 302, "B|300|Unsafe#unpark(obj:0x77)"), (3510, 302, "E|300"),   # the last inside: its waker
    (3600, 301, "B|300|Unsafe#unpark(obj:0x99)"), (3610, 301, "E|300"),   # another thread's unpark
    (4000, 300, "E|300"),
    (4100, 301, "B|300|Unsafe#unpark(obj:0x77)"), (4110, 301, "E|300"),   # after the park
    (5000, 302, "B|300|Object#wait(obj:0x52, timeout:0)"),
    (6000, 302, "E|300"),
    (6000, 302, "B|300|Object#notify(obj:0x52)"), (6010, 302, "E|300"),   # only its own: no waker
]
names = {300: "com.example.app", 301: "worker", 302: "pool"}
if sys.argv[1] == "pb":
    out = packet(fb(3, fb(1, fv(1, 300) + fv(2, 1) + fb(3, "com.example.app"))
                    + b"".join(fb(2, fv(1, t) + fv(2, 300) + fb(3, n)) for t, n in names.items())))
    out += ftrace([(ts, tid, m + "\n") for ts, tid, m in ev])
    open(sys.argv[2], "wb").write(out)
else:
    with open(sys.argv[2], "w") as f:
        f.write("# tracer: nop\n#\n")
        for ts, tid, m in ev:
            f.write(" %16s-%-5d [000] ...1 100.%06d: tracing_mark_write: %s\n" % (names[tid], tid, ts, m))
PY
python3 "$T/mk.py" pb "$T/t.pb"
python3 "$T/mk.py" txt "$T/t.txt"
edges() {   # input: wait edges, times from the first
	"$BIN" query -q "$1" "SELECT waiter_tid, kind, printf('%x', lock_id), ts - (SELECT min(ts) FROM blocking_edges),
		coalesce(waker_tid, '-'), coalesce(waker_ts - (SELECT min(ts) FROM blocking_edges), '-')
		FROM blocking_edges WHERE kind IN ('wait', 'park') ORDER BY ts" --format tsv | tail -n +2 | tr '\t' ' '
}
us=$(printf '300 wait 51 0 301 500\n300 park 77 2000 302 2500\n302 wait 52 4000 - -')
is "$(edges "$T/t.pb")" "$us" "Perfetto: the other thread's last notify or unpark inside each wait"
# The text's times are the same numbers in microseconds; systrace makes no park edges.
is "$(edges "$T/t.txt")" "$(printf '300 wait 51 0 301 500000\n302 wait 52 4000000 - -')" \
	"systrace: the same notify ends the same wait"
