#!/bin/bash
# Refusing what is in use: every write test (and --restore) refuses a
# mounted file system, on the whole device and through a partition, a
# swap partition and a loop device's backing file, with exit status 3 and
# no byte changed. Read-only tests still run. --preserve round trips on
# loop devices; the backup's location and size are checked.
. "$(dirname "$0")/lib.sh"

sum() { sha256sum <"$1" | cut -d' ' -f1; }
WRITES=("-O --open-au-nr=2 --erasesize=1M" "-f --fat-nr=2 --erasesize=1M")

# Usage errors come first, with nothing opened.
make_image "$TMP/f.img" 8
expect_status 2 "--backup without --preserve" "$FB" -f --backup="$TMP/x" "$TMP/f.img"
ok "names the option" grep -q -- "--backup=$TMP/x" <<<"$ERR"
expect_status 2 "--restore with a test" "$FB" -a --restore="$TMP/x" "$TMP/f.img"
expect_status 2 "--restore with --preserve" "$FB" --preserve --restore="$TMP/x" "$TMP/f.img"
expect_status 3 "--backup in a missing directory" "$FB" -f --fat-nr=1 --erasesize=1M --preserve \
	--backup="$TMP/no/such/dir/b" "$TMP/f.img"
touch "$TMP/exists"
f0=$(sum "$TMP/f.img")
# Regions past the end (or wrapping past 2^64) are refused before anything is announced.
expect_status 2 "find-fat past the end" "$FB" -f --fat-nr=9 --erasesize=1M --preserve --backup="$TMP/pe" "$TMP/f.img"
ok "past the end: names the test" grep -q "find-fat would access up to byte 9437184" <<<"$ERR"
ok "past the end: no backup" [ ! -e "$TMP/pe" ]
expect_status 2 "offset wrapping past 2^64" "$FB" -O --offset=0xFFFFFFFFFFF00000 --erasesize=1M "$TMP/f.img"
ok "wrapping: nothing announced" [ -z "$(grep 'will overwrite' <<<"$ERR")" ]
expect_status 3 "--backup that exists" "$FB" -f --fat-nr=1 --erasesize=1M --preserve --backup="$TMP/exists" "$TMP/f.img"
ok "existing backup: nothing written" [ "$(sum "$TMP/f.img")" = "$f0" ]

if ! need_root "loop devices and mounts" ||
   ! need mkfs.ext4 losetup sfdisk mkswap swapon swapoff partx mount umount; then
	done_testing
	exit
fi

# refused DESCRIPTION DEVICE IMAGE WHAT: every write test and --restore exit 3
# naming WHAT, and the image is byte for byte the same.
# The image's sha256, but for an active swap area (SWAP_RANGE="START LEN",
# bytes) past its header page: the kernel itself swaps out there whenever
# memory is reclaimed (a memory cgroup's limit does it on an idle machine).
image_sum() {
	local start len
	[ -n "${SWAP_RANGE:-}" ] || { sum "$1"; return; }
	read -r start len <<<"$SWAP_RANGE"
	{ head -c $((start + 4096)) "$1"; tail -c +$((start + len + 1)) "$1"; } | sha256sum | cut -d' ' -f1
}
refused() {
	local d=$1 dev=$2 img=$3 what=$4 before args
	before=$(image_sum "$img")
	for args in "${WRITES[@]}" "-O --preserve --backup=$TMP/never" "--restore=$TMP/never"; do
		expect_status 3 "$d: $args" "$FB" $args "$dev"
		grep -q -- "$what" <<<"$ERR" || fail "$d: $args: '$what' not named: $ERR"
	done
	ok "$d: no byte changed" [ "$(image_sum "$img")" = "$before" ]
	ok "$d: no backup made" [ ! -e "$TMP/never" ]
}

# 1. A whole loop device with ext4, mounted (read-only, so that the file
# system itself writes nothing either).
mkdir -p "$TMP/mnt" "$TMP/mnt2"
make_image "$TMP/whole.img" 64
make_loop "$TMP/whole.img" || { fail "losetup"; done_testing; exit; }
whole=$LOOPDEV
mkfs.ext4 -q -F "$whole"
mount -o ro "$whole" "$TMP/mnt" && cleanup_add "umount $TMP/mnt"
refused "mounted whole device" "$whole" "$TMP/whole.img" "is mounted on $TMP/mnt (ext4)"
expect_status 0 "read-only test on the mounted device" "$FB" -a --blocksize=64K "$whole"
umount "$TMP/mnt"

# A read-write mount is refused the same way (no byte check: ext4 writes).
mount "$whole" "$TMP/mnt" && cleanup_add "umount $TMP/mnt"
expect_status 3 "read-write mount" "$FB" -f --fat-nr=1 --erasesize=1M "$whole"
umount "$TMP/mnt"

# 2. A partitioned image (losetup -P): partition 1 ext4 mounted. The disk,
# the partition and its sibling are refused.
make_image "$TMP/part.img" 64
printf ',24M\n,\n' | sfdisk -q "$TMP/part.img"
make_loop "$TMP/part.img" -P || { fail "losetup -P"; done_testing; exit; }
disk=$LOOPDEV
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -b "${disk}p2" ] && break
	partx -a "$disk" 2>/dev/null	# no udev here: ask for the partitions
	sleep 0.2
