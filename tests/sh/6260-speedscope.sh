# --speedscope: speedscope's own file format. The file is valid against
# speedscope's schema (tests/fixtures/speedscope.schema.json, its
# constraints written out; and the schema speedscope's npm package ships,
# when npm has it at hand), its timelines nest and close in order as
# speedscope's importer requires, and each thread's slices (count,
# durations, frames, start times), CPU time and allocated bytes are the
# database's, for the spec's example and a generated dump, from a dump and
# from its database alike, plain or gzip'd; slices that do not nest are cut
# to fit. Hostile names stay valid JSON;
# an output over the input is refused; a failed run leaves nothing. Then
# speedscope itself (its app from the npm package, in headless Chromium)
# loads the file: its profile list's totals and its sandwich view's rows
# are ours; a file whose events do not nest fails the checks.
. tests/lib.sh
CHECK=$ROOT/tests/fixtures/check_speedscope.py
SCHEMA=$ROOT/tests/fixtures/speedscope.schema.json
SSV=${SPEEDSCOPE_VERSION:-1.25.0}

tsv() {   # input sql: the rows, tab-separated, no header
	"$BIN" query -q "$1" "$2" --format tsv | sed 1d
}

# speedscope's npm package (its app and its schema), from npm's cache or
# the registry; none offline is no failure, the checks below say so.
app=""
if command -v npm >/dev/null 2>&1 &&
	timeout 30 npm pack --prefer-offline --silent --pack-destination "$T" "speedscope@$SSV" >/dev/null 2>&1 &&
	tar xzf "$T/speedscope-$SSV.tgz" -C "$T" 2>/dev/null && [ -f "$T/package/dist/release/index.html" ]; then
	app=$T/package/dist/release
fi
schemas=$SCHEMA
[ -n "$app" ] && schemas="$schemas $app/file-format-schema.json"
nschemas=$(echo $schemas | wc -w)

"$BIN" import -q "$FIX/example" -o "$T/example.db"
"$BIN" import -q "$FIX/seed3" -o "$T/seed3.db"   # a generated dump: 3,000 records, five workers

