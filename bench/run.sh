#!/bin/bash
# make bench: flashbench's engine against fio, dd and a bare pread loop
# (bench/bareloop.c), each with equivalent parameters, on one loop device
# (--direct-io=on) over an image in tmpfs, the tools alternating in every
# round; then peak RSS of every test, the clock, the simulated card's speed.
# Not part of make check: needs root; installs fio if missing.
#   bench/run.sh [ROUNDS [IMAGE_DIR]]   (default 7 rounds, /dev/shm)
# Everything runs on one CPU, the loop device's worker too (bench_pin in
# lib.sh says why; BENCH_PIN=no to run as the machine is).
#
# Every line: the median over the rounds, the spread (min-max), and the
# ratio flashbench / other of the medians. How flashbench is driven (the
# tests' own request path, nothing added per request):
#   4 KiB depth 1  -s -b 4K -c 1 --scatter-order=16 --format=csv: 65536
#                  timed reads, one per row, every 8 KiB over the device in
#                  -s's LFSR order (bareloop lfsr:8192 reads the same in the
#                  same order; fio --rw=read:4k the same offsets in turn,
#                  which a loop device over tmpfs serves ~10% faster); IOPS = 65535 /
#                  (wall time - wall time of the same run at --scatter-order=0),
#                  so start-up and exit cancel, CPU time the same way
#                  (bareloop's too: N=65536 less N=1); latencies from the rows
#   1 MiB read     --readahead --min-size=1M --max-size=1M --runs=1: rate_bps_1
#   1 MiB write    -O --open-au-nr=1 -e 64M -b 1M --offset=0: the 1MiB row
#   4 KiB random   --queue-depth=1 --engine=sync --runs=1 --random -b 4096 --offset=0
#   depth 1        --format=csv: the cell's IOPS (fio psync --rw=randread; bareloop
#                  lfsr:4096, the same blocks in the same order)
#   depth 32       --queue-depth=32 --runs=1 --random -b 4096 --format=csv: the cell's IOPS
# fio and dd report their own rates (fio: its job time; dd: its copy time).
set -eu
rounds=${1:-7} dir=${2:-/dev/shm}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v fio >/dev/null || apt-get install -y fio >/dev/null || { echo "bench: cannot install fio" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench: needs python3 (fio's JSON)" >&2; exit 1; }
[ -x /usr/bin/time ] || apt-get install -y time >/dev/null
# Outputs in tmpfs: a file system on a disk would write them back later,
# in the kernel's unbound work, on the CPU the tools are pinned to.
work=$(mktemp -d -p "$([ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")")
trap 'bench_cleanup; rm -rf "$work"' EXIT
${CC:-cc} -O2 -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -o "$work/bareloop" "$here/bareloop.c"
bench_loop "$dir" 512 fill
bench_pin
[ "$(cat "/sys/block/${dev#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
	echo "warning: $dev does not do direct I/O on $dir" >&2
N=65536
res=$work/results
put() { echo "$1 $r $2" >>"$res"; }	# KEY VALUE, in round $r
ns() { date +%s%N; }

# fio in JSON: "iops bw_bytes clat_min_ns clat_median_ns" of the job's read or write side.
fio_json() {	# rw fio-options...
	local side=read; [ "$1" = write ] && side=write; shift
	fio --name=b --filename="$dev" --direct=1 --output-format=json "$@" 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0][sys.argv[1]]; c=j["clat_ns"]
print(j["iops"], j["bw_bytes"], c["min"], c.get("percentile", {}).get("50.000000", 0))' "$side"
}
# CPU time (user + system) of a command in ns, its output to $work/out:
# bash's time, from the child's rusage, to the ms (15 ns a request at
# 65,536). Not perf stat: its counters switch with the task, at every
# context switch -- inside every timed request (+400 ns here).
cpu_ns() {
	local TIMEFORMAT='%3U %3S' t
	t=$({ time "$@" >"$work/out" 2>&3; } 3>&2 2>&1) || return 1	# the tool's stderr stays its own
	awk '{ printf "%.0f", ($1 + $2) * 1e9 }' <<<"$t"
}
# Requests a second of a run of N less a run of one, from their wall
# times in ns (start-up and exit cancel).
rate_less_one() { awk -v n=$N -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (n - 1) * 1e9 / (a - b) }'; }
fb_d1() {
	local t0 t1 t2 c0 c1
	t0=$(ns); c0=$(cpu_ns "$FB" -s -b 4K -c 1 --scatter-order=16 --format=csv "$dev"); t1=$(ns)
	mv "$work/out" "$work/sc.csv"
	c1=$(cpu_ns "$FB" -s -b 4K -c 1 --scatter-order=0 --format=csv "$dev"); t2=$(ns)
	put d1.fb "$(rate_less_one $((t1 - t0)) $((t2 - t1)))"
	put cpu.fb $(((c0 - c1) / (N - 1)))
	grep -E '^[0-9]+,[0-9]' "$work/sc.csv" | cut -d, -f2 | sort -n >"$work/lat"
	put lmin.fb "$(head -1 "$work/lat")"; put lmed.fb "$(sed -n "$((N / 2 + 1))p" "$work/lat")"
}
# The offsets of -s: every 8 KiB (512 MiB / 65536), for all three tools:
# on a loop device over tmpfs, strided reads run at a third of the rate of
# random ones (bareloop), so only the same pattern compares the engines --
# and the same order: in -s's LFSR order the bare loop's latencies are
# ~10% above those of the same reads in turn (issue 23), so bareloop
# visits them as -s does (lfsr:8192).
fio_d1() {
	set -- $(fio_json read --rw=read:4k --bs=4k --number_ios=$N --ioengine=psync)
	put d1.fio "$1"; put lmin.fio "$3"; put lmed.fio "$4"
}
# As flashbench's: the whole run (its requests, and its sort for the
# median as flashbench's are its rows) less a run of one request.
bare_d1() {
	local t0 t1 t2 c0 c1
	t0=$(ns); c0=$(cpu_ns "$work/bareloop" read "$dev" 4096 $N lfsr:8192); t1=$(ns)
	set -- $(sed 's/[a-z_]*=//g' "$work/out")
	c1=$(cpu_ns "$work/bareloop" read "$dev" 4096 1 lfsr:8192); t2=$(ns)
	put d1.bare "$(rate_less_one $((t1 - t0)) $((t2 - t1)))"
	put lmin.bare "$2"; put lmed.bare "$3"; put cpu.bare $(((c0 - c1) / (N - 1)))
}
# The same with random offsets: flashbench's queue-depth test at depth 1
# with the synchronous engine (its IOPS over the requests alone, as fio's).
fb_r1() {
	$has_qd || return 0
	put r1.fb "$("$FB" --queue-depth=1 --engine=sync --runs=1 --random -b 4096 --size=$((N * 4096)) \
		--offset=0 --format=csv "$dev" | csv_rows | awk '{ print $3 }')"
}
fio_r1() { set -- $(fio_json read --rw=randread --bs=4k --norandommap --number_ios=$N --ioengine=psync); put r1.fio "$1"; }
# bareloop: the same 65,536 blocks from offset 0 in the same (LFSR) order
# as --random's (strace), as for the strided line.
bare_r1() { set -- $("$work/bareloop" read "$dev" 4096 $N lfsr:4096 | sed 's/[a-z_]*=//g'); put r1.bare "$1"; }
csv_rows() { grep -E '^[0-9]' | tr , ' '; }
fb_sr() {
	put sr.fb "$("$FB" --readahead --min-size=1M --max-size=1M --size=256M --runs=1 --format=csv "$dev" |
		csv_rows | awk '{ print $3 }')"
}
fio_sr() { set -- $(fio_json read --rw=read --bs=1M --size=256M --ioengine=psync); put sr.fio "$2"; }
dd_rate() { sed -n 's/.* copied, \([0-9.e-]*\) s.*/\1/p' | awk -v b="$1" '{ printf "%.0f", b / $1 }'; }
dd_sr() { put sr.dd "$(dd if="$dev" of=/dev/null bs=1M count=256 iflag=direct 2>&1 | dd_rate $((256 << 20)))"; }
fb_sw() {
	put sw.fb "$("$FB" -O --open-au-nr=1 -e 64M -b 1M --offset=0 --format=csv "$dev" 2>/dev/null |
		csv_rows | awk '$1 == 1048576 { print $2 }')"
}
fio_sw() { set -- $(fio_json write --rw=write --bs=1M --size=64M --ioengine=psync); put sw.fio "$2"; }
dd_sw() {
	put sw.dd "$(dd if=/dev/zero of="$dev" bs=1M count=64 oflag=direct conv=notrunc 2>&1 | dd_rate $((64 << 20)))"
}
has_qd=false
"$FB" --help | grep -q -- '--queue-depth' && has_qd=true
fb_q32() {
	$has_qd || return 0
	put q32.fb "$("$FB" --queue-depth=32 --runs=1 --random -b 4096 --size=$((N * 4096)) \
		--format=csv "$dev" | csv_rows | awk '{ print $3 }')"
}
fio_q32() {
	$has_qd || return 0
	set -- $(fio_json read --rw=randread --bs=4k --norandommap --number_ios=$N --ioengine=io_uring --iodepth=32)
	put q32.uring "$1"
	set -- $(fio_json read --rw=randread --bs=4k --norandommap --number_ios=$N --ioengine=libaio --iodepth=32)
	put q32.libaio "$1"
}

steps=(fb_d1 fio_d1 bare_d1 fb_r1 fio_r1 bare_r1 fb_sr fio_sr dd_sr fb_sw fio_sw dd_sw fb_q32 fio_q32)
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < ${#steps[@]}; i++)); do
		bench_own || { echo "bench: $dev is no longer the loop device over $img; stopped" >&2; exit 1; }
		"${steps[$(((i + r) % ${#steps[@]}))]}"	# a different order every round
	done
done

# Every line: median (min-max) of the values of KEY over the rounds, divided by SCALE
medspread() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "- -"; exit }
	printf "%.4g %.4g-%.4g\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'; }
med() { awk -v k="$1" -v s="${2:-1}" '$1 == k { print $3 / s }' "$res" | medspread; }
# the ratio A/B of each round in which both ran
ratios() { awk -v a="$1" -v b="$2" '$1 == a { x[$2] = $3 } $1 == b { y[$2] = $3 }
	END { for (r in x) if (r in y && y[r] > 0) print x[r] / y[r] }' "$res" | medspread; }
line() {	# TITLE UNIT SCALE FB_KEY OTHER_KEY OTHER_NAME...
	local title=$1 unit=$2 scale=$3 fbk=$4 f o q; shift 4
	f=$(med "$fbk" "$scale")
	while [ $# -ge 2 ]; do
		o=$(med "$1" "$scale") q=$(ratios "$fbk" "$1")
		printf '%-27s flashbench %9s %-4s (%s)  %-12s %9s (%s)  ratio %.3f, per round %s (%s)\n' \
			"$title" "${f% *}" "$unit" "${f#* }" "$2" "${o% *}" "${o#* }" \
			"$(awk -v a="${f% *}" -v b="${o% *}" 'BEGIN { print a / b }')" "${q% *}" "${q#* }"
		shift 2
	done
}
echo "# $(uname -sr), $(getconf _NPROCESSORS_ONLN) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(fio --version)"
echo "# $dev (--direct-io=on) over a 512MiB image in $dir; $rounds rounds, medians (min-max), ratio flashbench/other"
echo "# $pin_note"
line "4KiB strided read, depth 1" IOPS 1 d1.fb d1.fio "fio psync" d1.bare bareloop
if $has_qd; then
	line "4KiB random read, depth 1" IOPS 1 r1.fb r1.fio "fio psync" r1.bare bareloop
fi
line "  CPU (user+sys) / request" ns 1 cpu.fb cpu.bare bareloop
line "latency minimum" us 1000 lmin.fb lmin.fio "fio clat" lmin.bare bareloop
line "latency median" us 1000 lmed.fb lmed.fio "fio clat" lmed.bare bareloop
line "1MiB sequential read" MB/s 1e6 sr.fb sr.fio fio sr.dd dd
line "1MiB sequential write" MB/s 1e6 sw.fb sw.fio fio sw.dd dd
if $has_qd; then
	line "4KiB random read, depth 32" IOPS 1 q32.fb q32.uring "fio io_uring" q32.libaio "fio libaio"
	case $pin_note in pinned*) echo "  (depth 32 on one CPU: fio shares it with its own threads; BENCH_PIN=no spreads them)" ;; esac
else
	echo "4KiB random read, depth 32: skipped: this flashbench has no --queue-depth (the queued engine, issue 12)"
fi

# User-space instructions per request (callgrind; the difference of two
# runs, so start-up cancels): the tool's own cost, free of the noise of a
# shared machine. flashbench's includes its row (-c 1: one row per read).
ir() { valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>&1 &&
	callgrind_annotate "$work/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'; }
if command -v valgrind >/dev/null; then
	a=$(ir "$FB" -s -b 4K -c 1 --scatter-order=12 --format=csv "$dev") b=$(ir "$FB" -s -b 4K -c 1 --scatter-order=13 --format=csv "$dev")
	c=$(ir "$work/bareloop" read "$dev" 4096 4096 lfsr:8192) d=$(ir "$work/bareloop" read "$dev" 4096 8192 lfsr:8192)
	e=$(ir "$FB" -s -b 4K -c 32 --scatter-order=12 sim:) f=$(ir "$FB" -s -b 4K -c 64 --scatter-order=12 sim:)
	g=$(ir "$FB" -s -b 4K -c 8 --scatter-order=12 "$dev") h=$(ir "$FB" -s -b 4K -c 16 --scatter-order=12 "$dev")
	echo "instructions per request (user space): flashbench -s -c 1 $(((b - a) / 4096)) (with its CSV row)," \
		"one more timed read (-c 16 vs -c 8) $(((h - g) / 32768)); bareloop $(((d - c) / 4096)) (with its sort);" \
		"simulated 4KiB read $(((f - e) / 131072))"
else
	echo "instructions per request: skipped: valgrind is not installed"
fi

# Peak RSS of every test against 2 x erase + 8 MiB (erase 4 MiB: 16384 KiB).
rss() { /usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 && tail -1 "$work/rss" || echo "failed:"; }
tests=("-a" "-s" "-i" "--readahead" "-f -e 4M" "-O -e 4M" "--find-open-au -e 4M --max-write=64M"
	"-O --random --open-au-nr=8 -e 4M")
for target in sim: "$dev"; do
	bench_own || { echo "bench: $dev is no longer the loop device over $img; stopped" >&2; exit 1; }
	out="peak RSS on ${target/#\/dev\/*/the loop device} (erase 4MiB: limit 16384 KiB):"
	for t in "${tests[@]}"; do
		out+=" [$t] $(rss "$FB" $t "$target") KiB"
	done
	echo "$out"
done
# --analyze: one saved -a and -O run, and the same doubled to 128 MiB.
big=$work/saved.txt
{ "$FB" -a sim:; "$FB" -O sim: 2>/dev/null; } >"$big"
one=$(rss "$FB" --analyze="$big") kb=$(($(stat -c %s "$big") / 1024))
while [ "$(stat -c %s "$big")" -lt $((128 << 20)) ]; do cat "$big" "$big" >"$big.2"; mv "$big.2" "$big"; done
echo "peak RSS of --analyze: $one KiB for $kb KiB of saved output, $(rss "$FB" --analyze="$big") KiB for $(($(stat -c %s "$big") >> 20)) MiB"
rm -f "$big"

# The clock: the cost of one timestamp and the smallest step it resolves.
echo "clock (CLOCK_MONOTONIC_RAW, $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)): $("$work/bareloop" clock 10000000); flashbench's smallest 4KiB read: $(med lmin.fb 1 | cut -d' ' -f1) ns"

# Simulated requests per CPU second, start-up included (the whole
# process; perf stat's task-clock where perf works, else /usr/bin/time).
cpu_s() {
	if perf stat -x, -e task-clock true >/dev/null 2>&1; then
		perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '$3 == "task-clock" { print $1 / 1000 }'
	else
		/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'
	fi
}
sim_rate() {	# REQUESTS ARGS...
	local n=$1 c; shift
	c=$(for ((r = 0; r < rounds; r++)); do cpu_s "$FB" "$@"; done | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	awk -v n="$n" -v c="$c" 'BEGIN { printf "%.1f M requests per CPU second (%d requests, median %.3f s CPU)", n / c / 1e6, n, c }'
}
# -O: 16 AUs x (64MiB/512 + 64MiB/1KiB + ... + 64MiB/64MiB) = 16 x (2^18 - 1) writes
w="-O --random --open-au-nr=16 -e 64M -b 512 --no-early-stop sim:size=64G"
echo "sim writes, $w: $(sim_rate $((16 * 262143)) $w)"
for b in 4K 512; do
	echo "sim reads, -s --scatter-order=16 -c 64 -b $b sim:: $(sim_rate $((65536 * 64)) -s --scatter-order=16 -c 64 -b $b sim:)"
done
