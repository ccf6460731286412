#!/bin/sh
# Generate the inputs several tests share into $B/fixtures, each set again
# only when its writer changed: the test dumps (tests/fixtures/mkdump.c)
# into $B/fixtures/<name>/, and the Perfetto traces with scheduler data and
# their truth (mkpfsched.py, both forms, seeds 1-3) into
# $B/fixtures/pfsched/<form><seed>/. Tests only read them.
set -eu
B=${B:-build}
MKDUMP=$B/tests/mkdump
FIX=$B/fixtures

fresh() {   # stamp file...: whether stamp exists and is newer than each file
	[ -f "$1" ] || return 1
	_stamp=$1; shift
	for _f; do [ "$_stamp" -nt "$_f" ] || return 1; done
}

# The Perfetto traces are written beside the dumps, on the other core.
P=$FIX/pfsched
pfsched() {
	fresh "$P/.stamp" tests/fixtures/mkpfsched.py tests/fixtures/mkperfetto.py tests/fixtures.sh && return
	rm -rf "$P"
	for form in full compact; do
		for s in 1 2 3; do
			mkdir -p "$P/$form$s"
			python3 tests/fixtures/mkpfsched.py "$P/$form$s/t.pb" --form $form --seed $s
		done
	done
	touch "$P/.stamp"
}
mkdir -p "$FIX"
pfsched &
pf=$!
if ! fresh "$FIX/.stamp" "$MKDUMP" tests/fixtures.sh; then
	find "$FIX" -mindepth 1 -maxdepth 1 ! -name pfsched -exec rm -rf {} +
	while read -r name opts; do
		case $name in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2086
		"$MKDUMP" $opts "$FIX/$name" >/dev/null
	done <<'LIST'
# name       mkdump options
example      --example
small        --records 2000 --seed 1
seed2        --records 5000 --seed 2
seed3        --records 3000 --seed 3 --workers 5
v3           --records 1500 --version 3 --seed 4
v4           --records 1500 --version 4 --seed 5
faults       --records 1500 --seed 6 --bad-depth 4 --zero-depth 3 --deep 2 --unmapped 3 --empty-symbol 2 --bad-utf8 --count-delta 5 --exited-threads 1 --trace-arg 3 --flush 2 --start-time 9000
nomap        --records 500 --seed 7 --no-mapping
bigpid       --records 800 --seed 8 --pid 70000
pid40000     --records 500 --seed 9 --pid 40000
nopid        --records 300 --seed 10 --no-pid
noextra      --records 300 --seed 11 --no-extra
short        --records 600 --seed 12 --short-mapping
v9           --records 100 --seed 13 --raw-version 9
flush        --records 3000 --seed 2 --flush 6 --workers 6 --start-time 14800
allocs       --records 4000 --seed 21 --alloc-records all
d200k        --records 200000 --seed 42 --no-truth
LIST
	touch "$FIX/.stamp"
fi

wait $pf
