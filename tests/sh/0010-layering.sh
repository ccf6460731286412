#!/bin/sh
# The layout's layering (engine/README.md), checked by tests/layering.sh
# on the include graph: the tree as it is passes, and each kind of planted
# violation fails it, naming the file.
. tests/lib.sh

out=$(sh tests/layering.sh 2>&1); rc=$?
is "$rc" 0 "the tree follows the layering"
[ "$rc" = 0 ] || printf '#   %s\n' "$out"

plant() {   # description file line pattern: a copy of the sources with line
	        # added at the top of file must fail, with pattern in the message
	rm -rf "$T/tree"; mkdir -p "$T/tree"
	cp -R engine importers reports lua "$T/tree/"
	{ printf '%s\n' "$3"; cat "$T/tree/$2"; } >"$T/tree/$2.new" && mv "$T/tree/$2.new" "$T/tree/$2"
	out=$(sh tests/layering.sh "$T/tree" 2>&1); rc=$?
	is "$rc" 1 "planted: $1 fails the check"
	like "$out" "$4" "planted: $1 is named"
}
plant "engine including reports/" engine/db/rows.c '#include "reports/report.h"' \
	"engine/db/rows.c: engine outside engine/cli includes reports/report.h"
plant "engine including lua/" engine/recon/link.c '#include "lua/rules.h"' \
	"engine/recon/link.c: engine outside engine/cli includes lua/rules.h"
plant "engine including importers/" engine/profile/profile.c '#include "importers/importer.h"' \
	"engine outside engine/cli includes importers/importer.h"
plant "an importer including reports/" importers/android/android.c '#include "reports/report.h"' \
	"importers/android/android.c: an importer includes reports/report.h"
plant "an importer including lua/" importers/reader.c '#include "lua/rules.h"' \
	"an importer includes lua/rules.h"
plant "one importer including another" importers/ios/ios.c '#include "importers/android/android_int.h"' \
	"one importer includes another's importers/android/android_int.h"
plant "lua/ including reports/" lua/api.c '#include "reports/report.h"' "lua/ includes reports/report.h"
plant "reports/ including lua/" reports/format.c '#include "lua/rules.h"' "reports/ includes lua/rules.h"
plant "a lower engine layer including a higher one" engine/db/db.c '#include "engine/recon/slice.h"' \
	"engine/db includes engine/recon/slice.h of the same or a higher layer"
plant "two headers including each other" engine/base/err.h '#include "engine/base/alloc.h"' \
	"engine/base/alloc.h and engine/base/err.h include each other"
plant "an include by bare name" engine/db/diag.c '#include "db.h"' \
	"includes \"db.h\", which is no path from the source root"
plant "two report folders including each other" reports/xlsx/xlsx.h '#include "reports/compare/cmp_report.h"' \
	"reports/compare and reports/xlsx include each other"

# Calls, read from the built objects: the real objects pass (and are read),
# and an object planted in a copy of them that calls across a boundary
# fails the check, naming its source, the symbol and where it is defined.
obj=$ROOT/$B
out=$(sh tests/layering.sh . "$obj" 2>&1); rc=$?
is "$rc" 0 "the objects' calls follow the layering"
unlike "$out" "calls not checked" "the objects were read"
unlike "$out" "known, " "no known exception left (issue 38: reports/ no longer calls reports/text's Markdown primitives)"

mkdir -p "$T/obj"   # a copy of the objects (links) with the plants added
for d in engine importers reports lua gen; do cp -Rs "$obj/$d" "$T/obj/"; done
n=0
plant_call() {   # description object C pattern: an object compiled from C at
	         # $T/obj/object; the check must name it with pattern
	n=$((n + 1))
	printf '%s\n' "$3" >"$T/plant$n.c"
	${CC:-cc} -std=c11 -c -o "$T/obj/$2" "$T/plant$n.c" || echo "not ok - compiling $2"
	eval "what_$n=\$1 pattern_$n=\$4"
}
plant_call "engine calling reports/" engine/db/plant.o \
	'void bt_md_put(void *out, const char *s); void bt_plant(void); void bt_plant(void) { bt_md_put(0, ""); }' \
	"engine/db/plant.c: engine outside engine/cli calls bt_md_put \(reports/markdown.c\)"
