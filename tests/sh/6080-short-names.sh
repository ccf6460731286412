#!/bin/sh
# Short method names wherever a person reads (issue 21): the text and
# Markdown reports (tables, findings' data, the startup summary), the
# workbook's visible cells, pprof's function names and the folded stacks
# hold no full signature by default, and signatures again under
# --full-names; JSON keeps them whole either way; the workbook keeps them in
# folded "signature" columns and pprof in system_name; two overloads read
# apart everywhere. pprof: -tagfocus=thread=main finds the main thread
# whatever its name (go tool pprof), and time_nanos is wall-clock where the
# trace tells it (iOS), else absent (a dump knows only boot time).
. tests/lib.sh
EX=$ROOT/examples/sampling.bin
R=$ROOT/examples/startup.lua
CHECK=tests/fixtures/check_xlsx.py
STACKS=tests/fixtures/check_stacks.py
PROTO=engine/proto/profile.proto
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"
pp() { go tool pprof "$@" 2>/dev/null; }

"$MKDUMP" --methods 12 --overloads "$T/ov" >/dev/null
# The full signatures: every frame name with a return type and parameters.
sigs() {   # input file
	"$BIN" query -q "$1" "SELECT name FROM frames WHERE name LIKE '% %(%)'" --format tsv | sed 1d >"$2"
}
sigs "$EX" "$T/sigs"
sigs "$T/ov" "$T/ov.sigs"
like "$(wc -l <"$T/sigs")" '^[1-9][0-9]+$' "the example has signatures to look for"
found() {   # file sigs: how many signatures appear in the file
	grep -F -o -f "$2" "$1" | sort -u | wc -l | tr -d ' '
}

# ---- the text and Markdown reports, JSON
for f in txt md json; do
	"$BIN" -q "$EX" --rules "$R" -o "$T/short.$f"
	is "$?" 0 "$f: exit 0"
	"$BIN" -q "$EX" --rules "$R" --full-names -o "$T/full.$f"
done
for f in txt md; do
	is "$(found "$T/short.$f" "$T/sigs")" 0 "$f: no full signature by default"
	like "$(found "$T/full.$f" "$T/sigs")" '^[1-9][0-9]+$' "$f --full-names: the signatures"
done
like "$(cat "$T/short.txt")" "from first main-thread record to Choreographer\\.doFrame " \
	"text: the startup summary's end, short"
like "$(cat "$T/short.txt")" "top by CPU: LayoutInflater\\.inflate [0-9.]+ ms" "text: its top methods, short"
like "$(cat "$T/short.txt")" "^        method: ConfigLoader\\.applyDefaults$" "text: findings' data, short"
like "$(cat "$T/short.txt")" "^        waker_method: DbWriter\\\$BatchTask\\.run$" "text: a waker's method, short"
like "$(cat "$T/short.txt")" "^      ActivityThread\\.main  " "text: the call tree keeps its indent"
like "$(cat "$T/short.txt")" "^4242  com\\.example\\.app  " "text: thread names as they are"
like "$(found "$T/short.json" "$T/sigs")" '^[1-9][0-9]+$' "json: full signatures by default"
is "$(jq_ "$T/short.json" '[r[0] for r in d["tables"]["main_self"]["rows"]]')" \
	"$(jq_ "$T/full.json" '[r[0] for r in d["tables"]["main_self"]["rows"]]')" \
	"json: the same method cells with and without --full-names"
is "$(python3 -c 'import json, sys
d, sigs = json.load(open(sys.argv[1])), set(open(sys.argv[2]).read().split("\n"))
print(sorted({f["evidence"]["method"] for f in d["findings"] if "method" in f["evidence"]} - sigs))' \
	"$T/short.json" "$T/sigs")" "[]" "json: findings' methods are full signatures"

# ---- two overloads in one trace
"$BIN" -q "$T/ov" >"$T/ov.txt"
like "$(cat "$T/ov.txt")" "^C0\\.m1\\(int\\) " "text: an overload reads with its parameters"
like "$(cat "$T/ov.txt")" "^C0\\.m1\\(String\\) " "text: and the other, apart"
is "$(found "$T/ov.txt" "$T/ov.sigs")" 0 "text: the overloads' signatures left out"
is "$(sed -n '/by self time (bottom-up)/,/^$/p' "$T/ov.txt" | awk 'NR > 4 && NF { print $1 }' | sort | uniq -d)" "" \
	"text: no two methods read alike"
