# The measurements of make bench's lines (sourced by bench/run.sh): one
# function per tool and line, each putting "KEY ROUND VALUE" in $res.
# Every tool of a line reads or writes the same bytes at the same offsets
# in the same order (strace-checked where the order is the tools' own:
# fio's random order is its LFSR, not flashbench's), for about a second of
# I/O at this machine's rates: start-up is a few ms of it, not the figure.
# "${place[@]}" runs a command where the line is measured (bench_place).
#
# The lines, on a 1 GiB device:
#   d1   4 KiB strided, depth 1: flashbench -s --scatter-order=16 -c 1
#        (65,536 reads, every 16 KiB, in its LFSR order; bareloop
#        lfsr:16384 the same in the same order; fio --rw=read:12k the same
#        offsets in turn, which a loop device over tmpfs serves ~10%
#        faster), REP runs each, flashbench and bareloop in turn. IOPS
#        from the wall time of the runs less that of REP runs of one
#        request, so start-up and exit cancel (strace: the same offsets
#        in the same order).
#   r1   4 KiB random, depth 1: --queue-depth=1 --engine=sync --random
#        over 512 MiB (131,072 reads, each block once); bareloop the same
#        blocks in the same order (strace); fio --random_generator=lfsr
#        (each once, its own order). IOPS: each tool's own clock;
#        flashbench and bareloop twice each, A B B A.
#   sr   1 MiB sequential read of the first GiB, SR_RUNS times: flashbench
#        --readahead --runs=SR_RUNS (its rate: bytes over the sum of the
#        runs' times), fio --loops=SR_RUNS, dd SR_RUNS times.
#   sw   1 MiB sequential write of the first GiB, SW_RUNS times: flashbench
#        --sustained -b 1M --size=1G, fio --loops, dd.
#   q32  4 KiB random, depth 32, the whole GiB once: flashbench
#        --queue-depth=32 --random; fio io_uring with the options its
#        documentation gives for peak IOPS (--fixedbufs --registerfiles,
#        --gtod_reduce as no latency is reported, --thread), and libaio.
N=65536 REP=2 R1N=131072 SR_RUNS=8 SW_RUNS=4 Q32N=262144
put() { echo "$1 $r $2" >>"$res"; }	# KEY VALUE, in round $r
ns() { date +%s%N; }
csv_rows() { grep -E '^[0-9]' | tr , ' '; }

# fio in JSON: "iops bw_bytes clat_min_ns clat_median_ns" of the job's read or write side.
fio_json() {	# rw fio-options...
	local side=read; [ "$1" = write ] && side=write; shift
	"${place[@]}" fio --name=b --filename="$dev" --direct=1 --thread --output-format=json "$@" 2>/dev/null |
		python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0][sys.argv[1]]; c=j["clat_ns"]