plant_call "a lower engine layer calling a higher one" engine/db/plant2.o \
	'int bt_slicer_run(void *s, const void *sink, void *err); int bt_plant2(void); int bt_plant2(void) { return bt_slicer_run(0, 0, 0); }' \
	"engine/db/plant2.c: engine/db calls bt_slicer_run \(engine/recon/slice.c\) of the same or a higher layer \(engine/recon\)"
plant_call "an importer using reports/' data" importers/android/plant.o \
	'extern const char bt_cmprep_legend[]; const char *bt_plant(void); const char *bt_plant(void) { return bt_cmprep_legend; }' \
	"importers/android/plant.c: an importer uses bt_cmprep_legend \(reports/compare/"
plant_call "an importer calling lua/" importers/plant.o \
	'int bt_api_open(void *L); int bt_plant(void); int bt_plant(void) { return bt_api_open(0); }' \
	"importers/plant.c: an importer calls bt_api_open \(lua/api.c\)"
plant_call "one importer calling another" importers/ios/plant.o \
	'void bt_amap_init(void *m); void bt_plant(void); void bt_plant(void) { bt_amap_init(0); }' \
	"importers/ios/plant.c: one importer calls another's bt_amap_init \(importers/android/"
plant_call "two engine folders calling each other" engine/base/plant.o \
	'void bt_feed_free(void *f); void bt_plant(void); void bt_plant(void) { bt_feed_free(0); }' \
	"engine/base and engine/recon call each other \(engine/base/plant.c calls bt_feed_free"
plant_call "a prefix naming definitions in two layers" reports/plant3.o \
	'int bt_slicer_plant(void); int bt_slicer_plant(void) { return 0; }' \
	"the prefix bt_slicer_ names definitions in two layers: .*(engine: engine/recon/slice.c|reports: reports/plant3.c)"
out=$(LAYERING_PLANTED='plant[0-9]*[.]c$' sh tests/layering.sh . "$T/obj" 2>&1); rc=$?
is "$rc" 1 "the planted calls fail the check"
i=1
while [ $i -le $n ]; do
	eval "like \"\$out\" \"\$pattern_$i\" \"planted call: \$what_$i is named\""
	i=$((i + 1))
done
is "$(printf '%s\n' "$out" | grep '^layering: ' | grep -v '^layering: known, ' | grep -vc 'plant[0-9]*\.c')" 0 "... and nothing but the plants"
rm "$T/obj/engine/db/plant.o" "$T/obj/engine/db/plant2.o" "$T/obj/importers/android/plant.o" \
	"$T/obj/importers/plant.o" "$T/obj/importers/ios/plant.o" "$T/obj/engine/base/plant.o" "$T/obj/reports/plant3.o"
out=$(LAYERING_KNOWN="reports reports/text calls" sh tests/layering.sh . "$T/obj" 2>&1); rc=$?
is "$rc" 1 "a known exception that no longer occurs fails the check"
like "$out" "known exception \"reports and reports/text calls\" no longer occurs" "... naming it"

# A header declares only what its folder defines: a copy of the sources
# whose reports/report_startup.h declares reports/text's bt_startsum_text
# (read against the real objects) fails, naming both.
rm -rf "$T/tree"; mkdir -p "$T/tree"
cp -R engine importers reports lua "$T/tree/"
printf '%s\n' 'void bt_startsum_text(void *out, const void *s, const void *names, unsigned long width);' \
	>>"$T/tree/reports/report_startup.h"
out=$(sh tests/layering.sh "$T/tree" "$obj" 2>&1); rc=$?
is "$rc" 1 "planted: a header declaring another folder's function fails the check"
like "$out" "reports/report_startup.h declares bt_startsum_text, which reports/text/startup_text.c defines" \
	"... naming the header, the function and where it is defined"
