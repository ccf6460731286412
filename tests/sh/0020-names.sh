#!/bin/sh
# Unique names (tests/names.sh): the tree as it is passes; a copy with a
# planted duplicate file name, struct, enum or typedef fails, naming both
# places; tags inside comments and strings are no definitions.
. tests/lib.sh

out=$(sh tests/names.sh 2>&1); rc=$?
is "$rc" 0 "no file name or type name is defined twice"
[ "$rc" = 0 ] || printf '#   %s\n' "$out"

tree() {   # a fresh copy of the sources in $T/tree
	rm -rf "$T/tree"; mkdir -p "$T/tree"
	cp -R engine importers reports lua "$T/tree/"
}

plant() {   # description file text pattern: text appended to file must fail the check
	tree
	printf '%s\n' "$3" >>"$T/tree/$2"
	out=$(sh tests/names.sh "$T/tree" 2>&1); rc=$?
	is "$rc" 1 "planted: $1 fails the check"
	like "$out" "$4" "planted: $1 is named"
}
plant "a second struct bt_amap" engine/db/diag.c 'struct bt_amap {
	int n;
};' "struct bt_amap defined 2 times: engine/db/diag.c:[0-9]+ importers/android/android_int.h:[0-9]+"
plant "a second enum bt_unit, brace on the next line" lua/api.c 'enum bt_unit
{
	BT_UNIT_X
};' "enum bt_unit defined 2 times: engine/base/result.h:[0-9]+ lua/api.c:[0-9]+"
plant "a second union tag" reports/xlsx/xlsx.c 'union u { int i; };
static union u { double d; } x;' "union u defined 2 times: reports/xlsx/xlsx.c:[0-9]+ reports/xlsx/xlsx.c:[0-9]+"
plant "a second typedef bt_slices_fn" lua/gates.c 'typedef int (*bt_slices_fn)(void);' \
	"typedef bt_slices_fn defined 2 times: engine/db/db.h:[0-9]+ lua/gates.c:[0-9]+"

tree
cp engine/db/rows.c "$T/tree/reports/text/rows.c"
out=$(sh tests/names.sh "$T/tree" 2>&1); rc=$?
is "$rc" 1 "planted: a second rows.c fails the check"
like "$out" 'file name "rows.c" used 2 times: engine/db/rows.c reports/text/rows.c' "planted: a second rows.c is named"

tree
printf '%s\n' '/* struct bt_amap { a comment */' 'static const char *s = "struct bt_amap {";' \
	'// enum bt_unit {' >>"$T/tree/engine/db/diag.c"
out=$(sh tests/names.sh "$T/tree" 2>&1); rc=$?
is "$rc" 0 "tags in comments and strings are no definitions"
[ "$rc" = 0 ] || printf '#   %s\n' "$out"

tree
printf '%s\n' '#ifndef BT_DB_H' '#define BT_DB_H' '#endif' >"$T/tree/engine/profile/other.h"
out=$(sh tests/names.sh "$T/tree" 2>&1); rc=$?
is "$rc" 1 "planted: a second include guard BT_DB_H fails the check"
like "$out" "include guard BT_DB_H used 2 times: engine/db/db.h engine/profile/other.h" \
	"planted: a second include guard is named"
