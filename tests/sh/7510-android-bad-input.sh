#!/bin/sh
# Hostile input (DESIGN §11): fatal cases exit 1 with the file and byte
# offset and leave nothing behind; recoverable ones are counted in
# diagnostics, warned about, and shown in the report. Files cut short are
# salvaged (tests/sh/7530-android-salvage.sh): here --strict refuses them.
. tests/lib.sh

# fatal CASE FILE PATTERN: import must fail with exit 1, the message must
# match, and neither the database nor a temporary file may remain.
# strict_fatal: the same with --strict (a file cut short).
STRICT=
fatal() {
	name=$1; input=$2; pat=$3
	err=$("$BIN" import $STRICT "$input" -o "$T/out.db" 2>&1 >/dev/null)
	is "$?" 1 "$name: exit 1"
	like "$err" "^btrace-analyze: error: .*$pat" "$name: message"
	is "$(ls "$T" | grep -c 'out\.')" 0 "$name: no partial database"
	"$BIN" analyze $STRICT "$input" -o "$T/report.json" >/dev/null 2>&1
	is "$(ls "$T" | grep -c 'report\.')" 0 "$name: no partial report"
}
strict_fatal() {
	STRICT=--strict
	fatal "$@"
	STRICT=
}

# diag CASE DIR CODE COUNT: import succeeds, the diagnostic is counted, the
# warning is printed and the text report shows it.
diag() {
	name=$1; dir=$2; code=$3; count=$4
	err=$("$BIN" import "$dir" -o "$T/$name.db" 2>&1 >/dev/null)
	is "$?" 0 "$name: exit 0"
	is "$(q "$T/$name.db" "SELECT count FROM diagnostics WHERE code = '$code'")" "$count" "$name: $code counted $count"
	like "$err" "warning: .*\\[$code" "$name: warning on stderr"
	like "$("$BIN" -q "$T/$name.db")" "$code \\($count\\): " "$name: report shows $code"
}

d=$(copy_dump small magic)
put_u32 "$d/sampling.bin" 0 305419896
fatal "wrong magic" "$d/sampling.bin" "unrecognised input '.*sampling.bin': bytes 78 56 34 12 at offset 0"

d=$(copy_dump small type)
put_u32 "$d/sampling.bin" 4 7
fatal "wrong type" "$d/sampling.bin" "unsupported dump type 7 in '.*sampling.bin' at offset 4"

fatal "unknown version" "$FIX/v9/sampling.bin" "unknown dump version 9 in '.*sampling.bin' at offset 8"

d=$(copy_dump small hdr)
head -c 20 "$FIX/small/sampling.bin" >"$d/sampling.bin"
fatal "truncated header" "$d/sampling.bin" "truncated header in '.*sampling.bin' at offset 0: need 28 bytes, 20 left"

d=$(copy_dump small extra)
head -c 35 "$FIX/small/sampling.bin" >"$d/sampling.bin"
fatal "truncated extra JSON" "$d/sampling.bin" "truncated extra JSON in '.*sampling.bin' at offset 28"

elen=$(get_u32 "$FIX/small/sampling.bin" 24)
rec0=$((28 + elen))
d=$(copy_dump small rec)
head -c $((rec0 + 30)) "$FIX/small/sampling.bin" >"$d/sampling.bin"
strict_fatal "truncated record" "$d/sampling.bin" "truncated header of record 0 in '.*sampling.bin' at offset $rec0: need 40 bytes, 30 left"

d=$(copy_dump small stack)
head -c $((rec0 + 76 + 4)) "$FIX/small/sampling.bin" >"$d/sampling.bin"
strict_fatal "truncated stack" "$d/sampling.bin" "truncated stack of record 0 in '.*sampling.bin' at offset $((rec0 + 76))"

d=$(copy_dump small absurd)
put_u32 "$d/sampling.bin" $((rec0 + 68)) 4294967295
fatal "absurd depth" "$d/sampling.bin" "absurd stack depth 4294967295 in record 0 of '.*sampling.bin' at offset $((rec0 + 68))"

d=$(copy_dump small negextra)
put_u32 "$d/sampling.bin" 24 4294967295
fatal "negative extra length" "$d/sampling.bin" "negative extra JSON length -1 in '.*sampling.bin' at offset 24"

