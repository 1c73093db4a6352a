# fold: tools that convert, merge, filter, diff and render profiles.
# See README.md. Adding a tool: cmd/NAME.c, man/man1/NAME.1, one line in BIN.

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANPREFIX = $(PREFIX)/share/man

# The user's flags; the project's own are kept apart in FOLD_*.
CFLAGS = -O2 -g
LDFLAGS =

# Build directory: objects and binaries go here (check-sanitize uses another).
B = build

SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -fno-pie
# The sanitizer runtimes linked in, into a program not relocated at start:
# each of the suite's thousands of runs then touches half the pages (the
# leak check at exit scans every writable segment, and the shared
# libubsan's is 6 MB; the relocations write to the pages of .data).
SANLDFLAGS = -fsanitize=address,undefined -static-libasan -static-libubsan \
	-no-pie

PKGS = libprotobuf-c zlib libdeflate libxml-2.0 libpcre2-8 yajl
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

FOLD_CPPFLAGS = -I. -I$(B) -D_GNU_SOURCE $(PKG_CFLAGS)
FOLD_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-Wno-sign-compare -MMD -MP
# --as-needed: a tool records only the libraries it calls. libxml2 is not
# one of them: formats/xmllib.c loads it when XML is first read or written
# (it brings ICU and the C++ runtime, 2 MB of memory and 4 ms to start).
# The others but the C library are linked in from their archives where
# the compiler finds them (Debian's -dev packages hold them), the shared
# libraries otherwise: each shared library loaded added 0.05 ms to a
# tool's start (pprofmerge --help: 0.45 ms against 0.56), and a fleet
# tool may be started for each profile, the suite starts tools thousands of
# times. `make STATIC_ARCHIVES=` links them all shared.
STATIC_ARCHIVES = libprotobuf-c.a libz.a libdeflate.a libpcre2-8.a \
	libyajl_s.a
STATIC_LIBS := $(foreach a,$(STATIC_ARCHIVES),$(if $(findstring /,\
	$(shell $(CC) -print-file-name=$(a) 2>/dev/null)),-l:$(a)))
FOLD_LIBS = -Wl,--as-needed $(STATIC_LIBS) $(PKG_LIBS) -lm -lpthread

LIBFOLD = \
	libfold/cost.o \
	libfold/count.o \
	libfold/diag.o \
	libfold/err.o \
	libfold/filter.o \
	libfold/folded.o \
	libfold/funcs.o \
	libfold/input.o \
	libfold/intern.o \
	libfold/jobs.o \
	libfold/merge.o \
	libfold/output.o \
	libfold/report.o \
	libfold/stacks.o \
	libfold/stats.o \
	libfold/tree.o \
	libfold/unit.o

# One object per external format; depends on libfold only.
FORMATS = \
	formats/allformats.o \
	formats/bcc.o \
	formats/calltree.o \
	formats/chrome.o \
	formats/firefox.o \
	formats/collapse.o \
	formats/folded.o \
	formats/csv.o \
	formats/detect.o \
	formats/diffreport.o \
	formats/dtrace.o \
	formats/ghcprof.o \
	formats/github.o \
	formats/html.o \
	formats/jfr.o \
	formats/jfrbin.o \
	formats/json.o \
	formats/junit.o \
	formats/magic.o \
	formats/nameattr.o \
	formats/otlp.o \
	formats/palette.o \
	formats/pbutil.o \
	formats/perf.o \
	formats/pprof.o \
	formats/pprofdec.o \
	formats/pprofmerge.o \
	formats/profile.pb-c.o \
	formats/otlp.pb-c.o \
	formats/rustname.o \
	formats/sample.o \
	formats/speedscope.o \
	formats/split.o \
	formats/svg.o \
	formats/svgread.o \
	formats/table.o \
	formats/trace.o \
	formats/unitshow.o \
	formats/vsprof.o \
	formats/vtune.o \
	formats/xml.o \
	formats/xmllib.o

# Generated sources (protoc-c output), built into $(B).
GENERATED = formats/profile.pb-c.c formats/otlp.pb-c.c

BIN = \
	flamegraph-svg \
	folded2pprof \
	folded2speedscope \
	foldcost \
	folddiff \
	foldfilter \
	foldmerge \
	foldtop \
	pprof2folded \
	pprofmerge \
	stackcollapse \
	stackcollapse-bcc \
	stackcollapse-chrome \
	stackcollapse-chrome-tracing \
	stackcollapse-dtrace \
	stackcollapse-firefox \
	stackcollapse-ghcprof \
	stackcollapse-otlp \
	stackcollapse-jfr \
	stackcollapse-perf \
	stackcollapse-sample \
	stackcollapse-speedscope \
	stackcollapse-vsprof \
	stackcollapse-vtune \
	svg2folded

