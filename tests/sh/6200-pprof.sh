# --pprof and --folded: go tool pprof (not we) reads the profile, and its
# totals for each sample type, per thread and by label are the calltree's;
# protoc decodes it; the folded stacks sum to the same totals, are well
# formed whatever the frame names hold, and read the same from a dump and
# from its database; bad usage and failed runs leave nothing behind.
. tests/lib.sh
PROTO=engine/proto/profile.proto
CHECK=tests/fixtures/check_stacks.py
# go tool pprof offline, with its caches in $T
HOME=$T/home GOCACHE=$T/gocache GOPATH=$T/gopath GOFLAGS=-mod=mod GOPROXY=off
export HOME GOCACHE GOPATH GOFLAGS GOPROXY
mkdir -p "$HOME"
pp() { go tool pprof "$@" 2>/dev/null; }

totals_sql="SELECT sum(self_ns), sum(self_cpu_ns), sum(self_ns - self_cpu_ns), sum(self_alloc_bytes),
	sum(self_alloc_objects), sum(self_majflt) FROM calltree"
main_sql="$totals_sql WHERE tid = (SELECT tid FROM threads WHERE is_main)"
top_sql="SELECT f.name FROM methods m JOIN frames f ON f.id = m.frame_id GROUP BY m.frame_id
	ORDER BY sum(m.self_ns) DESC LIMIT 1"

"$BIN" import -q "$FIX/d200k" -o "$T/d200k.db"
"$BIN" import -q "$FIX/example" -o "$T/example.db"
"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/bundled.db"

for n in example bundled d200k; do   # the spec's example, examples/sampling.bin, 200k records
	db=$T/$n.db
	"$BIN" analyze -q "$db" -o "$T/$n.json" --perfetto "$T/$n.pb" --pprof "$T/$n.pb.gz" \
		--folded "$T/$n.txt"; is "$?" 0 "$n: -o, --perfetto, --pprof and --folded in one run"
	check "$n: all four written" test -s "$T/$n.json" -a -s "$T/$n.pb" -a -s "$T/$n.pb.gz" -a -s "$T/$n.txt"
	total=$(q "$db" "$totals_sql" | tr '\t' ' ')
	main=$(q "$db" "$main_sql" | tr '\t' ' ')
	main_wall=${main%% *}
	name=$(q "$db" "SELECT coalesce(name, 'tid ' || tid) FROM threads WHERE is_main")
	tid=$(q "$db" "SELECT tid FROM threads WHERE is_main")

	check "$n: protoc decodes the profile" sh -c "gunzip -c '$T/$n.pb.gz' |
		protoc --decode=perftools.profiles.Profile -I engine/proto $PROTO >'$T/$n.pprof.txt'"
	is "$(grep -c '^sample_type {' "$T/$n.pprof.txt")" 6 "$n: six sample types"
	is "$(grep -m1 '^string_table' "$T/$n.pprof.txt")" 'string_table: ""' "$n: the string table begins with \"\""

	pp -raw "$T/$n.pb.gz" >"$T/$n.raw"
	python3 $CHECK raw <"$T/$n.raw" >"$T/raw"
	like "$(grep '^samples' "$T/raw")" '^samples [1-9]' "$n: go tool pprof reads samples"
	is "$(sed -n 's/^total //p' "$T/raw")" "$total" "$n: go tool pprof's totals of wall, cpu, offcpu, alloc_space, alloc_objects, majflt are ours"
	is "$(sed -n 's/^labelled //p' "$T/raw")" "$(sed -n 's/^samples //p' "$T/raw")" "$n: every sample has thread and tid labels"
	like "$(sed -n 's/^msg //p' "$T/raw")" '^[1-9]' "$n: samples in messages have a msg_id label"
	if [ $n = d200k ]; then   # pprof takes 3-5 s a reading here: its -raw once, its labels filtered by us
		python3 $CHECK raw thread_name="$name" thread=main tid="$tid" <"$T/$n.raw" >"$T/focus"
		focus() { sed -n "s/^focus $1 //p" "$T/focus"; }
		is "$(focus "thread_name=$name")" "$main" "$n: the samples labelled thread_name=$name: the main thread's totals"
		is "$(focus thread=main)" "$main" "$n: labelled thread=main: the same"
		is "$(focus "tid=$tid" | cut -d' ' -f1)" "$main_wall" "$n: labelled tid=$tid: the main thread's wall"
	else
		pp -raw -tagfocus="thread_name=^$(printf '%s' "$name" | sed 's/[.]/\\./g')\$" "$T/$n.pb.gz" |
			python3 $CHECK raw >"$T/raw"
		is "$(sed -n 's/^total //p' "$T/raw")" "$main" "$n: -tagfocus thread_name=$name: the main thread's totals"
		pp -raw -tagfocus=thread=main "$T/$n.pb.gz" | python3 $CHECK raw >"$T/raw"
		is "$(sed -n 's/^total //p' "$T/raw")" "$main" "$n: -tagfocus thread=main: the same"
		pp -raw -tagfocus="tid=$tid" "$T/$n.pb.gz" | python3 $CHECK raw >"$T/raw"
		is "$(sed -n 's/^total //p' "$T/raw" | cut -d' ' -f1)" "$main_wall" "$n: -tagfocus tid=$tid: the main thread's wall"
		tags=$(pp -tags "$T/$n.pb.gz")
		like "$tags" "thread: Total" "$n: -tags lists threads"
		like "$tags" ": $name\$" "$n: -tags names the main thread"
		like "$tags" ": main\$" "$n: -tags has thread main"
		like "$tags" "msg_id: Total" "$n: -tags lists messages"
	fi
	top=$(pp -top -sample_index=wall -nodecount=1 "$T/$n.pb.gz" | sed -n '/flat%/{n;p}' |
		sed 's/^ *[^ ]* *[^ ]* *[^ ]* *[^ ]* *[^ ]* *//')
	# its short name, and the signature -raw lists beside it ("NAME :0 s=0(SIGNATURE)")
	is "$(sed -n "s/^ *[0-9]*: 0x0 M=1 $top :0 s=0(\(.*\))\$/\1/p" "$T/$n.raw" | head -1)" \
		"$(q "$db" "$top_sql")" "$n: the top function by flat wall is our top method by self time"

	for m in wall cpu offcpu alloc; do
		case $m in wall) i=1 ;; cpu) i=2 ;; offcpu) i=3 ;; alloc) i=4 ;; esac
		f=$T/$n.txt
		[ $m = wall ] || { f=$T/$n-$m.txt; "$BIN" analyze -q "$db" -o "$T/r.json" --folded "$f" --folded-metric $m; }
		python3 $CHECK folded "$f" "$name" >"$T/fold"
		is "$(sed -n 's/^bad //p' "$T/fold")" 0 "$n/$m: every folded line is 'thread;frame;... VALUE'"
		is "$(sed -n 's/^total //p' "$T/fold")" "$(echo "$total" | cut -d' ' -f$i)" "$n/$m: the folded values sum to our total"
		is "$(sed -n 's/^root //p' "$T/fold")" "$(echo "$main" | cut -d' ' -f$i)" "$n/$m: the main thread's lines sum to its total"
	done
