#!/bin/sh
# Golden tests: each tests/golden/NNNN-slug/ holds cmd (shell words using
# $BIN, $FIX, $OUT), expected.out and optionally expected.err and
# expected.rc. Output is compared with diff -u; UPDATE=1 blesses it.
set -u
BIN=$ROOT/$B/btrace-analyze
FIX=$ROOT/$B/fixtures
export BIN FIX
for dir in tests/golden/*/; do
	case=$(basename "$dir")
	OUT=$(mktemp -d)
	export OUT
	(cd "$OUT" && sh "$ROOT/$dir/cmd") >"$OUT/.out" 2>"$OUT/.err"
	echo $? >"$OUT/.rc"
	sed -i "s#$OUT#\$OUT#g; s#$FIX#\$FIX#g" "$OUT/.out" "$OUT/.err"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$OUT/.out" "$dir/expected.out"
		if [ -s "$OUT/.err" ]; then cp "$OUT/.err" "$dir/expected.err"; else rm -f "$dir/expected.err"; fi
		if [ "$(cat "$OUT/.rc")" != 0 ]; then cp "$OUT/.rc" "$dir/expected.rc"; else rm -f "$dir/expected.rc"; fi
	fi
	status=ok
	diff -u "$dir/expected.out" "$OUT/.out" || status="not ok"
	if [ -f "$dir/expected.err" ]; then diff -u "$dir/expected.err" "$OUT/.err" || status="not ok"
	elif [ -s "$OUT/.err" ]; then echo "# unexpected stderr:"; sed 's/^/# /' "$OUT/.err"; status="not ok"; fi
	want=0; [ -f "$dir/expected.rc" ] && want=$(cat "$dir/expected.rc")
	[ "$(cat "$OUT/.rc")" = "$want" ] || { echo "# exit $(cat "$OUT/.rc"), want $want"; status="not ok"; }
	echo "$status - golden $case"
	rm -rf "$OUT"
done
