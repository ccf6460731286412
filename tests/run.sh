#!/bin/sh
# Run every test family and count TAP results: unit programs ($B/tests/t_*),
# golden cases (tests/golden.sh) and end-to-end scripts (tests/sh/*.sh).
# Ends with "N passed, N failed"; exits 1 if anything failed.
# With arguments, runs only those (tests/sh/NAME.sh files, or "golden").
# Each test's block ends with its wall time ("# NAME: 12.3 s"); with
# BT_TEST_TIMES=1 the slowest fifteen are listed again before the count.
set -u
B=${B:-build}
export B LC_ALL=C TZ=UTC
# The checkers are the Debian packages 'make deps' installs (python3-openpyxl,
# python3-jsonschema, golang-go, chromium): use the system's python3 and go
# ahead of any pyenv or virtualenv on PATH, which would not see them.
PATH=/usr/bin:$PATH
export PATH
ROOT=$(pwd)
export ROOT
log=$(mktemp)
trap 'rm -f "$log" "$log.times"' EXIT

run() {   # name command...
	name=$1; shift
	echo "# $name"
	t0=$(date +%s.%N)
	"$@" >"$log.out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	cat "$log.out"
	cat "$log.out" >>"$log"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log.out"; then
		echo "not ok - $name exited with status $rc"
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	rm -f "$log.out"
	awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "# %s: %.1f s\n", n, b - a }' |
		tee -a "$log.times"
}

sh tests/fixtures.sh || { echo "not ok - generating fixtures"; echo "0 passed, 1 failed"; exit 1; }
if [ $# -gt 0 ]; then
	for t in "$@"; do
		case $t in
		golden) run golden sh tests/golden.sh ;;
		*) run "$(basename "$t" .sh)" sh "$t" ;;
		esac
	done
else
	for t in "$B"/tests/t_*; do
		[ -x "$t" ] && run "$(basename "$t")" "$t"
	done
	run golden sh tests/golden.sh
	for t in tests/sh/*.sh; do
		run "$(basename "$t" .sh)" sh "$t"
	done
fi
if [ "${BT_TEST_TIMES:-0}" = 1 ]; then
	echo "# slowest:"
	sort -t: -k2 -rn "$log.times" | head -15
fi
passed=$(grep -c '^ok' "$log")
failed=$(grep -c '^not ok' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
