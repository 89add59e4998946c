#!/bin/bash
# Sequential O_DIRECT read throughput: flashbench --readahead against dd
# and fio on the same loop device, same request sizes, in the same run
# (not part of make check; needs root and fio). Prints ratios.
#   bench/readahead.sh [IMAGE_DIR]
set -eu
. "$(dirname "$0")/lib.sh"
bench_loop "${1:-.}" 256 fill

# MB/s of one flashbench run at SIZE (the table's first column)
fb_mbs() {
	"$FB" --readahead --min-size="$1" --max-size="$1" --size=64M --runs=1 "$dev" |
		awk -v s="$2" '{ sub(/^==>/, "") } $1 == s { print $2 }'
}
dd_mbs() {
	local t0 t1
	t0=$(date +%s%N)
	dd if="$dev" of=/dev/null bs="$1" count=$((64 * 1048576 / $2)) iflag=direct status=none
	t1=$(date +%s%N)
	echo $((64 * 1048576 * 1000 / (t1 - t0)))
}
fio_mbs() {
	fio --name=r --filename="$dev" --rw=read --bs="$1" --size=64M --direct=1 \
		--ioengine=psync --output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{printf "%.0f", $7 * 1024 / 1e6}'
}
for spec in "4K 4096 4KiB" "128K 131072 128KiB" "1M 1048576 1MiB"; do
	set -- $spec
	# Best of five, interleaved, so that a noisy moment hurts no tool alone.
	best_fb=0 best_dd=0 best_fio=0
	for i in 1 2 3 4 5; do
		b=$(fb_mbs "$1" "$3"); best_fb=$(awk -v a="$b" -v m="$best_fb" 'BEGIN { print (a > m) ? a : m }')
		d=$(dd_mbs "$1" "$2"); [ "$d" -gt "$best_dd" ] && best_dd=$d
		f=$(fio_mbs "$1"); [ "$f" -gt "$best_fio" ] && best_fio=$f
	done
	awk -v s="$3" -v a="$best_fb" -v b="$best_dd" -v c="$best_fio" 'BEGIN {
		printf "%-7s flashbench %6.0f MB/s, dd %6.0f MB/s, fio %6.0f MB/s: ratio vs dd %.2f, vs fio %.2f\n",
			s, a, b, c, a / b, a / c }'
done
