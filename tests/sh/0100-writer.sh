#!/bin/sh
# The test dump writer itself: the worked example is byte-exact with the
# spec, an independent reader (verify_dump.py) agrees with the truth it
# writes for every fixture, and the same seed gives the same bytes.
. tests/lib.sh

check "example matches the spec's bytes" python3 tests/fixtures/verify_dump.py --example "$FIX/example"
is "$(wc -c <"$FIX/example/sampling.bin" | tr -d ' ')" 438 "example is 438 bytes"
for f in small seed2 seed3 v3 v4 faults nomap bigpid short allocs; do
	check "verify_dump agrees with the truth of $f" python3 tests/fixtures/verify_dump.py "$FIX/$f"
done
"$MKDUMP" --records 700 --seed 77 "$T/a" >/dev/null
"$MKDUMP" --records 700 --seed 77 "$T/b" >/dev/null
check "same seed, same dump" cmp "$T/a/sampling.bin" "$T/b/sampling.bin"
check "same seed, same mapping" cmp "$T/a/sampling-mapping.bin" "$T/b/sampling-mapping.bin"
check "same seed, same truth" cmp "$T/a/truth/intervals.tsv" "$T/b/truth/intervals.tsv"
"$MKDUMP" --records 700 --seed 78 "$T/c" >/dev/null
check "another seed, another dump" sh -c "! cmp -s '$T/a/sampling.bin' '$T/c/sampling.bin'"
"$MKDUMP" --bogus "$T/d" >/dev/null 2>&1; is "$?" 2 "writer: unknown option exits 2"
"$MKDUMP" --alloc-records some "$T/d" >/dev/null 2>&1; is "$?" 2 "writer: unknown --alloc-records mode exits 2"

# examples/ is the writer's output for the Makefile's EXAMPLE_OPTS.
# shellcheck disable=SC2086
"$MKDUMP" ${EXAMPLE_OPTS:---records 700 --seed 9 --startup cold --no-truth} "$T/ex" >/dev/null
check "examples/sampling.bin regenerates byte for byte" cmp "$T/ex/sampling.bin" examples/sampling.bin
check "examples/sampling-mapping.bin regenerates byte for byte" cmp "$T/ex/sampling-mapping.bin" examples/sampling-mapping.bin
like "$("$BIN" examples/sampling.bin)" "samples +700 of 700 records" "the bundled example analyses"