UNIT = \
	test-dtrace-sample \
	test-libfold \
	test-pbutil \
	test-report

MAN1 = $(BIN:%=man/man1/%.1)
MAN5 = man/man5/folded.5

LIBFOLD_A = $(B)/libfold.a
FORMATS_A = $(B)/libformats.a
# The commands' helpers, an archive so that a tool takes convert.o (and
# with it every reader) only when it converts.
CMDLIB = $(B)/libcmd.a
CMDOBJ = cmd/convert.o cmd/opt.o cmd/util.o

all: $(BIN:%=$(B)/%)

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(FOLD_CPPFLAGS) $(FOLD_CFLAGS) $(CFLAGS) $(OBJ_CFLAGS) -c -o $@ $<

$(LIBFOLD_A): $(LIBFOLD:%=$(B)/%)
	rm -f $@
	$(AR) rcs $@ $(LIBFOLD:%=$(B)/%)

$(FORMATS_A): $(GENERATED:%=$(B)/%) $(FORMATS:%=$(B)/%)
	rm -f $@
	$(AR) rcs $@ $(FORMATS:%=$(B)/%)

$(FORMATS:%=$(B)/%): $(GENERATED:%=$(B)/%)

$(CMDLIB): $(CMDOBJ:%=$(B)/%)
	rm -f $@
	$(AR) rcs $@ $(CMDOBJ:%=$(B)/%)

$(BIN:%=$(B)/%): $(B)/%: $(B)/cmd/%.o $(CMDLIB) $(FORMATS_A) $(LIBFOLD_A)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(CMDLIB) $(FORMATS_A) $(LIBFOLD_A) \
		$(FOLD_LIBS)

$(UNIT:%=$(B)/tests/%): $(B)/tests/%: $(B)/tests/%.o $(FORMATS_A) $(LIBFOLD_A)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(FORMATS_A) $(LIBFOLD_A) $(FOLD_LIBS)

units: $(UNIT:%=$(B)/tests/%)

$(B)/formats/%.pb-c.o: $(B)/formats/%.pb-c.c
	$(CC) $(FOLD_CPPFLAGS) $(FOLD_CFLAGS) $(CFLAGS) -c -o $@ $<

# protoc-c output for formats/*.proto
$(B)/formats/%.pb-c.c $(B)/formats/%.pb-c.h: formats/%.proto
	@mkdir -p $(B)/formats
	protoc-c --proto_path=formats --c_out=$(B)/formats $<

# formats/flamegraph.js as a C string literal, included by formats/svg.c
$(B)/formats/flamegraph_js.h: formats/flamegraph.js
	@mkdir -p $(@D)
	! grep -q ']]>' formats/flamegraph.js
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' \
	    -e 's/^/"/' -e 's/$$/\\n"/' formats/flamegraph.js >$@
$(B)/formats/svg.o: $(B)/formats/flamegraph_js.h

# Fuzzing with clang's libFuzzer. Every tests/fuzz/fuzz-NAME.c is a target
# (linked against libfold and the formats, nothing else), with seeds in
# tests/fuzz/seeds/NAME/, an optional dictionary tests/fuzz/NAME.dict and
# the inputs of past findings in tests/fuzz/regress/NAME/, replayed by
# make check. `make fuzz` runs each target for FUZZ_SECONDS; the corpus
# it grows stays in $(FUZZ_B).
FUZZ_CC = clang
FUZZ_B = build-fuzz
FUZZ_SECONDS = 60
FUZZ_TARGETS = $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link \
	$(FUZZ_SAN)

$(FUZZ_TARGETS:%=$(B)/tests/fuzz/%): $(B)/tests/fuzz/%: tests/fuzz/%.c \
    tests/fuzz/fuzz.h $(FORMATS_A) $(LIBFOLD_A)
	@mkdir -p $(@D)
	$(CC) $(FOLD_CPPFLAGS) $(FOLD_CFLAGS) $(CFLAGS) -fsanitize=fuzzer \
		-o $@ $< $(FORMATS_A) $(LIBFOLD_A) $(FOLD_LIBS)

