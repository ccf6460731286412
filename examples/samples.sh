#!/bin/sh
# samples.sh OUTDIR (make samples): one small trace of each input format
# besides the bundled btrace 3.0 dump, written by the test writers in
# tests/fixtures/ (python3, standard library only), to try the importers
# on (docs/ios.md, docs/perfetto-import.md, docs/art.md, docs/systrace.md,
# docs/btrace2.md). Same arguments, same bytes.
set -eu
[ $# -eq 1 ] || { echo "usage: samples.sh OUTDIR" >&2; exit 2; }
out=$1
fx=$(dirname "$0")/../tests/fixtures
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
# An iOS btrace database (version 4, gzip'd as the debug server sends it)
# and the address -> name map atos would give for it.
python3 "$fx/mkios.py" "$tmp/ios" --version 4 --gzip --samples 2000 >/dev/null
mv "$tmp/ios/trace.db.gz" "$tmp/ios.sqlite.gz"
mv "$tmp/ios/symbols.txt" "$tmp/ios-symbols.txt"
rm -rf "$tmp/ios"
# A Perfetto trace as btrace 3.0's Android converter writes it.
python3 "$fx/mkperfetto.py" "$tmp/btrace3.pb" --flavor btrace3 --slices 1500 --no-truth >/dev/null
# ART method traces: legacy (Debug.startMethodTracing, both clocks) and
# format V2 streaming (am profile --streaming on Android 15).
python3 "$fx/mkart.py" "$tmp/method.trace" --variant v3-dual --no-truth >/dev/null
python3 "$fx/mkart.py" "$tmp/streaming.trace" --variant v2s5-dual --no-truth >/dev/null
# A systrace HTML page (ftrace text with atrace markers and the scheduler).
python3 "$fx/mksystrace.py" "$tmp/systrace.html" --container html --no-truth >/dev/null
# A btrace 2.0 raw trace: appTrace.bin and methodMapping.txt in a folder.
python3 "$fx/mkbtrace2.py" "$tmp/btrace2" --unmapped 0 --no-truth >/dev/null
cat >"$tmp/README.txt" <<'TXT'
Made by 'make samples' (examples/samples.sh) with the test writers of
tests/fixtures/: ios.sqlite.gz and ios-symbols.txt (an iOS btrace
database, mkios.py), btrace3.pb (a Perfetto trace of btrace 3.0,
mkperfetto.py), method.trace and streaming.trace (ART method traces,
mkart.py), systrace.html (a systrace page, mksystrace.py), btrace2/
(appTrace.bin and methodMapping.txt of btrace 2.0, mkbtrace2.py).
TXT
rm -rf "$out"
mv "$tmp" "$out"
