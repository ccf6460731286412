#!/bin/sh
# "Unchanged" shown, and a gate for CI that adds runs as it goes (issue 35):
#   - equivalence: each tested metric's shift interval at level 1 - 2 alpha
#     (two one-sided tests) is R's exact Hodges-Lehmann interval, computed
#     here again from the runs' values; "shown within" exactly when it lies
#     inside +-threshold; the headline counts them; zero thresholds show
#     nothing within;
#   - compare --sequential: between looks (6, 8, 10, 13, 16, 20 runs a
#     side) it says how many runs more (exit 6); a look tests at alpha / 6;
#     the same build stops at the first look as unchanged (its totals shown
#     within), a 1.5x slower startup method stops there as regressed and
#     named; after the last look without a decision, exit 5;
#   - a plain compare that decides nothing says so on stderr;
#   - tests/fixtures/seq_rates.py over random sequences of those pools.
# Build seed 23 (the statistic was tuned on 11).
. tests/lib.sh
SEQ=$ROOT/tests/fixtures/seq_rates.py
run() {   # dir seed records [mkdump options]: a run's JSON report in dir
	_d=$1 _s=$2 _n=$3
	shift 3
	mkdir -p "$_d"
	"$MKDUMP" --build-seed 23 --seed "$_s" --startup cold --records "$_n" --no-truth "$@" "$T/dump" \
		>/dev/null && report "$T/dump" "$_d/r$_s.json"
}
for s in $(seq 1 12); do run "$T/aa" "$s" 20000; done
for s in $(seq 101 106); do run "$T/slow" "$s" 20000 --slow-method "Feed.get(:50"; done
for s in $(seq 1 40); do run "$T/small" "$s" 3000; done
is "$(ls "$T"/aa "$T"/slow "$T"/small | grep -c json)" 58 "58 reports: 12 + 40 of one build, 6 with Feed.get 1.5x slower"
side() {   # dir first last: the reports
	for i in $(seq "$2" "$3"); do printf '%s ' "$1/r$i.json"; done
}

# Equivalence, checked against an independent computation.
# shellcheck disable=SC2046
"$BIN" compare -q --base $(side "$T/aa" 1 5) --head $(side "$T/aa" 6 10) -o "$T/eq.json"
is "$?" 0 "5 + 5 of one build: exit 0"
python3 - "$T/eq.json" >"$T/eq.out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))

def u_counts(n, m):   # the no-ties null distribution of U: counts by value
    dp = {(0, 0): {0: 1}}
    for a in range(n + 1):
        for b in range(m + 1):
            if a or b:
                c = {}
                for u, v in dp.get((a - 1, b), {}).items():
                    c[u] = c.get(u, 0) + v
                for u, v in dp.get((a, b - 1), {}).items():
                    c[u + a] = c.get(u + a, 0) + v
                dp[a, b] = c
    return dp[n, m]

def interval(x, y, level):   # R's wilcox.test(y, x, conf.int = TRUE, exact = TRUE)
    cnt = u_counts(len(x), len(y))
    tot = sum(cnt.values())
    cdf = lambda q: sum(v for u, v in cnt.items() if u <= q) / tot
    k = 1
    while cdf(k) < (1 - level) / 2:
        k += 1
    diffs = sorted(b - a for a in x for b in y)
    return diffs[k - 1], diffs[-k], 1 - 2 * cdf(k - 1)

bad = within = shown = tested = 0
for m in d["metrics"]:
    t = m["test"]
    if not m["gated"] or not t:
        continue
    tested += 1
    e = t["equivalence"]
    lo, hi, lev = interval(m["base"]["values"], m["head"]["values"], 1 - 2 * m["alpha"])
    ok = abs(lo - e["lo"]) <= 1e-6 * max(1, abs(lo)) and abs(hi - e["hi"]) <= 1e-6 * max(1, abs(hi)) \
        and abs(lev - e["level"]) < 1e-9
    inside = lev >= 1 - 2 * m["alpha"] - 1e-12 and -m["threshold"] < lo and hi < m["threshold"]
    ok = ok and e["within"] == inside
    ok = ok and (m["reason"].startswith("shown within") == (inside and m["verdict"] == "unchanged"))
    if not ok:
        bad += 1
        print("mismatch", m["name"], e, (lo, hi, lev), m["reason"][:60], file=sys.stderr)
    within += inside
print("tested", tested, "bad", bad, "within", within)
EOF
read -r _ tested _ bad _ within <"$T/eq.out"
check "every tested gated metric has an equivalence interval ($tested)" test "${tested:-0}" -gt 100
is "$bad" 0 "each is the exact Hodges-Lehmann interval at 1 - 2 alpha, shown within exactly when inside +-threshold"
check "most are shown within ($within of $tested)" test "${within:-0}" -gt $((tested / 2))
like "$(jq_ "$T/eq.json" 'd["headline"]')" "^unchanged: none of [0-9]+ gated metrics moved beyond its threshold.*; $within shown within it \\(equivalence at alpha 0.01\\)" \
	"the headline counts them"
# shellcheck disable=SC2046
"$BIN" compare -q --max-regress 0% --noise-floor 0ns --noise-floor 0B --base $(side "$T/aa" 1 5) \
	--head $(side "$T/aa" 6 10) -o "$T/zero.json"
is "$(jq_ "$T/zero.json" '[m["threshold"] for m in d["metrics"] if m["gated"] and m["test"]["equivalence"]["within"]
	and m["unit"] == "ns" and ".method." not in m["name"]]')" "[]" \
	"zero thresholds: no time total shown within (the methods keep the samples' resolution as their floor)"

