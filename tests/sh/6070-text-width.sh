#!/bin/sh
# Text that fits (issue 21): on a terminal the report's tables fit its
# width (a real pty of 100 columns), --width N does the same anywhere,
# names are shortened in the middle, the columns at the right are left out
# with a note when numbers alone are too wide, and a file or a pipe keeps
# whole names.
. tests/lib.sh
EX=$ROOT/examples/sampling.bin
rules_fit() {   # file width: "ok" if every table's rule line is within width columns
	python3 - "$1" "$2" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().replace("\r", "").split("\n")
rules = [l for l in lines if re.fullmatch(r"-+(  -+)*", l)]
wide = [len(l) for l in rules if len(l) > int(sys.argv[2])]
print("ok" if rules and not wide else f"{len(rules)} rules, too wide: {wide[:5]}")
PY
}

"$BIN" -q "$EX" --width 100 >"$T/w100.txt"
is "$?" 0 "--width 100: exit 0"
is "$(rules_fit "$T/w100.txt" 100)" ok "--width 100: every table within 100 columns"
like "$(cat "$T/w100.txt")" "…" "--width 100: long names shortened in the middle"
like "$(cat "$T/w100.txt")" "^\\(left out to fit 100 columns: .*; --width widens\\)" \
	"--width 100: columns that cannot fit are left out, and the note says which"
"$BIN" -q "$EX" >"$T/file.txt"
unlike "$(rules_fit "$T/file.txt" 100)" "^ok" "to a file: whole names, as wide as they are"
unlike "$(cat "$T/file.txt")" "left out to fit" "to a file: no column left out"

# A real terminal of 100 columns: the same as --width 100.
python3 - "$BIN" "$EX" "$T/pty.txt" <<'PY'
import fcntl, os, struct, subprocess, sys, termios
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 100, 0, 0))   # before it runs
p = subprocess.Popen([sys.argv[1], "-q", sys.argv[2]], stdout=slave, stderr=subprocess.DEVNULL)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:   # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
p.wait()
open(sys.argv[3], "wb").write(out.replace(b"\r\n", b"\n"))
PY
is "$(rules_fit "$T/pty.txt" 100)" ok "a 100-column terminal: every table within 100 columns"
like "$(cat "$T/pty.txt")" "left out to fit 100 columns" "a 100-column terminal: the terminal's width is read"

"$BIN" -q "$EX" --width 30 >/dev/null 2>"$T/err"
is "$?" 2 "--width 30: usage error"
like "$(cat "$T/err")" "--width wants a number of columns from 40" "--width 30: the message says the floor"
