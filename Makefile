# vmscan-report - build, test, benchmark and reports.
#   make            build ./vmscan-report (installs missing Debian packages first)
#   make test       build and run every test (unit, end-to-end, sample checks)
#   make asan       the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      speed and memory of `load` against trace-cmd (see tests/bench)
#   make reports    load samples/ into a fresh database and write reports/
#   make record-samples  remake the recordings in samples/ (root, minutes, uses
#                   much memory; never run by make test)
#   make install    PREFIX=/usr/local DESTDIR=

VERSION   := 0.1
PREFIX    ?= /usr/local
CC        ?= gcc
O         ?= build
PKGS      := libtracecmd libtraceevent libtracefs sqlite3 cairo pangocairo gsl cmocka glib-2.0
DEB_PKGS  := libtracecmd-dev libtraceevent-dev libtracefs-dev libsqlite3-dev libcairo2-dev \
             libpango1.0-dev libgsl-dev libcmocka-dev libglib2.0-dev pkg-config trace-cmd \
             fonts-dejavu-core sqlite3 python3 gcc make
SANITIZE  ?=

# Install what is missing (Debian 12); a no-op when everything is there.
DEPS_OK := $(shell pkg-config --exists $(PKGS) 2>/dev/null && command -v trace-cmd >/dev/null \
	     && command -v sqlite3 >/dev/null && echo yes)
ifneq ($(DEPS_OK),yes)
  $(info vmscan-report: installing missing Debian packages: $(DEB_PKGS))
  $(shell (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	   $(DEB_PKGS)) >&2)
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS)) -lm -lpthread

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -Iinclude $(PKG_CFLAGS) -DVR_VERSION='"$(VERSION)"' \
	   -MMD -MP
ifneq ($(SANITIZE),)
  CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
  LDFLAGS += -fsanitize=$(SANITIZE)
endif

LIB_SRCS  := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJS  := $(LIB_SRCS:src/%.c=$(O)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test-*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/unit/%)

all: vmscan-report

$(O)/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(O)/libvr.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

vmscan-report: $(O)/main.o $(O)/libvr.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(O)/unit/%: tests/unit/%.c $(O)/libvr.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(O)/libvr.a $(PKG_LIBS)

unit: $(UNIT_BINS)

test: vmscan-report unit
	LC_ALL=C tests/run-tests.sh $(O)

asan:
	CFLAGS="-O1 -g" $(MAKE) O=build-asan SANITIZE=address,undefined test

bench: vmscan-report
	tests/bench/bench.sh

reports: vmscan-report
	tests/make-reports.sh

# VR tells samples/record-samples.sh which vmscan-report to record with.
record-samples: vmscan-report
	VR=$(CURDIR)/vmscan-report samples/record-samples.sh
.PHONY: record-samples

install: vmscan-report
	install -D -m 0755 vmscan-report $(DESTDIR)$(PREFIX)/bin/vmscan-report

clean:
	rm -rf build build-asan vmscan-report

.PHONY: all unit test asan bench reports install clean
-include $(LIB_OBJS:.o=.d) $(O)/main.d
