#!/bin/bash
# make bench's own C programs build, as its scripts build them (bench_build
# in bench/lib.sh), under gcc and, where installed, clang: the bare loop,
# the bare pread driver, and the queued I/O driver, which takes the
# engines alone (src/core/qio*.c) and so fails to link when they come to
# need more of the tool (as a global of the signal handler once did).
. "$(dirname "$0")/lib.sh"
BENCH=$TESTS_DIR/../bench

for cc in gcc clang; do
	if ! command -v $cc >/dev/null; then
		[ $cc = gcc ] && fail "gcc is missing" || skip "clang is not installed"
		continue
	fi
	mkdir -p "$TMP/$cc"
	CC=$cc bash -c ". '$BENCH/lib.sh'; bench_build '$TMP/$cc'" >"$TMP/$cc.log" 2>&1
	st=$?
	ok "bench_build under $cc: $(head -3 "$TMP/$cc.log" | tr '\n' ' ')" [ $st -eq 0 ]
	for p in bareloop bare_pread qio_drive; do
		ok "$cc: bench/$p built" [ -x "$TMP/$cc/$p" ]
	done
	# they run: the clock probe of the bare loop prints its three figures
	ok "$cc: bareloop clock runs" grep -qE '^cost_ns=[0-9.]+ step_ns=[0-9]+ res_ns=[0-9]+$' \
		<<<"$("$TMP/$cc/bareloop" clock 1000 2>&1)"
done
done_testing
