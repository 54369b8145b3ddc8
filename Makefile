# vmscan-report - build, test, benchmark and reports.
#   make            build ./vmscan-report (installs missing Debian packages first)
#   make deps       only install the missing Debian packages (apt-get, as root)
#   make test       build and run every test (unit, end-to-end, sample checks)
#   make asan       the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      speed and memory of `load` against trace-cmd (see tests/bench)
#   make torture    the mutation test of `make test` at length, with kills,
#                   concurrent loads, reports while loads commit, signals at
#                   each rename of a bundle, loads stopped by SIGINT, hand-
#                   edited schemas (tests/mutants.py; minutes)
#   make reports    load samples/ into fresh databases and write reports/,
#                   reports/pressure/ (the pressure set), reports/lab/ and
#                   reports/lab-mglru/ (the lab set, samples/lab/)
#   make record-samples  remake the recordings in samples/ (root, minutes, uses
#                   much memory, swap on zram, a loop device; never run by make
#                   test); SAMPLE_SETS=pressure for the pressure set only
#   make lab        record samples/lab/ in QEMU guests with two NUMA nodes:
#                   6.1 built unpatched and with the lab-only patch, Debian's
#                   6.1 classic against multi-gen LRU (root, tens of minutes,
#                   a kernel build cached in /var/tmp/vmscan-report-lab;
#                   never run by make test or make reports)
#   make install    binary, man pages, bash completion: PREFIX=/usr/local DESTDIR=
#   make uninstall  remove what make install installed (same PREFIX, DESTDIR)

VERSION   := 0.1
PREFIX    ?= /usr/local
CC        ?= gcc
O         ?= build
# pkg-config names: PKGS for the program, UNIT_PKGS also for the unit tests
PKGS      := libtracecmd libtraceevent libtracefs sqlite3 cairo pangocairo gsl glib-2.0 libcrypto \
             zlib liblzma libzstd
UNIT_PKGS := cmocka
DEB_PKGS  := libtracecmd-dev libtraceevent-dev libtracefs-dev libsqlite3-dev libcairo2-dev \
             libpango1.0-dev libgsl-dev libcmocka-dev libglib2.0-dev libssl-dev pkg-config trace-cmd \
             zlib1g-dev liblzma-dev libzstd-dev \
             fonts-dejavu-core sqlite3 python3 gcc make strace procps man-db xz-utils zstd
SANITIZE  ?=
.DEFAULT_GOAL := all

# make deps: install what is missing (Debian 12); a no-op when everything is
# there.  Every build rule waits for it (order-only), so `make`, `make test`
# and `make reports` run it first; `make clean` does not.
DEPS_CHECK := pkg-config --exists $(PKGS) $(UNIT_PKGS) 2>/dev/null && command -v trace-cmd \
	      && command -v sqlite3 && command -v strace && command -v pgrep \
	      && command -v python3 && command -v man && command -v xz && command -v zstd
deps:
	@if ! { $(DEPS_CHECK); } >/dev/null; then \
		echo "vmscan-report: installing missing Debian packages: $(DEB_PKGS)" >&2; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$(DEB_PKGS) >&2; \
	fi

# Expanded once, when a recipe first needs them: after `deps` has run.
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $(PKGS)))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $$(shell pkg-config --libs $(PKGS)) -lm -lpthread)$(PKG_LIBS)
UNIT_LIBS  = $(eval UNIT_LIBS := $$(shell pkg-config --cflags --libs $(UNIT_PKGS)))$(UNIT_LIBS)

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -Iinclude -DVR_VERSION='"$(VERSION)"' -MMD -MP
ifneq ($(SANITIZE),)
  CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=$(SANITIZE)
endif

