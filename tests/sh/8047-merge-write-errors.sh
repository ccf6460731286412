#!/bin/sh
# merge's write errors name the output (issue 34, item 12): before, a full
# disk under a fleet summary read "cannot write the fleet summary: No space
# left on device", the HTML "... the fleet report", the workbook "... the
# xlsx workbook", whichever of several -o it was. Now each names its path
# ('stdout' for -o -), on /dev/full and, where a tmpfs can be mounted, on
# a full file system.
. tests/lib.sh

"$MKDUMP" --seed 1 --records 3000 --no-truth "$T/d" >/dev/null
"$BIN" -q "$T/d" -o "$T/r.json"
for f in json md html xlsx; do
	out=$("$BIN" merge -q "$T/r.json" -o - --format $f 2>&1 >/dev/full)
	is "$?" 1 "$f to a full stdout: exit 1"
	like "$out" "cannot write (to )?'?stdout'?: No space left on device" "$f: the message names stdout"
done

mkdir "$T/full"
if mount -t tmpfs -o size=4k tmpfs "$T/full" 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
	for f in json html xlsx; do
		out=$("$BIN" merge -q "$T/r.json" -o "$T/ok.md" -o "$T/full/f.$f" 2>&1)
		is "$?" 1 "$f on a full disk: exit 1"
		is "$out" "btrace-analyze: error: cannot write '$T/full/f.$f': No space left on device" \
			"$f: the message names the file"
	done
	is "$(ls -A "$T/full"; ls "$T" | grep -c ok)" 0 "no file left, on the full disk or beside (all or none)"
else
	echo "ok - # SKIP no tmpfs mount (not root)"
fi
