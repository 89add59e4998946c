# Shared set-up of the benchmarks: source it, then call bench_loop.
# bench_loop DIR MiB [fill]: an image file in DIR (random data with "fill",
# sparse otherwise) on a direct-I/O loop device in $dev; both go at exit.
# FB: the binary measured (another build, e.g. the one before a change, with FB=...)
FB=${FB:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench}
dev=
img=
# bench_build DIR: the bench's own C programs into DIR: bareloop (make
# bench), bare_pread and qio_drive (bench/qio.sh; the queued I/O engines
# alone, src/core/qio*.c, so nothing else of the tool may creep into them).
# make check builds them too (tests/cli/bench_builds.sh).
bench_build() {
	local top cc=${CC:-cc} f="-O2 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE"
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	$cc $f -o "$1/bareloop" "$top/bench/bareloop.c" &&
		$cc $f -o "$1/bare_pread" "$top/bench/bare_pread.c" &&
		$cc $f -I"$top/src" -o "$1/qio_drive" "$top/bench/qio_drive.c" "$top"/src/core/qio*.c
}
# bench_own: is $dev still the loop device over $img? Other runs on the
# machine attach and detach loop devices: never write, or detach, one
# that is no longer ours.
bench_own() { [ -n "$dev" ] && [ "$(losetup -nO BACK-FILE "$dev" 2>/dev/null)" = "$img" ]; }
# At exit: the workqueue mask first, so that nothing failing after it
# (under set -e a failed command ends the trap) leaves the machine pinned.
bench_cleanup() {
	if [ -n "$wq_saved" ]; then
		echo "$wq_saved" >"$wq_mask" ||
			echo "bench: could not put $wq_mask back; do it with: echo $wq_saved > $wq_mask" >&2
		wq_saved=
	fi
	if bench_own; then losetup -d "$dev" || :; fi
	rm -f "$img" || :
}
# bash runs the EXIT trap also when a signal (INT, TERM, HUP) ends it
# (tests/cli/bench_pin.sh kills a run with each).
trap bench_cleanup EXIT

# bench_pin: this script, every tool it starts, and the kernel's unbound
# work (where the loop device's worker runs) on one CPU, the last this
# script may use; the workqueue mask goes back at exit ($pin_note says
# what was done). Why: on a 2-vCPU VM a request served on the other CPU
# waits for the hypervisor to wake that vCPU: unpinned, the same bare
# loop's mean 4 KiB latency went from 20 to 35 us between runs (23,000
# CPU migrations in 65,536 reads), pinned 4.6-4.9 us. Tool differences
# of 3% drown in that. BENCH_PIN=no leaves the machine as it is.
wq_mask=/sys/devices/virtual/workqueue/cpumask
wq_saved=
pin_note="not pinned (BENCH_PIN=no)"
# One pinned bench at a time: a second would take the first's mask for
# the machine's and put it back last. The lock lasts as long as the run.
bench_lock=/run/flashbench-bench.lock
# cpu_mask N: the mask of CPU N alone, in the kernel's format (hex, a comma every 32 CPUs)
cpu_mask() {
	local m g
	m=$(printf '%x' $((1 << ($1 % 32))))
	for ((g = 0; g < $1 / 32; g++)); do m+=,00000000; done
	echo "$m"
}
# Where bench_pin put the run: the CPUs it had before (empty: not
# pinned) and the mask it gave the unbound work.
bench_cpus=
pin_mask=
place=()
# bench_place free|pinned: where the commands run as "${place[@]}" CMD go
# from now. free: as the machine is -- every CPU the run had before
# bench_pin, the kernel's unbound work on the machine's mask; pinned:
# back on bench_pin's CPU and mask. Unpinned runs change nothing.
bench_place() {
	[ -n "$bench_cpus" ] || return 0
	if [ "$1" = free ]; then
		place=(taskset -c "$bench_cpus")
		[ -z "$wq_saved" ] || echo "$wq_saved" >"$wq_mask"
	else
		place=()
		[ -z "$wq_saved" ] || echo "$pin_mask" >"$wq_mask"
	fi
}
bench_pin() {
	[ "${BENCH_PIN:-yes}" = no ] && return 0
	local cpu mask all
	if ! { exec 8>>"$bench_lock" && flock -n 8; } 2>/dev/null; then
		pin_note="not pinned: another bench holds $bench_lock"
		return 0
	fi
	all=$(taskset -cp $$ 2>/dev/null | sed 's/.*: //')
	cpu=$(sed 's/.*[,-]//' <<<"$all")
	if [ -z "$cpu" ] || ! taskset -cp "$cpu" $$ >/dev/null 2>&1; then
		pin_note="not pinned (taskset failed)"
		return 0
	fi
	bench_cpus=$all
	mask=$(cpu_mask "$cpu")
	pin_mask=$mask
	if [ -w "$wq_mask" ] && wq_saved=$(cat "$wq_mask") && [ -n "$wq_saved" ] &&
		{ echo "$mask" >"$wq_mask"; } 2>/dev/null; then
		echo "bench: $wq_mask was $wq_saved; should this run be killed, put it back with: echo $wq_saved > $wq_mask" >&2
		pin_note="pinned to CPU $cpu, with the kernel's unbound work (the loop device's worker; $wq_mask was $wq_saved, restored at exit)"
	else
		wq_saved=
		pin_note="pinned to CPU $cpu; the kernel's unbound work is not ($wq_mask not writable)"
	fi
}
bench_loop() {
	img=$(mktemp "$1/fbbench.XXXXXX")
	if [ "${3:-}" = fill ]; then
		head -c "$2M" /dev/urandom >"$img"
	else
		truncate -s "$2M" "$img"
	fi
	# losetup --find races with other runs: take the device once it shows our image
	for i in 1 2 3 4 5; do
		dev=$(losetup --find --show --direct-io=on "$img") && bench_own && return 0
		dev=
		sleep 0.2
	done
	echo "bench: cannot attach a loop device to $img" >&2
	exit 1
}