print(j["iops"], j["bw_bytes"], c["min"], c.get("percentile", {}).get("50.000000", 0))' "$side"
}
# CPU time (user + system) of a command in ns, its output to $work/out:
# bash's time, from the child's rusage, to the ms. Not perf stat: its
# counters switch with the task, at every context switch -- inside every
# timed request (+400 ns here).
cpu_ns() {
	local TIMEFORMAT='%3U %3S' t
	t=$({ time "$@" >"$work/out" 2>&3; } 3>&2 2>&1) || return 1	# the tool's stderr stays its own
	awk '{ printf "%.0f", ($1 + $2) * 1e9 }' <<<"$t"
}
# run_into VAR CMD...: adds "wall_ns cpu_ns" of CMD to VAR; its output in $work/out
run_into() {
	local -n acc=$1; shift
	local t0 c w0 c0
	t0=$(ns); c=$(cpu_ns "$@")
	read -r w0 c0 <<<"${acc:-0 0}"
	acc="$((w0 + $(ns) - t0)) $((c0 + c))"
}
# put_d1 TOOL "wall cpu" of the long runs, of the short ones: IOPS and CPU per request
put_d1() {
	local w1 c1 w0 c0
	read -r w1 c1 <<<"$2"; read -r w0 c0 <<<"$3"
	put "d1.$1" "$(awk -v n=$((REP * (N - 1))) -v d=$((w1 - w0)) 'BEGIN { printf "%.0f", n * 1e9 / d }')"
	put "cpu.$1" $(((c1 - c0) / (REP * (N - 1))))
}
# flashbench and the bare loop in turn, REP times each, long run then
# short: a slow spell of the machine falls on both, not on one tool's
# round (the rounds that were slow for one tool alone were such spells:
# its requests themselves took longer, docs/guide-building.md). The
# order is A B then B A within a round, B A first in every other round:
# always first after the step before (the "as is" depth-32 line, or the
# image's fill), flashbench was the slower of the two in 15 of the 21
# rounds of three 15-round runs where one was 4% slower (Intel Xeon).
# fb_d1 K, bare_d1 K: one tool's long and short run, added to d1_pair's
# locals fl fs (bl bs) through run_into; at K = 0 the long run's output kept.
fb_d1() {
	run_into fl "$FB" -s -b 4K -c 1 --scatter-order=16 --format=csv "$dev"
	[ "$1" -gt 0 ] || mv "$work/out" "$work/fb.csv"
	run_into fs "$FB" -s -b 4K -c 1 --scatter-order=0 --format=csv "$dev"
}
bare_d1() {
	run_into bl "$work/bareloop" read "$dev" 4096 $N lfsr:16384
	[ "$1" -gt 0 ] || mv "$work/out" "$work/bare.out"
	run_into bs "$work/bareloop" read "$dev" 4096 1 lfsr:16384
}
d1_pair() {
	local fl= fs= bl= bs= k
	for ((k = 0; k < REP; k++)); do
		if (((k + r) % 2)); then
			bare_d1 $k; fb_d1 $k
		else
			fb_d1 $k; bare_d1 $k
		fi
	done
	put_d1 fb "$fl" "$fs"
	put_d1 bare "$bl" "$bs"
	grep -E '^[0-9]+,[0-9]' "$work/fb.csv" | cut -d, -f2 | sort -n >"$work/lat"
	put lmin.fb "$(head -1 "$work/lat")"; put lmed.fb "$(sed -n "$((N / 2 + 1))p" "$work/lat")"
	set -- $(sed 's/[a-z_]*=//g' "$work/bare.out")
	put lmin.bare "$2"; put lmed.bare "$3"
}
fio_d1() {
	set -- $(fio_json read --rw=read:12k --bs=4k --size=1G --loops=$REP --ioengine=psync)
	put d1.fio "$1"; put lmin.fio "$3"; put lmed.fio "$4"
}
fb_r1() {
	"$FB" --queue-depth=1 --engine=sync --runs=1 --random -b 4096 --size=$((R1N * 4096)) \
		--offset=0 --format=csv "$dev" | csv_rows | awk '{ print $3 }'
}
fio_r1() {
	set -- $(fio_json read --rw=randread --bs=4k --size=$((R1N * 4096)) --random_generator=lfsr --ioengine=psync)
	put r1.fio "$1"
}
bare_r1() { set -- $("$work/bareloop" read "$dev" 4096 $R1N lfsr:4096 | sed 's/[a-z_]*=//g'); echo "$1"; }
# The two in the order A B B A (which is A by round), each tool's IOPS over
# its two runs (requests over their time): a spell of the machine that
# rises or falls through the step falls on both alike. One after the
# other (A B), the ratio of their medians over 15 rounds was 0.941 where
# the median of the rounds' ratios was 0.981 (AMD EPYC, idle).
r1_pair() {
	local f1 f2 b1 b2
	if ((r % 2)); then
		b1=$(bare_r1); f1=$(fb_r1); f2=$(fb_r1); b2=$(bare_r1)
	else
		f1=$(fb_r1); b1=$(bare_r1); b2=$(bare_r1); f2=$(fb_r1)
	fi
	put r1.fb "$(awk -v a="$f1" -v b="$f2" 'BEGIN { printf "%.0f", 2 / (1 / a + 1 / b) }')"
	put r1.bare "$(awk -v a="$b1" -v b="$b2" 'BEGIN { printf "%.0f", 2 / (1 / a + 1 / b) }')"
}

