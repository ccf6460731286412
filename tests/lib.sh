# Helpers for end-to-end test scripts (sourced): TAP checks and dump surgery.
# Scripts run from the repository root with $B set; $BIN is the tool,
# $FIX the generated fixtures, $MKDUMP the test dump writer.
BIN=$ROOT/$B/btrace-analyze
# The simulator writes the same bytes whichever build it comes from: make
# asan gives its tests the plain build's (BT_MKDUMP), three times faster than
# one under ASan; the sanitized one still writes the shared fixtures
# (tests/fixtures.sh).
MKDUMP=${BT_MKDUMP:-$ROOT/$B/tests/mkdump}
# The runs' reports a gate or fleet test compares (report, below) are its
# input: make asan writes all but the first of each pool with the plain
# build's tool (BT_PLAIN_BIN), the same bytes at a quarter of the CPU;
# compare and every check run sanitized, and each kind of run is analysed
# sanitized once.
RUN_BIN=${BT_PLAIN_BIN:-$BIN}
FIX=$ROOT/$B/fixtures
# Real traces recorded by other tools: ../shared/real-traces beside the
# checkout (never copied into it); a clone elsewhere finds the machine's.
REAL=${BT_REAL_TRACES:-$ROOT/../shared/real-traces}
[ -d "$REAL" ] || REAL=/work/shared/real-traces
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The programs' temporaries (a batch's folders, a scratch database, a
# fixture writer's) go in $T too: a test that kills a batch, which then
# cannot remove its folder, leaves nothing in the machine's /tmp.
TMPDIR=$T
export TMPDIR
# The tests that load a report in a browser use Chromium's headless shell
# (Debian's chromium-headless-shell: the same Blink and V8 as the browser,
# without its UI): half the CPU of `chromium --headless` a page, 0.8 s
# against 2.1 s for a blank one.
CHROME=${CHROME:-/usr/bin/chromium-headless-shell}

# A run's JSON report into dir/name.json, for a test that compares runs:
# the first in its directory by the tool under test, the others by $RUN_BIN.
report() {   # dump json
	if ls "${2%/*}"/*.json >/dev/null 2>&1; then
		"$RUN_BIN" -q "$1" -o "$2"
	else
		"$BIN" -q "$1" -o "$2"
	fi
}

check() {   # description, then a command that must succeed
	_what=$1; shift
	if "$@" >/dev/null 2>&1; then echo "ok - $_what"; else echo "not ok - $_what"; fi
}

is() {   # got want description
	if [ "$1" = "$2" ]; then echo "ok - $3"; else
		echo "not ok - $3"; echo "#   got '$1'"; echo "#   want '$2'"; fi
}

like() {   # text pattern(grep -E) description
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then echo "ok - $3"; else
		echo "not ok - $3"; echo "#   '$1'"; echo "#   does not match '$2'"; fi
}

unlike() {   # text pattern(grep -E) description
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		echo "not ok - $3"; echo "#   '$1'"; echo "#   matches '$2'"; else echo "ok - $3"; fi
}

# Whether the tool is a sanitizer build: ASan reserves terabytes of shadow
# memory, so it cannot run under an address-space limit.
sanitized() {
	! prlimit --as=$((1 << 30)) "$BIN" --version >/dev/null 2>&1
}

# A command's peak RSS in KB (/usr/bin/time -v); its output is dropped.
peak() {   # command...
	/usr/bin/time -v "$@" 2>&1 >/dev/null | awk '/Maximum resident set size/ { print $NF }'
}

# value < limit, checked in the plain build only: ASan keeps freed memory in
# quarantine and pads every block, so RSS is no measure there.
rss_bound() {   # value limit description
	if sanitized; then
		echo "ok - $3 # SKIP RSS under a sanitizer"
	else
		is "$(($1 < $2))" 1 "$3"
	fi
}

# Value of key in a truth summary.tsv.
truth() {   # dir key
	awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1/truth/summary.tsv"
}

# (python3 -S: no site-packages for the standard library's json, 5 ms of a
# start's 38 saved in the suite's ~500 calls)
man() {   # manifest python-expression over l (a batch manifest's lines as dicts): print its value
	python3 -S -c 'import json, sys; l = [json.loads(x) for x in open(sys.argv[1])]; print(eval(sys.argv[2]))' "$1" "$2"
}
jq_() {   # file python-expression over d (the file's JSON): print its value
	python3 -S -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
valid() {   # file: "valid" if it validates against reports/compare/compare.schema.json
	python3 -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))
print("valid")' "$1" "$ROOT/reports/compare/compare.schema.json" 2>&1 | tail -1
}
# One value from SQL against a database or dump.
q() {   # input sql
	"$BIN" query -q "$1" "$2" --format tsv | sed -n 2p
}

# What go tool pprof should total from a --pprof of db's trace: wall, cpu,
# offcpu, alloc_space, alloc_objects, majflt, the call tree's sums; empty
# for a type the trace does not record (CPU unknown, meta no_alloc, no_faults).
pprof_totals() {   # db
	q "$1" "SELECT sum(self_ns), sum(self_cpu_ns), sum(self_ns - self_cpu_ns),
		CASE WHEN (SELECT value FROM meta WHERE key = 'no_alloc') = 1 THEN NULL ELSE sum(self_alloc_bytes) END,
		CASE WHEN (SELECT value FROM meta WHERE key = 'no_alloc') = 1 THEN NULL ELSE sum(self_alloc_objects) END,
		CASE WHEN (SELECT value FROM meta WHERE key = 'no_faults') = 1 THEN NULL ELSE sum(self_majflt) END
		FROM calltree" | tr '\t' ' '
}

# Overwrite 4 bytes at offset with a little-endian u32.
put_u32() {   # file offset value
	v=$3
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) $((v >> 8 & 255)) \
		$((v >> 16 & 255)) $((v >> 24 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# Read a little-endian u32 at offset.
get_u32() {   # file offset
	od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

# Copy of a fixture dump directory into $T/name.
copy_dump() {   # fixture name
	rm -rf "$T/$2"; mkdir -p "$T/$2"
	cp "$FIX/$1/sampling.bin" "$T/$2/"
	[ -f "$FIX/$1/sampling-mapping.bin" ] && cp "$FIX/$1/sampling-mapping.bin" "$T/$2/"
	echo "$T/$2"
}