done

# The same outputs from the dump (scratch analysis, slices on demand).
"$BIN" analyze -q "$FIX/example" --pprof "$T/scratch.pb.gz" --folded "$T/scratch.txt" >/dev/null
check "a scratch analysis writes the same profile as the database" cmp "$T/scratch.pb.gz" "$T/example.pb.gz"
check "and the same folded stacks" cmp "$T/scratch.txt" "$T/example.txt"

# Frame names holding ';' or a line break stay one frame.
cp "$T/example.db" "$T/odd.db"
top_id=$(q "$T/odd.db" "SELECT frame_id FROM methods GROUP BY frame_id ORDER BY sum(self_ns) DESC LIMIT 1")
sqlite3 "$T/odd.db" "UPDATE frames SET name = 'void a;b(int' || char(10) || 'c)' WHERE id = $top_id"
"$BIN" analyze -q "$T/odd.db" --folded "$T/odd.txt" --pprof "$T/odd.pb.gz" >/dev/null
python3 $CHECK folded "$T/odd.txt" main 'a:b' >"$T/fold"
is "$(sed -n 's/^bad //p' "$T/fold")" 0 "';' and a newline in a name: every line well formed"
like "$(sed -n 's/^frame //p' "$T/fold")" '^[1-9]' "the name is one frame, 'a:b' (short)"
is "$(sed -n 's/^total //p' "$T/fold")" "$(q "$T/odd.db" "SELECT sum(self_ns) FROM calltree")" "and the total is unchanged"
like "$(pp -top -sample_index=wall "$T/odd.pb.gz" | tr '\n' ' ')" ' a;b ' "pprof keeps the short name as it is"
like "$(pp -raw "$T/odd.pb.gz" | tr '\n' ' ')" 's=0\(void a;b\(int c\)\)' "and the signature in system_name"

# Bad usage and failed runs.
"$BIN" analyze -q "$FIX/example" --folded "$T/x.txt" --folded-metric nope >/dev/null 2>"$T/err"
is "$?" 2 "--folded-metric nope: exit 2"
like "$(cat "$T/err")" "'nope'" "and the message names the value"
check "and no file" test ! -e "$T/x.txt"
"$BIN" analyze -q "$FIX/example" --pprof "$T/nodir/p.pb.gz" >/dev/null 2>&1
is "$?" 1 "unwritable --pprof path: exit 1"
check "and no file left behind" test ! -e "$T/nodir/p.pb.gz"
"$BIN" analyze -q "$FIX/example" -o "$T/r.txt" --pprof "$T/ok.pb.gz" --folded "$T/nodir/f.txt" 2>/dev/null
is "$?" 1 "unwritable --folded path: exit 1"
check "and neither the report nor the profile" test ! -e "$T/r.txt" -a ! -e "$T/ok.pb.gz"
"$BIN" analyze -q "$FIX/example" -o "$T/nodir/r.txt" --pprof "$T/ok.pb.gz" --folded "$T/ok.txt" 2>/dev/null
is "$?" 1 "a failed report: exit 1"
check "and no profile or folded stacks" test ! -e "$T/ok.pb.gz" -a ! -e "$T/ok.txt"
is "$(ls "$T" | grep -c 'tmp-')" 0 "no temporary files left"
