# Shared set-up of the benchmarks: source it, then call bench_loop.
# bench_loop DIR MiB [fill]: an image file in DIR (random data with "fill",
# sparse otherwise) on a direct-I/O loop device in $dev; both go at exit.
FB=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench
dev=
img=
bench_cleanup() { [ -n "$dev" ] && losetup -d "$dev"; rm -f "$img"; }
trap bench_cleanup EXIT
bench_loop() {
	img=$(mktemp "$1/fbbench.XXXXXX")
	if [ "${3:-}" = fill ]; then
		head -c "$2M" /dev/urandom >"$img"
	else
		truncate -s "$2M" "$img"
	fi
	dev=$(losetup --find --show --direct-io=on "$img")
}
