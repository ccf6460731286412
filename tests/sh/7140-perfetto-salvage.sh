#!/bin/sh
# Salvage of Perfetto traces cut short (issue 17): a trace cut inside a
# packet, plain or gzip'd (a gzip stream that ends early), imports every
# complete packet before the cut, marked partial in meta, a diagnostic
# with the offset and what was lost, the report's first line, exit 0;
# --strict refuses it (exit 1, the truncation error, no output). Where the
# packets start is found here with Python, independently of the importer;
# a gzip'd file's complete packets by inflating its bytes with zlib.
. tests/lib.sh

python3 tests/fixtures/mkperfetto.py "$T/t.pb" --flavor btrace3 --seed 3 --slices 400 --no-truth >/dev/null
gzip -n -c "$T/t.pb" >"$T/g.pb"

# complete FILE: how many whole top-level packets its (inflated) bytes hold,
# and where the first incomplete one starts (the size when none is cut)
complete() {
	python3 - "$1" <<'PY'
import sys, zlib
raw = open(sys.argv[1], "rb").read()
d = zlib.decompressobj(31).decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
i = n = 0
while i < len(d):
    j, ln, sh = i + 1, 0, 0
    while j < len(d):
        b = d[j]; ln |= (b & 0x7F) << sh; sh += 7; j += 1
        if not b & 0x80: break
    else:
        break
    if j + ln > len(d): break
    i, n = j + ln, n + 1
print(n, i)
PY
}
# packet start offsets of the plain trace
set -- $(python3 - "$T/t.pb" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
i, out = 0, []
while i < len(d):
    j, n, sh = i + 1, 0, 0
    while True:
        b = d[j]; n |= (b & 0x7F) << sh; sh += 7; j += 1
        if not b & 0x80: break
    out.append(i); i = j + n
print(len(out), out[0], out[100], out[101], out[-1])
PY
)
npk=$1 o0=$2 o100=$3 o101=$4 olast=$5
size=$(wc -c <"$T/t.pb")
meta() { q "$1" "SELECT value FROM meta WHERE key = '$2'"; }
"$BIN" import -q "$T/t.pb" -o "$T/whole.db"
is "$(meta "$T/whole.db" packets):$(meta "$T/whole.db" partial)" "$npk:" "the whole trace: every packet, not partial"

# cut NAME FILE CUT DETAIL STRICT: FILE cut at CUT bytes imports the packets
# before the cut; --strict gives STRICT
cut() {
	name=$1 file=$2 at=$3 detail=$4 serr=$5
	head -c "$at" "$file" >"$T/$name.pb"
	set -- $(complete "$T/$name.pb")
	err=$("$BIN" import "$T/$name.pb" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?" 0 "$name: exit 0"
	is "$(meta "$T/$name.db" packets)" "$1" "$name: the $1 complete packets imported"
	is "$(meta "$T/$name.db" partial)" 1 "$name: meta partial = 1"
	detail=$(echo "$detail" | sed "s/PACKETS/$1/; s/START/$2/")
	like "$(q "$T/$name.db" "SELECT count || ' ' || detail FROM diagnostics WHERE code = 'truncated_trace'")" "^1 $detail\$" \
		"$name: the diagnostic gives the offset and what was lost"
	like "$(meta "$T/$name.db" partial_reason)" "^$detail\$" "$name: meta partial_reason"
	like "$err" "warning: $detail \\[truncated_trace\\]" "$name: warned on stderr"
	like "$("$BIN" -q "$T/$name.db" | head -1)" "^PARTIAL   the input is cut short: $detail\$" "$name: the report's first line"
	rm -f "$T"/out.* "$T"/rep.*
	err=$("$BIN" import --strict "$T/$name.pb" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: --strict exits 1"
	like "$err" "^btrace-analyze: error: $serr" "$name: --strict gives the truncation error"
	"$BIN" analyze --strict "$T/$name.pb" -o "$T/rep.json" >/dev/null 2>&1
	is "$?:$(ls "$T" | grep -c '^out\.\|^rep\.')" 1:0 "$name: --strict analyze exits 1, nothing written"
}

cut first "$T/t.pb" $((o0 + 30)) \
	"'.*first.pb' is cut at byte offset $((o0 + 30)) in the packet at byte offset START: that packet \\(30 bytes of it there\\) lost; PACKETS packets imported" \
	"truncated packet in '.*first.pb' at byte offset $o0: "
cut mid "$T/t.pb" $((o101 - 5)) \
	"'.*mid.pb' is cut at byte offset $((o101 - 5)) in the packet at byte offset START: that packet \\($((o101 - 5 - o100)) bytes of it there\\) lost; PACKETS packets imported" \
	"truncated packet in '.*mid.pb' at byte offset $o100: "
cut key "$T/t.pb" $((o100 + 1)) \
	"'.*key.pb' is cut at byte offset $((o100 + 1)) in the packet at byte offset START: that packet \\(1 bytes of it there\\) lost; PACKETS packets imported" \
	"truncated packet in '.*key.pb' at byte offset $o100\$"
cut last "$T/t.pb" $((size - 1)) \
	"'.*last.pb' is cut at byte offset $((size - 1)) in the packet at byte offset START: that packet \\($((size - 1 - olast)) bytes of it there\\) lost; PACKETS packets imported" \
	"truncated packet in '.*last.pb' at byte offset $olast: "
is "$(meta "$T/last.db" packets)" $((npk - 1)) "last: every packet but the last"
is "$(q "$T/mid.db" "SELECT count(*) FROM slices") $(q "$T/last.db" "SELECT count(*) <= $(q "$T/whole.db" "SELECT count(*) FROM slices") FROM slices")" \
	"$(q "$T/mid.db" "SELECT count(*) FROM slices") 1" "fewer packets, no more slices than the whole trace's"

gz=$(wc -c <"$T/g.pb")
for frac in 2 3; do
	at=$((gz / frac))
	cut "gz$frac" "$T/g.pb" "$at" \
		"the gzip stream of '.*gz$frac.pb' ends early at byte offset $at \\(trace byte [0-9]+\\), in the packet at byte offset START: that packet \\([0-9]+ bytes of it there\\) and the rest lost; PACKETS packets imported" \
		"truncated gzip stream in '.*gz$frac.pb' at byte offset $at: "
done
cut gztrailer "$T/g.pb" $((gz - 4)) \
	"the gzip stream of '.*gztrailer.pb' ends early at byte offset $((gz - 4)) \\(trace byte $size\\), between packets: the rest lost; PACKETS packets imported" \
	"truncated gzip stream in '.*gztrailer.pb' at byte offset $((gz - 4)): "
is "$(meta "$T/gztrailer.db" packets)" "$npk" "gztrailer: every packet there"

# every report format says so
"$BIN" analyze -q "$T/mid.pb" -o "$T/r.json"
is "$(python3 -c 'import json, sys, jsonschema
r = json.load(open(sys.argv[1])); jsonschema.validate(r, json.load(open(sys.argv[2])))
print(r["trace"]["partial"].startswith(sys.argv[3]))' "$T/r.json" "$ROOT/reports/json/report.schema.json" \
	"'$T/mid.pb' is cut at byte offset $((o101 - 5)) " 2>&1)" True "JSON: trace.partial, valid by the schema"
"$BIN" analyze -q "$T/mid.pb" -o "$T/r.md"
like "$(sed -n 3p "$T/r.md")" "^> \\*\\*Partial trace\\*\\*: the input is cut short: " "Markdown: under the title"