"$BIN" -q "$T/ov" -o "$T/ov.md"
like "$(cat "$T/ov.md")" "\\| C0\\.m1\\(String\\) \\|" "md: the overload's parameters"

# ---- xlsx: short names in cells and charts, signatures folded away, MiB
xlsx() {   # name input options...: the workbook and JSON of one analysis, checked
	name=$1 in=$2; shift 2
	"$BIN" -q "$in" "$@" -o "$T/$name.xlsx"
	"$BIN" -q "$in" "$@" -o "$T/$name.json"
}
visible() {   # xlsx sigs: how many visible cells hold a full signature
	python3 - "$1" "$2" <<'PY'
import sys, openpyxl
sigs = set(open(sys.argv[2]).read().split("\n")) - {""}
wb, n = openpyxl.load_workbook(sys.argv[1]), 0
for ws in wb:
    hidden = {k for k, d in ws.column_dimensions.items() if d.hidden}
    for row in ws.iter_rows():
        for c in row:
            n += c.column_letter not in hidden and c.value in sigs
print(n)
PY
}
xlsx ex "$EX" --rules "$R"
is "$(python3 "$CHECK" report "$T/ex.xlsx" "$T/ex.json" "$BIN" "$EX")" ok \
	"xlsx: openpyxl reads short names, each a short form of its signature column, none shared"
is "$(visible "$T/ex.xlsx" "$T/sigs")" 0 "xlsx: no visible cell holds a full signature"
xlsx exf "$EX" --rules "$R" --full-names
is "$(python3 "$CHECK" report "$T/exf.xlsx" "$T/exf.json" "$BIN" "$EX" full)" ok \
	"xlsx --full-names: every name in full, no signature columns"
like "$(visible "$T/exf.xlsx" "$T/sigs")" '^[1-9][0-9]+$' "xlsx --full-names: signatures in visible cells"
unlike "$(python3 "$CHECK" report "$T/ex.xlsx" "$T/ex.json" "$BIN" "$EX" full)" '^ok' \
	"the checker rejects short names where full ones are due"
xlsx ov "$T/ov"
is "$(python3 "$CHECK" report "$T/ov.xlsx" "$T/ov.json" "$BIN" "$T/ov")" ok \
	"xlsx: overloads read apart (the checker fails on two methods under one name)"
is "$(python3 -c 'import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Main thread self time"]
print(sorted(c.value for c in ws["A"][2:] if c.value and c.value.startswith("C0.m1(")))' "$T/ov.xlsx")" \
	"['C0.m1(String)', 'C0.m1(int)']" "xlsx: the pair m1(int), m1(String)"
is "$(python3 -c 'import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["Threads"]
print(ws.cell(row=2, column=[c.value for c in ws[2]].index("alloc MiB") + 1).value,
      ws.cell(row=3, column=[c.value for c in ws[2]].index("alloc MiB") + 1).number_format)' "$T/ex.xlsx")" \
	"alloc MiB #,##0.0\" MiB\"" "xlsx: bytes in MiB (binary units), the heading says so"
is "$(python3 -c 'import sys, json, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Threads"]
t = json.load(open(sys.argv[2]))["tables"]["threads"]
k = t["columns"].index("alloc_bytes")
print(all(round(ws.cell(row=3 + i, column=k + 1).value * 1048576) == r[k] for i, r in enumerate(t["rows"])))' \
	"$T/ex.xlsx" "$T/ex.json")" True "xlsx: a MiB cell times 2^20 is the byte count"

# ---- pprof: name short, system_name full; tagfocus; time_nanos
pprof_fns() {   # profile.pb.gz: "time_nanos T" and "fn NAME<TAB>SYSTEM" lines
	gunzip -c "$1" | protoc --decode=perftools.profiles.Profile -I engine/proto $PROTO | python3 $STACKS functions
}
"$BIN" -q "$EX" --pprof "$T/ex.pb.gz" --folded "$T/ex.folded"
"$BIN" -q "$EX" --full-names --pprof "$T/exf.pb.gz" --folded "$T/exf.folded"
pprof_fns "$T/ex.pb.gz" >"$T/ex.fns"
pprof_fns "$T/exf.pb.gz" >"$T/exf.fns"
is "$(sed -n 's/^fn //p' "$T/ex.fns" | cut -f1 | grep -c -x -F -f "$T/sigs")" 0 "pprof: no Function.name is a full signature"
is "$(sed -n 's/^fn //p' "$T/ex.fns" | cut -f2 | grep -c -x -F -f "$T/sigs")" "$(wc -l <"$T/sigs" | tr -d ' ')" \
	"pprof: every signature is a Function.system_name"
