# Shared set-up of the benchmarks: source it, then call bench_loop.
# bench_loop DIR MiB [fill]: an image file in DIR (random data with "fill",
# sparse otherwise) on a direct-I/O loop device in $dev; both go at exit.
FB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench
dev=
img=
# bench_own: is $dev still the loop device over $img? Other runs on the
# machine attach and detach loop devices: never write, or detach, one
# that is no longer ours.
bench_own() { [ -n "$dev" ] && [ "$(losetup -nO BACK-FILE "$dev" 2>/dev/null)" = "$img" ]; }
bench_cleanup() { bench_own && losetup -d "$dev"; rm -f "$img"; }
trap bench_cleanup EXIT
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
