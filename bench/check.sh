#!/bin/bash
# make bench-check: do the bench's figures hold outside it? Its sequential
# and depth-32 lines (as is: bench/run.sh's "as is" placement) against
# the same tools run directly, as a user would: unpinned, for seconds
# each, fio time-based (--runtime=2 --time_based --thread, its peak
# options at depth 32), flashbench as its options give (median of its
# runs). Fails when a line's ratio flashbench/fio differs by more than
# 15% between the two. Root; not part of make check (timings).
#   bench/check.sh [ROUNDS]   (default 3: the bench's rounds, and the direct ones)
set -eu
rounds=${1:-3}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
work=$(mktemp -d -p "$([ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'bench_cleanup; rm -rf "$work"' EXIT
place=() res=$work/direct
. "$here/lines.sh"

BENCH_LINES="sr sw q32" BENCH_EXTRAS=no BENCH_RESULTS="$work/bench" "$here/run.sh" "$rounds" | tee "$work/table"
bench_loop /dev/shm 1024 fill
# median of the numbers on standard input
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fio_time() {	# rw options...: fio's bytes/s, or IOPS with -i first
	local f=2; [ "$1" = -i ] && { f=1; shift; }
	set -- $(fio_json "$@" --runtime=2 --time_based)
	echo "${!f}"
}
for ((r = 0; r < rounds; r++)); do
	put sr.fb "$("$FB" --readahead --min-size=1M --max-size=1M --size=1G --runs=8 --format=csv "$dev" |
		csv_rows | awk '{ for (i = 3; i < 11; i++) print $i }' | median)"
	put sr.fio "$(fio_time read --rw=read --bs=1M --size=1G --ioengine=psync)"
	put sw.fb "$(for i in 1 2 3; do "$FB" --sustained -b 1M --size=1G --format=csv "$dev" 2>/dev/null |
		sed -n '/^written_bytes,elapsed_ns/{n;p}' | cut -d, -f3; done | median)"
	put sw.fio "$(fio_time write --rw=write --bs=1M --size=1G --ioengine=psync)"
	put q32.fb "$("$FB" --queue-depth=32 --runs=3 --random -b 4096 --size=1G --offset=0 --format=csv "$dev" |
		csv_rows | awk '{ print $3 }')"
	put q32.uring "$(fio_time -i read --rw=randread --bs=4k --size=1G --random_generator=lfsr $FIO_URING_PEAK)"
done

# the bench's ratio: the median of its rounds' (as is); directly: of the medians
bench_ratio() { awk -v a="$1.fb.f" -v b="$1.$2.f" '$1 == a { x[$2] = $3 } $1 == b { y[$2] = $3 }
	END { for (r in x) if (r in y && y[r] > 0) print x[r] / y[r] }' "$work/bench" | median; }
direct() { awk -v k="$1" '$1 == k { print $3 }' "$res" | median; }
fail=0
echo "# directly, unpinned, $rounds rounds: flashbench and fio (time-based, 2 s) in turn; load $(cut -d' ' -f1-3 /proc/loadavg)"
for l in sr:fio:"1MiB sequential read" sw:fio:"1MiB sequential write" q32:uring:"4KiB random read, depth 32"; do
	IFS=: read -r k o title <<<"$l"
	b=$(bench_ratio "$k" "$o") f=$(direct "$k.fb") g=$(direct "$k.$o")
	[ -n "$b" ] && [ -n "$f" ] && [ -n "$g" ] || { echo "$title: no figure (bench '$b', flashbench '$f', fio '$g')"; fail=1; continue; }
	v=$(awk -v t="$title" -v b="$b" -v f="$f" -v g="$g" 'BEGIN { d = f / g; x = b / d
		printf "%s: bench %.3f, directly %.3f (flashbench %.4g, fio %.4g): %s", t, b, d, f, g,
			(x > 1.15 || x < 1 / 1.15) ? "DISAGREE by more than 15%" : "agree within 15%" }')
	echo "$v"
	case $v in *DISAGREE*) fail=1 ;; esac
done
exit $fail
