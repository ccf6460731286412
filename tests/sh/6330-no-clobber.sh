#!/bin/sh
# No command writes over one of its own inputs (issue 34 item 1,
# engine/cli/clobber.c): any output (-o, --db, --perfetto, --pprof,
# --folded, compare's and merge's -o) naming an input, by the same path,
# another path, a symbolic or a hard link, a file of an input directory, or
# a mapping found beside the trace, is refused with exit 2 before any work;
# the inputs are left byte for byte.
# A new output, or one over a file that is no input, is written as before.
. tests/lib.sh
cp "$ROOT/examples/sampling.bin" "$ROOT/examples/sampling-mapping.bin" "$T/"
mkdir -p "$T/dump"
cp "$ROOT/examples/sampling.bin" "$ROOT/examples/sampling-mapping.bin" "$T/dump/"
ln -s sampling.bin "$T/link.bin"
ln "$T/sampling.bin" "$T/hard.bin"
sum=$(md5sum <"$T/sampling.bin")
msum=$(md5sum <"$T/sampling-mapping.bin")
cd "$T" || exit 1
refused() {   # description command...: exit 2, the input unchanged, the error naming the output
	d=$1
	shift
	"$@" >out.txt 2>err.txt
	is "$?" 2 "$d: exit 2"
	like "$(cat err.txt)" "refusing to write '[^']*': it is (the input '[^']*' \\(the same file\\)|a mapping, an input read beside its trace)" \
		"$d: the error says why"
	is "$(md5sum <sampling.bin)/$(md5sum <dump/sampling.bin)/$(md5sum <sampling-mapping.bin)" "$sum/$sum/$msum" \
		"$d: the inputs unchanged"
}
refused "import -o the input" "$BIN" import sampling.bin -o sampling.bin
refused "--perfetto the input" "$BIN" sampling.bin --perfetto sampling.bin
refused "-o through a symbolic link" "$BIN" link.bin -o sampling.bin
refused "-o by another path" "$BIN" sampling.bin -o "$T/./sampling.bin"
refused "--pprof over a hard link of it" "$BIN" sampling.bin --pprof hard.bin
refused "--folded over the mapping beside it (not named)" "$BIN" sampling.bin --folded sampling-mapping.bin
refused "--mapping named, -o over it" "$BIN" sampling.bin --mapping dump/sampling-mapping.bin -o dump/sampling-mapping.bin
refused "-o over a file of the input dump's directory" "$BIN" dump -o dump/sampling.bin
"$BIN" import -q sampling.bin -o t.db
refused "--db over the database read" "$BIN" t.db --db t.db
refused "query -o the database" "$BIN" query t.db "SELECT 1" -o t.db
"$BIN" -q t.db -o r1.json
"$BIN" -q t.db -o r2.json
refused "merge -o one of its reports" "$BIN" merge r1.json r2.json -o r1.json
refused "compare -o one of the runs" "$BIN" compare --base r1.json --head r2.json -o r2.json
refused "compare -o a calibration run" "$BIN" compare --calibrate r1.json r2.json -o r1.json
printf 'bt.rule{ id = "x", run = function() end }\n' >rule.lua
refused "-o over the rules file" "$BIN" sampling.bin --rules rule.lua -o rule.lua
refused "compare -o its gate script" "$BIN" compare --base r1.json --head r2.json --rules rule.lua -o rule.lua
refused "compare -o its analysis rules" "$BIN" compare --base r1.json --head r2.json --analyze-rules rule.lua -o rule.lua

echo old >other.txt
"$BIN" -q sampling.bin -o other.txt
is "$?" 0 "an output over a file that is no input: written"
like "$(head -1 other.txt)" "^trace" "its report replaced the old file"
"$BIN" -q sampling.bin -o new.json
is "$?" 0 "a new output: written"
