#!/bin/sh
# compare (DESIGN §9) on runs of one simulated build (mkdump --build-seed:
# the same work, seeds add timing jitter): same build on both sides is
# unchanged (exit 0); a method made 50 % slower, or main-thread lock waits
# made twice as long, regress (exit 3) with that method or wait kind at
# the top of the diff. The JSON validates against its schema, the
# statistics agree with a brute-force Mann-Whitney U and Hodges-Lehmann
# estimate, and gate scripts, one-run comparisons, dumps analysed on the
# fly, bad inputs and the examples/ci job are covered.
. tests/lib.sh
SLOW=ConfigLoader.applyDefaults
run() {   # name seed [mkdump options]: a run's dump dir and JSON report
	name=$1 seed=$2
	shift 2
	"$MKDUMP" --build-seed 7 --seed "$seed" --main-messages 300 --records 2000000 --no-truth \
		"$@" "$T/$name" >/dev/null && "$BIN" -q "$T/$name" -o "$T/$name.json"
}
for s in 1 2 3 4 5 6 7 8 9 10; do
	run base$s $s
	run same$s $((s + 10))
	run slow$s $((s + 10)) --slow-method "$SLOW:50"
	run lock$s $((s + 10)) --lock-scale 2
done
side() { for s in 1 2 3 4 5 6 7 8 9 10; do printf '%s ' "$T/$1$s.json"; done; }

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) -o "$T/same.cmp.json"
is "$?" 0 "same build, 10 + 10 runs: exit 0"
is "$(jq_ "$T/same.cmp.json" 'd["verdict"], d["counts"]["regressed"], d["counts"]["inconclusive"]')" \
	"('unchanged', 0, 0)" "same build: every gated metric unchanged"
is "$(valid "$T/same.cmp.json")" valid "same build: the JSON validates against the schema"

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) -o "$T/slow.cmp.json"
is "$?" 3 "one method 50 % slower: exit 3"
is "$(jq_ "$T/slow.cmp.json" 'd["verdict"]')" regressed "slower method: regressed"
like "$(jq_ "$T/slow.cmp.json" 'd["diff"]["methods"]["wall"][0]["method"]')" "$SLOW" \
	"slower method: it tops the self-wall diff"
is "$(jq_ "$T/slow.cmp.json" '[(r["change"], r["significant"]) for r in d["diff"]["methods"]["wall"][:1]]')" \
	"[('grown', True)]" "slower method: grown, significantly"
like "$(jq_ "$T/slow.cmp.json" 'd["diff"]["methods"]["cpu"][0]["method"]')" "$SLOW" \
	"slower method: it tops the self-CPU diff too"
is "$(jq_ "$T/slow.cmp.json" 'round(d["diff"]["methods"]["wall"][0]["head"]["median"] / d["diff"]["methods"]["wall"][0]["base"]["median"], 1)')" \
	1.3 "slower method: its self time grew by a third at least (50 % of its self, sampled)"
is "$(valid "$T/slow.cmp.json")" valid "slower method: the JSON validates"

# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) -o "$T/lock.cmp.json"
is "$?" 3 "main-thread lock waits twice as long: exit 3"
is "$(jq_ "$T/lock.cmp.json" 'd["diff"]["blocking"][0]["kind"]')" monitor "lock waits: monitor tops the blocking diff"
is "$(jq_ "$T/lock.cmp.json" '[m["verdict"] for m in d["metrics"] if m["name"] == "thread.main.blocked_ns.monitor"]')" \
	"['regressed']" "lock waits: thread.main.blocked_ns.monitor regressed"
is "$(jq_ "$T/lock.cmp.json" '[r["kind"] for r in d["diff"]["blocking"] if r["scope"] == "main"][0]')" monitor \
	"lock waits: monitor tops the main thread's blocking diff"

# The statistics of one metric against brute force: every split of the
# pooled 20 values (exact two-sided p, ties as mid-ranks) and the median
# of the 100 pairwise differences.
is "$(python3 - "$T/slow.cmp.json" <<'PY'
import itertools, json, statistics, sys
d = json.load(open(sys.argv[1]))
bad = []
for name in ("thread.main.messages.max_ns", "thread.main.cpu_ns", "process.majflt"):
    m = [m for m in d["metrics"] if m["name"] == name][0]
    x, y = m["base"]["values"], m["head"]["values"]
    pool = x + y
    order = sorted(pool)
    rank = {v: (order.index(v) + 1 + len(order) - order[::-1].index(v)) / 2 for v in pool}
    def u(ys):   # head's U from its ranks
        return sum(rank[v] for v in ys) - len(ys) * (len(ys) + 1) / 2
    obs = u(y)
    stats = [u([pool[i] for i in c]) for c in itertools.combinations(range(20), 10)]
    lo = sum(s <= obs + 1e-9 for s in stats) / len(stats)
    hi = sum(s >= obs - 1e-9 for s in stats) / len(stats)
    p = min(1, 2 * min(lo, hi))
    hl = statistics.median([b - a for a in x for b in y])
    t = m["test"]
    if abs(t["p"] - p) > 1e-9 * max(1, p) or abs(t["shift"]["estimate"] - hl) > 1e-6 * max(1, abs(hl)) \
       or t["method"] != "exact" or m["base"]["median"] != statistics.median(x):
        bad.append((name, t["p"], p, t["shift"]["estimate"], hl))