for n in example seed3; do
	db=$T/$n.db
	"$BIN" "$db" --speedscope "$T/$n.json" >"$T/out" 2>"$T/err"
	is "$?" 0 "$n: --speedscope: exit 0"
	is "$(wc -c <"$T/out")" 0 "$n: an export alone prints no report"
	like "$(cat "$T/err")" "^btrace-analyze: wrote $T/$n.json \([0-9.]+ (B|KiB|MiB)\)\$" "$n: and says what it wrote"
	python3 "$CHECK" check "$T/$n.json" $schemas >"$T/$n.chk"
	is "$(grep -c '^schema .* ok$' "$T/$n.chk")" "$nschemas" "$n: valid against speedscope's schema ($(grep '^schema' "$T/$n.chk" | tr '\n' ' '))"
	is "$(sed -n 's/^bad //p' "$T/$n.chk")" 0 "$n: events in time order, each C closing the innermost open frame, none left open; a weight per sample $(grep '^#' "$T/$n.chk" | tr '\n' ' ')"
	main=$(q "$db" "SELECT coalesce(name, 'tid ' || tid) FROM threads WHERE is_main")
	is "$(sed -n 's/^active //p' "$T/$n.chk")" "$main: wall time" "$n: the main thread's timeline is the one shown"
	is "$(sed -n 's/^order //p' "$T/$n.chk" | cut -d: -f1 | uniq -c | awk '{ print $2 }' | tr '\n' ' ')" \
		"evented sampled " "$n: the timelines first, then the sampled profiles"

	want=$(tsv "$db" "SELECT coalesce(t.name, 'tid ' || s.tid), count(*), sum(s.dur),
		sum(CASE WHEN s.depth = 0 THEN s.dur ELSE 0 END) FROM slices s LEFT JOIN threads t ON t.tid = s.tid
		GROUP BY s.tid")
	is "$(grep '^wall' "$T/$n.chk" | cut -f2- | sort)" "$(echo "$want" | sort)" \
		"$n: each thread's timeline has its slices, their durations, its outermost slices' sum"
	want=$(tsv "$db" "SELECT coalesce(t.name, 'tid ' || s.tid), f.name, count(*), sum(s.dur),
		sum(s.ts - (SELECT value FROM meta WHERE key = 'first_ts')), sum(s.self_dur) FROM slices s
		LEFT JOIN threads t ON t.tid = s.tid JOIN frames f ON f.id = s.frame_id GROUP BY s.tid, s.frame_id")
	is "$(grep '^slice' "$T/$n.chk" | cut -f2- | sort | cksum)" "$(echo "$want" | sort | cksum)" \
		"$n: and by frame (its signature): the slices, their durations, starts since the trace's and self times"
	for m in cpu:self_cpu_ns bytes:self_alloc_bytes; do
		want=$(tsv "$db" "SELECT coalesce(t.name, 'tid ' || c.tid), sum(c.${m#*:}) FROM calltree c
			LEFT JOIN threads t ON t.tid = c.tid GROUP BY c.tid HAVING sum(c.${m#*:}) > 0")
		is "$(grep "^${m%%:*}	" "$T/$n.chk" | cut -f2- | sort)" "$(echo "$want" | sort)" \
			"$n: each thread's ${m%%:*} profile totals its calltree's ${m#*:}"
	done
done

# From the dump itself (slices reconstructed, not stored) the same bytes;
# gzip'd, the same JSON; full names, no file beside a name.
"$BIN" -q "$FIX/example" --speedscope "$T/scratch.json"
check "a dump writes what its database writes" cmp "$T/scratch.json" "$T/example.json"
"$BIN" -q "$T/example.db" --speedscope "$T/example.json.gz"
check "OUT.gz: the same JSON, gzip'd" sh -c "gunzip -c '$T/example.json.gz' | cmp - '$T/example.json'"
"$BIN" -q "$T/example.db" --speedscope "$T/full.json" --full-names
is "$(jq_ "$T/full.json" '[f for f in d["shared"]["frames"] if "file" in f], any("(" in f["name"] for f in d["shared"]["frames"])')" \
	"([], True)" "--full-names: frames by signature, no file"
is "$(jq_ "$T/example.json" '[f["name"] for f in d["shared"]["frames"] if "file" not in f or "(" in f["name"]]')" \
	"['?', '(idle)']" "by default short names, the signature as the frame's file (where they differ)"

# Hostile names: quotes, a backslash, control characters, invalid UTF-8.
cp "$T/example.db" "$T/odd.db"
cat >"$T/odd.sql" <<'EOF'
UPDATE frames SET name = 'void q"x\y' || char(9) || 'z' || char(1) || char(10) || CAST(X'FF' AS TEXT) || 'w.m(int)'
	WHERE id = (SELECT frame_id FROM slices GROUP BY frame_id ORDER BY sum(dur) DESC LIMIT 1);
UPDATE threads SET name = 'th"' || char(7) || CAST(X'FE' AS TEXT) || '\' WHERE is_main;
EOF
sqlite3 "$T/odd.db" <"$T/odd.sql"
"$BIN" -q "$T/odd.db" --speedscope "$T/odd.json"
python3 "$CHECK" check "$T/odd.json" $schemas >"$T/odd.chk"
is "$(grep -c '^schema .* ok$' "$T/odd.chk") $(sed -n 's/^bad //p' "$T/odd.chk")" "$nschemas 0" \
	"hostile names: strict JSON, valid, well formed"
is "$(jq_ "$T/odd.json" '[f.get("file", f["name"]) for f in d["shared"]["frames"]].count("void q\"x\\y\tz\x01\n\ufffdw.m(int)")')" \
	1 "a signature with quotes, a backslash, control characters and a bad byte reads back as it was (U+FFFD for the byte)"
is "$(jq_ "$T/odd.json" 'd["profiles"][d["activeProfileIndex"]]["name"] == "th\"\x07\ufffd\\: wall time"')" True \
	"and so does a thread's name"

# Slices that do not nest (an imported trace's may not: a child past its
# parent's end, a slice that begins before its sibling ends) are cut to
# fit, so speedscope can still read the file.
cp "$T/example.db" "$T/bent.db"
sqlite3 "$T/bent.db" "UPDATE slices SET dur = dur + 50000000 WHERE id = (SELECT max(id) FROM slices WHERE depth = 3);
	UPDATE slices SET ts = ts - 5000000 WHERE id = (SELECT max(id) FROM slices WHERE depth = 1 AND tid = 1000)"
"$BIN" -q "$T/bent.db" --speedscope "$T/bent.json"
python3 "$CHECK" check "$T/bent.json" >"$T/bent.chk"
is "$(sed -n 's/^bad //p' "$T/bent.chk") $(grep -c '^wall' "$T/bent.chk")" "0 2" \
	"slices that do not nest: cut to fit, every event in order and nested"
is "$(grep '^wall	main' "$T/bent.chk" | cut -f5)" 12000000 "the thread's outermost slice as it was"

# No output over an input; a failed run leaves nothing.
cp "$T/example.db" "$T/in.db"
sum=$(cksum <"$T/in.db")
"$BIN" -q "$T/in.db" --speedscope "$T/in.db" >/dev/null 2>"$T/err"
is "$?" 2 "--speedscope over the input: exit 2"
like "$(cat "$T/err")" "refusing to write '$T/in.db': it is the input" "and says why"
is "$(cksum <"$T/in.db")" "$sum" "and the input is as it was"
"$BIN" -q "$T/example.db" -o "$T/r.json" --speedscope "$T/nodir/s.json" 2>/dev/null
is "$?" 1 "an unwritable --speedscope: exit 1"
check "and no report either" test ! -e "$T/r.json"

# A file whose events do not nest (the first close turned into one of
# another frame) fails the checks.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
ev = d["profiles"][0]["events"]
k = next(i for i, e in enumerate(ev) if e["type"] == "C")
ev[k]["frame"] = (ev[k]["frame"] + 1) % len(d["shared"]["frames"])
json.dump(d, sys.stdout)' "$T/example.json" >"$T/bad.json"
python3 "$CHECK" check "$T/bad.json" $schemas >"$T/bad.chk"
is "$(grep -c '^schema .* ok$' "$T/bad.chk") $(sed -n 's/^bad //p' "$T/bad.chk")" "$nschemas 1" \
	"a file whose events do not nest: valid against the schema, and the check finds it"

# speedscope itself reads it: its app (the npm package) in headless
# Chromium. A file it refuses shows "Something went wrong" and no profile
# list, so these checks cannot pass on one.
load() {   # file name: speedscope opens file (as name) in its sandwich view; the DOM to $T/dom.html
	python3 -c 'import base64, json, sys
print("speedscope.loadFileFromBase64(%s, %s)" % (json.dumps(sys.argv[2]),
      json.dumps(base64.b64encode(open(sys.argv[1], "rb").read()).decode())))' "$1" "$2" >"$T/load.js"
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir="$T/chrome" --allow-file-access-from-files \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
		"file://$app/index.html#localProfilePath=$T/load.js&view=sandwich" >"$T/dom.html" 2>"$T/console"
}
if [ -z "$app" ] || [ ! -x "$CHROME" ]; then
	why="speedscope $SSV's npm package is not at hand offline (npm pack speedscope@$SSV failed)"
	[ -n "$app" ] && why="Chromium not found at $CHROME"
	echo "ok - speedscope's app reads the file # SKIP $why: the schema fixture and the checks above stand in"
else
	"$BIN" -q "$ROOT/examples/sampling.bin" --speedscope "$T/bundled.json.gz"
	load "$T/bundled.json.gz" bundled.json.gz
	python3 "$CHECK" dom "$T/bundled.json.gz" "$T/dom.html" >"$T/dom"
	np=$(python3 "$CHECK" check "$T/bundled.json.gz" | grep -c '^order')
	like "$(grep -h CONSOLE "$T/console" | grep -o 'Importing as [a-z ]*')" "speedscope json file" \
		"speedscope $SSV takes the gzip'd file for its own format"
	is "$(sed -n 's/^shown //p' "$T/dom") $(sed -n 's/^agree //p' "$T/dom")" "$np $np" \
		"it lists our $np profiles, in order, each with our total (as it formats it)"
	is "$(sed -n 's/^active //p' "$T/dom")" "com.example.app: wall time" "and shows the main thread's timeline"
	rows=$(sed -n 's/^rows //p' "$T/dom")
	like "$rows" '^[1-9]' "its sandwich view has rows"
	is "$(sed -n 's/^rows_agree //p' "$T/dom")" "$rows" "each with the total and self time of the frame in our timeline"
	is "$(sed -n 's/^broken //p' "$T/dom")" 0 "and nothing went wrong"
fi