is "$(sed -n 's/^fn //p' "$T/ex.fns" | cut -f1 | sort | uniq -d)" "" "pprof: no two functions share a name"
is "$(sed -n 's/^fn //p' "$T/exf.fns" | awk -F'\t' '$1 != $2' | wc -l | tr -d ' ')" 0 \
	"pprof --full-names: name = system_name"
"$BIN" -q "$T/ov" --pprof "$T/ov.pb.gz" --folded "$T/ov.folded"
is "$(pprof_fns "$T/ov.pb.gz" | sed -n 's/^fn //p' | grep '\.m1(' | sort)" \
	"$(printf 'C0.m1(String)\tvoid com.example.gen.C0.m1(java.lang.String)\nC0.m1(int)\tvoid com.example.gen.C0.m1(int)')" \
	"pprof: an overloaded pair, two names, two signatures"
like "$(pp -top "$T/ov.pb.gz")" "C0\\.m1\\(String\\)" "go tool pprof -top shows the overload's parameters"
like "$(pp -top -sample_index=wall "$T/ex.pb.gz")" " LayoutInflater\\.inflate\$" "go tool pprof -top shows short names"

"$BIN" import -q "$EX" -o "$T/ex.db"
main_wall=$(q "$T/ex.db" "SELECT sum(self_ns) FROM calltree WHERE tid = (SELECT tid FROM threads WHERE is_main)")
is "$(q "$EX" "SELECT name FROM threads WHERE is_main")" com.example.app "the example's main thread is named after the app"
pp -raw -tagfocus=thread=main "$T/ex.pb.gz" | python3 $STACKS raw >"$T/raw"
is "$(sed -n 's/^total //p' "$T/raw" | cut -d' ' -f1)" "$main_wall" \
	"go tool pprof -tagfocus=thread=main: the main thread's wall, as docs/exports.md and help say"
pp -raw -tagfocus=thread_name=com.example.app "$T/ex.pb.gz" | python3 $STACKS raw >"$T/raw"
is "$(sed -n 's/^total //p' "$T/raw" | cut -d' ' -f1)" "$main_wall" "-tagfocus=thread_name=NAME: the same"
like "$(pp -top -sample_index=offcpu -tagfocus=thread=main "$T/ex.pb.gz" | tr '\n' ' ')" \
	"tagfocus=thread=main .*Showing nodes accounting for [1-9]" "docs/exports.md's go tool pprof -top -sample_index=offcpu -tagfocus=thread=main"
is "$(sed -n 's/^time_nanos //p' "$T/ex.fns")" 0 "pprof of a dump: no time_nanos (its clock is boot time)"
unlike "$(pp -top "$T/ex.pb.gz")" "^Time: " "and go tool pprof shows no 1970 date"

python3 "$ROOT/tests/fixtures/mkios.py" "$T/ios" --seed 11 --samples 600 >/dev/null
"$BIN" import -q "$T/ios/trace.db" --symbols "$T/ios/symbols.txt" -o "$T/ios.db"
"$BIN" -q "$T/ios.db" --pprof "$T/ios.pb.gz" -o "$T/ios.json"
wall=$(($(sqlite3 "$T/ios/trace.db" "SELECT start_time FROM BTraceModel") * 1000 + \
	$(q "$T/ios.db" "SELECT min(ts) FROM samples")))
is "$(pprof_fns "$T/ios.pb.gz" | sed -n 's/^time_nanos //p')" "$wall" \
	"pprof of an iOS trace: time_nanos is the wall clock of its first sample (start_time + ts)"
like "$(pp -top "$T/ios.pb.gz")" "^Time: [A-Z][a-z]+ [0-9]+, 20[0-9][0-9]" "and go tool pprof shows its date"

# ---- folded stacks
is "$(found "$T/ex.folded" "$T/sigs")" 0 "folded: no full signature by default"
like "$(found "$T/exf.folded" "$T/sigs")" '^[1-9][0-9]+$' "folded --full-names: the signatures"
like "$(cat "$T/ex.folded")" "^com\\.example\\.app;ZygoteInit\\.main;" "folded: the thread, then short frames"
is "$(grep -c ';C0\.m1(' "$T/ov.folded")" 2 "folded: an overloaded pair, two frames"
is "$(python3 $STACKS folded "$T/ex.folded" com.example.app | sed -n 's/^total //p')" \
	"$(python3 $STACKS folded "$T/exf.folded" com.example.app | sed -n 's/^total //p')" \
	"folded: the same total with either names"
