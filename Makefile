# btrace-analyze: one non-recursive Makefile (GNU make 4.3).
# make            build $(B)/btrace-analyze
# make run        install missing Debian packages, build, analyse the bundled example
# make test       install the checkers (an xlsx reader, go, Chromium, Slurm) if missing, then
#                 unit, golden and end-to-end tests, TEST_JOBS at once (default: nproc);
#                 ends with "N passed, N failed"
# make asan       the same tests under ASan/LSan/UBSan in build-asan/
# make bench      load, analyze, import and export 200k and 1M records, the Perfetto
#                 export imported back, a 1.2M-sample iOS database (BENCH=ios for
#                 that alone) and a Perfetto trace dense with scheduler data
#                 (BENCH=sched): wall, CPU, peak RSS; BENCH=frames: a 1M-record device
#                 dump that scrolls throughout (display frames)
# make fuzz       libFuzzer on the importers (Android, iOS, Perfetto, btrace 2.0,
#                 ART, systrace), compare's JSON report reader, merge's and batch's manifest (FUZZ_SECONDS=600
#                 in all, split between them;
#                 FUZZ_TARGETS="ios perfetto" for some), then generated rule files
#                 that try to escape the Lua sandbox's budgets (FUZZ_LUA_SECONDS=600)
# make runs       examples/runs/: ten runs of a base build and five of a slower head
#                 build (dumps and JSON reports) for compare, batch and merge
# make samples    examples/samples/: a small trace of each other input format
# make clean

B ?= build
V ?= 0
VERSION := 0.1.0
PKGS := sqlite3 lua5.4 libprotobuf-c xlsxwriter zlib
DEBS := libsqlite3-dev liblua5.4-dev libprotobuf-c-dev protobuf-c-compiler libxlsxwriter-dev zlib1g-dev pkgconf
TEST_DEBS := sqlite3 protobuf-compiler unzip python3 python3-jsonschema python3-openpyxl \
	golang-go chromium chromium-headless-shell time \
	slurmctld slurmd slurm-client munge

