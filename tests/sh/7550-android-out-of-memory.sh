#!/bin/sh
# Out of memory is an error, not a crash (DESIGN §11): under an
# address-space limit (prlimit --as) an analysis with --pprof either
# succeeds or exits 1 with "out of memory allocating N bytes (what it was
# doing 'FILE')" (or the failing call's errno text), never a SIGABRT and a
# core, and leaves no report, export or temporary behind.
. tests/lib.sh

# no address-space limit under a sanitizer (lib.sh's sanitized)
if sanitized; then
	echo "ok - # SKIP no address-space limit under a sanitizer build"
	exit 0
fi

"$MKDUMP" --records 200000 --no-truth "$T/d" >/dev/null
ooms=0
for mb in 50 60 80 100 110 120; do
	rm -f "$T"/o.*
	err=$(cd "$T" && ulimit -c 0 && prlimit --as=$((mb << 20)) "$BIN" -q d -o o.json --pprof o.pb.gz 2>&1 >/dev/null)
	rc=$?
	case $rc in
	0) is "$(ls "$T" | grep -c '^o\.')" 2 "${mb} MB: enough, both outputs written" ;;
	1)
		like "$err" "^btrace-analyze: error: (out of memory allocating [0-9]+ bytes \\((importing|reconstructing the slices of|running the rules on|writing the outputs of) 'd'\\)|.*'d.*'.*(Cannot allocate memory|out of memory).*)$" \
			"${mb} MB: exit 1 saying what was being allocated"
		is "$(ls "$T" | grep -c '^o\.')" 0 "${mb} MB: no report, export or temporary left"
		case $err in *"out of memory allocating"*) ooms=$((ooms + 1)) ;; esac
		;;
	*) is "$rc" "0 or 1" "${mb} MB: exit 0 or 1, not a signal ($err)" ;;
	esac
done
is "$((ooms >= 2))" 1 "at least two limits ran out of memory in the allocators"
is "$(ls "$T" | grep -c core)" 0 "no core dumped"

# Issue 39: --pprof on 1M records fits in 400 MB of address space. The
# threads share one malloc arena (engine/cli/main.c): each further arena
# reserved 64 MB that the limit counts (the run needed 412 MB before).
"$MKDUMP" --records 1000000 --no-truth "$T/m" >/dev/null
err=$(cd "$T" && ulimit -c 0 && prlimit --as=$((400 << 20)) "$BIN" -q m -o /dev/null --pprof m.pb.gz 2>&1 >/dev/null)
is "$?" 0 "1M records, --pprof, 400 MB of address space: exit 0 ($err)"
check "1M records, --pprof under the limit: the profile written" test -s "$T/m.pb.gz"
