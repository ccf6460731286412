#!/bin/sh
# Exports stand alone (issue 21): with only export flags no report is
# printed; every file written is told on stderr with its size (not with
# -q); an -o extension no format has is a usage error, not text in r.pdf.
. tests/lib.sh
EX=$ROOT/examples/sampling.bin

"$BIN" "$EX" --perfetto "$T/t.pb" >"$T/out" 2>"$T/err"
is "$?" 0 "--perfetto alone: exit 0"
is "$(wc -c <"$T/out" | tr -d ' ')" 0 "--perfetto alone: nothing on stdout (no report)"
like "$(cat "$T/err")" "^btrace-analyze: wrote $T/t.pb \\([0-9.]+ (KiB|MiB)\\)$" "--perfetto alone: stderr says what was written and its size"
"$BIN" -q "$EX" --pprof "$T/p.pb.gz" --folded "$T/f.txt" >"$T/out" 2>"$T/err"
is "$(wc -c <"$T/out" "$T/err" | tail -1 | awk '{print $1}')" 0 "-q --pprof --folded: nothing on stdout or stderr"
check "-q --pprof --folded: both written" test -s "$T/p.pb.gz" -a -s "$T/f.txt"
"$BIN" "$EX" -o "$T/r.json" --folded "$T/g.txt" >"$T/out" 2>"$T/err"
is "$(grep -c '^btrace-analyze: wrote ' "$T/err")" 2 "-o with an export: both files told"
"$BIN" "$EX" --folded - 2>"$T/err" | head -1 >/dev/null
unlike "$(cat "$T/err")" "wrote" "an export to stdout is not told as a file"
"$BIN" "$EX" --pprof "$T/p2.pb.gz" --format text >"$T/out" 2>/dev/null
like "$(head -1 "$T/out")" "^trace +.*sampling.bin" "--format with an export: the report is printed as asked"

"$BIN" -q "$EX" -o "$T/r.pdf" 2>"$T/err"
is "$?" 2 "-o r.pdf: usage error (exit 2)"
like "$(cat "$T/err")" "no report format has the extension '.pdf'" "-o r.pdf: the message names the extension"
check "-o r.pdf: no file written" test ! -e "$T/r.pdf"
"$BIN" -q "$EX" -o "$T/r.pdf" --format text
is "$?" 0 "-o r.pdf --format text: the format asked for"
mkdir -p "$T/a.b"
"$BIN" -q "$EX" -o "$T/a.b/report"
is "$?" 0 "-o a.b/report: a dot in a folder is no extension (text)"