# The interning and stack tables and the output buffer compare hashes, ids
# and space left, never input against what a parser expects, yet their
# comparison tracing took a third of the folded and filter targets' time:
# they are built without it.
FUZZ_NOCMP = libfold/intern.o libfold/stacks.o libfold/output.o
$(FUZZ_NOCMP:%=$(FUZZ_B)/%): OBJ_CFLAGS = -fno-sanitize-coverage=trace-cmp

fuzz-build:
	$(MAKE) B=$(FUZZ_B) CC=$(FUZZ_CC) CFLAGS='$(FUZZ_CFLAGS)' \
		$(FUZZ_TARGETS:%=$(FUZZ_B)/tests/fuzz/%)

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The whole suite, and again under AddressSanitizer and UBSan, side by
# side; one closing line "N passed, N failed" counts both. Dependencies
# first, in a separate make, so that pkg-config sees what they installed.
# Every core builds (JOBS=1 for one at a time).
JOBS = $(shell nproc 2>/dev/null || echo 2)

check: deps
	$(MAKE) -j$(JOBS) all units
	$(MAKE) -j$(JOBS) B=build-san CFLAGS='$(SANFLAGS)' LDFLAGS='$(SANLDFLAGS)' all units
	if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) -j$(JOBS) fuzz-build; fi
	tests/run.sh $(B) build-san

# The suite on the plain build only (quicker while developing); TOOL=name
# runs only that tool's tests.
check-fast: all units
	tests/run.sh $(B) $(TOOL)

check-sanitize:
	$(MAKE) -j$(JOBS) B=build-san CFLAGS='$(SANFLAGS)' LDFLAGS='$(SANLDFLAGS)' all units
	tests/run.sh build-san $(TOOL)

# Re-record golden outputs on purpose (all, or TOOL=name for one tool's);
# review with git diff before commit.
bless: all
	BLESS=$${TOOL:-1} tests/run.sh $(B) $(TOOL)

bench: all
	bench/run.sh $(B)

# Renders a flame graph of a bundled capture (the README's first command).
demo: deps
	$(MAKE) -j$(JOBS) all
	tests/demo.sh $(B)

deps:
	tests/deps.sh

# The regression gate of the README ("Catching regressions in CI") on the
# bundled captures: two runs of one build, so it passes; with
# REPORT_AFTER=testdata/folddiff/slow.folded (checksum() made 20% slower)
# it fails, naming the function. Leaves report.md, report-diff.svg,
# report.html (the page to open) and junit.xml (for a CI test report
# view) in $(B); the gate runs last, so they exist even when it fails
# (status 1 of the page and the JUnit file is the verdict they hold).
REPORT_BEFORE = testdata/folddiff/base-1.folded
REPORT_AFTER = testdata/folddiff/base-2.folded
REPORT_GATE = --fail-if 'self>+1pp' --fail-if 'total>+10%'

report: all
	$(B)/folddiff $(REPORT_BEFORE) $(REPORT_AFTER) | \
		$(B)/flamegraph-svg --title 'before -> after' > $(B)/report-diff.svg
	$(B)/folddiff --report --format markdown --top 15 \
		$(REPORT_BEFORE) $(REPORT_AFTER) > $(B)/report.md
	$(B)/folddiff --report --format html --top 15 $(REPORT_GATE) \
		$(REPORT_BEFORE) $(REPORT_AFTER) > $(B)/report.html || \
		[ $$? -eq 1 ]
	$(B)/folddiff --report --format junit $(REPORT_GATE) \
		$(REPORT_BEFORE) $(REPORT_AFTER) > $(B)/junit.xml || \
		[ $$? -eq 1 ]
	$(B)/folddiff --report --top 15 $(REPORT_GATE) \
		$(REPORT_BEFORE) $(REPORT_AFTER)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1 \
		$(DESTDIR)$(MANPREFIX)/man5
	cp -f $(BIN:%=$(B)/%) $(DESTDIR)$(BINDIR)/
	cp -f $(MAN1) $(DESTDIR)$(MANPREFIX)/man1/
	cp -f $(MAN5) $(DESTDIR)$(MANPREFIX)/man5/

uninstall:
	rm -f $(BIN:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(MAN1:man/man1/%=$(DESTDIR)$(MANPREFIX)/man1/%)
	rm -f $(MAN5:man/man5/%=$(DESTDIR)$(MANPREFIX)/man5/%)

clean:
	rm -rf build build-san build-fuzz

.PHONY: all units check check-fast check-sanitize bless bench demo deps \
	report install uninstall clean fuzz fuzz-build

-include $(shell find $(B) -name '*.d' 2>/dev/null)
