#!/bin/sh
# Run every test family and count TAP results: unit programs ($B/tests/t_*),
# golden cases (tests/golden.sh) and end-to-end scripts (tests/sh/*.sh).
# Ends with "N passed, N failed"; exits 1 if anything failed.
# With arguments, runs only those (tests/sh/NAME.sh files, or "golden").
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
trap 'rm -f "$log"' EXIT

run() {   # name command...
	name=$1; shift
	echo "# $name"
	"$@" >"$log.out" 2>&1
	rc=$?
	cat "$log.out"
	cat "$log.out" >>"$log"
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$log.out"; then
		echo "not ok - $name exited with status $rc"
		echo "not ok - $name exited with status $rc" >>"$log"
	fi
	rm -f "$log.out"
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
passed=$(grep -c '^ok' "$log")
failed=$(grep -c '^not ok' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
