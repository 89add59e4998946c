#!/bin/bash
# Benchmarks of the core engine against dd and fio, measured in the same
# run on the same loop device (not part of make check; needs root, fio,
# /usr/bin/time). Prints ratios: flashbench / reference.
#   bench/core.sh [IMAGE_DIR]   (default: the current directory's file system)
set -eu
. "$(dirname "$0")/lib.sh"
bench_loop "${1:-.}" 512

# Sequential 4 MiB O_DIRECT writes: flashbench --open-au with one 64 MiB
# erase block, its 4MiB line, vs dd oflag=direct and fio over the same bytes.
fb_rate() {	# the 4MiB line's rate in bytes/s (64 MiB written in 4 MiB requests)
	"$FB" -O --open-au-nr=1 -e 64M -b 4M --offset=0 "$dev" 2>/dev/null | awk '$1 == "4MiB" {print $2}' |
		sed 's#/s##; s/K$/e3/; s/M$/e6/; s/G$/e9/' | awk '{printf "%.0f", $1}'
}
dd_rate() {
	dd if=/dev/urandom of="$img.src" bs=4M count=16 status=none
	local t0 t1
	t0=$(date +%s%N)
	dd if="$img.src" of="$dev" bs=4M count=16 oflag=direct conv=notrunc status=none
	t1=$(date +%s%N)
	rm -f "$img.src"
	echo $((64 * 1048576 * 1000000000 / (t1 - t0)))
}
fio_rate() {
	fio --name=w --filename="$dev" --rw=write --bs=4M --size=64M --direct=1 \
		--ioengine=psync --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{printf "%.0f", $48 * 1024}'
}
# Best of five, interleaved, so that a noisy moment hurts no tool alone.
best() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
fb=0 dd=0 fio=0
for i in 1 2 3 4 5; do
	fb=$(best "$fb" "$(fb_rate)"); dd=$(best "$dd" "$(dd_rate)"); fio=$(best "$fio" "$(fio_rate)")
done
echo "sequential 64MiB write in 4MiB requests: flashbench $fb B/s, dd $dd B/s, fio $fio B/s"
awk -v a="$fb" -v b="$dd" -v c="$fio" 'BEGIN { printf "ratio flashbench/dd %.2f, flashbench/fio %.2f\n", a/b, a/c }'

# Peak memory: flashbench --open-au at an 8 MiB erase size vs dd with 8 MiB blocks.
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
fbm=$(rss "$FB" -O --open-au-nr=2 -e 8M -b 1M "$dev")
ddm=$(rss dd if="$dev" of=/dev/null bs=8M count=8 iflag=direct status=none)
echo "peak RSS: flashbench --open-au -e 8M ${fbm} KiB, dd bs=8M ${ddm} KiB (the original allocated 4 x 64 MiB)"
awk -v a="$fbm" -v b="$ddm" 'BEGIN { printf "ratio flashbench/dd memory %.2f\n", a/b }'
