#!/bin/bash
# The Makefile rebuilds when the flags change: "make check SANITIZE=1" after
# a plain make must test a sanitizer build, and a plain make after it must
# not leave one behind. Built in a copy of the tree, at -O0 for speed.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)

if ! need nm gcc make; then
	done_testing
	exit
fi
mkdir -p "$TMP/tree"
cp -r "$ROOT/Makefile" "$ROOT/src" "$TMP/tree/"
rm -f "$TMP/tree"/src/*.o "$TMP/tree"/src/*/*.o "$TMP/tree/.build-flags"
# build [CFLAGS [ARGS...]]: make flashbench in the copy (CFLAGS from the
# environment, so that the Makefile still adds its own; not the SANITIZE=1 of
# an outer "make check SANITIZE=1"); the output in $TMP/log
build() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u CC -u LDFLAGS CFLAGS="${1:--O0}" make --no-print-directory -C "$TMP/tree" -j2 "${@:2}" flashbench \
		>"$TMP/log" 2>&1
}
compiled() { grep -q -- '-c -o src/' "$TMP/log"; }
asan() { nm "$TMP/tree/flashbench" 2>/dev/null | grep -q __asan_init; }

build
ok "plain build ($(tail -1 "$TMP/log"))" [ -x "$TMP/tree/flashbench" ]
ok "plain build: no sanitizer" not asan
ok "plain build again" build
ok "plain build again: nothing compiled" not compiled
if [ -n "$(gcc -fsanitize=address,undefined -x c -o "$TMP/probe" - <<<'int main(void){return 0;}' 2>&1)" ]; then
	skip_ci "gcc cannot link -fsanitize=address,undefined here"
else
	ok "SANITIZE=1 after a plain build" build -O0 SANITIZE=1
	ok "SANITIZE=1 after a plain build: compiled again" compiled
	ok "SANITIZE=1 after a plain build: the binary has ASan" asan
	ok "SANITIZE=1 again" build -O0 SANITIZE=1
	ok "SANITIZE=1 again: nothing compiled" not compiled
	ok "plain build after SANITIZE=1" build
	ok "plain build after SANITIZE=1: compiled again" compiled
	ok "plain build after SANITIZE=1: ASan gone" not asan
fi
ok "other CFLAGS" build "-O0 -DFB_BUILD_TEST"
ok "other CFLAGS: compiled again" compiled
done_testing
