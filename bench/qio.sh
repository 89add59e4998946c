#!/bin/bash
# Queued I/O engines against fio and a bare pread loop: 4 KiB random
# O_DIRECT reads on a loop device (--direct-io=on) over a tmpfs image, at
# depth 1 and 32, every tool in every round, rounds in rotating order.
# Not part of make check; needs root and fio (valgrind for the last part).
#   bench/qio.sh [ROUNDS [SECONDS [IMAGE_DIR]]]   (default 31 rounds of 0.4 s, /dev/shm)
# QIO_BENCH_TOOLS="bare1 sync1 ..." runs a subset; QIO_BENCH_RAW=1 prints every run;
# QIO_BENCH_CALLGRIND=0 skips the instruction counts.
#
# Prints per tool: median IOPS, its spread (min-max over the rounds) and
# the best round, the medians of each run's latency minimum and median
# and of its CPU time (user + system) per request; then, per comparison,
# the ratio of the median IOPS, the median of the per-round ratios (each
# round runs both tools within seconds of each other, so slow drifts of a
# shared machine cancel out) with its spread, and the ratio of the best
# rounds (the least disturbed run of each). Last, with valgrind, user-space
# instructions per request (callgrind, the difference between runs of
# 40000 and 20000 requests, so start-up cancels out): the part of the
# cost that belongs to the tool and not to the kernel, free of noise.
set -eu
rounds=${1:-31} secs=${2:-0.4} dir=${3:-/dev/shm}
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "bench/qio.sh: fio is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'bench_cleanup; rm -rf "$work"' EXIT
bench_build "$work"
bench_loop "$dir" 512 fill
[ "$(cat "/sys/block/${dev#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
	echo "warning: $dev does not do direct I/O on $dir" >&2

# fio with the parameters of our drivers; LIMIT is "Ns" or a request count.
fio_cmd() {	# LIMIT fio-options...
	local limit=$1; shift
	case $limit in
	*s) set -- --time_based --runtime="$(awk -v s="${limit%s}" 'BEGIN { printf "%d", s * 1000 }')ms" "$@" ;;
	*) set -- --number_ios="$limit" --thread "$@" ;;
	esac
	fio --name=r --filename="$dev" --rw=randread --bs=4k --direct=1 --norandommap \
		--size=512M "$@" --output-format=terse --terse-version=3
}
# One run of a tool: "iops lat_min_ns lat_med_ns cpu_ns_per_request" (0: none).
fio_run() {
	fio_cmd "${secs}s" "$@" 2>/dev/null |
		awk -F';' '{ p = $24; sub(/.*=/, "", p); u = $88 + $89
			printf "%.0f %.0f %.0f %.0f\n", $8, $14 * 1000, p * 1000, u / 100 * 1e9 / $8 }'
}
fields() { sed 's/iops=\([0-9]*\) lat_min_ns=\([0-9]*\) lat_med_ns=\([0-9]*\) cpu_ns=\([0-9]*\).*/\1 \2 \3 \4/'; }
# The command of a tool for LIMIT ("Ns" or a request count).
cmd() {	# tool limit
	case $1 in
	sync1) echo "$work/qio_drive sync 1 $2 $dev" ;;
	aio1) echo "$work/qio_drive aio 1 $2 $dev" ;;
	uring1) echo "$work/qio_drive uring 1 $2 $dev" ;;
	bare1) echo "$work/bare_pread $2 $dev" ;;
	aio32) echo "$work/qio_drive aio 32 $2 $dev" ;;
	uring32) echo "$work/qio_drive uring 32 $2 $dev" ;;
	fio_psync1) echo "fio_cmd $2 --ioengine=psync" ;;
	fio_uring32) echo "fio_cmd $2 --ioengine=io_uring --iodepth=32" ;;
	fio_uring_fixed32) echo "fio_cmd $2 --ioengine=io_uring --iodepth=32 --fixedbufs --registerfiles" ;;
	fio_libaio32) echo "fio_cmd $2 --ioengine=libaio --iodepth=32" ;;
	esac
}
run() {
	case $1 in
	fio_*) fio_run $(cmd "$1" 0 | cut -d' ' -f3-) ;;
	*) $(cmd "$1" "${secs}s") | fields ;;
	esac
}
tools=(${QIO_BENCH_TOOLS:-sync1 aio1 uring1 bare1 fio_psync1 aio32 uring32 fio_uring32 fio_uring_fixed32 fio_libaio32})
echo "# $(uname -sr), $(nproc) CPUs, $(fio --version), $dev on $dir, $rounds rounds of ${secs}s"
echo "# qio engines: $("$work/qio_drive" uring 32 0.1s "$dev" | sed 's/.*engine=//')"
n=${#tools[@]}
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < n; i++)); do
		t=${tools[$(((i + r * 3) % n))]}	# a different order every round
		echo "$r $t $(run "$t")" >>"$work/results"
	done
