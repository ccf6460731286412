#!/bin/sh
# Every folder has a row in its parent's README (tests/layout.sh, issue
# 38): the tree passes, and a copy of its folders and READMEs fails with a
# planted folder no README lists, under engine/ and at the top, naming it;
# and with a module of engine/recon that has no unit program.
. tests/lib.sh
out=$(sh tests/layout.sh . 2>&1)
is "$?" 0 "every folder has a row in its parent's README ($out)"

c=$T/tree
for p in engine importers reports tests examples; do
	mkdir -p "$c/$p"
	cp "$p/README.md" "$c/$p/"
	for d in "$p"/*/; do mkdir -p "$c/$d"; done
done
mkdir -p "$c/docs" "$c/queries" "$c/lua" "$c/build-x" "$c/tests/unit"
for m in recon profile startup; do cp engine/$m/*.h "$c/engine/$m/"; done
cp tests/unit/t_*.c "$c/tests/unit/"
cp docs/development.md "$c/docs/"
out=$(sh tests/layout.sh "$c" 2>&1)
is "$?" 0 "the copy of the folders and READMEs passes, build trees aside ($out)"
mkdir "$c/engine/plant" "$c/vendor"
out=$(sh tests/layout.sh "$c" 2>&1)
is "$?" 1 "a folder no README lists fails the check"
like "$out" "layout: engine/plant/ has no row in engine/README.md" "... naming it and its README"
like "$out" "layout: vendor/ has no row in docs/development.md's layout" "... a top-level one too"

rmdir "$c/engine/plant" "$c/vendor"
touch "$c/engine/recon/plant.h" "$c/engine/recon/plant_int.h"
out=$(sh tests/layout.sh "$c" 2>&1)
is "$?" 1 "a module with no unit program fails the check"
is "$out" "layout: engine/recon/plant.h has no unit program tests/unit/t_plant.c" "... naming it (its private header aside)"
