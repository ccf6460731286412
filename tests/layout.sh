#!/bin/sh
# Every folder has a row in its parent's README (issue 38): each folder
# under engine/, importers/, reports/, tests/ and examples/ is named as
# `NAME/…` (the first cell of its row) in that parent's README.md, and each
# top-level folder (build trees aside) in docs/development.md's layout.
# Every module of engine/recon, engine/profile and engine/startup (a
# public header NAME.h) has its unit program, tests/unit/t_NAME.c.
# Prints one line per folder or program missing and exits 1 if any is.
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
for h in "$root"/engine/recon/*.h "$root"/engine/profile/*.h "$root"/engine/startup/*.h; do
	[ -f "$h" ] || continue
	n=$(basename "$h" .h)
	case $n in *_int) continue ;; esac
	[ -f "$root/tests/unit/t_$n.c" ] || { echo "layout: ${h#"$root"/} has no unit program tests/unit/t_$n.c"; bad=1; }
done
exit $bad
