#!/bin/sh
# Check that names are unique across the C sources of engine importers
# reports lua: no two files share a basename (an include or a debugger's
# "file.c:12" should name one file), and no struct, enum or union tag is
# defined (given a body) twice, nor a typedef name, even file-local ones
# in different files (grep and the reader should find one definition),
# nor an include guard (tests' headers included).
# Comments and string literals are skipped; a body's '{' may be on the
# tag's line or open the next line.
# Usage: tests/names.sh [ROOT]; prints each duplicate, exits 1 if any.
ROOT=${1:-.}
cd "$ROOT" || exit 2
files=$(find engine importers reports lua -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "names: no C sources under $ROOT"; exit 2; }

# shellcheck disable=SC2086
same_file=$(printf '%s\n' $files | awk '
{ n = $0; sub(/.*\//, "", n); count[n]++; where[n] = where[n] " " $0 }
END {
	for (n in count)
		if (count[n] > 1) print "names: file name \"" n "\" used " count[n] " times:" where[n]
}' | LC_ALL=C sort)

# shellcheck disable=SC2086
same_type=$(awk '
FNR == 1 { incomment = 0; pending = "" }
# The line without comments (a space each) and without the text of string
# and character literals (an empty pair of quotes each).
function code(s,   out, i, c, q) {
	if (!incomment && s !~ /[\/"'"'"']/) return s   # most lines: nothing to strip
	if (incomment && index(s, "*/") == 0) return ""
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; i++ }
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; i++; out = out " "; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") break
		if (c == "\"" || c == "'"'"'") {
			q = c
			for (i++; i <= length(s) && substr(s, i, 1) != q; i++)
				if (substr(s, i, 1) == "\\") i++
			out = out q q
			continue
		}
		out = out c
	}
	return out
}
function define(name, at) {
	count[name]++
	where[name] = where[name] " " at
}
{
	line = code($0)
	if (pending != "") {
		if (line ~ /^[ \t]*\{/) define(pending, pendingat)
		if (line !~ /^[ \t]*$/) pending = ""
	}
	rest = line
	while (match(rest, /(^|[^A-Za-z0-9_])(struct|enum|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
		m = substr(rest, RSTART, RLENGTH)
		sub(/^[^a-z]*/, "", m); sub(/[ \t]*\{$/, "", m); gsub(/[ \t]+/, " ", m)
		define(m, FILENAME ":" FNR)
		rest = substr(rest, RSTART + RLENGTH)
	}
	if (match(line, /(^|[^A-Za-z0-9_])(struct|enum|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) {
		pending = substr(line, RSTART, RLENGTH)
		sub(/^[^a-z]*/, "", pending); sub(/[ \t]*$/, "", pending); gsub(/[ \t]+/, " ", pending)
		pendingat = FILENAME ":" FNR
	}
	if (line ~ /^[ \t]*typedef[ \t]/ && line ~ /;[ \t]*$/ && line !~ /\{/) {
		t = line
		if (match(t, /\([ \t]*\*[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*\)/)) {
			t = substr(t, RSTART, RLENGTH); gsub(/[^A-Za-z0-9_]/, "", t)
		} else {
			sub(/[ \t]*(\[[^]]*\][ \t]*)*;[ \t]*$/, "", t); sub(/.*[^A-Za-z0-9_]/, "", t)
		}
		define("typedef " t, FILENAME ":" FNR)
	}
}
END {
	for (n in count)
		if (count[n] > 1) print "names: " n " defined " count[n] " times:" where[n]
}' $files | LC_ALL=C sort)

# Include guards, tests' headers too: two headers with one guard hide
# each other from whoever includes both.
# shellcheck disable=SC2046
same_guard=$(awk 'FNR == 1 { done = 0 } !done && /^#ifndef[ \t]/ { print $2 "\t" FILENAME; done = 1 }' \
	$(find engine importers reports lua tests -name '*.h' 2>/dev/null | LC_ALL=C sort) | awk -F'\t' '
{ count[$1]++; where[$1] = where[$1] " " $2 }
END {
	for (g in count)
		if (count[g] > 1) print "names: include guard " g " used " count[g] " times:" where[g]
}' | LC_ALL=C sort)

[ -z "$same_file$same_type$same_guard" ] && exit 0
printf '%s\n' "$same_file" "$same_type" "$same_guard" | sed '/^$/d'
exit 1
