# modelcat: `make` builds every program into bin/; `make check` runs the
# tests; `make SANITIZE=address,undefined check` builds an instrumented copy
# under build/sanitize-address-undefined/ (its own objects and bin/) and
# tests that.

CC ?= cc
PKGS := libcurl libxml-2.0 sqlite3 zlib libutf8proc
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))

WARNINGS := -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wshadow -Wvla -Werror
OPT ?= -O2 -g
CFLAGS ?=
CFLAGS += -std=c11 -D_GNU_SOURCE -pthread $(OPT) $(WARNINGS) $(PKG_CFLAGS) -Isrc/lib
# Each object and program records the headers it includes (OUT/deps/,
# read below): a changed header rebuilds only what includes it.
DEPFLAGS := -MMD -MP
LDLIBS += $(PKG_LIBS) -lm -pthread
# Each program records only the libraries it calls: a command that never
# reads XML does not load libxml2 (and ICU under it) at every start.
LDFLAGS += -Wl,--as-needed

SANITIZE ?=
ifeq ($(SANITIZE),)
  OUT := build/release
  BIN := bin
else
  comma := ,
  OUT := build/sanitize-$(subst $(comma),-,$(SANITIZE))
  BIN := $(OUT)/bin
  CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=$(SANITIZE)
endif

PREFIX ?= /usr/local
DESTDIR ?=