print(bad or "ok")
PY
)" ok "p-values and shifts equal brute force on three metrics (ties included)"

# Gate policy from flags: only thread.main.cpu_ns gated, the lock waits pass.
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) --metric thread.main.cpu_ns -o "$T/m.json"
is "$?" 0 "--metric chooses the gated metrics"
is "$(jq_ "$T/m.json" '[m["name"] for m in d["metrics"] if m["gated"]]')" "['thread.main.cpu_ns']" \
	"--metric: one gated metric"
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side lock) --max-regress 150% --noise-floor 1s \
	--noise-floor 1GB --noise-floor 100000 -o "$T/loose.json"
is "$?" 0 "thresholds above the change: no regression"
is "$(jq_ "$T/loose.json" 'd["policy"]["max_regress"], d["policy"]["noise_floor"]')" \
	"(1.5, {'ns': 1000000000, 'bytes': 1073741824, 'count': 100000})" "the thresholds are the flags'"
"$BIN" compare --base $(side base) --head $(side slow) --alpha 0.00001 -o "$T/alpha.json"
is "$?" 0 "--alpha below the smallest p of 10 + 10 runs: nothing regressed"
is "$(jq_ "$T/alpha.json" 'd["counts"]["regressed"], d["counts"]["inconclusive"] > 0')" "(0, True)" \
	"--alpha: the moved metrics are inconclusive"

# Few runs: one a side is no test, and no verdict comes from it (issue 35
# item 2: 1 + 1 failed 90 % of same-build comparisons on thresholds alone):
# inconclusive, saying so, with the move it saw; with two a side nothing
# can reach p < 0.05: inconclusive, fatal on request; --require-decision
# exits 5 for either.
"$BIN" compare --base "$T/base1.json" --head "$T/lock1.json" -o "$T/one.json" -o "$T/one.txt"
is "$?" 0 "one run a side: no verdict, so no failed gate (the doubled lock waits were 'regressed' on a threshold)"
like "$(jq_ "$T/one.json" '[m["reason"] for m in d["metrics"] if m["name"] == "thread.main.blocked_ns.monitor"][0]')" \
	"^one run on a side is not a test: worse beyond the threshold \\([0-9.]+ ms\\); 5 \\+ 5 runs can reach p < 0.01" \
	"one run a side: the reason says so, with the move it saw"
is "$(jq_ "$T/one.json" '[m["test"] for m in d["metrics"]][:1]')" "[None]" "one run a side: no test"
is "$(jq_ "$T/one.json" 'd["counts"]["regressed"] + d["counts"]["improved"] + d["counts"]["unchanged"]')" 0 \
	"one run a side: no metric has a verdict"
like "$(head -1 "$T/one.txt")" "^btrace-analyze compare: inconclusive: one run a side is not a test: nothing decided \\(1 \\+ 1 runs\\); the medians of [1-9][0-9]* of [0-9]+ gated metrics moved beyond their thresholds" \
	"one run a side: the headline says nothing was tested"
"$BIN" compare --base "$T/base1.json" --head "$T/lock1.json" --require-decision -o "$T/one.json" 2>"$T/one.err"
is "$?" 5 "one run a side, --require-decision: exit 5"
like "$(cat "$T/one.err")" "error: no decision: inconclusive: one run a side is not a test" "... saying why"
"$BIN" compare --base "$T/base1.json" "$T/base2.json" --head "$T/lock1.json" "$T/lock2.json" --require-decision \
	-o "$T/two.json" 2>"$T/two.err"
is "$?" 5 "two runs a side, --require-decision: exit 5"
like "$(cat "$T/two.err")" "error: no decision: inconclusive: need more runs: 2 \\+ 2" "... saying why"
"$BIN" compare --base "$T/base1.json" "$T/base2.json" --head "$T/lock1.json" "$T/lock2.json" -o "$T/two.txt"
is "$?" 0 "two runs a side: inconclusive is not fatal"
like "$(head -1 "$T/two.txt")" "inconclusive: need more runs: 2 \\+ 2 cannot reach p < 0.01 \\(smallest p 0.167\\)" \
	"two runs a side: the headline says more runs are needed"
like "$(cat "$T/two.txt")" "need more runs: 2 \\+ 2 cannot reach p < 0.01 \\(smallest p 0.167; 5 \\+ 5 can\\)" \
	"two runs a side: a metric's reason says how many would do"
