#!/bin/sh
# Run every test family and count TAP results: unit programs ($B/tests/t_*),
# golden cases (tests/golden.sh) and end-to-end scripts (tests/sh/*.sh).
# Ends with "N passed, N failed"; exits 1 if anything failed.
# With arguments, runs only those (tests/sh/NAME.sh files, or "golden").
# TEST_JOBS tests run at once (default: nproc). A script with a line
# "# run alone: WHY" runs with no other beside it; those start first, then
# the rest, slowest first by the last full run's times ($B/tests/times).
# Each test's output is printed whole, in the order above, and ends with
# its wall time and, where GNU time is installed, its CPU time, children
# included ("# NAME: 12.3 s, CPU 20.1 s": the suite is CPU-bound, so
# what a test costs it is its CPU); with BT_TEST_TIMES=1 the fifteen
# slowest and the fifteen costliest in CPU are listed again before the
# count. $B/tests/times keeps the last full run's (name, wall, user, system).
set -u
B=${B:-build}
export B LC_ALL=C TZ=UTC
# glibc's malloc asks for transparent huge pages where the system leaves
# them to the program (THP "madvise"): on these VMs a page fault costs ~6 us
# and the simulators and imports fault their way through hundreds of MB
# (4255-device-accuracy on two seeds: 50 -> 40 s of CPU). glibc advises
# only a heap growth of a huge page or more, and grows the heap by what is
# asked plus top_pad (128 KiB): hence top_pad 2 MiB, without which the
# thousands of small analyses got no huge page and paid more than without
# the tunable (a 100-record analysis: 28 ms of CPU; 24 ms without it; 21
# ms, 730 -> 305 page faults, with both). Only the tests' speed: make
# bench measures the program as users run it.
GLIBC_TUNABLES=${GLIBC_TUNABLES:-glibc.malloc.hugetlb=1:glibc.malloc.top_pad=2097152}
export GLIBC_TUNABLES
# The checkers are the Debian packages 'make deps' installs (python3-openpyxl,
# python3-jsonschema, golang-go, chromium-headless-shell): use the system's
# python3 and go ahead of any pyenv or virtualenv on PATH, which would not
# see them.
PATH=/usr/bin:$PATH
export PATH
ROOT=$(pwd)
export ROOT
# The fixture writers' and checkers' modules compiled once, into build/
# (not beside the sources), whatever the caller's PYTHONDONTWRITEBYTECODE:
# mkperfetto.py, imported by nine of them, compiles in 20 ms.
PYTHONPYCACHEPREFIX=$ROOT/build/pycache
export PYTHONPYCACHEPREFIX
unset PYTHONDONTWRITEBYTECODE
# Python's objects from glibc's malloc, which the tunables above give huge
# pages, not from pymalloc's 1 MiB arenas of 4 KiB pages: a checker of a
# 20k device dump 0.81x the CPU (70k -> 4k page faults), a 'python3 -c'
# 0.83x, these families' tests 0.90x. Not the device simulator's millions
# of small tuples: 1.5x under glibc, it starts again under pymalloc
# (tests/fixtures/mkdevice.py).
PYTHONMALLOC=${PYTHONMALLOC:-malloc}
export PYTHONMALLOC
# The device simulator's runs, kept by their options (tests/fixtures/
# simcache.py): make asan's tests ask for the dumps make test's made. In
# build/ whichever $B: both runs share it.
BT_SIM_CACHE=${BT_SIM_CACHE-$ROOT/build/sim-cache}
export BT_SIM_CACHE
JOBS=${TEST_JOBS:-$(nproc)}
case $JOBS in
''|*[!0-9]*|0) echo "TEST_JOBS must be a number of tests to run at once, not '$JOBS'" >&2; exit 2 ;;
esac
TIMES=$B/tests/times
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
: >"$W/log"

n=0
add() {   # name file: test n+1 runs file (a script if *.sh)
	n=$((n + 1))
	a=0 w=1
	case $2 in *.sh) grep -q '^# run alone: ' "$2" 2>/dev/null && a=1 w=$JOBS ;; esac
	eval "name_$n=\$1 file_$n=\$2 alone_$n=\$a w_$n=\$w done_$n=0"
}

timed() {   # cpu-file command...: run it; its CPU seconds (user system) into cpu-file
	_cpu=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$_cpu" "$@"
	else
		"$@"   # no cpu-file: its figures read "?"
	fi
}