d=$(copy_dump small maptab)
head -c 21 "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
strict_fatal "truncated mapping table" "$d/sampling.bin" "truncated method entry in '.*sampling-mapping.bin' at offset 16: need 10 bytes, 5 left"

d=$(copy_dump small mapsym)
head -c 30 "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
strict_fatal "truncated mapping symbol" "$d/sampling.bin" "truncated method symbol in '.*sampling-mapping.bin' at offset 26"

d=$(copy_dump small mapthr)
n=$(wc -c <"$FIX/small/sampling-mapping.bin")
head -c $((n - 1)) "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
strict_fatal "truncated thread-name section" "$d/sampling.bin" "truncated thread name in '.*sampling-mapping.bin' at offset [0-9]+: need [0-9]+ bytes"

d=$(copy_dump small maphdr)
head -c 10 "$FIX/small/sampling-mapping.bin" >"$d/sampling-mapping.bin"
strict_fatal "truncated mapping header" "$d/sampling.bin" "truncated mapping header in '.*sampling-mapping.bin' at offset 0"

f=$FIX/faults
diag "depth 0" "$f" empty_stack "$(truth "$f" zero_depth)"
diag "depth over 128" "$f" stack_too_deep "$(truth "$f" deep)"
diag "saved != actual" "$f" depth_mismatch "$(truth "$f" bad_depth)"
diag "header count" "$f" record_count_mismatch 1
diag "unmapped frames" "$f" unmapped_frame "$(truth "$f" unmapped_pointers)"
diag "empty symbols" "$f" empty_symbol "$(truth "$f" empty_symbols)"
diag "non-UTF-8 names" "$f" invalid_utf8 2
is "$(q "$T/non-UTF-8 names.db" "SELECT count(*) FROM frames WHERE name LIKE '<unknown 0x%>'")" \
	"$(($(truth "$f" unmapped_pointers) + $(truth "$f" empty_symbols)))" "unmapped frames: placeholder names"
is "$(q "$T/non-UTF-8 names.db" "SELECT count(*) FROM threads WHERE name LIKE '%' || char(65533) || '%'")" 1 "non-UTF-8 names: thread name repaired"
is "$(q "$T/non-UTF-8 names.db" "SELECT count(*) FROM frames WHERE name LIKE '%' || char(65533) || '%'")" 1 "non-UTF-8 names: symbol repaired"
is "$(q "$T/non-UTF-8 names.db" "SELECT count(*) FROM sample_args a JOIN samples s ON s.id = a.sample_id WHERE s.type = 15")" "$(truth "$f" trace_arg)" "trace-arg records keep their argument"
is "$(q "$T/non-UTF-8 names.db" "SELECT value FROM meta WHERE key = 'start_time_ns'")" 9000000000 "startTime read from the extra JSON"

diag "missing mapping" "$FIX/nomap" mapping_missing 1
is "$(q "$T/missing mapping.db" "SELECT count(*) FROM frames WHERE name NOT LIKE '<unknown 0x%>' AND id IN (SELECT frame_id FROM nodes)")" 0 "missing mapping: every frame is a placeholder"
is "$(q "$T/missing mapping.db" "SELECT count(*) FROM samples")" "$(truth "$FIX/nomap" valid_samples)" "missing mapping: every sample imported"

diag "short mapping" "$FIX/short" mapping_short 1
diag "pid over 16 bits" "$FIX/bigpid" pid_truncated 1
is "$(q "$T/pid over 16 bits.db" "SELECT tid FROM threads WHERE is_main")" $((70000 & 65535)) "pid over 16 bits: main matched on low 16 bits"
diag "pid over 32767" "$FIX/pid40000" pid_sign 1
is "$(q "$T/pid over 32767.db" "SELECT tid FROM threads WHERE is_main")" 40000 "pid over 32767: main read unsigned"
diag "missing pid" "$FIX/nopid" missing_pid 1
is "$(q "$T/missing pid.db" "SELECT count(*) FROM threads WHERE is_main")" 0 "missing pid: no main thread claimed"
diag "no extra JSON" "$FIX/noextra" missing_pid 1