"$BIN" compare --base "$T/base1.json" "$T/base2.json" --head "$T/lock1.json" "$T/lock2.json" \
	--fail-inconclusive -o "$T/two.txt" 2>"$T/err"
is "$?" 3 "--fail-inconclusive: exit 3"
like "$(cat "$T/err")" "gated metrics inconclusive" "--fail-inconclusive: the message says why"

# Text and Markdown.
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) >"$T/slow.txt"
like "$(head -1 "$T/slow.txt")" "^btrace-analyze compare: regressed: ConfigLoader.applyDefaults self (CPU|wall) in messages \\+[0-9.]+ ms \\(\\+[0-9]+ %, p=0.0001\\); [0-9]+ of [0-9]+ gated metrics regressed" \
	"text: the headline names the slower method, its change and p (10 + 10 runs: random relabelings)"
like "$(sed -n 3,4p "$T/slow.txt")" "^metric +base +head +delta +p +n" "text: the compact table comes next"
like "$(grep -A3 '^Methods that changed most: self wall time' "$T/slow.txt" | tail -1)" "^grown +void com.example.app.startup.ConfigLoader.applyDefaults" \
	"text: the slower method heads its list"
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) -o "$T/slow.md"
like "$(head -1 "$T/slow.md")" "^## btrace-analyze compare: regressed" "Markdown: headline"
like "$(cat "$T/slow.md")" "^\\| grown \\| void com\\.example\\.app\\.startup\\.ConfigLoader\\.applyDefaults\\(java\\.util\\.Map\\) \\|" \
	"Markdown: the method row, escaped"
like "$(cat "$T/slow.md")" "^<details><summary>[0-9]+ unchanged metrics</summary>" "Markdown: unchanged metrics folded"
is "$(python3 - "$T/slow.md" <<'PY'
import sys
t = open(sys.argv[1], encoding="utf-8").read()
bad = []
if len(t) >= 60000:
    bad.append(f"{len(t)} characters")
cut = "Left out to stay under GitHub's comment limit" in t
if cut != (t.count("<details>") != t.count("</details>") or "(cut after" in t):
    bad.append("a cut without its note, or a note without a cut")
if t.count("<details>") != t.count("</details>"):
    bad.append("an open <details>")
if "\n| metric | base | head | delta | p | n |" not in t[:5000]:
    bad.append("no compact table first")
print(bad or "ok")
PY
)" ok "Markdown: under 60,000 characters, the compact table first, every <details> closed, a cut said"
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) --top 100000 -o "$T/big.md" 2>/dev/null
like "$(tail -1 "$T/big.md")" "^> Left out to stay under GitHub's comment limit \\(60000 characters here\\): the (diff lists|unchanged metrics)" \
	"Markdown: with every diff row asked for, the least important sections are cut, with a note"
is "$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()) < 60000)' "$T/big.md")" True \
	"Markdown: ... and it stays under 60,000 characters"

# Gate scripts.
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) --rules "$ROOT/examples/ci/gates.lua" -o "$T/g.json"
is "$?" 0 "examples/ci/gates.lua: same build passes"
is "$(jq_ "$T/g.json" '[(m["max_regress"], m["gated"]) for m in d["metrics"] if m["name"] in ("thread.main.wait.monitor.mean_ns", "trace.slices")]')" \
	"[(0.1, True), (0.05, False)]" "gates.lua: per-metric thresholds and gating apply"
cat >"$T/method-gate.lua" <<'LUA'
gate.metric("*", { gate = false })
gate.metric("method.*ConfigLoader.applyDefaults*.self_ns", { gate = true, max_regress = "20%" })
LUA
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side slow) --rules "$T/method-gate.lua" -o "$T/mg.json"
is "$?" 3 "a gate script gating one method's self time: regressed"
is "$(jq_ "$T/mg.json" '[(m["name"].split("ConfigLoader.")[1], m["verdict"]) for m in d["metrics"] if m["gated"]]')" \
	"[('applyDefaults(java.util.Map).self_ns', 'regressed')]" "the gated method metric regressed"
cat >"$T/check.lua" <<'LUA'
gate.check(function(m)
  if m.name == "thread.main.msgs.wall_ns" and m.head.n == 10 and #m.base.values == 10 then
    return "regressed", "custom: " .. m.verdict .. " p=" .. tostring(m.p ~= nil)
  end
end)
LUA
# shellcheck disable=SC2046
"$BIN" compare --base $(side base) --head $(side same) --rules "$T/check.lua" -o "$T/ck.json"
is "$?" 3 "a check's own verdict fails the gate"
is "$(jq_ "$T/ck.json" '[(m["reason"], m["by_script"]) for m in d["metrics"] if m["name"] == "thread.main.msgs.wall_ns"]')" \
	"[('custom: unchanged p=true', True)]" "the check saw the statistics and set the reason"
