#!/bin/sh
# Faults around the files a run touches (engine/base/fileio.c, temps.c,
# reports/outputs/): outputs through symbolic links, to FIFOs, /dev/stdout
# and -o -; FIFOs and devices as inputs; a full disk and a full $TMPDIR
# (small tmpfs mounts); a read-only file system; SIGINT and SIGTERM during
# an import, an analysis with exports and an iOS inflate. Each checks the
# exit code, the message, that no temporary is left and that the old
# output is intact. Before, an output replaced the link, FIFO or device it
# pointed at, a FIFO input blocked for ever, and a signal left
# PATH.tmp-PID and $TMPDIR/btrace-* behind.
. tests/lib.sh

ex=$FIX/example
mkdir -p "$T/tmp"
TMPDIR=$T/tmp
export TMPDIR

no_temps() {   # dir description
	is "$(find "$1" "$TMPDIR" -name '*.tmp-*' -o -name 'btrace-*' | wc -l)" 0 "$2: no temporaries left"
}

# --- outputs that are not regular files -------------------------------
"$BIN" -q "$ex" >"$T/want.txt"
size=$(wc -c <"$T/want.txt")
ln -s /proc/self/fd/1 "$T/so"
is "$("$BIN" -q "$ex" -o "$T/so" | wc -c)" "$size" "-o a link to /proc/self/fd/1: the report goes to the pipe"
check "and the link stays a link" test -L "$T/so"

# The machine's /dev/stdout is tried only once a device node of our own
# came through: a tool that replaces it (as before) must not break the box.
mknod "$T/null" c 1 3 2>/dev/null || ln -s /dev/null "$T/null"
kind=$(stat -L -c %F "$T/null")
"$BIN" -q "$ex" -o "$T/null"
is "$?:$(stat -L -c %F "$T/null")" "0:$kind" "-o a character device: written through, still a device"
if [ "$(stat -L -c %F "$T/null")" = "$kind" ] && [ -L "$T/so" ]; then
	kind=$(stat -c %F /dev/stdout)
	is "$("$BIN" -q "$ex" -o /dev/stdout | wc -c)" "$size" "-o /dev/stdout: the report goes to stdout"
	is "$(stat -c %F /dev/stdout)" "$kind" "/dev/stdout is what it was ($kind)"
else
	echo "not ok - -o /dev/stdout not tried: outputs replace devices and links"
fi
"$BIN" -q "$ex" -o - >"$T/dash.txt"
check "-o -: the text report on stdout" cmp -s "$T/want.txt" "$T/dash.txt"
like "$("$BIN" -q "$ex" -o - --format json | head -c 200)" '"schema"' "-o - --format json: JSON on stdout"

echo old >"$T/target.txt"
ln -s target.txt "$T/link.txt"
"$BIN" -q "$ex" -o "$T/link.txt"
is "$?" 0 "-o a link to a regular file: exit 0"
check "the link stays a link" test -L "$T/link.txt"
check "its target is the report" cmp -s "$T/want.txt" "$T/target.txt"
echo old >"$T/target.txt"
"$BIN" -q "$ex" -o "$T/link.txt" --pprof "$T/nodir/p.pb.gz" 2>/dev/null
is "$?:$(cat "$T/target.txt")" "1:old" "a failed run through the link keeps the old target"
no_temps "$T" "a failed run through a link"

mkfifo "$T/out.fifo"
timeout 20 cat "$T/out.fifo" >"$T/from-fifo.txt" &
reader=$!
timeout 20 "$BIN" -q "$ex" -o "$T/out.fifo"
is "$?" 0 "-o a FIFO with a reader: exit 0"
wait $reader
check "the reader got the report" cmp -s "$T/want.txt" "$T/from-fifo.txt"
check "the FIFO stays a FIFO" test -p "$T/out.fifo"