LIB_SRC := $(sort $(wildcard src/lib/*/*.c))
LIB_OBJ := $(patsubst src/lib/%.c,$(OUT)/lib/%.o,$(LIB_SRC))
LIB := $(OUT)/libmodelcat.a
STAGE_SRC := $(sort $(wildcard src/stages/*.c))
STAGES := $(patsubst src/stages/%.c,$(BIN)/%,$(STAGE_SRC))
PROGRAMS := $(BIN)/modelcat $(STAGES)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNITS := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRC))
# The allocation-failure injector of tests/e2e/t0100-oom.sh (LD_PRELOAD):
# not built under a sanitizer, whose allocator it cannot replace.
ifeq ($(SANITIZE),)
  FAULT_LIBS := $(OUT)/tests/failmalloc.so
endif

.PHONY: all check check-layers check-site check-valgrind unit clean install bench man fuzz fuzz-run
all: $(PROGRAMS) $(UNITS) $(FAULT_LIBS)

$(OUT)/lib/%.o: src/lib/%.c $(OUT)/deps/lib/%.d
	@mkdir -p $(dir $@) $(dir $(OUT)/deps/lib/$*)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(OUT)/deps/lib/$*.d -c -o $@ $<

$(LIB): $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BIN)/modelcat: src/modelcat.c $(LIB) $(OUT)/deps/bin/modelcat.d | $(BIN)
	@mkdir -p $(OUT)/deps/bin
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(OUT)/deps/bin/modelcat.d $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(BIN)/%: src/stages/%.c $(LIB) $(OUT)/deps/bin/%.d | $(BIN)
	@mkdir -p $(OUT)/deps/bin
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(OUT)/deps/bin/$*.d $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(OUT)/tests/%: tests/unit/%.c $(LIB) $(OUT)/deps/tests/%.d | $(OUT)/tests
	@mkdir -p $(OUT)/deps/tests
	$(CC) $(CFLAGS) $(DEPFLAGS) -MF $(OUT)/deps/tests/$*.d $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(OUT)/tests/failmalloc.so: tests/fault/failmalloc.c | $(OUT)/tests
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $<

$(OUT)/tests $(BIN):
	mkdir -p $@

# The headers each object and program included when it was last built
# (OUT/deps/, written by -MMD). A missing record is a target without a
# rule, which counts as changed: what has no record of its headers is rebuilt.
DEPFILES := $(patsubst src/lib/%.c,$(OUT)/deps/lib/%.d,$(LIB_SRC)) \
	$(patsubst $(BIN)/%,$(OUT)/deps/bin/%.d,$(PROGRAMS)) \
	$(patsubst tests/unit/%.c,$(OUT)/deps/tests/%.d,$(UNIT_SRC))
$(DEPFILES):
-include $(wildcard $(DEPFILES))

# The structure of the sources (src/lib/LAYERS, tools/check_layers.py):
# includes only from the layers below, no cycle, no getopt_long in the
# stages, SQL only in the db layer, short stage programs and functions.
check-layers:
	python3 tools/check_layers.py

check: all check-layers
	MODELCAT_BIN=$(abspath $(BIN)) MODELCAT_UNITS=$(abspath $(OUT)/tests) \
		sh tests/run

# The published site as a reader's browser sees it: the bundled history
# published and served on loopback, Lighthouse (pinned, from npm, kept in
# build/lighthouse) on the root page, an index, a model page and an audit
# page (tools/check-site.sh; CHECK_SITE_OFFLINE=1 skips it without npm).
check-site: all
	MODELCAT_BIN=$(abspath $(BIN)) sh tools/check-site.sh

# The same suite with every unit test and every program the e2e tests run
# through `mc` under valgrind (memcheck, leak checking; slow: not part of
# check). A process with an error or a definite leak fails the run; the
# logs are kept in build/valgrind/.
VALGRIND_LOGS := $(abspath build/valgrind)
VALGRIND ?= valgrind --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes \
	--trace-children=yes --trace-children-skip=/bin/*,/usr/bin/*,/usr/local/bin/* \
	--log-file=$(VALGRIND_LOGS)/%p.log
check-valgrind: all
	rm -rf $(VALGRIND_LOGS)
	mkdir -p $(VALGRIND_LOGS)
	# tests that drop to another user (t0102) log there too
	chmod 1777 $(VALGRIND_LOGS)
	MODELCAT_BIN=$(abspath $(BIN)) MODELCAT_UNITS=$(abspath $(OUT)/tests) \
		MODELCAT_WRAP="$(VALGRIND)" MODELCAT_VALGRIND_LOGS=$(VALGRIND_LOGS) \
		sh tests/run

# Benchmarks (not part of check): the release build against sqlite3's
# .import of the same file; BENCH_BIG=1 for a 1 GB input. The results go
# into docs/performance.md.
# BENCH_PEER_REV=REV also builds commit REV in build/peer-REV/ and times its
# programs in the same rounds (a last column compares the two trees).
BENCH_PEER_REV ?=
# The peer is built in a folder named by its revision, so that a peer built
# for another revision is never taken for it.
bench: all $(if $(BENCH_PEER_REV),build/peer-$(BENCH_PEER_REV)/bin/modelcat)
	python3 bench/bench.py --rounds $${BENCH_ROUNDS:-5} --write docs/performance.md \
		$(if $(BENCH_PEER_REV),--peer build/peer-$(BENCH_PEER_REV)/bin)

build/peer-%/bin/modelcat:
	rm -rf build/peer-$*
	mkdir -p build/peer-$*
	git archive $* | tar -x -C build/peer-$*
	$(MAKE) -C build/peer-$* all

# Fuzzing with clang's libFuzzer (not part of check): `make fuzz` builds
# each tests/fuzz/fuzz_*.c into build/fuzz/ against its own instrumented
# copy of the library (AddressSanitizer, UndefinedBehaviorSanitizer, and
# small input blocks so that short inputs cross block boundaries);
# `make fuzz-run FUZZ_SECONDS=N` runs each harness in turn for N seconds on
# its seed corpus tests/fuzz/corpus/<harness>/ (tests/fuzz/README.md).
FUZZ_CC ?= clang
FUZZ_OUT := build/fuzz
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -O1 -g $(WARNINGS) $(PKG_CFLAGS) -Isrc/lib \
	-DINPUT_BLOCK=509u -DINPUT_MEM_PIECE=1021u \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LIB := $(FUZZ_OUT)/libmodelcat.a
FUZZ_LIB_OBJ := $(patsubst src/lib/%.c,$(FUZZ_OUT)/lib/%.o,$(LIB_SRC))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZERS := $(patsubst tests/fuzz/%.c,$(FUZZ_OUT)/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 65536

$(FUZZ_OUT)/lib/%.o: src/lib/%.c $(FUZZ_OUT)/deps/lib/%.d
	@mkdir -p $(dir $@) $(dir $(FUZZ_OUT)/deps/lib/$*)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -MF $(FUZZ_OUT)/deps/lib/$*.d -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB) $(FUZZ_OUT)/deps/fuzz_%.d
	@mkdir -p $(FUZZ_OUT)/deps
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEPFLAGS) -MF $(FUZZ_OUT)/deps/fuzz_$*.d -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(LDLIBS)

FUZZ_DEPFILES := $(patsubst src/lib/%.c,$(FUZZ_OUT)/deps/lib/%.d,$(LIB_SRC)) \
	$(patsubst tests/fuzz/%.c,$(FUZZ_OUT)/deps/%.d,$(FUZZ_SRC))
$(FUZZ_DEPFILES):
-include $(wildcard $(FUZZ_DEPFILES))

fuzz: $(FUZZERS)

fuzz-run: fuzz
	sh tests/fuzz/run $(FUZZ_SECONDS) $(FUZZ_MAX_LEN) $(FUZZERS)

# Installs the programs, the configuration, the schema, the bundled
# snapshots, the translation catalogues, the cron files and the manual.
# The programs find their data in PREFIX/share/modelcat.
DATA_DIRS := pipelines sql snapshots cron translations
install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/modelcat \
		$(DESTDIR)$(PREFIX)/share/man/man1
	cp $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	cp -R $(DATA_DIRS) $(DESTDIR)$(PREFIX)/share/modelcat/
	cp docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# Regenerates the manual pages in docs/man from the programs' --help.
man: all
	sh docs/man/mkman.sh $(BIN) docs/man

clean:
	rm -rf build bin