# libvr.a: the modules (src/*.c and src/MODULE/*.c); libcmd.a: the command layer (src/cmd/:
# the commands, their tables and cmd_run()), which uses libvr.a and is used
# only by src/cmd/main.c and the cmd-doc tool (src/cmd/cmd-doc.c).
# The modules of several files, each in its folder with its private headers
# (src/ingest/ingest-priv.h, src/store/store-priv.h, ...).
MODULE_DIRS := src/ingest src/model src/store src/compare src/chart src/record src/load
CMD_SRCS  := $(filter-out src/cmd/main.c src/cmd/cmd-doc.c,$(wildcard src/cmd/*.c))
CMD_OBJS  := $(CMD_SRCS:src/%.c=$(O)/%.o)
LIB_SRCS  := $(wildcard src/*.c $(addsuffix /*.c,$(MODULE_DIRS)))
LIB_OBJS  := $(LIB_SRCS:src/%.c=$(O)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/unit/%)

# A sanitizer build keeps its binary in its build directory, so that it
# never stands in for the normal ./vmscan-report.
BIN := $(if $(SANITIZE),$(O)/vmscan-report,vmscan-report)

all: $(BIN) $(O)/cmd-doc man completion

$(O)/%.o: src/%.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(O)/libvr.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(O)/libcmd.a: $(CMD_OBJS)
	rm -f $@ && ar rcs $@ $^

$(BIN): $(O)/cmd/main.o $(O)/libcmd.a $(O)/libvr.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# prints the command tables (options of every command) for tests
$(O)/cmd-doc: $(O)/cmd/cmd-doc.o $(O)/libcmd.a $(O)/libvr.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(O)/unit/%: tests/unit/%.c $(O)/libvr.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Itests/unit -Isrc $(addprefix -I,$(MODULE_DIRS)) $(LDFLAGS) -o $@ $< $(O)/libvr.a $(PKG_LIBS) \
		$(UNIT_LIBS)

unit: $(UNIT_BINS)

# Fuzz targets (tests/fuzz/fuzz-*.c): replay builds for `make test`, which
# runs them over the committed corpus and past crashes (t1510).
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_REPLAY := $(FUZZ_SRCS:tests/fuzz/fuzz-%.c=$(O)/fuzz/replay-%)

$(O)/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-replay.h $(O)/libvr.a | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc/ingest -DVR_FUZZ_REPLAY $(LDFLAGS) -o $@ $< $(O)/libvr.a $(PKG_LIBS)

# make fuzz [FUZZ_TIME=seconds per target]: libFuzzer with ASan+UBSan (clang
# from Debian, installed if missing); new inputs go to build-fuzz/corpus-*,
# crashes to build-fuzz/ (copy them to tests/fuzz/crashes/ with a test).
FUZZ_TIME ?= 120
FUZZ_O    := build-fuzz
FUZZ_FLAGS = -g -O1 -std=gnu11 -Iinclude -Isrc/ingest $(PKG_CFLAGS) -DVR_VERSION='"$(VERSION)"' \
	      -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
# only the modules the targets reach (ingest and its utilities)
FUZZ_LIB  := $(addprefix src/ingest/,ingest-kind.c ingest-tasks.c ingest-dat.c ingest-dat-check.c \
	     ingest-dat-copy.c ingest-dat-drop.c ingest-dat-spill.c ingest-dat-scratch.c ingest-text.c \
	     ingest-text-body.c ingest-text-file.c ingest-text-stream.c ingest-text-wrap.c) \
	     src/child.c src/spec.c src/util.c
FUZZ_OBJS := $(FUZZ_LIB:src/%.c=$(FUZZ_O)/%.o)
.SECONDARY: $(FUZZ_OBJS)

$(FUZZ_O)/libvr.a: $(FUZZ_OBJS)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_O)/%.o: src/%.c | deps
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
# a header change rebuilds the objects (a stale layout of struct
# ingest_sink once made the text target "crash")
-include $(FUZZ_OBJS:.o=.d)

$(FUZZ_O)/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_O)/libvr.a
	clang $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_O)/libvr.a $(PKG_LIBS)

fuzz-clang:
	@command -v clang >/dev/null || (apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang)

# Sanitizer reports of the probe's child processes (stderr is closed by
# -close_fd_mask) go to build-fuzz/asan.PID instead of .PID files in the tree.
# Allocations above 256 MiB fail (return NULL) as they would on a loaded
# machine, instead of counting as findings: libtracecmd sizes buffers from
# header fields and checks for NULL.  Leaks are checked for the text
# target only: libtraceevent 1.7.1 leaks a few bytes in tep_parse_event()
# on malformed formats, which is not ours to fix.
FUZZ_ASAN := allocator_may_return_null=1:max_allocation_size_mb=256

fuzz: fuzz-clang
	$(MAKE) $(FUZZ_SRCS:tests/fuzz/fuzz-%.c=$(FUZZ_O)/fuzz-%)
	st=0; for t in $(FUZZ_SRCS:tests/fuzz/fuzz-%.c=%); do \
		mkdir -p $(FUZZ_O)/corpus-$$t && \
		leaks=1; [ $$t = dat ] && leaks=0; \
		ASAN_OPTIONS=$(FUZZ_ASAN):detect_leaks=$$leaks:log_path=$(FUZZ_O)/asan \
		$(FUZZ_O)/fuzz-$$t -max_total_time=$(FUZZ_TIME) \
			-max_len=65536 -malloc_limit_mb=512 -close_fd_mask=3 -timeout=10 \
			-artifact_prefix=$(FUZZ_O)/$$t- \
			$(FUZZ_O)/corpus-$$t tests/fuzz/corpus-$$t || st=1; \
	done; exit $$st

# The layers of the program, lowest first: a module (src/NAME.c, or
# src/FOLDER/NAME.c for a module of several files, written FOLDER/NAME here)
# calls only modules of its own layer and of the layers before it, never one
# of a later layer (tests/check-layers.sh reads the object files: a symbol a
# module leaves undefined that a later layer defines fails `make test`, and
# so does a source file in no layer).  One quoted string per layer.
LAYERS := \
	"util spec stats child" \
	"ingest/ingest-kind" \
	"ingest/ingest-tasks ingest/ingest-dat-scratch ingest/ingest-dat-check \
	 ingest/ingest-dat-drop ingest/ingest-latency ingest/ingest-text-body" \
	"ingest/ingest-dat-spill ingest/ingest-text ingest/ingest-text-wrap" \
	"ingest/ingest-text-stream" \
	"ingest/ingest-dat ingest/ingest-dat-copy ingest/ingest-text-file ingest/ingest-perf" \
	"ingest/ingest-source" \
	"model/model-pidmap model/model-kswapd" \
	"model/model-flags model/model-misc model/model-stall model/model-hopeless" \
	"model/model" \
	"store/store-schema store/store-bulk store/store-sums store/store-callrows store/store-slab store/store-lru" \
	"store/store" \
	"store/store-derived store/store-evidence store/store-many store/store-latency \
	 store/store-query" \
	"recorded" \
	"runs counters metrics outfile progress render-table coverage windows \
	 compare/compare-windows chart/chart-windows" \
	"compare/compare-counters summary timeline chart/render-cairo chart/render-windows \
	 snapshot whatchanged compare/compare-vmstat" \
	"compare/compare chart/chart-data" \
	"chart/chart-counters chart/chart-metrics chart/render-charts" \
	"chart/chart-draw" \
	"latency-import record/record-dat record/record-events record/record-snap \
	 load/load-worker load/load-input" \
	"load/load-run record/record" \
	"load/load" \
	"report compare/compare-files" \
	"$(CMD_SRCS:src/%.c=%)"
LAYER_OBJS = $(patsubst %,$(O)/%.o,$(subst ",,$(LAYERS)))

# And only src/cmd/ includes cmd.h (src/cmd/cmd.h: the modules below it
# never call a command).
check-layers: $(LAYER_OBJS)
	@tests/check-layers.sh $(O) $(LAYERS)
	@bad=$$(grep -lE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([^">]*/)?cmd\.h[">]' \
		$$(find src include tests -name '*.[ch]' ! -path 'src/cmd/*')); \
	if [ -n "$$bad" ]; then \
		echo "cmd.h is the command layer's (src/cmd/); included by: $$bad" >&2; exit 1; \
	fi

test: check-layers $(BIN) $(O)/cmd-doc man completion unit $(FUZZ_REPLAY)
	VR=$(abspath $(BIN)) LC_ALL=C tests/run-tests.sh $(O)

# tests/run-tests.sh points LeakSanitizer at tests/lsan.supp (leaks inside
# libtraceevent, libtracecmd and fontconfig's cache, not ours).
asan:
	CFLAGS="-O1 -g" UBSAN_OPTIONS=print_stacktrace=1 \
	$(MAKE) O=build-asan SANITIZE=address,undefined test

bench: vmscan-report
	tests/bench/bench.sh

# TORTURE_SEED picks other mutants; each run prints its figures.
TORTURE_SEED ?= 1
torture: vmscan-report
	st=0; \
	python3 tests/mutants.py $(CURDIR)/vmscan-report samples/wsf200-1.dat samples/wsf200-3.dat \
		--seed $(TORTURE_SEED) --count 300 --kills 20 --concurrent 6 --keep $(O)/torture \
		--report-while-loading 4 --rename-signals --sigint 10 --schemas || st=1; \
	python3 tests/mutants.py $(CURDIR)/vmscan-report samples/wsf200-2.dat samples/wsf200-3.dat \
		--seed $(TORTURE_SEED) --count 100 --keep $(O)/torture || st=1; \
	exit $$st

reports: vmscan-report
	tests/make-reports.sh

# VR tells samples/record-samples.sh which vmscan-report to record with.
record-samples: vmscan-report
	VR=$(CURDIR)/vmscan-report samples/record-samples.sh
.PHONY: record-samples

# samples/lab/lab.sh: kernels, initramfs, QEMU guests; see its header
lab:
	samples/lab/lab.sh
.PHONY: lab

# Manual pages and bash completion, made from the command tables by cmd-doc.
# `help CMD` finds the built pages here when none is installed.
MAN_CMDS  = $(shell $(O)/cmd-doc commands | cut -f1)
MAN_PAGES = $(O)/man/vmscan-report.1 $(MAN_CMDS:%=$(O)/man/vmscan-report-%.1)
$(O)/cmd/cmd-help.o: CFLAGS += -DVR_BUILD_MANDIR='"$(abspath $(O))/man"'
man: $(O)/cmd-doc
	@mkdir -p $(O)/man
	$(O)/cmd-doc man >$(O)/man/vmscan-report.1
	for c in $(MAN_CMDS); do $(O)/cmd-doc man $$c >$(O)/man/vmscan-report-$$c.1 || exit 1; done
completion: $(O)/cmd-doc
	$(O)/cmd-doc bash >$(O)/vmscan-report.bash

MANDIR    ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
install: vmscan-report man completion
	install -D -m 0755 vmscan-report $(DESTDIR)$(PREFIX)/bin/vmscan-report
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	install -D -m 0644 $(O)/vmscan-report.bash $(DESTDIR)$(BASHCOMPDIR)/vmscan-report

uninstall: $(O)/cmd-doc
	rm -f $(DESTDIR)$(PREFIX)/bin/vmscan-report $(DESTDIR)$(BASHCOMPDIR)/vmscan-report \
		$(MAN_PAGES:$(O)/man/%=$(DESTDIR)$(MANDIR)/man1/%)

clean:
	rm -rf build build-asan build-fuzz vmscan-report

.PHONY: all deps check-layers unit test asan bench torture reports install uninstall man \
	completion clean fuzz fuzz-clang
-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(O)/cmd/main.d $(O)/cmd/cmd-doc.d
