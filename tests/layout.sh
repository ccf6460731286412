#!/bin/sh
# Every folder has a row in its parent's README (issue 38): each folder
# under engine/, importers/, reports/, tests/ and examples/ is named as
# `NAME/…` (the first cell of its row) in that parent's README.md, and each
# top-level folder (build trees aside) in docs/development.md's layout.
# Prints one line per folder missing and exits 1 if any is.
# Usage: layout.sh [ROOT]
root=${1:-.}
bad=0
missing() {   # folder readme
	echo "layout: $1 has no row in $2"
	bad=1
}
for parent in engine importers reports tests examples; do
	for d in "$root/$parent"/*/; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		grep -q "\`$n/" "$root/$parent/README.md" 2>/dev/null || missing "$parent/$n/" "$parent/README.md"
	done
done
for d in "$root"/*/; do   # the top-level folders (not build trees)
	n=$(basename "$d")
	case $n in build|build-*) continue ;; esac
	sed -n '/^## Layout/,/^## /p' "$root/docs/development.md" | grep -q "\`$n/\`" ||
		missing "$n/" "docs/development.md's layout"
done
exit $bad
