#!/bin/bash
# valgrind --error-exitcode=1 is clean on a representative run of each
# module, on the simulated card and on an image file, and on --preserve
# and --restore. Skipped without valgrind and for sanitizer builds (ASan
# and valgrind cannot share a process).
. "$(dirname "$0")/lib.sh"

if ! need_valgrind; then
	done_testing
	exit
fi
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
# Debian 12's valgrind cannot read clang 14's DWARF 5 debug information.
if ! "${VG[@]}" "$FB" --version >/dev/null 2>"$TMP/probe"; then
	skip "valgrind cannot run this build: $(head -1 "$TMP/probe")"
	done_testing
	exit
fi

img=$TMP/card.img
make_image "$img" 32
runs=(
	"-a --blocksize=64K sim:size=64M"
	"-s --scatter-order=4 sim:size=64M"
	"-i --interval-order=4 sim:size=64M"
	"--readahead --min-size=16K --max-size=256K sim:size=64M"
	"-O --open-au-nr=3 --erasesize=1M --blocksize=256K sim:size=64M"
	"-f --fat-nr=2 --erasesize=1M --blocksize=256K sim:size=64M"
	"-a --blocksize=64K $img"
	"-s --scatter-order=3 $img"
	"-i --interval-order=3 $img"
	"-O --open-au-nr=2 --erasesize=1M --blocksize=256K --offset=1M --preserve --backup=$TMP/b1 $img"
	"-f --fat-nr=2 --erasesize=1M --blocksize=512K $img"
)
for args in "${runs[@]}"; do
	expect_status 0 "valgrind flashbench $args" "${VG[@]}" "$FB" $args
done
# Error paths: a failed write with --preserve, a usage error of --restore.
expect_status 1 "valgrind: I/O error with --preserve" "${VG[@]}" "$FB" -O --erasesize=1M --offset=1M \
	--preserve --backup="$TMP/b2" "sim:size=64M,image=$TMP/sim.img,fail-write-at=13M"
expect_status 2 "valgrind: --restore usage error" "${VG[@]}" "$FB" --restore="$TMP/none" "$img"
# A backup left by a killed run (the fault shim sends the SIGKILL), then --restore.
if [ -e "$TESTS_DIR/faultshim.so" ]; then
	LD_PRELOAD=$TESTS_DIR/faultshim.so FB_SIGNAL_PWRITE_AT=2 FB_SIGNAL=9 "$FB" -f --fat-nr=2 \
		--erasesize=1M --preserve --backup="$TMP/b3" "$img" >/dev/null 2>&1
	expect_status 0 "valgrind: --restore" "${VG[@]}" "$FB" --restore="$TMP/b3" "$img"
fi
done_testing
