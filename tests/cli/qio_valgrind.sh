#!/bin/bash
# The queued I/O unit tests (every engine on files and, as root, a loop
# device) are valgrind-clean: no invalid access, no definite leak, and
# every system call's buffers sized right. Skipped without valgrind and
# for sanitizer builds, like valgrind.sh. The interrupted-wait test is
# left out: valgrind keeps signals blocked while io_uring_enter waits.
. "$(dirname "$0")/lib.sh"

VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
for t in test_qio test_qio_api; do
	bin=$TESTS_DIR/unit/$t
	if ! command -v valgrind >/dev/null; then
		skip "valgrind is not installed"
	elif grep -q __asan_init "$bin" 2>/dev/null; then
		skip "$t: a sanitizer build: valgrind cannot run it"
	elif ! QIO_TEST_NO_SIGNALS=1 "${VG[@]}" "$bin" >"$TMP/out" 2>"$TMP/err"; then
		# Debian 12's valgrind cannot read clang 14's DWARF 5 debug information.
		if grep -q "DWARF\|debuginfo" "$TMP/err"; then
			skip "$t: valgrind cannot read this build: $(head -1 "$TMP/err")"
		else
			fail "valgrind $t: $(grep -v 'unhandled ioctl\|spurious value\|README_MISSING' "$TMP/err" | head -5) $(grep FAIL "$TMP/out" | head -3)"
		fi
	else
		ok "valgrind $t: its own checks pass" grep -q '^unit: [0-9]* passed, 0 failed' "$TMP/out"
	fi
done
done_testing
