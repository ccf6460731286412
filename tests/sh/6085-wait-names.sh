#!/bin/sh
# One wait, one name (issue 36 item 6): the waits table, the startup
# findings, the gate's holders and the Perfetto export's flow arrows name
# a main-thread wait by the innermost app frame of the waiting stack and
# the waker's, never by Unsafe.park / Object.notify. The truth is a walk up
# the stacks written here from the rule (tests/fixtures/appcode.py: a
# method whose class is outside the platform's packages; synthetic and
# native frames are not the app's), not the engine's bt_app_node.
. tests/lib.sh
R=$ROOT/examples/startup.lua

"$MKDUMP" --records 12000 --seed 61 --startup cold --no-truth "$T/d" >/dev/null
for d in "$ROOT/examples/sampling.bin" "$T/d"; do
	n=$(basename "$d")
	"$BIN" import -q "$d" -o "$T/$n.db"
	"$BIN" -q "$T/$n.db" --rules "$R" -o "$T/$n.json"
	"$BIN" query -q "$T/$n.db" "SELECT e.id, bt_app_node(coalesce(s.node_id, e.waiter_node_id)),
		bt_app_node(e.waker_node_id) FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id" \
		--format tsv | sed 1d >"$T/$n.app"
	python3 - "$T/$n.db" "$T/$n.json" "$T/$n.app" "$n" <<'EOF'
import json, re, sqlite3, sys
db, rep, appf, name = sys.argv[1:]
sys.path.insert(0, "tests/fixtures")
from appcode import is_app
c = sqlite3.connect(db)
node = {i: (p, f) for i, p, f in c.execute("SELECT id, parent_id, frame_id FROM nodes")}
frame = dict(c.execute("SELECT id, name FROM frames"))

def app(n):   # (app frame node, else the leaf)
    at = n
    while at is not None:
        if is_app(frame[node[at][1]]):
            return at
        at = node[at][0]
    return n

def fname(n):
    return frame[node[n][1]] if n is not None else ""

main = c.execute("SELECT tid FROM threads WHERE is_main").fetchone()[0]
truth = {}
for ts, kind, dur, wnode, knode, ktid in c.execute(
        "SELECT e.ts, e.kind, e.dur, coalesce(s.node_id, e.waiter_node_id), e.waker_node_id, e.waker_tid "
        "FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id WHERE e.waiter_tid = ?", (main,)):
    w = app(wnode)
    truth[(ts, kind, dur)] = (fname(w), fname(node[w][0]) if node[w][0] else "", fname(app(knode)) if knode else "")
r = json.load(open(rep))
fails = 0
def check(ok, what):
    global fails
    fails += not ok
    print("%s - %s: %s" % ("ok" if ok else "not ok", name, what))

check(any(not is_app(frame[node[n][1]]) for n in
          [s for s, in c.execute("SELECT s.node_id FROM blocking_edges e JOIN samples s ON s.id = e.waiter_sample_id")]),
      "some waits stop in platform code (Unsafe.park, Object.wait), so the naming is tested")
rows = r["tables"]["main_waits"]["rows"]
got = {(x[0], x[1], x[2]): (x[3], x[4], x[6]) for x in rows}
check(len(rows) == len(truth) > 0 and got == truth,
      "the waits table: %d waits named by their app frames, caller and the waker's (%s)"
      % (len(rows), [(k, got.get(k), v) for k, v in truth.items() if got.get(k) != v][:2]))
short = lambda s: re.sub(r"\(.*", "", s).split(" ")[-1].split(".")[-1]
fs = [f for f in r["findings"] if f["rule"] == "main-lock-wait" and "kind" in f["evidence"]]   # not the cap's summary
ok = True
for f in fs:
    t = truth.get((f["ts"], f["evidence"]["kind"], f["dur"]))
    m = re.search(r" in (\S+), released by .* in (\S+)$", f["message"])
    ok &= bool(t and m and f["evidence"]["caller"] == t[0] and f["evidence"].get("waker_method", "") == t[2]
               and m.group(1).endswith(short(t[0])) and m.group(2).endswith(short(t[2])))
check(len(fs) > 0 and ok, "%d startup findings name the same frames" % len(fs))
held = {k for k in r["metrics"] if re.match(r"startup\.main\.wait\.\w+\.by\..*\.ns$", k)}
want = {"startup.main.wait.%s.by.%s.ns" % (k[1], v[2]) for k, v in truth.items() if v[2]}
check(len(held & want) > 0 and all(h[len("startup.main.wait."):].split(".by.")[1][:-3] in
                                    {v[2] for v in truth.values()} | {"(unknown)"} for h in held),
      "the gate's %d holders are the waker's app frames" % len(held))
ok, n = True, 0
edges = {i: (w, k) for i, w, k in c.execute("SELECT e.id, coalesce(s.node_id, e.waiter_node_id), e.waker_node_id "
                                            "FROM blocking_edges e LEFT JOIN samples s ON s.id = e.waiter_sample_id")}
for line in open(appf):
    i, w, k = (int(x) if x else None for x in line.rstrip("\n").split("\t"))
    ew, ek = edges[i]
    ok &= w == (app(ew) if ew else None) and k == (app(ek) if ek else None)
    n += 1
check(n == len(edges) > 0 and ok, "SQL's bt_app_node, which the Perfetto export's flows read (6400), "
      "finds the same frames for all %d waits" % n)
sys.exit(1 if fails else 0)
EOF
	is "$?" 0 "$n: every report names each wait by its app frames"
done
