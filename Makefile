# btrace-analyze: one non-recursive Makefile (GNU make 4.3).
# make            build $(B)/btrace-analyze
# make run        install missing Debian packages, build, analyse the bundled example
# make test       unit, golden and end-to-end tests; ends with "N passed, N failed"
# make asan       the same tests under ASan/LSan/UBSan in build-asan/
# make bench      import 200k- and 1M-record dumps, print wall time, peak RSS, MB/s
# make fuzz       libFuzzer on the Android importer (FUZZ_SECONDS=600)
# make clean

B ?= build
V ?= 0
VERSION := 0.1.0
PKGS := sqlite3 lua5.4 libprotobuf-c xlsxwriter
DEBS := libsqlite3-dev liblua5.4-dev libprotobuf-c-dev protobuf-c-compiler libxlsxwriter-dev pkgconf
TEST_DEBS := sqlite3 protobuf-compiler unzip python3 time

Q := $(if $(filter 1,$(V)),,@)
NOBUILD_GOALS := run deps clean help
ifneq ($(filter-out $(NOBUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ifeq ($(PKG_LIBS),)
$(error missing libraries: run 'make deps' as root, or: apt-get install -y $(DEBS))
endif
endif

CC ?= cc
OPT ?= -O2 -g
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wvla -Wformat=2
ifeq ($(WERROR),1)
WARN += -Werror
endif
SAN ?=
CPPFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -Iengine -Iimporters -Ireports -I$(B)/gen
ALL_CFLAGS = $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(PKG_CFLAGS) $(CFLAGS) -MMD -MP
LDLIBS := $(PKG_LIBS) -lm -pthread

SQL := $(sort $(wildcard queries/*.sql))
GEN := $(B)/gen/bt_sql.c $(B)/gen/bt_sql.h
LIB_SRC := $(filter-out engine/main.c,$(wildcard engine/*.c)) $(wildcard importers/*.c) \
	$(wildcard reports/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/bt_sql.o
BIN := $(B)/btrace-analyze
UNIT_SRC := $(wildcard tests/unit/t_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
MKDUMP := $(B)/tests/mkdump
MKDUMP_SRC := $(wildcard tests/fixtures/*.c)

.PHONY: all run deps test asan bench fuzz clean examples
.SECONDARY: $(GEN)

all: $(BIN)

$(B)/gen/bt_sql.h: $(SQL) queries/sql2c.sh queries
	$(Q)sh queries/sql2c.sh $(B)/gen $(SQL)
$(B)/gen/bt_sql.c: $(B)/gen/bt_sql.h

$(B)/gen/bt_sql.o: $(B)/gen/bt_sql.c
	$(Q)$(CC) $(ALL_CFLAGS) -Wno-overlength-strings -c $< -o $@

$(B)/%.o: %.c | $(B)/gen/bt_sql.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/engine/main.o: CFLAGS += -DBT_VERSION='"$(VERSION)"'

$(B)/libbt.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(B)/engine/main.o $(B)/libbt.a
	$(Q)$(CC) $(OPT) $(SAN) -o $@ $^ $(LDLIBS)

$(B)/tests/t_%: tests/unit/t_%.c $(B)/libbt.a | $(B)/gen/bt_sql.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(B)/libbt.a $(LDLIBS)

$(MKDUMP): $(MKDUMP_SRC) $(wildcard tests/fixtures/*.h)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(OPT) $(SAN) $(WARN) $(CFLAGS) -o $@ $(MKDUMP_SRC) -lm

# The bundled example is the test writer's output for these options; a test
# checks that it still regenerates byte for byte.
EXAMPLE_OPTS := --records 300 --seed 2026 --no-truth
examples: $(MKDUMP)
	$(MKDUMP) $(EXAMPLE_OPTS) examples

deps:
	@missing=""; for p in $(DEBS) $(TEST_DEBS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
		echo "missing Debian packages; run: sudo apt-get install -y$$missing" >&2; exit 1; \
	fi

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) examples/sampling.bin

test: $(BIN) $(UNIT_BIN) $(MKDUMP)
	@B=$(B) EXAMPLE_OPTS="$(EXAMPLE_OPTS)" sh tests/run.sh

asan:
	@$(MAKE) --no-print-directory B=build-asan OPT="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" test

bench: $(BIN) $(MKDUMP)
	@B=$(B) sh tests/bench.sh

FUZZ_SECONDS ?= 600
FUZZ_BIN := build-fuzz/fuzz_android
fuzz:
	@$(MAKE) --no-print-directory B=build-fuzz CC=clang OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libbt.a build-fuzz/tests/mkdump
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -Iengine -Iimporters -Ibuild-fuzz/gen -O1 -g \
		-fsanitize=fuzzer,address,undefined \
		$$(pkg-config --cflags $(PKGS)) -o $(FUZZ_BIN) tests/fuzz/fuzz_android.c build-fuzz/libbt.a \
		$$(pkg-config --libs $(PKGS)) -lm
	@B=build-fuzz FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(B)/engine/main.d