out=$(timeout 20 "$BIN" -q "$ex" -o "$T" 2>&1)
is "$?" 2 "-o a directory: usage error"
like "$out" "cannot write '$T': it is a directory" "it says so"
out=$(timeout 20 "$BIN" -q "$ex" --db "$T/out.fifo" 2>&1)
is "$?" 2 "--db a FIFO: usage error (SQLite needs a file)"
like "$out" "cannot write '$T/out.fifo': it is a FIFO, and a trace database needs a regular file" "it says why"
out=$(timeout 20 "$BIN" import -q "$ex" -o "$T/out.fifo" 2>&1)
is "$?" 2 "import -o a FIFO: usage error"
check "the FIFO is still a FIFO" test -p "$T/out.fifo"
out=$(timeout 20 "$BIN" import -q "$ex" -o - 2>&1)
is "$?" 2 "import -o -: usage error"
like "$out" "cannot be written to stdout" "it says so"
echo old >"$T/dbtarget.db"
ln -s dbtarget.db "$T/dblink.db"
"$BIN" import -q "$ex" -o "$T/dblink.db"
is "$(q "$T/dblink.db" "SELECT value FROM meta WHERE key='tool'")" btrace-analyze "import -o a link: the target is the database"
check "the link stays a link" test -L "$T/dblink.db"
no_temps "$T" "outputs to links, FIFOs and devices"

# --- inputs that are not regular files ---------------------------------
mkfifo "$T/in.fifo"
for args in "analyze $T/in.fifo" "import $T/in.fifo -o $T/x.db" "query $T/in.fifo SELECT.1" \
	    "compare --base $T/in.fifo --head $ex" "analyze $ex --rules $T/in.fifo" \
	    "analyze $ex --retrace $T/in.fifo" "analyze $ex --mapping $T/in.fifo"; do
	# shellcheck disable=SC2086
	out=$(timeout 20 "$BIN" $args 2>&1)
	is "$?" 1 "a FIFO as ${args%% *}'s ${args#* }: exit 1, no hang"
	like "$out" "cannot read '$T/in.fifo': it is a FIFO, not a regular file" "the message names it and what it is"
done
out=$(timeout 20 "$BIN" "$T/null" 2>&1)
is "$?" 1 "a device as input: exit 1"
like "$out" "cannot read '$T/null': it is a character device" "the message says it is a device"