done
if [ -b "${disk}p1" ] && [ -b "${disk}p2" ]; then
	cleanup_add "partx -d $disk"
	mkfs.ext4 -q -F "${disk}p1"
	mount -o ro "${disk}p1" "$TMP/mnt2" && cleanup_add "umount $TMP/mnt2"
	refused "disk with a mounted partition" "$disk" "$TMP/part.img" "${disk}p1 is mounted on $TMP/mnt2"
	refused "the mounted partition" "${disk}p1" "$TMP/part.img" "${disk}p1 is mounted on $TMP/mnt2"
	refused "a sibling partition" "${disk}p2" "$TMP/part.img" "${disk}p1 is mounted on $TMP/mnt2"
	umount "$TMP/mnt2"

	# 3. Swap on partition 2.
	mkswap -q "${disk}p2" >/dev/null
	if swapon "${disk}p2" 2>/dev/null; then
		cleanup_add "swapoff ${disk}p2"
		p2=/sys/class/block/$(basename "${disk}p2")
		SWAP_RANGE="$(($(cat "$p2/start") * 512)) $(($(cat "$p2/size") * 512))"
		refused "swap partition" "${disk}p2" "$TMP/part.img" "${disk}p2 is in use as swap"
		refused "disk with swap" "$disk" "$TMP/part.img" "${disk}p2 is in use as swap"
		swapoff "${disk}p2"
		SWAP_RANGE=
	else
		skip "swapon is not allowed here"
	fi
	expect_status 0 "a partition nobody uses is written" "$FB" -f --fat-nr=1 --erasesize=1M "${disk}p2"
else
	skip "the kernel made no partition devices for $disk"
fi

# 4. A regular file that backs a loop device.
refused "loop backing file" "$TMP/whole.img" "$TMP/whole.img" "backing file of $whole"
refused "sim: image that backs a loop device" "sim:size=64M,image=$TMP/whole.img" "$TMP/whole.img" \
	"backing file of $whole"

# 4b. A block device that backs another loop device, whose file system is
# mounted: loop claims nothing, so only the backing_file scan sees it.
make_image "$TMP/lower.img" 64
if make_loop "$TMP/lower.img"; then
	lower=$LOOPDEV
	if make_loop "$lower"; then
		upper=$LOOPDEV
		mkfs.ext4 -q -F "$upper" >/dev/null 2>&1
		if mount -o ro "$upper" "$TMP/mnt2" 2>/dev/null; then
			cleanup_add "umount $TMP/mnt2"
			refused "block device under a mounted loop device" "$lower" "$TMP/lower.img" \
				"$upper is mounted on $TMP/mnt2 (ext4) ($upper is a loop device on $lower)"
			umount "$TMP/mnt2"
		else
			skip "cannot mount $upper"
		fi
		losetup -d "$upper"
		expect_status 0 "once the upper loop device is gone, $lower is written" \
			"$FB" -f --fat-nr=1 --erasesize=1M "$lower"
	fi
fi

# 5. --preserve round trips on a loop device: normal, SIGKILL + --restore.
make_image "$TMP/dev.img" 48
make_loop "$TMP/dev.img" || { fail "losetup"; done_testing; exit; }
dev=$LOOPDEV
before=$(sum "$dev")
W="-O --open-au-nr=3 --erasesize=1M --blocksize=256K --offset=4M"
expect_status 0 "loop --preserve" "$FB" $W --preserve --backup="$TMP/lb1" "$dev"
ok "loop: restored and verified" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "loop: data back" [ "$(sum "$dev")" = "$before" ]
SHIM=$TESTS_DIR/faultshim.so
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
if [ -e "$SHIM" ]; then
	expect_status 137 "loop SIGKILL" env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=4 FB_SIGNAL=9 \
		"$FB" $W --preserve --backup="$TMP/lb2" "$dev"
	if [ -s "$TMP/lb2" ] && [ "$(sum "$dev")" != "$before" ]; then
		# The backup of another loop device of the same size is refused.
		make_image "$TMP/dev2.img" 48
		make_loop "$TMP/dev2.img" && {
			other=$(sum "$LOOPDEV")
			expect_status 3 "restore onto another loop device" "$FB" --restore="$TMP/lb2" "$LOOPDEV"
			ok "another device: untouched" [ "$(sum "$LOOPDEV")" = "$other" ]
		}
		expect_status 0 "loop --restore" "$FB" --restore="$TMP/lb2" "$dev"
		ok "loop restore: data back" [ "$(sum "$dev")" = "$before" ]
	else
		skip "the fault shim does not reach this build's pwrite"
	fi
fi

# 6. Not enough room for the backup: refused before anything is written.
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=1M tmpfs "$TMP/small"; then
	cleanup_add "umount $TMP/small"
	expect_status 3 "backup larger than the free space" "$FB" $W --preserve --backup="$TMP/small/b" "$dev"
	ok "free space: named" grep -q "not enough free space" <<<"$ERR"
	ok "free space: nothing written" [ "$(sum "$dev")" = "$before" ]
	# Issue 24, 6: refused for space after -a measured: --out is as it was.
	echo keep >"$TMP/keep.txt"
	expect_status 3 "-a --find-open-au, no room for the backup" "$FB" -a --find-open-au -b 64K \
		--preserve --backup="$TMP/small/b" --out="$TMP/keep.txt" "sim:size=48M,image=$dev"
	ok "-a --find-open-au refused: --out kept" [ "$(cat "$TMP/keep.txt")" = keep ]
	expect_status 3 "--report, no room for the backup" "$FB" --report --preserve \
		--backup="$TMP/small/b" --out="$TMP/keep.txt" "sim:size=48M,image=$dev"
	ok "--report refused: --out kept" [ "$(cat "$TMP/keep.txt")" = keep ]
	expect_status 3 "... and a new --out is not created" "$FB" -a --find-open-au -b 64K \
		--preserve --backup="$TMP/small/b" --out="$TMP/new.txt" "sim:size=48M,image=$dev"
	ok "no new --out" [ ! -e "$TMP/new.txt" ]
	ok "refused runs: nothing written" [ "$(sum "$dev")" = "$before" ]
fi

done_testing
