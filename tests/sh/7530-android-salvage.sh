#!/bin/sh
# Salvage of Android dumps and mappings cut short (DESIGN §11, issue 17):
# a dump cut inside a record keeps the records before it, a mapping cut
# inside an entry the entries before it; the trace is marked partial in
# meta, a diagnostic gives the offset and what was lost, every report says
# so at its top, exit 0. --strict refuses the same files (exit 1, the
# truncation error, no output). Where records and entries start comes from
# the independent reader (verify_dump.py --offsets), checked against the
# writer's truth first.
. tests/lib.sh

# Record and entry offsets of a fixture: r (records), m (methods), t (threads).
offsets() {   # fixture
	python3 tests/fixtures/verify_dump.py --offsets "$FIX/$1" >"$T/$1.offs" || echo "# verify_dump failed on $1"
}
nth() {   # fixture kind n (0-based): the offset, or the file's size past the last
	awk -v k="$2" -v n="$3" '$1 == k { if (i++ == n) { print $2; f = 1; exit } } END { if (!f) print "" }' "$T/$1.offs"
}
meta() {   # db key
	q "$1" "SELECT value FROM meta WHERE key = '$2'"
}

# strict NAME DIR PATTERN: --strict refuses the cut input with the
# truncation error, for import and analyze, and writes nothing.
strict() {
	rm -f "$T"/out.* "$T"/rep.*
	err=$("$BIN" import --strict "$2" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$1: --strict exits 1"
	like "$err" "^btrace-analyze: error: $3" "$1: --strict gives the truncation error"
	"$BIN" analyze --strict "$2" -o "$T/rep.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^out\.\|^rep\.')" 1:0 "$1: --strict analyze exits 1, nothing written"
}

# dump_cut NAME FIXTURE K DELTA WHAT: sampling.bin cut DELTA bytes into
# record K (inside its WHAT); records 0..K-1 imported, partial, strict fails.
dump_cut() {
	name=$1 fx=$2 k=$3 delta=$4 what=$5
	start=$(nth "$fx" r "$k")
	cut=$((start + delta))
	d=$(copy_dump "$fx" "$name")
	head -c "$cut" "$FIX/$fx/sampling.bin" >"$d/sampling.bin"
	count=$(truth "$FIX/$fx" records_written)
	err=$("$BIN" import "$d" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?" 0 "$name: exit 0"
	is "$(meta "$T/$name.db" records)" "$k" "$name: the $k intact records imported"
	is "$(meta "$T/$name.db" partial)" 1 "$name: meta partial = 1"
	detail="'.*sampling.bin' is cut at offset $cut in record $k \\(its $what, from offset $start\\): $((cut - start)) bytes lost, $((count - k)) of the $count records its header counts; $k records imported"
	like "$(q "$T/$name.db" "SELECT count || ' ' || detail FROM diagnostics WHERE code = 'truncated_dump'")" "^1 $detail\$" \
		"$name: the diagnostic gives the offset and what was lost"
	like "$(meta "$T/$name.db" partial_reason)" "^$detail\$" "$name: meta partial_reason says the same"
	like "$err" "warning: $detail \\[truncated_dump\\]" "$name: warned on stderr"
	like "$("$BIN" -q "$T/$name.db" | head -1)" "^PARTIAL   the input is cut short: $detail\$" "$name: the report's first line"
	is "$(q "$T/$name.db" "SELECT count(*) FROM diagnostics WHERE code = 'record_count_mismatch'")" 0 \
		"$name: no count mismatch besides"
	strict "$name" "$d" "truncated $what of record $k in '.*sampling.bin' at offset [0-9]+: need [0-9]+ bytes, [0-9]+ left \\(record starts at offset $start\\)"
}

offsets small
offsets v3
records=$(grep -c '^r ' "$T/small.offs")
is "$records" "$(truth "$FIX/small" records_written)" "the reader finds the writer's records"
is "$(grep -c '^m ' "$T/small.offs")" "$(truth "$FIX/small" mapping_entries_written)" "and its mapping entries"

# inside a record's 40-byte header, at the first, a middle and the last record
dump_cut hdr0 small 0 6 header
dump_cut hdr1000 small 1000 39 header
dump_cut hdrlast small $((records - 1)) 1 header
# inside a record's body: its counters (v5), its depths, its frames
dump_cut counters small 1500 44 "allocation counters"
dump_cut rusage small 1600 60 "rusage counters"
dump_cut depths small 700 72 "stack depth"
last=$(nth small r $((records - 1)))
size=$(wc -c <"$FIX/small/sampling.bin")
dump_cut frames small $((records - 1)) $((size - last - 3)) stack
# another layout (v3: no counters), cut in a stack
v3n=$(grep -c '^r ' "$T/v3.offs")
dump_cut v3frames v3 $((v3n / 2)) 60 stack

# between records: nothing tells it from a shorter dump but the header's
# count, counted as before; not partial
d=$(copy_dump small between)
head -c "$(nth small r 1200)" "$FIX/small/sampling.bin" >"$d/sampling.bin"
"$BIN" import -q "$d" -o "$T/between.db"
is "$?:$(meta "$T/between.db" records):$(meta "$T/between.db" partial)" "0:1200:" "between records: 1200 records, exit 0, not partial"
is "$(q "$T/between.db" "SELECT count FROM diagnostics WHERE code = 'record_count_mismatch'")" 1 "between records: the count mismatch counted"
"$BIN" import -q --strict "$d" -o "$T/between2.db"
is "$?" 0 "between records: --strict takes it too"

# the samples of a salvaged dump are those of its intact records: the same
# as the whole dump's first records
whole=$T/whole.db
"$BIN" import -q "$FIX/small" -o "$whole"
n1000=$(q "$T/hdr1000.db" "SELECT count(*) FROM samples")
is "$(q "$T/hdr1000.db" "SELECT sum(ts) FROM samples")" "$(q "$whole" "SELECT sum(ts) FROM (SELECT ts FROM samples ORDER BY id LIMIT $n1000)")" \
	"salvaged samples equal the whole dump's first ones"

# ---- the mapping
nm=$(grep -c '^m ' "$T/small.offs")
nt=$(grep -c '^t ' "$T/small.offs")
msize=$(wc -c <"$FIX/small/sampling-mapping.bin")

# map_cut NAME CUT DETAIL STRICT: mapping cut at CUT
map_cut() {
	name=$1 cut=$2 detail=$3 serr=$4
	d=$(copy_dump small "$name")
	head -c "$cut" "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
	err=$("$BIN" import "$d" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?:$(meta "$T/$name.db" records)" "0:$records" "$name: exit 0, every record imported"
	is "$(meta "$T/$name.db" partial)" 1 "$name: meta partial = 1"
	like "$(q "$T/$name.db" "SELECT count || ' ' || detail FROM diagnostics WHERE code = 'truncated_mapping'")" "^1 $detail\$" \
		"$name: the diagnostic gives the offset and what was lost"
	like "$err" "warning: $detail \\[truncated_mapping\\]" "$name: warned on stderr"
	like "$("$BIN" -q "$T/$name.db" | head -1)" "^PARTIAL   the input is cut short: $detail\$" "$name: the report's first line"
	strict "$name" "$d" "$serr"
}

# inside the thread-name section (the last, running to EOF): names before kept
t2=$(nth small t 2)
map_cut mapthreads $((t2 + 2)) \
	"mapping '.*sampling-mapping.bin' is cut at offset $((t2 + 2)) inside thread-name entry 2 \\(from offset $t2\\): 2 bytes lost; the 2 thread names before are kept" \
	"truncated thread-name entry in '.*sampling-mapping.bin' at offset $t2: need 3 bytes, 2 left"
is "$(q "$T/mapthreads.db" "SELECT count(name) FROM threads")" 2 "mapthreads: 2 threads named"
is "$(q "$T/mapthreads.db" "SELECT group_concat(name, ',') FROM (SELECT name FROM threads WHERE name IS NOT NULL ORDER BY tid)")" \
	"$(q "$whole" "SELECT group_concat(name, ',') FROM (SELECT name FROM threads WHERE name IS NOT NULL ORDER BY tid LIMIT 2)")" \
	"mapthreads: the names are the whole mapping's"
is "$(q "$T/mapthreads.db" "SELECT count(*) FROM frames WHERE name LIKE '<unknown%'")" 0 "mapthreads: every frame named"
map_cut mapthreadname $((msize - 1)) \
	"mapping '.*sampling-mapping.bin' is cut at offset $((msize - 1)) inside thread-name entry $((nt - 1)) \\(from offset $(nth small t $((nt - 1)))\\): $((msize - 1 - $(nth small t $((nt - 1))))) bytes lost; the $((nt - 1)) thread names before are kept" \
	"truncated thread name in '.*sampling-mapping.bin'"

# inside a method entry: the methods before named, the rest placeholders
m40=$(nth small m 40)
map_cut mapmethods $((m40 + 12)) \
	"mapping '.*sampling-mapping.bin' is cut at offset $((m40 + 12)) inside method entry 40 \\(from offset $m40\\): 12 bytes, $((nm - 40)) of the $nm methods it declares and the thread names lost; their frames get placeholder names" \
	"truncated method symbol in '.*sampling-mapping.bin' at offset $((m40 + 10))"
named=$(q "$T/mapmethods.db" "SELECT count(*) FROM frames WHERE name NOT LIKE '<unknown%'")
is "$(q "$T/mapmethods.db" "SELECT count(*) FROM frames WHERE name LIKE '<unknown%'") $((named > 0))" "$((nm - 40)) 1" \
	"mapmethods: the $((nm - 40)) methods lost are placeholders, the others named"
is "$(q "$T/mapmethods.db" "SELECT count(name) FROM threads")" 0 "mapmethods: no thread named"
map_cut maphdr 10 \
	"mapping '.*sampling-mapping.bin' is cut at offset 10 inside its header: no frame is named, no thread either" \
	"truncated mapping header in '.*sampling-mapping.bin' at offset 0"

# dump and mapping both cut: both said, joined
d=$(copy_dump small both)
head -c $(($(nth small r 900) + 8)) "$FIX/small/sampling.bin" >"$d/sampling.bin"
head -c $((t2 + 2)) "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
"$BIN" import -q "$d" -o "$T/both.db"
like "$(meta "$T/both.db" partial_reason)" "^mapping .* inside thread-name entry 2 .*; '.*sampling.bin' is cut at offset [0-9]+ in record 900 \\(its header" \
	"both cut: the reason says both"

# every report format says so at its top; an intact trace's does not
d=$T/hdr1000
"$BIN" analyze -q "$d" -o "$T/r.json"
"$BIN" analyze -q "$d" -o "$T/r.md"
"$BIN" analyze -q "$d" -o "$T/r.html"
"$BIN" analyze -q "$d" -o "$T/r.xlsx"
is "$(python3 -c 'import json, sys, jsonschema
r = json.load(open(sys.argv[1])); jsonschema.validate(r, json.load(open(sys.argv[2])))
print(r["trace"]["partial"].split(":")[0], r["trace"]["records"])' "$T/r.json" "$ROOT/reports/json/report.schema.json" 2>&1)" \
	"'$d/sampling.bin' is cut at offset $(($(nth small r 1000) + 39)) in record 1000 (its header, from offset $(nth small r 1000)) 1000" \
	"JSON: trace.partial, valid by the schema"
like "$(sed -n 3p "$T/r.md")" "^> \\*\\*Partial trace\\*\\*: the input is cut short: '.*sampling.bin' is cut at offset" "Markdown: the line under the title"
like "$(grep -m1 -n 'Partial trace' "$T/r.html")" "^[0-9]+:<p class=\"facts sev-error\"><strong>Partial trace</strong>: the input is cut short: " "HTML: in the header"
like "$(unzip -p "$T/r.xlsx" xl/sharedStrings.xml)" "<t>PARTIAL</t>.*is cut at offset" "xlsx: on the summary"
"$BIN" analyze -q "$FIX/small" -o "$T/w.json"
is "$(python3 -c 'import json, sys; print("partial" in json.load(open(sys.argv[1]))["trace"])' "$T/w.json")" False "an intact trace's report has no partial"
unlike "$("$BIN" -q "$FIX/small")" "PARTIAL" "nor its text report"
