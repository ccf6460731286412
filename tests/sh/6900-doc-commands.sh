# The README's tour and examples/README.md run as written (issue 21):
# every command in their sh blocks, in a directory laid out as they
# assume (the examples, a build/ with the binary, reports of a base and a
# head build, a rule file of one's own), exits as documented, says no
# error, and the output the tour quotes is what the tool prints.
. tests/lib.sh
W=$T/w
mkdir -p "$W/build" "$W/base" "$W/head"
ln -s "$BIN" "$W/build/btrace-analyze"
cp -r "$ROOT/examples" "$W/examples"
cp "$ROOT/examples/sampling.bin" "$ROOT/examples/sampling-mapping.bin" "$W/"
cp "$ROOT/examples/sampling-mapping.bin" "$W/other-mapping.bin"
printf '# compiler: R8\ncom.example.app.ExampleApp -> com.example.app.ExampleApp:\n    void onCreate() -> onCreate\n' \
	>"$W/mapping.txt"
cat >"$W/my.lua" <<'LUA'
bt.rule{ id = "my-rule", params = { threshold_ms = 10 }, run = function(p)
  for r in bt.rows("SELECT msg_id, dur FROM messages WHERE dur >= ?", p.threshold_ms * 1e6) do
    bt.finding{ severity = "warning", message = string.format("message %d ran %.1f ms", r.msg_id, r.dur / 1e6) }
  end
end }
LUA
# Ten runs of the base build (what --calibrate needs), five of the head
# (the fewest a gate can decide on).
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$MKDUMP" --records 3000 --seed $((40 + i)) --startup cold --no-truth "$T/b$i" >/dev/null
	"$BIN" -q "$T/b$i" -o "$W/base/r$i.json"
done
for i in 1 2 3 4 5; do
	"$MKDUMP" --records 3000 --seed $((60 + i)) --startup cold --no-truth "$T/h$i" >/dev/null
	"$BIN" -q "$T/h$i" -o "$W/head/r$i.json"
done

# Two versions' fleets for the README's fleet section: a dump per trace,
# version 2 with one method 40 ms slower and longer monitor waits.
for i in 1 2 3 4 5 6 7 8; do
	"$MKDUMP" --build-seed 23 --seed $((80 + i)) --startup cold --records 4000 --no-truth \
		"$W/dumps/v1/t$i" >/dev/null
	"$MKDUMP" --build-seed 23 --seed $((90 + i)) --startup cold --records 4000 --no-truth \
		--slow-method 'Compressor.gzip(:260' --lock-add 5 "$W/dumps/v2/t$i" >/dev/null
done

run_doc() {   # markdown-file [section]
	python3 "$ROOT/tests/fixtures/doc_commands.py" "$@" >"$T/cmds"
	python3 - "$T/cmds" "$W" "$1" <<'PY'
import os, subprocess, sys
cmds = open(sys.argv[1]).read().split("\0")
env = dict(os.environ, B="build/btrace-analyze")
for c in cmds:
    word = c.split()[0]
    if word in ("make",):      # the set-up itself: what CI runs
        print("ok - %s: %s (the set-up, run by CI)" % (sys.argv[3], c.split("\n")[0]))
        continue
    if word == "flamegraph.pl" and subprocess.call("command -v flamegraph.pl >/dev/null", shell=True):
        print("ok - %s: %s # skip: flamegraph.pl not installed" % (sys.argv[3], c))
        continue
    if c.startswith("B="):
        continue
    p = subprocess.run(c, shell=True, cwd=sys.argv[2], env=env, capture_output=True, text=True,
                       timeout=300)
    gate = "--fail-on" in c or c.startswith("$B compare") and "--calibrate" not in c
    good = p.returncode == 0 or (gate and p.returncode == 3)
    errors = [l for l in p.stderr.split("\n") if "error:" in l and "gate failed" not in l]
    good = good and not errors
    print("%s - %s: %s" % ("ok" if good else "not ok", sys.argv[3], c.split("\n")[0]))
    if not good:
        print("#   exit %d; stderr: %s" % (p.returncode, p.stderr.strip()[:400]))
PY
}
run_doc "$ROOT/README.md" "A short tour"
run_doc "$ROOT/README.md" "Fleets: which methods and waits moved between two versions"
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["verdict"], d["policy"]["fleet"]["head"]["reports"])' \
	"$W/fleet.json")" "regressed 8" "README's fleet section: 8 traces a version, the slower one regressed"
is "$(python3 -c 'import json, sys; g = json.load(open(sys.argv[1]))["groups"]["version"]["values"]; print(g["1"]["traces"], g["2"]["traces"])' \
	"$W/versions.json")" "8 8" "README's fleet section: batch made a report per trace, merge grouped them by version"
run_doc "$ROOT/examples/README.md"

# The tour quotes the startup summary of the bundled example: it must be
# what the tool prints (spaces aside).
python3 - "$ROOT/README.md" "$W" <<'PY'
import re, subprocess, sys
text = open(sys.argv[1]).read()
quoted = text.split("bundled example is a cold start:\n", 1)[1].split("\n# then", 1)[0]
lines = [re.sub(r"\s+", " ", l.lstrip("#").strip()) for l in quoted.split("\n")]
lines = [l for l in lines if l and l != "..."]
out = subprocess.run("build/btrace-analyze examples/sampling.bin --rules examples/startup.lua --width 100",
                     shell=True, cwd=sys.argv[2], capture_output=True, text=True).stdout
printed = [re.sub(r"\s+", " ", l.strip()) for l in out.split("\n")]
missing = [l for l in lines if not any(l == p or (l.endswith("...") and p.startswith(l[:-3].strip()))
                                       for p in printed)]
print("%s - README's quoted startup summary is what the tool prints (%d lines)" %
      ("not ok" if missing or not lines else "ok", len(lines)))
for l in missing:
    print("#   not printed: " + l)
PY