# dd_rate K dd-ARGS...: dd K times over the same GiB; bytes over the sum of its copy times
dd_rate() {
	local k=$1 i; shift
	for ((i = 0; i < k; i++)); do
		"${place[@]}" dd bs=1M count=1024 "$@" 2>&1 | sed -n 's/.* copied, \([0-9.e-]*\) s.*/\1/p'
	done | awk -v b=$((k << 30)) '{ s += $1 } END { printf "%.0f", b / s }'
}
fb_sr() {
	put "sr.fb.$pl" "$("${place[@]}" "$FB" --readahead --min-size=1M --max-size=1M --size=1G \
		--runs=$SR_RUNS --offset=0 --format=csv "$dev" | csv_rows |
		awk -v n=$SR_RUNS '{ for (i = 3; i < 3 + n; i++) s += 1 / $i; printf "%.0f", n / s }')"
}
fio_sr() {
	set -- $(fio_json read --rw=read --bs=1M --size=1G --loops=$SR_RUNS --ioengine=psync --gtod_reduce=1)
	put "sr.fio.$pl" "$2"
}
dd_sr() { put "sr.dd.$pl" "$(dd_rate $SR_RUNS if="$dev" of=/dev/null iflag=direct)"; }
# --sustained's summary row: written_bytes,elapsed_ns,...
fb_sw() {
	local i
	for ((i = 0; i < SW_RUNS; i++)); do
		"${place[@]}" "$FB" --sustained -b 1M --size=1G --offset=0 --format=csv "$dev" 2>/dev/null |
			sed -n '/^written_bytes,elapsed_ns/{n;p}'
	done | awk -F, '{ b += $1; t += $2 } END { printf "%.0f", b * 1e9 / t }' >"$work/sw"
	put "sw.fb.$pl" "$(cat "$work/sw")"
}
fio_sw() {
	set -- $(fio_json write --rw=write --bs=1M --size=1G --loops=$SW_RUNS --ioengine=psync --gtod_reduce=1)
	put "sw.fio.$pl" "$2"
}
dd_sw() { put "sw.dd.$pl" "$(dd_rate $SW_RUNS if=/dev/zero of="$dev" oflag=direct conv=notrunc)"; }
fb_q32() {
	put "q32.fb.$pl" "$("${place[@]}" "$FB" --queue-depth=32 --runs=1 --random -b 4096 \
		--size=$((Q32N * 4096)) --offset=0 --format=csv "$dev" | csv_rows | awk '{ print $3 }')"
}
# io_uring at its peak options; libaio has no registered buffers or files
# (fio(1): fixedbufs, registerfiles; iodepth_batch_submit and _complete_max,
# its example #1, so that it submits and reaps in batches as flashbench does)
FIO_BATCH="--iodepth=32 --iodepth_batch_submit=32 --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=32"
FIO_URING_PEAK="--ioengine=io_uring $FIO_BATCH --fixedbufs --registerfiles --gtod_reduce=1"
fio_q32u() {
	set -- $(fio_json read --rw=randread --bs=4k --size=$((Q32N * 4096)) --random_generator=lfsr $FIO_URING_PEAK)
	put "q32.uring.$pl" "$1"
}
fio_q32a() {
	set -- $(fio_json read --rw=randread --bs=4k --size=$((Q32N * 4096)) --random_generator=lfsr \
		--ioengine=libaio $FIO_BATCH --gtod_reduce=1)
	put "q32.libaio.$pl" "$1"
}
