# flashbench — build, test, install.
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
MANDIR   = $(PREFIX)/share/man/man1
COMPDIR  = $(PREFIX)/share/bash-completion/completions

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc
LDFLAGS ?=
LDLIBS  += -lm

ifeq ($(SANITIZE),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif

# The compiler and flags of the last build, in a file the objects depend on:
# "make check SANITIZE=1" after a plain make (or the other way round, or
# another CC or CFLAGS) rebuilds everything. Rewritten only when they change.
BUILD_FLAGS := $(CC) $(CFLAGS) $(LDFLAGS) $(LDLIBS)
.build-flags: FORCE
	@echo '$(BUILD_FLAGS)' | cmp -s - $@ || echo '$(BUILD_FLAGS)' >$@

SRCS := $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:.c=.o)
LIB_OBJS := $(LIB_SRCS:.c=.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(UNIT_SRCS:.c=)

all: flashbench

flashbench: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

HDRS := $(wildcard src/*.h src/*/*.h)

src/%.o: src/%.c $(HDRS) .build-flags
	$(CC) $(CFLAGS) -c -o $@ $<

tests/unit/%: tests/unit/%.c $(LIB_OBJS) tests/unit/unit.h .build-flags
	$(CC) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

check: flashbench $(UNIT_BINS) tests/faultshim.so scripts/doclists
	./tests/run.sh

# The lists of tests in the man page and README.md, printed from the test
# table (scripts/doclists.c); make doclists rewrites them there, and
# tests/cli/docs_lists.sh fails make check when they differ.
scripts/doclists: scripts/doclists.c $(LIB_OBJS) .build-flags
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

doclists: scripts/doclists
	scripts/update-doclists man/flashbench.1 README.md docs/*.md

# The fault-injection shim of the command-line tests (LD_PRELOAD), built
# without sanitizers: they must not share a process with a second copy.
tests/faultshim.so: tests/faultshim.c
	$(CC) -O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -shared -fPIC -o $@ $<

# Fuzzing with libFuzzer (clang, libclang-rt-14-dev): FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 30
FUZZ_FLAGS = -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_BINS = tests/fuzz/fuzz_parse tests/fuzz/fuzz_args

tests/fuzz/fuzz_parse: tests/fuzz/fuzz_parse.c $(LIB_SRCS) $(HDRS)
	clang $(FUZZ_FLAGS) -o $@ $< $(LIB_SRCS) -lm

# cli_parse() in-process: no main(), no device opened.
tests/fuzz/fuzz_args: tests/fuzz/fuzz_args.c $(LIB_SRCS) $(HDRS)
	clang $(FUZZ_FLAGS) -o $@ $< $(LIB_SRCS) -lm

fuzz: flashbench $(FUZZ_BINS)
	tests/fuzz/run.sh $(FUZZ_SECONDS)

# The engine against fio, dd and a bare pread loop (root; see bench/run.sh).
BENCH_ROUNDS ?= 7
BENCH_CHECK_ROUNDS ?= 3
bench: flashbench
	bench/run.sh $(BENCH_ROUNDS)

# The bench's sequential and depth-32 lines against the tools run directly
# (root; fails when they disagree by more than 15%; see bench/check.sh).
bench-check: flashbench
	bench/check.sh $(BENCH_CHECK_ROUNDS)

install: flashbench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 flashbench $(DESTDIR)$(BINDIR)/flashbench
	install -m 644 scripts/flashbench.bash-completion $(DESTDIR)$(COMPDIR)/flashbench
	install -m 755 scripts/flashbench-plot $(DESTDIR)$(BINDIR)/flashbench-plot
	install -m 644 man/flashbench.1 $(DESTDIR)$(MANDIR)/flashbench.1
	install -m 644 man/flashbench-plot.1 $(DESTDIR)$(MANDIR)/flashbench-plot.1

# Every file install puts there, and nothing else (the directories stay).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/flashbench $(DESTDIR)$(BINDIR)/flashbench-plot \
		$(DESTDIR)$(COMPDIR)/flashbench $(DESTDIR)$(MANDIR)/flashbench.1 \
		$(DESTDIR)$(MANDIR)/flashbench-plot.1

# The charts docs/plots.md shows, from runs on the simulated card (needs gnuplot).
PLOTS = docs/plots
plots: flashbench
	mkdir -p $(PLOTS)
	./flashbench -a -b 1K --format=csv sim: >$(PLOTS)/align.csv
	scripts/flashbench-plot -o $(PLOTS)/align.png $(PLOTS)/align.csv
	./flashbench --find-open-au -e 4M --format=json sim: >$(PLOTS)/find-open-au.json 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/find-open-au.png $(PLOTS)/find-open-au.json
	./flashbench --readahead --format=csv sim:size=256M >$(PLOTS)/readahead.csv 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/readahead.png $(PLOTS)/readahead.csv
	./flashbench --queue-depth --random --format=csv sim:sd,channels=4,jitter=5 >$(PLOTS)/queue-depth.csv
	scripts/flashbench-plot -o $(PLOTS)/queue-depth.png $(PLOTS)/queue-depth.csv
	./flashbench --sustained --random -b 1M --size=2G --format=json \
		sim:smr,cache=512M,cache-flush=256M >$(PLOTS)/sustained-smr.json 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/sustained-smr.png $(PLOTS)/sustained-smr.json
	./flashbench --sustained -b 1M --size=1G --log-interval=100ms --format=csv \
		sim:ssd,cache=256M >$(PLOTS)/sustained-ssd.csv 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/sustained-ssd.png $(PLOTS)/sustained-ssd.csv
	./flashbench -O --open-au-nr=8 --format=csv sim: >$(PLOTS)/open-au.csv 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/open-au.png $(PLOTS)/open-au.csv
	./flashbench -f --random --format=csv sim:fat >$(PLOTS)/find-fat.csv 2>/dev/null
	scripts/flashbench-plot -o $(PLOTS)/find-fat.png $(PLOTS)/find-fat.csv

# Files over 600 lines and functions over 80 in src/ (scripts/lint.sh), and the man page.
lint:
	scripts/lint.sh
	mandoc -Tlint -W warning man/flashbench.1 man/flashbench-plot.1

clean:
	rm -f flashbench src/*.o src/*/*.o $(UNIT_BINS) scripts/doclists tests/faultshim.so $(FUZZ_BINS) .build-flags

FORCE:
.PHONY: all check install uninstall lint clean fuzz bench bench-check plots doclists FORCE
