# One way out (issue 36 item 1): analyze, compare, merge and query take
# -o as often as asked, each format by its extension, and refuse the same
# things the same way before any work (exit 2): two -o naming one file by
# any path, an extension no format has, --format with several -o; every
# file written is told on stderr; a failing output leaves none of the
# others.
. tests/lib.sh
EX=$ROOT/examples/sampling.bin
mkdir -p "$T/base" "$T/head"
for n in 1 2; do
	"$MKDUMP" --records 1500 --build-seed 23 --seed $n --startup cold --no-truth "$T/b$n" >/dev/null
	"$BIN" -q "$T/b$n" -o "$T/base/r$n.json"
	"$MKDUMP" --records 1500 --build-seed 23 --seed $((n + 5)) --startup cold --no-truth "$T/h$n" >/dev/null
	"$BIN" -q "$T/h$n" -o "$T/head/r$n.json"
done
"$BIN" import -q "$EX" -o "$T/ex.db"
cd "$T" || exit 1

# cmd name ext1 ext2 bad-ext: the command's arguments before the outputs
each() {
	name=$1 a=$2 b=$3 bad=$4
	shift 4
	rm -rf out && mkdir out
	"$@" -o "out/x.$a" -o "out/y.$b" >/dev/null 2>err
	rc=$?
	check "$name: -o x.$a -o y.$b: both written (exit $rc)" test -s "out/x.$a" -a -s "out/y.$b" -a \( $rc = 0 -o $rc = 3 \)
	like "$(cat err)" "^btrace-analyze: wrote out/x\\.$a \\(" "$name: x.$a told on stderr"
	like "$(cat err)" "^btrace-analyze: wrote out/y\\.$b \\(" "$name: y.$b told on stderr"
	rm -rf out && mkdir out
	"$@" -o "out/x.$a" -o "./out/x.$a" >/dev/null 2>err
	is "$?" 2 "$name: two -o naming one file: a usage error"
	like "$(cat err)" "'out/x\\.$a' and '\\./out/x\\.$a' are one output" "$name: ... naming both"
	"$@" -o "out/x.$a" -o "out/z.$bad" >/dev/null 2>err
	is "$?" 2 "$name: -o z.$bad: a usage error"
	like "$(cat err)" "has the extension '\\.$bad'" "$name: ... naming the extension"
	"$@" --format "$a" -o "out/x.$a" -o "out/y.$b" >/dev/null 2>err
	is "$?" 2 "$name: --format with several -o: a usage error"
	like "$(cat err)" "--format applies to one output" "$name: ... saying why"
	"$@" -o "out/x.$a" -o "" >/dev/null 2>err
	is "$?" 2 "$name: an empty -o: a usage error"
	like "$(cat err)" "an output path is empty" "$name: ... saying so"
	"$@" -o "out/x.$a" -o "out/no/such/y.$b" >/dev/null 2>err
	check "$name: an output that cannot be made fails the command" test $? -ne 0 -a $? -ne 3
	is "$(ls out)" "" "$name: ... and nothing is written"
}
each analyze json md pdf "$BIN" "$EX"
each compare json md pdf "$BIN" compare base head
each merge json md pdf "$BIN" merge base
each query csv json pdf "$BIN" query ex.db "SELECT tid, name FROM threads"
