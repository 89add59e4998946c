#!/bin/bash
# make bench: flashbench's engine against fio, dd and a bare pread loop
# (bench/bareloop.c), each with equivalent parameters (bench/lines.sh
# says which), on one loop device (--direct-io=on) over a 1 GiB image in
# tmpfs, the tools alternating in every round; then peak RSS of every
# test, the clock, the simulated card's speed.
# Not part of make check: needs root; installs fio if missing.
#   bench/run.sh [ROUNDS [IMAGE_DIR]]   (default 7 rounds, /dev/shm)
# BENCH_LINES="d1 r1 sr sw q32" picks lines, BENCH_EXTRAS=no skips what
# follows the table, BENCH_RESULTS=FILE keeps every round's values.
#
# Placement: every tool of a line runs under the same one, and the line
# says which. "pinned": the tools and the kernel's unbound work (the loop
# device's worker) on one CPU (bench_pin in lib.sh says why: the depth-1
# lines compare engines within 3%, which a vCPU's wake-up drowns).
# "as is": the machine as it is, every CPU, the worker where the kernel
# puts it. The sequential and depth-32 lines are measured both ways: a
# tool with helper threads (fio) or a copy in the kernel's worker gains
# or loses by the placement more than the noise (docs/guide-building.md).
#
# Every line: the median over the rounds, the spread (min-max), and the
# ratio flashbench / other of the medians, then the median and spread of
# the ratios of each round (both tools within seconds of each other).
# fio and dd report their own rates (fio: its job time; dd: its copy
# time), flashbench its own (the time of its requests), except at depth
# 1, where IOPS come from wall times less those of runs of one request.
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
bench_build "$work"
bench_loop "$dir" 1024 fill
bench_pin
[ "$(cat "/sys/block/${dev#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
	echo "warning: $dev does not do direct I/O on $dir" >&2
res=$work/results
: >"$res"
. "$here/lines.sh"
has_qd=false
"$FB" --help | grep -q -- '--queue-depth' && has_qd=true
lines=" ${BENCH_LINES:-d1 r1 sr sw q32} "
$has_qd || lines=${lines/ r1 / }
$has_qd || lines=${lines/ q32 / }
# Each step "FUNCTION PLACEMENT" (p pinned, f as is); a run that is not
# pinned measures every line as is, and says so.
steps=() pp=p
[ -n "$bench_cpus" ] || pp=f
want() { [[ $lines == *" $1 "* ]]; }
want d1 && steps+=("d1_pair $pp" "fio_d1 $pp")
want r1 && steps+=("r1_pair $pp" "fio_r1 $pp")
for l in sr:"fb_sr fio_sr dd_sr" sw:"fb_sw fio_sw dd_sw" q32:"fb_q32 fio_q32u fio_q32a"; do
	want "${l%%:*}" || continue
	for f in ${l#*:}; do
		steps+=("$f $pp")
		[ $pp = f ] || steps+=("$f f")
	done
done
for ((r = 0; r < rounds; r++)); do
	for ((i = 0; i < ${#steps[@]}; i++)); do
		bench_own || { echo "bench: $dev is no longer the loop device over $img; stopped" >&2; exit 1; }
		set -- ${steps[$(((i + r) % ${#steps[@]}))]}	# a different order every round
		pl=$2
		if [ "$pl" = f ]; then bench_place free; else bench_place pinned; fi
		"$1"
	done
done
bench_place pinned
[ -z "${BENCH_RESULTS:-}" ] || cp "$res" "$BENCH_RESULTS"

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
	[ "$f" != "- -" ] || return 0
	while [ $# -ge 2 ]; do
		o=$(med "$1" "$scale") q=$(ratios "$fbk" "$1")
		printf '%-34s flashbench %9s %-4s (%s)  %-12s %9s (%s)  ratio %.3f, per round %s (%s)\n' \
			"$title" "${f% *}" "$unit" "${f#* }" "$2" "${o% *}" "${o#* }" \
			"$(awk -v a="${f% *}" -v b="${o% *}" 'BEGIN { print a / b }')" "${q% *}" "${q#* }"
		shift 2
	done
}
# both TITLE UNIT SCALE LINE OTHER NAME...: the line pinned, then as is
both() {
	local title=$1 unit=$2 scale=$3 l=$4 p a k; shift 4
	local -a peers=("$@")
	for p in p:pinned f:"as is"; do
		a=()
		for ((k = 0; k < ${#peers[@]}; k += 2)); do
			a+=("$l.${peers[k]}.${p%%:*}" "${peers[k + 1]}")
		done
		line "$title, ${p#*:}" "$unit" "$scale" "$l.fb.${p%%:*}" "${a[@]}"
	done
}
echo "# $(uname -sr), $(getconf _NPROCESSORS_ONLN) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(fio --version)"
echo "# $dev (--direct-io=on) over a 1GiB image in $dir; $rounds rounds, medians (min-max), ratio flashbench/other"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $pin_note"
where=pinned
[ $pp = p ] || where="as is"
line "4KiB strided read, depth 1, $where" IOPS 1 d1.fb d1.fio "fio psync" d1.bare bareloop
line "4KiB random read, depth 1, $where" IOPS 1 r1.fb r1.fio "fio psync" r1.bare bareloop
line "  CPU (user+sys) / request" ns 1 cpu.fb cpu.bare bareloop
line "latency minimum" us 1000 lmin.fb lmin.fio "fio clat" lmin.bare bareloop
line "latency median" us 1000 lmed.fb lmed.fio "fio clat" lmed.bare bareloop
both "1MiB sequential read" MB/s 1e6 sr fio fio dd dd
both "1MiB sequential write" MB/s 1e6 sw fio fio dd dd
both "4KiB random read, depth 32" IOPS 1 q32 uring "fio io_uring" libaio "fio libaio"
$has_qd || echo "4KiB random read, depth 32: skipped: this flashbench has no --queue-depth (the queued engine, issue 12)"
[ "${BENCH_EXTRAS:-yes}" != no ] || exit 0

# What explains the ratios, per request and free of the machine's load:
# the requests the device got per 1 MiB read or write (its stat; five
# runs of each tool: a buffer of scattered 4 KiB pages goes out as two,
# one that happens to be contiguous as one), and the I/O system calls
# per 4 KiB request at depth 32 (strace).
dstat() { awk -v f="$1" '{ print $f }' "/sys/block/${dev#/dev/}/stat"; }
per_req() {	# FIELD CMD...: device requests per 1 MiB request of CMD (64 of them), 5 runs
	local f=$1 a b i out=; shift
	for i in 1 2 3 4 5; do
		a=$(dstat "$f"); "$@" >/dev/null 2>&1; b=$(dstat "$f")
		out+="${out:+ }$(awk -v d=$((b - a)) 'BEGIN { printf "%.2f", d / 64 }')"
	done
	echo "$out"
}
io_calls() {	# REQUESTS CMD...
	local n=$1; shift
	strace -f -c -o "$work/st" -e trace=io_uring_enter,io_submit,io_getevents,pread64,pwrite64 "$@" >/dev/null 2>&1
	awk -v n="$n" '$NF == "total" { printf "%.3f", $4 / n }' "$work/st"
}
fio1=(fio --name=b --filename="$dev" --direct=1 --bs=1M --size=64M --output-format=terse)
echo "device requests per 1MiB read, 5 runs each: flashbench $(per_req 1 "$FB" --readahead --min-size=1M \
	--max-size=1M --size=64M --runs=1 "$dev"); fio $(per_req 1 "${fio1[@]}" --rw=read);" \
	"dd $(per_req 1 dd if="$dev" of=/dev/null bs=1M count=64 iflag=direct)"
echo "device requests per 1MiB write, 5 runs each: flashbench $(per_req 5 "$FB" --sustained -b 1M \
	--size=64M "$dev"); fio $(per_req 5 "${fio1[@]}" --rw=write);" \
	"dd $(per_req 5 dd if=/dev/zero of="$dev" bs=1M count=64 oflag=direct conv=notrunc)"
fioq=(fio --name=b --filename="$dev" --direct=1 --thread --rw=randread --bs=4k --size=64M
	--random_generator=lfsr --output-format=terse)
if $has_qd; then
	echo "I/O system calls per 4KiB request at depth 32: flashbench $(io_calls 16384 "$FB" \
		--queue-depth=32 --runs=1 --random -b 4096 --size=64M --offset=0 "$dev"), fio io_uring" \
		"$(io_calls 16384 "${fioq[@]}" $FIO_URING_PEAK) (its defaults: $(io_calls 16384 "${fioq[@]}" --ioengine=io_uring \
		--iodepth=32 --fixedbufs --registerfiles)), fio libaio $(io_calls 16384 "${fioq[@]}" --ioengine=libaio $FIO_BATCH)"
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