printf 'gate.metric("x", { max_regress = "lots" })\n' >"$T/bad1.lua"
printf 'gate.check(function(m) return "worse" end)\n' >"$T/bad2.lua"
printf 'gate.check(function(m) while true do end end)\n' >"$T/bad3.lua"
printf 'io.open("/etc/passwd")\n' >"$T/bad4.lua"
for b in 1 2 3 4; do
	"$BIN" compare --base "$T/base1.json" --head "$T/same1.json" --rules "$T/bad$b.lua" -o "$T/bad.txt" 2>"$T/err"
	is "$?" 1 "broken gate script $b: exit 1"
	check "broken gate script $b: no output" test ! -e "$T/bad.txt"
done
like "$(cat "$T/err")" "bad4.lua:1:.*(io|nil)" "a gate script is sandboxed (no io)"
"$BIN" compare --base "$T/base1.json" --head "$T/same1.json" --rules "$T/bad1.lua" 2>&1 | grep -q 'bad1.lua:1: max_regress wants'
is "$?" 0 "a bad setting names the script's line"

# Dumps analysed on the fly equal their reports.
"$BIN" compare -q --base "$T/base1" "$T/base2" --head "$T/slow1" "$T/slow2" -o "$T/fly.json"
"$BIN" compare --base "$T/base1.json" "$T/base2.json" --head "$T/slow1.json" "$T/slow2.json" -o "$T/rep.json"
is "$(python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for x in (a, b): x.pop("base"); x.pop("head")
print(a == b)' "$T/fly.json" "$T/rep.json")" True "dumps analysed here compare as their reports do"

# Bad inputs: the file and byte offset, exit 1, no output.
head -c 2000 "$T/base1.json" >"$T/cut.json"
"$BIN" compare --base "$T/cut.json" --head "$T/same1.json" -o "$T/out.json" 2>"$T/err"
is "$?" 1 "a truncated report: exit 1"
like "$(cat "$T/err")" "cut.json: byte 2000: " "a truncated report: file and byte offset"
check "a truncated report: no output" test ! -e "$T/out.json"
"$BIN" compare --base "$T/same.cmp.json" --head "$T/same1.json" 2>"$T/err"
is "$?" 1 "a compare output is no report"
like "$(cat "$T/err")" "same.cmp.json: byte [0-9]+: not a btrace-analyze report" "names the schema"
printf '{"schema": "btrace-analyze/report@1", "metrics": {"a": "x"}}' >"$T/str.json"
"$BIN" compare --base "$T/str.json" --head "$T/same1.json" 2>"$T/err"
like "$(cat "$T/err")" "str.json: byte 55: a metric's value is not a number" "a metric that is not a number"
"$BIN" compare --base "$T/nope.json" --head "$T/same1.json" 2>/dev/null
is "$?" 1 "a missing run: exit 1"
"$BIN" compare --base "$T/base1.json" 2>/dev/null
is "$?" 2 "no head runs: usage error"
"$BIN" compare --base "$T/base1.json" --head "$T/same1.json" --max-regress much 2>/dev/null
is "$?" 2 "a bad --max-regress: usage error"

# Schema: a wrong verdict does not validate.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["metrics"][0]["verdict"] = "worse"
json.dump(d, open(sys.argv[2], "w"))' "$T/slow.cmp.json" "$T/broken.json"
unlike "$(valid "$T/broken.json")" "^valid$" "the schema rejects a wrong verdict"

# The CI example end to end: three startups a side, startup.lua, gates.lua.
mkdir -p "$T/ci/base" "$T/ci/head"
for s in 1 2 3; do ln -s "$T/base$s" "$T/ci/base/run$s"; ln -s "$T/slow$s" "$T/ci/head/run$s"; done
BTRACE_ANALYZE="$BIN" sh "$ROOT/examples/ci/perf-gate.sh" "$T/ci/base" "$T/ci/head" "$T/ci/out" >"$T/ci.out"
is "$?" 0 "examples/ci/perf-gate.sh: 3 + 3 runs of a slower method are inconclusive, not failed"
like "$(cat "$T/ci.out")" "^btrace-analyze compare: inconclusive: need more runs: 3 \\+ 3" "perf-gate.sh prints the headline: 3 + 3 runs need more"
check "perf-gate.sh writes the Markdown comment" test -s "$T/ci/out/compare.md"
for f in compare.json compare.txt compare.xlsx diff.html; do
	check "perf-gate.sh: one compare writes $f too" test -s "$T/ci/out/$f"
done
is "$(jq_ "$T/ci/out/compare.json" '"startup.duration_ns" in [m["name"] for m in d["metrics"]]')" True \
	"perf-gate.sh: the startup metrics are compared"
