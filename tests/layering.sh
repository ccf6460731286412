#!/bin/sh
# Check the include graph against the layout (engine/README.md): every
# include names an existing file from the source root (or gen/ for what
# the build generates); data flows one way, importers -> engine <- lua,
# reports, with only engine/cli reaching up; inside engine, a folder
# includes only its own and lower layers; an importer's folder sees only
# itself, the importers' shared files and engine; no two files and no
# two folders include each other.
# Usage: tests/layering.sh [ROOT]; prints each violation, exits 1 if any.
ROOT=${1:-.}
cd "$ROOT" || exit 2
# One awk reads every source (a fork per file and per include made this
# check take seconds); each include is looked up among the tree's files.
# shellcheck disable=SC2046
awk 'BEGIN { while (("find engine importers reports lua gen -type f 2>/dev/null" | getline f) > 0) have[f] = 1 }
match($0, /^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"/) {
	inc = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
	print FILENAME, inc, (inc in have) ? 1 : 0
}' $(find engine importers reports lua -name '*.[ch]' | sort) | awk '
# The folder a file belongs to, for the rules below.
function folder(p,   n, a) {
	n = split(p, a, "/")
	if (a[1] == "engine" || a[1] == "reports" || a[1] == "importers")
		return n > 2 ? a[1] "/" a[2] : a[1]
	return a[1]
}
# Engine layers, lowest first: a folder includes only its own and lower ones.
BEGIN {
	rank["engine/base"] = 0; rank["engine/proto"] = 0
	rank["engine/db"] = 1; rank["engine/compare"] = 1
	rank["engine/profile"] = 2; rank["engine/fleet"] = 2; rank["engine/startup"] = 3; rank["engine/recon"] = 4
	rank["engine/batch"] = 5
	rank["engine/cli"] = 9
	bad = 0
}
function fail(msg) { print "layering: " msg; bad = 1 }
{
	from = $1; to = $2
	if (to ~ /^gen\//) next
	if (!$3 && system("test -f \"" to "\"") != 0) {
		fail(from ": includes \"" to "\", which is no path from the source root"); next
	}
	ff = folder(from); ft = folder(to)
	edge[from, to] = 1
	if (ff != ft) fdep[ff, ft] = from " includes " to
	top_f = substr(ff, 1, index(ff "/", "/") - 1); top_t = substr(ft, 1, index(ft "/", "/") - 1)
	if (top_f == "engine" && ff != "engine/cli" && top_t != "engine")
		fail(from ": engine outside engine/cli includes " to)
	if (top_f == "importers" && (top_t == "lua" || top_t == "reports"))
		fail(from ": an importer includes " to)
	if (top_f == "lua" && (top_t == "importers" || top_t == "reports"))
		fail(from ": lua/ includes " to)
	if (top_f == "reports" && (top_t == "importers" || top_t == "lua"))
		fail(from ": reports/ includes " to)
	if (top_f == "importers" && ff != "importers" && ft != ff && ft != "importers" && top_t == "importers")
		fail(from ": one importer includes another'"'"'s " to)
	if (top_f == "engine" && top_t == "engine" && ff != ft && ff in rank && ft in rank && rank[ft] >= rank[ff])
		fail(from ": " ff " includes " to " of the same or a higher layer (" ft ")")
	if ((top_f == "engine") && !(ff in rank))
		fail(from ": engine folder " ff " has no layer (add it to tests/layering.sh)")
}
END {
	for (k in edge) {
		split(k, p, SUBSEP)
		if ((p[2], p[1]) in edge && p[1] < p[2])
			fail(p[1] " and " p[2] " include each other")
	}
	for (k in fdep) {
		split(k, p, SUBSEP)
		if ((p[2], p[1]) in fdep && p[1] < p[2])
			fail(p[1] " and " p[2] " include each other (" fdep[k] "; " fdep[p[2], p[1]] ")")
	}
	exit bad
}'
