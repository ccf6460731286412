# What a terminal shows (issue 36, items 4 and 5), on real ptys of 80 and
# 100 columns: compare prints its headline, the compact table and the
# causes, no line wider than the terminal, and says where the details are
# (-v, or a file); -v and --width fit every detail too; a pipe keeps them
# whole. The analysis report fitted to 80 columns keeps what identifies a
# row: the waits table its waker, a call tree its names (indented, not
# "…" after the indentation), two methods two different shortened names;
# the "left out" notes fit.
. tests/lib.sh
pty() {   # columns command...: the command's output on a pty of that width
	python3 - "$@" <<'PY'
import fcntl, os, struct, subprocess, sys, termios
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, int(sys.argv[1]), 0, 0))
p = subprocess.Popen(sys.argv[2:], stdout=slave, stderr=slave)   # a terminal shows both
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
p.wait()
sys.stdout.write(out.decode("utf-8").replace("\r\n", "\n"))
print("# exit %d" % p.returncode)
PY
}
# what a terminal shows: a progress line redrawn after \r is each redraw
# on its own, its escapes no width
widest() { python3 -c 'import re, sys; print(max(len(re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", l))
	for l in re.split(r"[\r\n]", open(sys.argv[1], encoding="utf-8").read())))' "$1"; }

mkdir -p "$T/base" "$T/head"
for n in 1 2 3 4 5; do
	"$MKDUMP" --records 3000 --build-seed 23 --seed $n --startup cold --no-truth "$T/b$n" >/dev/null
	"$BIN" -q "$T/b$n" -o "$T/base/r$n.json"
	"$MKDUMP" --records 3000 --build-seed 23 --seed $((n + 10)) --startup cold --no-truth \
		--slow-method 'Compressor.gzip(:200' "$T/h$n" >/dev/null
	"$BIN" -q "$T/h$n" -o "$T/head/r$n.json"
done
"$BIN" compare "$T/base" "$T/head" >"$T/pipe.txt" 2>/dev/null
is "$?" 3 "the slower head fails the gate"
for cols in 80 100; do
	pty $cols "$BIN" compare "$T/base" "$T/head" >"$T/c$cols.txt"
	like "$(tail -n 1 "$T/c$cols.txt")" "^# exit 3" "compare on a $cols-column terminal: exit 3"
	sed -i '$d' "$T/c$cols.txt"
	check "compare on a $cols-column terminal: no line wider than $cols ($(widest "$T/c$cols.txt"))" \
		test "$(widest "$T/c$cols.txt")" -le $cols
	like "$(head -n 1 "$T/c$cols.txt")" "^btrace-analyze compare: regressed: Compressor.gzip" \
		"compare on a $cols-column terminal: the headline first"
	check "compare on a $cols-column terminal: the compact table and the causes ($(wc -l <"$T/c$cols.txt") lines, the pipe's $(wc -l <"$T/pipe.txt"))" \
		test "$(wc -l <"$T/c$cols.txt")" -le 100 -a "$(wc -l <"$T/c$cols.txt")" -lt "$(($(wc -l <"$T/pipe.txt") / 4))"
	like "$(tr '\n' ' ' <"$T/c$cols.txt")" "Details \\(.*-v, or -o FILE" "compare on a $cols-column terminal: says where the details are"
	like "$(cat "$T/c$cols.txt")" "^Compressor\\.gzip self wall in startup( |\$)" \
		"compare on a $cols-column terminal: the table names the method whole"
done
unlike "$(cat "$T/c80.txt")" "Metrics \\(" "the terminal's view leaves the metric list to -v"
pty 80 "$BIN" compare -v "$T/base" "$T/head" >"$T/v80.txt"
sed -i '$d' "$T/v80.txt"
like "$(cat "$T/v80.txt")" "Metrics \\(" "-v: every metric too"
check "-v on 80 columns: no line wider than 80 ($(widest "$T/v80.txt"))" test "$(widest "$T/v80.txt")" -le 80
"$BIN" compare --width 100 "$T/base" "$T/head" >"$T/w100.txt" 2>/dev/null
check "--width 100 to a pipe: every detail within 100 columns ($(widest "$T/w100.txt"))" test "$(widest "$T/w100.txt")" -le 100
like "$(cat "$T/w100.txt")" "Metrics \\(" "--width 100 to a pipe: the details are kept"
check "a pipe without --width: whole lines, every detail ($(widest "$T/pipe.txt") columns)" test "$(widest "$T/pipe.txt")" -gt 100
"$BIN" compare --width 30 "$T/base" "$T/head" >/dev/null 2>"$T/err"
is "$?" 2 "compare --width 30: a usage error"
like "$(cat "$T/err")" "--width wants a number of columns from 40" "... naming the floor"