# --- read-only and full file systems ----------------------------------
mkdir -p "$T/ro" "$T/full" "$T/fulltmp"
if mount -t tmpfs -o size=1m tmpfs "$T/ro" 2>/dev/null; then
	trap 'umount "$T/ro" "$T/full" "$T/fulltmp" 2>/dev/null; rm -rf "$T"' EXIT
	echo old >"$T/ro/r.json"
	mount -o remount,ro "$T/ro"
	out=$("$BIN" -q "$ex" -o "$T/ro/r.json" 2>&1)
	is "$?" 1 "-o on a read-only file system: exit 1"
	like "$out" "cannot create '$T/ro/r.json': Read-only file system" "the message names the file and errno"
	is "$(cat "$T/ro/r.json")" old "the old report is intact"
	out=$("$BIN" import -q "$ex" -o "$T/ro/t.db" 2>&1)
	is "$?" 1 "import -o on a read-only file system: exit 1"
	like "$out" "cannot create '$T/ro/t.db.tmp-[0-9]+': Read-only file system" "the message names the file and errno"

	mount -t tmpfs -o size=64k tmpfs "$T/full"
	"$MKDUMP" --records 20000 --seed 9 --no-truth "$T/d20" >/dev/null
	for o in "-o r.html" "-o r.json" "--perfetto r.pb" "--pprof r.pb.gz" "--folded r.txt" "--speedscope s.json" \
		"-o r.xlsx"; do
		f=${o#* }
		echo old >"$T/full/$f"
		# shellcheck disable=SC2086
		out=$(cd "$T/full" && "$BIN" -q "$T/d20" $o 2>&1 >/dev/null)
		is "$?" 1 "$o on a full disk: exit 1"
		like "$out" "$f.*No space left on device" "$o: the message names the file and ENOSPC"
		is "$(cat "$T/full/$f")" old "$o: the old output is intact"
	done
	out=$("$BIN" import -q "$T/d20" -o "$T/full/t.db" 2>&1)
	is "$?" 1 "import -o on a full disk: exit 1"
	like "$out" "database or disk is full: writing '$T/full/t.db.tmp-[0-9]+': No space left on device" \
		"the message names the file and ENOSPC"
	no_temps "$T/full" "a full disk"

	mount -t tmpfs -o size=64k tmpfs "$T/fulltmp"
	python3 tests/fixtures/mkios.py --no-truth "$T/ios" >/dev/null
	(cat "$T/ios/trace.db"; head -c 300000000 /dev/zero) | gzip -1 >"$T/ios.gz"
	# --db keeps the database out of $TMPDIR: what fills it is the file named
	out=$(TMPDIR=$T/fulltmp "$BIN" -q "$T/d20" 2>&1 >/dev/null)
	is "$?" 1 "a run whose scratch database finds \$TMPDIR full: exit 1"
	like "$out" "writing the scratch database in '$T/fulltmp': No space left on device" "\$TMPDIR and ENOSPC are named"
	out=$(TMPDIR=$T/fulltmp "$BIN" -q "$T/ios.gz" --db "$T/k.db" 2>&1 >/dev/null)
	is "$?" 1 "an iOS .gz with \$TMPDIR full: exit 1"
	like "$out" "to '$T/fulltmp/btrace-ios-[^']*': No space left on device" "the message names \$TMPDIR's file and ENOSPC"
	out=$(TMPDIR=$T/fulltmp "$BIN" -q "$T/d20" --db "$T/k.db" --perfetto "$T/p.pb" 2>&1 >/dev/null)
	is "$?" 1 "--perfetto with \$TMPDIR full: exit 1"
	like "$out" "'$T/fulltmp/btrace-slices-[^']*': No space left on device" "the slice log's file and ENOSPC"
	out=$(TMPDIR=$T/fulltmp "$BIN" -q "$T/d20" --db "$T/k.db" --speedscope "$T/s.json" 2>&1 >/dev/null)
	is "$?" 1 "--speedscope with \$TMPDIR full: exit 1"
	like "$out" "'$T/fulltmp/btrace-slices-[^']*': No space left on device" "the same slice log, the same message"
	out=$(TMPDIR=$T/fulltmp "$BIN" -q "$T/d20" --db "$T/k.db" -o "$T/r.xlsx" 2>&1 >/dev/null)
	is "$?" 1 "xlsx with \$TMPDIR full: exit 1"
	like "$out" "'$T/fulltmp/btrace-analyze-xlsx-[^']*'.*No space left on device" "the workbook's file and ENOSPC"
	is "$(ls -A "$T/fulltmp" | wc -l)" 0 "\$TMPDIR: no temporaries left"
else
	for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 \
		39 40; do   # as many as the checks above
		echo "ok - # SKIP cannot mount a tmpfs here (not root?)"
	done
fi

# --- where a kept database's leaves wait (db_pages.c) ----------------
# On ext4 and XFS in the database file itself, moved down at the commit;
# where a limit on a file's size is set, on a tmpfs, or on an ext4 made
# without extents (its files end at 16 GiB with 1 KiB blocks: the write
# 1 TiB in is refused) in a file beside. The same database every way.
"$MKDUMP" --records 20000 --seed 9 --no-truth "$T/dp" >/dev/null
"$BIN" import -q "$T/dp" -o "$T/p-here.db"
is "$?" 0 "import -o in \$T's file system"
(ulimit -f 4000000 && "$BIN" import -q "$T/dp" -o "$T/p-fsize.db")
check "under a limit on a file's size: the same database" cmp "$T/p-here.db" "$T/p-fsize.db"
mkdir -p "$T/ptmpfs" "$T/pext"
trap 'umount "$T/ro" "$T/full" "$T/fulltmp" "$T/ptmpfs" "$T/pext" 2>/dev/null; rm -rf "$T"' EXIT
if mount -t tmpfs -o size=64m tmpfs "$T/ptmpfs" 2>/dev/null; then
	"$BIN" import -q "$T/dp" -o "$T/ptmpfs/t.db"
	check "on a tmpfs: the same database" cmp "$T/p-here.db" "$T/ptmpfs/t.db"
	no_temps "$T/ptmpfs" "on a tmpfs"
	umount "$T/ptmpfs"
else
	echo "ok - # SKIP cannot mount a tmpfs here (not root?)"
	echo "ok - # SKIP cannot mount a tmpfs here (not root?)"
fi
if truncate -s 64M "$T/ext.img" && mkfs.ext4 -q -F -O ^extent,^64bit -b 1024 "$T/ext.img" 2>/dev/null &&
	mount -o loop "$T/ext.img" "$T/pext" 2>/dev/null; then
	"$BIN" import -q "$T/dp" -o "$T/pext/t.db"
	check "on an ext4 without extents: the same database" cmp "$T/p-here.db" "$T/pext/t.db"
	no_temps "$T/pext" "on an ext4 without extents"
	umount "$T/pext"
else
	echo "ok - # SKIP cannot mount a loop device here"
	echo "ok - # SKIP cannot mount a loop device here"
fi
rm -f "$T/ext.img"

# --- signals -----------------------------------------------------------
# A script's background job ignores SIGINT: env gives the tool the
# default back. The run is stopped once glob exists (and after delay),
# signalled, and resumed, so the signal lands while it works.
interrupt() {   # signal glob delay command...
	_sig=$1 _glob=$2 _delay=$3
	shift 3
	env --default-signal=INT,TERM "$@" 2>"$T/sig.err" &
	_pid=$!
	_i=0
	# shellcheck disable=SC2086
	while [ "$_glob" != - ] && [ $_i -lt 2000 ] && ! ls $_glob >/dev/null 2>&1; do
		sleep 0.01
		_i=$((_i + 1))
	done
	sleep "$_delay"
	kill -STOP $_pid
	kill -"$_sig" $_pid
	kill -CONT $_pid
	wait $_pid
}

"$MKDUMP" --records 300000 --seed 3 --no-truth "$T/big" >/dev/null
status() { [ "$1" = INT ] && echo 130 || echo 143; }
for sig in INT TERM; do
	for delay in 0 0.3; do
		echo old >"$T/t.db"
		interrupt $sig "$T/t.db.tmp-*" $delay "$BIN" import -q "$T/big" -o "$T/t.db"
		is "$?" "$(status $sig)" "SIG$sig ${delay}s into import -o: exit $(status $sig)"
		is "$(cat "$T/t.db")" old "SIG$sig during import: the old database is intact"
		no_temps "$T" "SIG$sig during import"
	done
	for glob in - "$T/r.html.tmp-*"; do
		for f in r.html p.pb p.pb.gz f.txt; do echo old >"$T/$f"; done
		interrupt $sig "$glob" 0.2 "$BIN" -q "$T/big" -o "$T/r.html" \
			--perfetto "$T/p.pb" --pprof "$T/p.pb.gz" --folded "$T/f.txt"
		is "$?" "$(status $sig)" "SIG$sig during an analysis (${glob#$T/}): exit $(status $sig)"
		is "$(for f in r.html p.pb p.pb.gz f.txt; do head -c 8 "$T/$f" | tr -cd 'a-z'; done)" oldoldoldold \
			"SIG$sig during an analysis: the old outputs are intact"
		no_temps "$T" "SIG$sig during an analysis"
	done
done
if [ -f "$T/ios.gz" ]; then
	for sig in INT TERM; do
		interrupt $sig "$TMPDIR/btrace-ios-*" 0 "$BIN" -q "$T/ios.gz" -o "$T/ios.txt"
		is "$?" "$(status $sig)" "SIG$sig while inflating an iOS .gz: exit $(status $sig)"
		no_temps "$T" "SIG$sig while inflating"
	done
else
	echo "ok - # SKIP no iOS .gz (no tmpfs)"; echo "ok - # SKIP no iOS .gz (no tmpfs)"
	echo "ok - # SKIP no iOS .gz (no tmpfs)"; echo "ok - # SKIP no iOS .gz (no tmpfs)"
fi
:
