#!/bin/sh
# Names from a trace are text, never commands (issue 34 item 6,
# reports/text/safe.c): a slice named with an escape sequence that would
# set the terminal's title (ESC ] 0 ; ... BEL), a C1 control (U+009B, CSI)
# and an @mention reach the text report, the Markdown, compare's text and
# Markdown and merge's Markdown as visible escapes (\x1b, \x07, \u009b),
# and the mention as &#64; in Markdown; no control byte is written.
. tests/lib.sh
printf '# tracer: nop\n#\n' >"$T/t.txt"
for k in 1 2 3; do
	printf '            app-100   (  100) [000] ...1   10%d.000000: tracing_mark_write: B|100|\033]0;pwned\007evil @team name\n' $k
	printf '            app-100   (  100) [000] ...1   10%d.002000: tracing_mark_write: E|100\n' $k
	printf '            app-100   (  100) [000] ...1   10%d.003000: tracing_mark_write: B|100|\302\233 c1 name\n' $k
	printf '            app-100   (  100) [000] ...1   10%d.006000: tracing_mark_write: E|100\n' $k
done >>"$T/t.txt"
controls() {   # file: how many C0 controls (but LF and TAB), DEL and C1 controls it holds
	python3 -c 'import re, sys
d = open(sys.argv[1], "rb").read()
print(len(re.findall(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", d)))' "$1"
}
"$BIN" -q "$T/t.txt" -o "$T/r.txt"
"$BIN" -q "$T/t.txt" -o "$T/r.md"
"$BIN" -q "$T/t.txt" -o "$T/r.json"
is "$(controls "$T/r.txt")/$(controls "$T/r.md")" 0/0 "text and Markdown reports: no control character"
like "$(cat "$T/r.txt")" '\\x1b\]0;pwned\\x07evil @team name' "text: the escape sequence shown as escapes"
like "$(cat "$T/r.txt")" '\\u009b c1 name' "text: the C1 control shown"
like "$(cat "$T/r.md")" '&#64;team' "Markdown: the mention written as &#64;"
unlike "$(cat "$T/r.md")" '@team' "Markdown: no mention left"
like "$(cat "$T/r.json")" '\\u001b\]0;pwned\\u0007evil @team' "JSON keeps the name, escaped as JSON does"
sed 's/\.002000/.009000/' "$T/t.txt" >"$T/t2.txt"   # the evil slice slower in the head
"$BIN" -q "$T/t2.txt" -o "$T/r2.json"
"$BIN" compare --base "$T/r.json" --head "$T/r2.json" -o "$T/c.txt" -o "$T/c.md" 2>/dev/null
like "$(cat "$T/c.txt")" '\\x1b\]0;pwned\\x07evil @team' "compare's text names the slower slice, its escapes shown"
like "$(cat "$T/c.md")" '&#64;team' "compare's Markdown: the mention as &#64;"
is "$(controls "$T/c.txt")/$(controls "$T/c.md")" 0/0 "compare's text and Markdown: no control character"
"$BIN" merge "$T/r.json" "$T/r2.json" -o "$T/m.md" 2>/dev/null
is "$(controls "$T/m.md")" 0 "merge's Markdown: no control character"
is "$(grep -c '@team' "$T/c.md" "$T/m.md" | sed 's/.*://' | tr '\n' ' ')" "0 0 " "compare's and merge's Markdown: no mention"
# query: its table is read by a person (escapes shown); CSV to a file and
# JSON keep the bytes (JSON escaped as JSON does).
"$BIN" query "$T/t.txt" "SELECT name FROM frames WHERE name LIKE '%pwned%'" >"$T/q.txt"
like "$(cat "$T/q.txt")" '\\x1b\]0;pwned\\x07evil' "query's table: the name, its escapes shown"
is "$(controls "$T/q.txt")" 0 "query's table: no control character"
"$BIN" query "$T/t.txt" "SELECT name FROM frames WHERE name LIKE '%pwned%'" --format csv -o "$T/q.csv"
is "$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d.count(b"\x1b]0;pwned\x07"))' "$T/q.csv")" 1 \
	"query's CSV in a file: the name's bytes kept (ESC and BEL)"