Q := $(if $(filter 1,$(V)),,@)
NOBUILD_GOALS := run deps build-deps test-deps clean help samples
ifneq ($(filter-out $(NOBUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(PKG_LIBS),)
$(error missing libraries: run 'make deps' as root, or: apt-get install -y $(DEBS))
endif
# libxlsxwriter is loaded when an xlsx output starts (reports/xlsx/lxw.h),
# by the soname of the library pkg-config names: not linked.
LXW_SONAME := $(shell objdump -p "$$($(CC) -print-file-name=libxlsxwriter.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
PKG_LIBS := $(filter-out -lxlsxwriter,$(PKG_LIBS))
endif

CC ?= cc
OPT ?= -O2 -g
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2
ifeq ($(WERROR),1)
WARN += -Werror
endif
SAN ?=
# The program optimized as a whole at its link (calls across files inlined:
# a slice passes through several per record); the objects keep their plain
# code too, so the unit tests link as before, quickly.
ifeq ($(origin LTO),undefined)
LTO := $(shell $(CC) -Werror -flto=auto -ffat-lto-objects -c -x c /dev/null -o /dev/null 2>/dev/null && \
	echo -flto=auto -ffat-lto-objects)
endif
# One include root for the sources and one for what the build generates:
# every include line names its folder ("engine/db/db.h", "gen/bt_sql.h").
CPPFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -I. -I$(B)
ALL_CFLAGS = $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lm -pthread -ldl

SQL := $(sort $(wildcard queries/*.sql))
LUA := $(sort $(wildcard lua/*.lua))
HTML := $(sort $(wildcard reports/html/*.css reports/html/*.js))
PROTO := engine/proto/perfetto_trace.proto engine/proto/profile.proto
PB := $(PROTO:engine/proto/%.proto=$(B)/gen/%.pb-c)
GEN := $(B)/gen/bt_sql.c $(B)/gen/bt_sql.h $(B)/gen/bt_lua.c $(B)/gen/bt_lua.h \
	$(B)/gen/bt_html.c $(B)/gen/bt_html.h $(PB:=.c) $(PB:=.h)
MAIN := engine/cli/main.c
LUA2BC_SRC := lua/lua2bc.c
LIB_SRC := $(filter-out $(MAIN),$(wildcard engine/*/*.c)) $(wildcard importers/*.c importers/*/*.c) \
	$(wildcard reports/*.c reports/*/*.c) $(filter-out $(LUA2BC_SRC),$(wildcard lua/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/bt_sql.o $(B)/gen/bt_lua.o $(B)/gen/bt_html.o $(PB:=.o)
BIN := $(B)/btrace-analyze
UNIT_SRC := $(wildcard tests/unit/t_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
MKDUMP := $(B)/tests/mkdump
MKDUMP_SRC := $(wildcard tests/fixtures/*.c)
TRUTH_TOTALS := $(B)/tests/truth_totals
SLICE_TOTALS := $(B)/tests/slice_totals

.PHONY: all run deps build-deps test-deps test test-long asan bench fuzz clean examples runs samples
.SECONDARY: $(GEN)

all: $(BIN)

$(B)/gen/bt_sql.h: $(SQL) queries/sql2c.sh queries
	$(Q)sh queries/sql2c.sh $(B)/gen $(SQL)
$(B)/gen/bt_sql.c: $(B)/gen/bt_sql.h

$(B)/gen/bt_sql.o: $(B)/gen/bt_sql.c
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-overlength-strings -c $< -o $@

# The built-in rule files and the bt library, compiled by the Lua library
# the program links (lua/lua2bc.c, a build tool): a run loads them without
# the parser.
$(B)/gen/lua2bc: $(LUA2BC_SRC)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -O2 $(WARN) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< $(PKG_LIBS)
$(B)/gen/bt_lua.h: $(LUA) $(B)/gen/lua2bc
	$(Q)$(B)/gen/lua2bc $(B)/gen $(LUA)
$(B)/gen/bt_lua.c: $(B)/gen/bt_lua.h

$(B)/gen/bt_lua.o: $(B)/gen/bt_lua.c
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

# The HTML report's stylesheet and scripts, embedded (reports/html/html2c.sh).
$(B)/gen/bt_html.h: $(HTML) reports/html/html2c.sh
	$(Q)sh reports/html/html2c.sh $(B)/gen $(HTML)
$(B)/gen/bt_html.c: $(B)/gen/bt_html.h

$(B)/gen/bt_html.o: $(B)/gen/bt_html.c
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-overlength-strings -c $< -o $@

# The messages --perfetto and --pprof write, generated by protoc-c.
$(B)/gen/%.pb-c.h: engine/proto/%.proto
	@mkdir -p $(@D)
	$(Q)protoc-c --c_out=$(B)/gen --proto_path=engine/proto $<
$(B)/gen/%.pb-c.c: $(B)/gen/%.pb-c.h ;

$(B)/gen/%.pb-c.o: $(B)/gen/%.pb-c.c
	$(Q)$(CC) $(CPPFLAGS) $(OPT) $(SAN) $(PKG_CFLAGS) $(CFLAGS) -w -c $< -o $@

$(B)/%.o: %.c | $(B)/gen/bt_sql.h $(B)/gen/bt_lua.h $(B)/gen/bt_html.h $(PB:=.h)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LTO) -c $< -o $@

$(B)/engine/cli/main.o: CFLAGS += -DBT_VERSION='"$(VERSION)"'
$(B)/reports/xlsx/lxw.o: CFLAGS += $(if $(LXW_SONAME),-DBT_LXW_SONAME='"$(LXW_SONAME)"')

# The family test's relabeling loops, vectorized: -O2's cost model leaves
# them scalar, and its sqrt never needs errno. The same bits, ~2x faster.
VECTORIZE := $(shell $(CC) -Werror -fvect-cost-model=cheap -fno-math-errno -c -x c /dev/null \
	-o /dev/null 2>/dev/null && echo -fvect-cost-model=cheap -fno-math-errno)
$(B)/engine/compare/family.o: CFLAGS += $(VECTORIZE)

$(B)/libbt.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(B)/engine/cli/main.o $(B)/libbt.a
	$(Q)$(CC) $(OPT) $(SAN) $(LTO) -o $@ $^ $(LDLIBS)

$(B)/tests/t_%: tests/unit/t_%.c $(B)/libbt.a | $(B)/gen/bt_sql.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(if $(LTO),-fno-lto) -o $@ $< $(B)/libbt.a $(LDLIBS)

$(MKDUMP): $(MKDUMP_SRC) $(wildcard tests/fixtures/*.h)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(CFLAGS) -o $@ $(MKDUMP_SRC) -lm

$(TRUTH_TOTALS): tests/scoring/truth_totals.c tests/scoring/syms.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(CFLAGS) -o $@ $<

$(SLICE_TOTALS): tests/scoring/slice_totals.c tests/scoring/syms.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(PKG_CFLAGS) $(CFLAGS) -o $@ $< $(LDLIBS)

# The bundled example is the test writer's output for these options; a test
# checks that it still regenerates byte for byte.
EXAMPLE_OPTS := --records 700 --seed 9 --startup cold --no-truth
examples: $(MKDUMP)
	$(MKDUMP) $(EXAMPLE_OPTS) examples

# Inputs to try the commands on, generated (not committed) by the test
# writers: runs of two builds to compare (examples/runs.sh) and a small
# trace of each other format (examples/samples.sh). README.txt is written
# last, so a run cut short is made again.
RUNS ?= examples/runs
SAMPLES ?= examples/samples
runs: $(RUNS)/README.txt
$(RUNS)/README.txt: examples/runs.sh $(BIN) $(MKDUMP)
	sh examples/runs.sh $(BIN) $(MKDUMP) $(RUNS)

samples: $(SAMPLES)/README.txt
$(SAMPLES)/README.txt: examples/samples.sh $(wildcard tests/fixtures/mk*.py)
	sh examples/samples.sh $(SAMPLES)

# Install what is missing of $(1), as root; otherwise say what to install.
define install_debs
	@missing=""; for p in $(1); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
		echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	fi
endef

# The build's packages and the tests' checkers (an xlsx reader, go, Chromium, and
# Slurm with munge for a one-node cluster: tests/sh/8020-slurm.sh).
deps:
	$(call install_debs,$(DEBS) $(TEST_DEBS))

build-deps:
	$(call install_debs,$(DEBS))

test-deps:
	$(call install_debs,$(TEST_DEBS))

run: build-deps
	@$(MAKE) --no-print-directory all
	$(BIN) examples/sampling.bin

# The build on every core first (a fresh clone's takes half the time), then the suite.
test: test-deps
	@$(MAKE) --no-print-directory -j$$(nproc) $(BIN) $(UNIT_BIN) $(MKDUMP) $(TRUTH_TOTALS) $(SLICE_TOTALS)
	@B=$(B) EXAMPLE_OPTS="$(EXAMPLE_OPTS)" sh tests/run.sh

# The soaks the suite runs briefly, at length: the Lua sandbox's escape
# generator ten minutes (make test gives it 8 s).
LONG_SECONDS ?= 600
test-long: test-deps $(BIN) $(MKDUMP)
	@B=$(B) LUA_ESCAPE_SECONDS=$(LONG_SECONDS) sh tests/run.sh tests/sh/4410-lua-escapes.sh

# The tests' dumps, and the runs' reports a gate test compares but the
# first of each pool, come from the plain build's simulator and tool
# (tests/lib.sh).
asan:
	@$(MAKE) --no-print-directory -j$$(nproc) $(MKDUMP) $(BIN)
	@BT_MKDUMP=$(CURDIR)/$(MKDUMP) BT_PLAIN_BIN=$(CURDIR)/$(BIN) $(MAKE) --no-print-directory B=build-asan OPT="-O1 -g" LTO= \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" test

bench: $(BIN) $(MKDUMP)
	@B=$(B) sh tests/bench.sh

FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= android ios perfetto json btrace2 art systrace fleet manifest lua
FUZZ_LUA_SECONDS ?= 600
# UBSan findings abort (no recovery), so libFuzzer keeps them as crashes.
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
fuzz:
	@$(MAKE) --no-print-directory B=build-fuzz CC=clang OPT="-O1 -g" LTO= \
		SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" build-fuzz/libbt.a build-fuzz/tests/mkdump \
		build-fuzz/btrace-analyze
	for t in $(filter-out lua,$(FUZZ_TARGETS)); do \
		clang -std=c11 -D_POSIX_C_SOURCE=200809L -I. -Ibuild-fuzz -O1 -g \
			-fsanitize=fuzzer $(FUZZ_SAN) $$(pkg-config --cflags $(PKGS)) -o build-fuzz/fuzz_$$t \
			tests/fuzz/fuzz_$$t.c build-fuzz/libbt.a $$(pkg-config --libs $(PKGS)) -lm -pthread || exit 1; \
	done
	@B=build-fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_LUA_SECONDS=$(FUZZ_LUA_SECONDS) \
		FUZZ_TARGETS="$(FUZZ_TARGETS)" sh tests/fuzz/run.sh

clean:
	rm -rf build build-asan build-fuzz examples/runs examples/samples

-include $(LIB_OBJ:.o=.d) $(B)/engine/cli/main.d