done
[ -z "${QIO_BENCH_RAW:-}" ] || cat "$work/results" >&2

awk '
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function us(ns) { return ns ? sprintf("%.1fus", ns / 1000) : "-" }
{ R = $1 > R ? $1 : R; iops[$2, $1] = $3; lmin[$2, $1] = $4; lmed[$2, $1] = $5; cpu[$2, $1] = $6
  if (!($2 in seen)) { seen[$2] = 1; name[++k] = $2 } }
END {
	printf "%-18s %8s %17s %8s %8s %8s %8s\n", "tool", "IOPS", "spread", "best", "lat min", "lat med", "CPU/req"
	for (i = 1; i <= k; i++) {
		t = name[i]; lo = 1e18; hi = 0
		for (j = 1; j <= R; j++) { a[j] = iops[t, j]; b[j] = lmin[t, j]; m[j] = lmed[t, j]; u[j] = cpu[t, j]
			if (a[j] < lo) lo = a[j]; if (a[j] > hi) hi = a[j] }
		M[t] = med(a, R); B[t] = hi
		printf "%-18s %8.0f %8.0f-%-8.0f %8.0f %8s %8s %8s\n", t, M[t], lo, hi, hi, us(med(b, R)), us(med(m, R)), us(med(u, R))
	}
	printf "\n%-32s %7s %7s %13s %6s\n", "IOPS ratio", "medians", "paired", "paired spread", "best"
	r("sync1", "fio_psync1", 1.1); r("aio1", "fio_psync1", 1.1); r("uring1", "fio_psync1", 1.1)
	r("sync1", "bare1", 0.97); r("aio1", "bare1", 0.97); r("uring1", "bare1", 0.97)
	r("uring32", "fio_uring32", 1.0); r("uring32", "fio_uring_fixed32", 1.0); r("uring32", "fio_libaio32", 0)
	r("aio32", "fio_libaio32", 0); r("aio32", "fio_uring32", 0)
}
function r(x, y, want,   j, p, lo, hi, pm) {
	if (!(x in seen) || !(y in seen)) return
	lo = 1e18; hi = 0
	for (j = 1; j <= R; j++) { p[j] = iops[x, j] / iops[y, j]; if (p[j] < lo) lo = p[j]; if (p[j] > hi) hi = p[j] }
	pm = med(p, R)
	printf "%-32s %7.2f %7.2f %6.2f-%-6.2f %6.2f", x " / " y, M[x] / M[y], pm, lo, hi, B[x] / B[y]
	if (want) printf "  target >= %.2f: %s", want, (pm >= want) ? "met" : "missed (paired median)"
	printf "\n"
}' "$work/results"

[ "${QIO_BENCH_CALLGRIND:-1}" = 1 ] && command -v valgrind >/dev/null || exit 0
echo
echo "user-space instructions per request (callgrind, 40000 - 20000 requests):"
ir() {	# tool count: instructions of the whole run
	local c
	c=$(cmd "$1" "$2")
	case $1 in fio_*) c="fio_valgrind ${c#fio_cmd }" ;; *) c="valgrind --tool=callgrind --callgrind-out-file=/dev/null $c" ;; esac
	$c 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | tail -1
}
fio_valgrind() { local l=$1; shift; valgrind --tool=callgrind --callgrind-out-file=/dev/null \
	fio --name=r --filename="$dev" --rw=randread --bs=4k --direct=1 --norandommap --size=512M \
	--number_ios="$l" --thread "$@" --output-format=terse; }
for t in "${tools[@]}"; do
	a=$(ir "$t" 20000) b=$(ir "$t" 40000)
	printf "  %-14s %6d\n" "$t" $(((b - a) / 20000))
done