# Sequential.
seq_cmp() {   # out base-first base-last head-dir head-first head-last [options]
	_o=$1 _bf=$2 _bl=$3 _hd=$4 _hf=$5 _hl=$6
	shift 6
	# shellcheck disable=SC2046
	"$BIN" compare -q --sequential "$@" --base $(side "$T/aa" "$_bf" "$_bl") \
		--head $(side "$_hd" "$_hf" "$_hl") -o "$T/$_o.json" 2>"$T/$_o.err"
}
seq_cmp s3 1 3 "$T/aa" 4 6
is "$?" 6 "--sequential, 3 + 3: exit 6 (run more)"
is "$(jq_ "$T/s3.json" 'd["headline"]')" "run 3 more a side: the sequence looks at 6, 8, 10, 13, 16 and 20 runs a side (3 + 3 so far)" \
	"... the headline says how many more, and where the looks are"
is "$(jq_ "$T/s3.json" 'd["sequential"]["look"], d["sequential"]["more"], d["verdict"]')" "(0, 3, 'inconclusive')" \
	"... and the JSON: no look, 3 more"
like "$(cat "$T/s3.err")" "^btrace-analyze: note: run 3 more" "... a note on stderr, not an error"
seq_cmp s57 1 5 "$T/aa" 6 12
is "$?" 6 "5 + 7: the smaller side counts: exit 6, $(jq_ "$T/s57.json" 'd["sequential"]["more"]') more"
seq_cmp s6 1 6 "$T/aa" 7 12
is "$?" 0 "6 + 6 of one build: exit 0 at the first look"
like "$(jq_ "$T/s6.json" 'd["headline"]')" "^unchanged: .*\\(sequential: look 1 of 6, 6 runs a side, alpha 0.00167 a look\\)$" \
	"... unchanged, at look 1 of 6"
is "$(jq_ "$T/s6.json" 'sorted({m["alpha"] for m in d["metrics"] if m["gated"]}), d["sequential"]["decided"]')" \
	"([0.0016666666666666668], True)" "... every gated metric tested at alpha / 6"
is "$(jq_ "$T/s6.json" 'all(m["test"]["equivalence"]["within"] for m in d["metrics"] if m["name"] in
	("startup.ttid_ns", "startup.main.cpu_ns", "thread.main.msgs.wall_ns", "thread.main.msgs.cpu_ns"))')" True \
	"... its totals shown within their thresholds"
seq_cmp r6 1 6 "$T/slow" 101 106
is "$?" 3 "6 + 6 with Feed.get 1.5x slower: exit 3 at the first look"
like "$(jq_ "$T/r6.json" 'd["headline"]')" "^regressed: .*Feed\\.get.*\\(sequential: look 1 of 6" "... naming Feed.get"
# A TTID threshold between its move and its interval's far end: not moved,
# not shown within.
floor=$(jq_ "$T/s6.json" '[(abs(m["delta"]) + max(abs(e["lo"]), abs(e["hi"]))) / 2e6 for m in d["metrics"]
	if m["name"] == "startup.ttid_ns" for e in [m["test"]["equivalence"]] if abs(m["delta"]) < max(abs(e["lo"]), abs(e["hi"]))][0]')
printf 'gate.metric("startup.ttid_ns", { max_regress = "0%%", noise_floor = "%.4fms" })\n' "$floor" >"$T/ttid.lua"
seq_cmp t6 1 6 "$T/aa" 7 12 --rules "$T/ttid.lua"
is "$?" 6 "6 + 6, TTID's threshold ${floor} ms, inside its interval: exit 6"
is "$(jq_ "$T/t6.json" 'd["headline"]')" "run 2 more a side: at look 1 of 6 (6 runs a side, alpha 0.00167 a look) nothing moved, but startup time to initial display is not yet shown within its threshold" \
	"... nothing moved, but TTID is not shown within: 2 more to the next look"
is "$(jq_ "$T/t6.json" 'd["sequential"]["not_shown_within"]')" startup.ttid_ns "... the JSON names it"
# shellcheck disable=SC2046
"$BIN" compare -q --sequential --max-regress 0% --noise-floor 0ns --noise-floor 0B \
	--base $(side "$T/small" 1 20) --head $(side "$T/small" 21 40) -o "$T/z20.json" 2>"$T/z20.err"
is "$?" 5 "... 20 + 20, the last look, still nothing shown: exit 5"
like "$(jq_ "$T/z20.json" 'd["headline"]')" "^inconclusive: no decision at the last look: at look 6 of 6" "... no decision at the last look"
like "$(cat "$T/z20.err")" "error: no decision: inconclusive: .* \\(--sequential\\)$" "... and stderr names the option that asked"

# A plain compare that decides nothing says so.
# shellcheck disable=SC2046
"$BIN" compare --base $(side "$T/aa" 1 3) --head $(side "$T/slow" 101 103) -o "$T/p3.txt" 2>"$T/p3.err"
is "$?" 0 "plain 3 + 3: exit 0"
like "$(cat "$T/p3.err")" "note: nothing decided: inconclusive: need more runs: 3 \\+ 3 cannot reach p < 0.01" \
	"... and stderr says nothing was decided"

# Random sequences of the pools.
out=$(python3 "$SEQ" "$BIN" 1 10 "$T/aa" "$T/aa")
is "$(printf '%s\n' "$out" | sed -n 's/^verdict.unchanged //p')" 10 "10 sequences of one build: all stop unchanged"
is "$(printf '%s\n' "$out" | sed -n 's/^runs.max //p')" 6 "... at 6 runs a side"
out=$(python3 "$SEQ" "$BIN" 2 10 "$T/aa" "$T/slow" Feed.get)
is "$(printf '%s\n' "$out" | sed -n 's/^named //p')" 10 "10 sequences with Feed.get 1.5x slower: all stop regressed naming it"
