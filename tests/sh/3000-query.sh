#!/bin/sh
# query answers real questions on a generated dump, in every output format.
. tests/lib.sh

d=$FIX/small
"$BIN" import -q "$d" -o "$T/s.db"
spt="SELECT tid, count(*) AS samples FROM samples GROUP BY tid ORDER BY tid"
want=$(awk -F'\t' 'NR > 1 && $4 > 0 { print $1 "," $4 }' "$d/truth/threads.tsv" | sort -n | tr '\n' ' ')
got=$("$BIN" query "$T/s.db" "$spt" --format csv | tr -d '\r' | sed 1d | tr '\n' ' ')
is "$got" "$want" "samples per thread (csv) = truth"
is "$("$BIN" query "$T/s.db" "$spt" --format csv | head -1 | tr -d '\r')" "tid,samples" "csv header"
got=$("$BIN" query "$T/s.db" "$spt" --format json)
check "json output parses" python3 -c "import json,sys; json.loads(sys.argv[1])" "$got"
is "$(python3 -c "import json,sys; print(sum(r['samples'] for r in json.loads(sys.argv[1])))" "$got")" "$(truth "$d" valid_samples)" "json: integers stay integers and sum to the samples"
got=$("$BIN" query "$T/s.db" "$spt" --format tsv | sed -n 1p)
is "$got" "$(printf 'tid\tsamples')" "tsv header"
got=$("$BIN" query "$T/s.db" "$spt")
like "$got" "^tid +samples" "table header"
like "$got" "^-+ +-+" "table rule"
# top leaf frames on the main thread: a real question answered end to end
got=$("$BIN" query "$d/sampling.bin" "SELECT f.name, count(*) AS n FROM samples s JOIN threads t USING (tid) JOIN nodes n ON n.id = s.node_id JOIN frames f ON f.id = n.frame_id WHERE t.is_main GROUP BY f.id ORDER BY n DESC, f.name LIMIT 5" --format tsv | sed 1d | wc -l)
is "$got" 5 "top leaf frames of the main thread"
# CSV quoting of commas and quotes, TSV escapes, JSON escapes
is "$("$BIN" query "$T/s.db" "SELECT 'a,b' AS x, 'say \"hi\"' AS y" --format csv | sed -n 2p | tr -d '\r')" '"a,b","say ""hi"""' "csv quoting"
is "$("$BIN" query "$T/s.db" "SELECT 'a' || char(9) || 'b' AS x" --format tsv | sed -n 2p)" 'a\tb' "tsv escapes tabs"
is "$("$BIN" query "$T/s.db" "SELECT 'q\"' || char(10) AS x, NULL AS n, 1.5 AS r" --format json)" '[{"x":"q\"\n","n":null,"r":1.5}]' "json escapes and types"
is "$("$BIN" query "$T/s.db" "SELECT 1 WHERE 0")" "(no rows)" "empty result"
"$BIN" query "$T/s.db" "$spt" --format csv -o "$T/out.csv"
is "$(sed 1d "$T/out.csv" | wc -l)" "$(awk -F'\t' 'NR > 1 && $4 > 0' "$d/truth/threads.tsv" | wc -l)" "query -o writes a file"