one() {   # i: run test i into $W/i.out and its times into $W/i.time, then tell fd 4
	eval "_name=\$name_$1 _file=\$file_$1"
	t0=$(date +%s.%N)
	# SIGINT and SIGQUIT back to their defaults: sh ignores them in a
	# background job, and the tests (and ^C) expect them as in the foreground.
	case $_file in
	*.sh) timed "$W/$1.cpu" env --default-signal=INT,QUIT sh "$_file" ;;
	*) timed "$W/$1.cpu" env --default-signal=INT,QUIT "$_file" ;;
	esac >"$W/$1.out" 2>&1 </dev/null 4>&-
	rc=$?
	t1=$(date +%s.%N)
	if [ $rc -ne 0 ] && ! grep -q '^not ok' "$W/$1.out"; then
		echo "not ok - $_name exited with status $rc" >>"$W/$1.out"
	fi
	# GNU time writes "Command exited with non-zero status N" (or "terminated
	# by signal") before the figures: they are the last line
	awk -v n="$_name" -v a="$t0" -v b="$t1" -v c="$(tail -n 1 "$W/$1.cpu" 2>/dev/null)" \
		'BEGIN { if (split(c, u, " ") != 2) u[1] = u[2] = "?"; printf "%s %.1f %s %s\n", n, b - a, u[1], u[2] }' \
		>"$W/$1.time"
	echo "$1" >&4
}

next=1
show() {   # print the finished tests from $next on, in their order
	while [ $next -le $n ] && eval "[ \$done_$next = 1 ]"; do
		read -r _name _s _u _y <"$W/$next.time"
		_c=$(awk -v u="$_u" -v y="$_y" 'BEGIN { if (u != "?") printf ", CPU %.1f s", u + y }')
		{ echo "# $_name"; cat "$W/$next.out"; echo "# $_name: $_s s$_c"; } | tee -a "$W/log"
		next=$((next + 1))
	done
}

sh tests/fixtures.sh || { echo "not ok - generating fixtures"; echo "0 passed, 1 failed"; exit 1; }
if [ $# -gt 0 ]; then
	for t in "$@"; do
		case $t in
		golden) add golden tests/golden.sh ;;
		*) add "$(basename "$t" .sh)" "$t" ;;
		esac
	done
else
	for t in "$B"/tests/t_*; do
		[ -x "$t" ] && add "$(basename "$t")" "$t"
	done
	add golden tests/golden.sh
	for t in tests/sh/*.sh; do
		add "$(basename "$t" .sh)" "$t"
	done
fi

# The start order: those that run alone first (so that no other waits for
# them), then tests not timed yet (they may be slow), then the slowest of
# the last full run; ties in print order. A fresh build has no last run:
# tests/slow.txt (a quiet run's times of the tests over a second) stands in,
# and a test it does not list is taken as short.
i=1
while [ $i -le $n ]; do
	eval "echo \"\$name_$i $i \$alone_$i\""
	i=$((i + 1))
done >"$W/names"
HINT=tests/slow.txt
[ -s "$TIMES" ] && HINT=
order=$(awk -v f="$TIMES" -v h="$HINT" '
	BEGIN { while ((getline l <f) > 0) { split(l, a, " "); s[a[1]] = a[2] }
		if (h != "") while ((getline l <h) > 0) if (l !~ /^#/) { split(l, a, " "); s[a[1]] = a[2] } }
	{ if (h != "" && !($1 in s)) s[$1] = 1
	  print ($3 == 1 ? 0 : $1 in s ? 2 : 1), ($1 in s ? s[$1] : 0), $2 }' "$W/names" |
	sort -k1,1n -k2,2gr -k3,3n | cut -d' ' -f3)

mkfifo "$W/done"
exec 4<>"$W/done"
running=0
for i in $order; do
	eval "w=\$w_$i"
	while [ $running -gt 0 ] && [ $((running + w)) -gt "$JOBS" ]; do
		read -r d <&4
		eval "done_$d=1 running=\$((running - w_$d))"
		show
	done
	one "$i" &
	running=$((running + w))
done
while [ $running -gt 0 ]; do
	read -r d <&4
	eval "done_$d=1 running=\$((running - w_$d))"
	show
done
wait

if [ $# -eq 0 ] && [ -d "$B/tests" ]; then
	cat "$W"/*.time >"$TIMES.new" && mv "$TIMES.new" "$TIMES"
fi
if [ "${BT_TEST_TIMES:-0}" = 1 ]; then
	echo "# slowest:"
	cat "$W"/*.time | sort -k2,2gr | head -15 | awk '{ printf "# %s: %s s\n", $1, $2 }'
	if [ -x /usr/bin/time ]; then
		echo "# most CPU (user + system, children included):"
		cat "$W"/*.time | awk '$3 != "?" { printf "%s %.1f\n", $1, $3 + $4 }' | sort -k2,2gr | head -15 |
			awk '{ printf "# %s: %s s\n", $1, $2 }'
	fi
fi
passed=$(grep -c '^ok' "$W/log")
failed=$(grep -c '^not ok' "$W/log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
