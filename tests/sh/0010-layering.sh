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
plant "reports/ including lua/" reports/report.c '#include "lua/rules.h"' "reports/ includes lua/rules.h"
plant "a lower engine layer including a higher one" engine/db/db.c '#include "engine/recon/slice.h"' \
	"engine/db includes engine/recon/slice.h of the same or a higher layer"
plant "two headers including each other" engine/base/err.h '#include "engine/base/alloc.h"' \
	"engine/base/alloc.h and engine/base/err.h include each other"
plant "an include by bare name" engine/db/diag.c '#include "db.h"' \
	"includes \"db.h\", which is no path from the source root"
plant "two report folders including each other" reports/xlsx/xlsx.h '#include "reports/compare/cmp_report.h"' \
	"reports/compare and reports/xlsx include each other"