# Every command on a terminal, stdout and stderr (item 4's done-when): no
# line wider than it, at 80 and 100 columns; help within 80 anywhere.
"$BIN" import -q "$ROOT/examples/sampling.bin" -o "$T/ex.db"
for cols in 80 100; do
	for cmd in "-q $ROOT/examples/sampling.bin" "compare -v $T/base $T/head" "merge $T/base" \
		"query $T/ex.db SELECT_*_FROM_frames_LIMIT_20" "batch $T/b1 $T/b2 -o $T/bo$cols" \
		"import $T/b1 -o $T/imp$cols.db"; do
		# shellcheck disable=SC2086
		pty $cols "$BIN" $(echo "$cmd" | sed 's/SELECT_\*_FROM_frames_LIMIT_20/"SELECT * FROM frames LIMIT 20"/') >"$T/t.txt"
		case $cmd in query*) pty $cols "$BIN" query "$T/ex.db" "SELECT * FROM frames LIMIT 20" >"$T/t.txt" ;; esac
		check "${cmd%% *} on $cols columns: no line wider ($(widest "$T/t.txt"), $(wc -l <"$T/t.txt") lines)" \
			test "$(widest "$T/t.txt")" -le $cols
	done
done
for c in "" analyze import query compare batch merge rules; do
	"$BIN" help $c >"$T/h.txt"
	check "help $c: within 80 columns ($(widest "$T/h.txt"))" test "$(widest "$T/h.txt")" -le 80
done
"$BIN" compare --help >"$T/h.txt"
check "compare --help: within 80 columns ($(widest "$T/h.txt"))" test "$(widest "$T/h.txt")" -le 80

# The analysis report at 80 columns.
"$BIN" -q "$ROOT/examples/sampling.bin" --width 80 >"$T/a80.txt"
check "the report at 80: no line wider than 80 ($(widest "$T/a80.txt"))" test "$(widest "$T/a80.txt")" -le 80
python3 - "$T/a80.txt" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
def table(title):
    part = text.split("\n" + title + "\n", 1)[1].lstrip("\n").split("\n\n", 1)[0]
    lines = part.split("\n")
    return lines[0], [l for l in lines[2:] if l and not l.startswith("(")]
def ok(cond, what):
    print(("ok - " if cond else "not ok - ") + what)
head, rows = table("Main thread: waits and who ended them")
ok("waker_thread" in head and "waker_method" in head, "the waits table keeps who ended them: %r" % head)
head, rows = table("Main thread: call tree (top-down)")
cut = [r for r in rows if re.match(r"^ *\u2026", r)]
ok(rows and not cut, "call-tree names keep their head after the indentation (%d cut to '…': %r)" % (len(cut), cut[:2]))
for title in ("Main thread: methods by inclusive time (top-down totals)", "Main thread: methods by self time (bottom-up)"):
    head, rows = table(title)
    names = [re.split(r"  +", r)[0] for r in rows]
    dup = sorted({n for n in names if names.count(n) > 1})
    ok(names and not dup, "%s: every row's shortened name is its own (%s)" % (title, dup))
head, rows = table("Main thread: methods by self time (bottom-up)")
ok("top_caller" in head, "the self-time table keeps its caller: %r" % head)
notes = [l for l in text.split("\n") if l.startswith("(left out to fit")]
ok(notes, "columns left out say so (%d notes)" % len(notes))
PY

# A rule's own table names its spare columns: they leave first, and the
# names must be columns.
cat >"$T/spare.lua" <<'LUA'
bt.rule{ id = "sp", run = function()
  bt.table{ name = "t", title = "Spare", columns = { "name", "a_ns", "middle", "b" }, spare = { "middle" },
    rows = { { "x", 1, string.rep("m", 60), "y" } } }
end }
LUA
"$BIN" -q "$ROOT/examples/sampling.bin" --rules "$T/spare.lua" --width 40 >"$T/sp.txt"
like "$(grep -A 3 '^Spare$' "$T/sp.txt")" "name  a ms  b" "spare: the spare column leaves, the later text column stays"
like "$(tr '\n' ' ' <"$T/sp.txt")" "left out to fit 40 columns: middle;" "spare: the note names it"
sed 's/spare = { "middle" }/spare = { "nope" }/' "$T/spare.lua" >"$T/bad.lua"
"$BIN" -q "$ROOT/examples/sampling.bin" --rules "$T/bad.lua" >/dev/null 2>"$T/err"
is "$?" 1 "spare naming no column: the rule fails"
like "$(cat "$T/err")" "bt.table: spare 1 is not one of the columns" "... saying which"
