#!/bin/bash
# Issue 10: every writer (--open-au, --find-fat, --find-open-au, --restore)
# against every way of naming the same storage: the file itself, a
# symlink, a hard link, the loop device on it, a second loop device on
# the same file, the file while a loop device uses it, a partition, the
# whole disk and the backing file of a partitioned loop device, mounted
# variants, and --out / --backup pointing at any of them. sha256 of every
# image before and after: a refused run changes nothing at all (and
# creates nothing), an allowed one nothing outside the regions it
# announced. Root only (loop devices); small images, 1 MiB erase blocks.
# Issue 24 adds: a symlink swapped between the check and the open (the
# fault shim's FB_SWAP_AT_OPEN), a hard link of a mounted image whose name
# was unlinked, a sim: image on a mounted or O_EXCL-held block device, and
# every pair among DEVICE, --out, --log, --backup, stdout and stderr.
. "$(dirname "$0")/lib.sh"

SHIM=$TESTS_DIR/faultshim.so
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
if ! is_root; then
	skip "the alias matrix needs root (loop devices, mounts): NOT RUN"
	done_testing
	exit
fi
for tool in losetup sfdisk partx mkfs.ext4 sha256sum; do
	command -v $tool >/dev/null || { fail "$tool is missing (install util-linux, fdisk, e2fsprogs)"; done_testing; exit; }
done

sum() { sha256sum <"$1" | cut -d' ' -f1; }
WRITERS=(
	"-O --open-au-nr=2 -e 1M -b 256K --offset=4M"
	"-f --fat-nr=2 -e 1M -b 256K"
	"--find-open-au -e 1M -b 256K --offset=4M"
)

# The images every device below lives on; all of them are summed after every refusal.
F=$TMP/f.img P=$TMP/p.img G=$TMP/g.img
make_image "$F" 32
make_image "$P" 40
printf ',18M\n,\n' | sfdisk -q "$P"
truncate -s 32M "$G"
mkfs.ext4 -q -F "$G"
ln -s "$F" "$TMP/f.sym"
ln "$F" "$TMP/f.hard"
ln -s "$G" "$TMP/g.sym"
all_sums() { echo "$(sum "$F") $(sum "$P") $(sum "$G")"; }
# The sums every refusal is compared with: taken again after each change
# this script makes itself (one hash of everything per refused case).
snap() { SNAP=$(all_sums); }

# A valid backup of F, for --restore: made by a run killed before it restored.
backup_of() {	# DEVICE FILE
	# (in braces, so that the shell's "Killed" goes to /dev/null too)
	{ env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=2 FB_SIGNAL=9 "$FB" ${WRITERS[0]} --preserve \
		--backup="$2" "$1" >/dev/null 2>&1; } 2>/dev/null
	[ -s "$2" ]
}

# refused DESC TARGET WHAT BACKUP: every writer, and --restore of BACKUP
# (a valid backup of the same storage), exit 3 naming WHAT; no image
# changes, no backup or --out file appears.
refused() {
	local d=$1 dev=$2 what=$3 bk=$4 args now
	for args in "${WRITERS[@]}" "${WRITERS[0]} --preserve --backup=$TMP/never.bk" \
		"${WRITERS[1]} -o $TMP/never.out" "--restore=$bk"; do
		expect_status 3 "$d: $args" "$FB" $args "$dev"
		grep -qF -- "$what" <<<"$ERR" || fail "$d: $args: '$what' not named: $ERR"
	done
	now=$(all_sums)
	ok "$d: no image changed" [ "$now" = "$SNAP" ]
	SNAP=$now
	ok "$d: nothing created" [ ! -e "$TMP/never.bk" ] && [ ! -e "$TMP/never.out" ]
}

# bad_out DESC WANT OUT ARGS...: --out=OUT refused with WANT; nothing changes.
bad_out() {
	local d=$1 want=$2 out=$3 now; shift 3
	# A device node that vanished (another process detached the loop
	# device) would be created as a regular file in /dev by the run.
	if [[ $out == /dev/* ]] && [ ! -b "$out" ]; then
		fail "$d: $out is no longer a block device"
		return
	fi
	expect_status "$want" "$d" "$FB" "$@" -o "$out"
	now=$(all_sums)
	ok "$d: no image changed" [ "$now" = "$SNAP" ]
	SNAP=$now
}

# The sha256 of IMAGE outside the regions a run announced (ANNOUNCE, the
# stderr of WRITER), the device starting START MiB into the image.
outside() {	# IMAGE START_MiB ANNOUNCE WRITER
	local img=$1 start=$2 n keep="" pos=0 r="" size x i
	size=$(($(stat -c %s "$img") >> 20))
	n=$(sed -n 's/.*will overwrite [^ ]* in \([0-9]*\) region.*/\1/p' <<<"$3")
	if [[ $4 == -f* ]]; then
		r="0:2"
	else
		for ((i = 0; i < ${n:-0}; i++)); do r+="$((4 + 12 * i)):1 "; done
	fi
	for x in $r; do
		keep+="$pos:$((start + ${x%:*} - pos)) "
		pos=$((start + ${x%:*} + ${x#*:}))
	done
	keep+="$pos:$((size - pos))"
	for x in $keep; do dd if="$img" bs=1M skip=${x%:*} count=${x#*:} status=none; done | sha256sum
}

# Fresh random data where the writers write (START MiB into IMAGE), so
# that each run shows that it wrote.
scramble() {	# IMAGE START_MiB
	local size=$(($(stat -c %s "$1") >> 20)) m
	for m in 0 1 4 16 28 40 52; do
		[ $(($2 + m)) -lt "$size" ] &&
			head -c 1M /dev/urandom | dd of="$1" bs=1M seek=$(($2 + m)) conv=notrunc status=none
	done
}

# allowed DESC TARGET IMAGE START_MiB BACKUP: every writer runs and changes
# nothing outside its announced regions; a --preserve run killed by SIGKILL
# leaves BACKUP (kept for the refusals below), and --restore through the
# same name puts the image back whole.
allowed() {
	local d=$1 dev=$2 img=$3 start=$4 bk=$5 args whole
	for args in "${WRITERS[@]}"; do
		scramble "$img" "$start"
		cp "$img" "$TMP/ref"
		expect_status 0 "$d: $args" "$FB" $args "$dev"
		ok "$d: $args: announced" grep -q "will overwrite" <<<"$ERR"
		ok "$d: $args: wrote" [ "$(sum "$img")" != "$(sum "$TMP/ref")" ]
		ok "$d: $args: nothing changed outside the announced regions" \
			[ "$(outside "$img" "$start" "$ERR" "$args")" = "$(outside "$TMP/ref" "$start" "$ERR" "$args")" ]
	done
	rm -f "$TMP/ref"
	whole=$(sum "$img")
	ok "$d: a killed --preserve run leaves a backup" backup_of "$dev" "$bk"
	ok "$d: the killed run wrote" [ "$(sum "$img")" != "$whole" ]
	cp "$bk" "$bk.keep"
	expect_status 0 "$d: --restore" "$FB" --restore="$bk" "$dev"
	ok "$d: --restore: all back" [ "$(sum "$img")" = "$whole" ]
	snap
}

# bad_stdout DESC FILE ARGS...: standard output appended (>>) to FILE: exit 2, nothing changes.
bad_stdout() {
	local d=$1 file=$2 st now; shift 2
	"$FB" "$@" >>"$file" 2>"$TMP/err"
	st=$?
	ok "$d: exit 2 (got $st)" [ "$st" -eq 2 ]
	ok "$d: names standard output" grep -q "^flashbench: standard output: " "$TMP/err"
	now=$(all_sums)
	ok "$d: no image changed" [ "$now" = "$SNAP" ]
	SNAP=$now
}

# partitions DISK: wait for DISKp1 and DISKp2 (no udev here: ask partx).
partitions() {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -b "${1}p1" ] && [ -b "${1}p2" ] && return 0
		partx -a "$1" 2>/dev/null
		sleep 0.2
	done
	[ -b "${1}p1" ] && [ -b "${1}p2" ]
}

if [ ! -e "$SHIM" ] || ! backup_of "sim:size=32M,image=$TMP/probe.img" "$TMP/probe.bk"; then
	skip "the fault shim does not reach this build (sanitizers): no killed runs, no matrix"
	done_testing
	exit
fi

# 1. The file alone: the file, a symlink, a hard link are all written.
allowed "file" "$F" "$F" 0 "$TMP/f.bk"
allowed "symlink to the file" "$TMP/f.sym" "$F" 0 "$TMP/fs.bk"
allowed "hard link to the file" "$TMP/f.hard" "$F" 0 "$TMP/fh.bk"
bad_out "--out on a symlink to the device" 2 "$TMP/f.sym" -a --count=1 -b 64K "$F"
bad_out "--out on a hard link to the device" 2 "$TMP/f.hard" ${WRITERS[0]} "$F"
bad_stdout "standard output appended to a hard link to the device" "$TMP/f.hard" ${WRITERS[0]} "$F"

# 2. One loop device on the file: it is written; the file, by any name, is not.
make_loop "$F" || { fail "losetup"; done_testing; exit; }
L1=$LOOPDEV
# The tests' cleanup detaches a loop device only while it shows our file.
detach_ours "$L1" "$P"
ok "detach_ours: a loop device on another file stays attached" losetup "$L1"
allowed "loop device" "$L1" "$F" 0 "$TMP/l1.bk"
refused "backing file of a loop device" "$F" "$F is the backing file of $L1" "$TMP/f.bk.keep"
refused "symlink to a backing file" "$TMP/f.sym" "is the backing file of $L1" "$TMP/fs.bk.keep"
refused "hard link to a backing file" "$TMP/f.hard" "is the backing file of $L1" "$TMP/fh.bk.keep"
refused "sim: image that backs a loop device" "sim:size=32M,image=$TMP/f.sym" "is the backing file of $L1" \
	"$TMP/f.bk.keep"
for o in "$F" "$TMP/f.sym" "$TMP/f.hard"; do
	bad_out "--out=$o, read-only test on $L1" 2 "$o" -a --count=1 -b 64K "$L1"
	ok "--out=$o: names the backing file" grep -q "is the backing file of $L1" <<<"$ERR"
	bad_out "--out=$o, write test on $L1" 2 "$o" ${WRITERS[0]} "$L1"
	bad_out "--out=$o, another device" 2 "$o" -a --count=1 sim:
done
bad_out "--out on the loop device" 2 "$L1" -a --count=1 sim:
bad_stdout "standard output appended to the backing file" "$TMP/f.sym" -a --count=1 -b 64K "$L1"
for b in "$F" "$TMP/f.sym" "$TMP/f.hard" "$L1"; do
	expect_status 3 "--backup=$b" "$FB" ${WRITERS[0]} --preserve --backup="$b" "sim:size=32M"
done
ok "--backup on any of them: nothing changed" [ "$(all_sums)" = "$SNAP" ]

# 3. A second loop device on the same file: neither loop device is written.
make_loop "$F" || { fail "losetup"; done_testing; exit; }
L2=$LOOPDEV
refused "first of two loop devices" "$L1" "$F is also the backing file of $L2" "$TMP/l1.bk.keep"
refused "second of two loop devices" "$L2" "$F is also the backing file of $L1" "$TMP/l1.bk.keep"
refused "file under two loop devices" "$F" "is the backing file of" "$TMP/f.bk.keep"
bad_out "--out on the backing file, test on the second loop" 2 "$TMP/f.hard" -a --count=1 -b 64K "$L2"
detach_ours "$L2" "$F"
ok "detach_ours: our loop device is detached" bash -c "! losetup '$L2' 2>/dev/null"
losetup -d "$L1"

# 4. A partitioned image: the loop disk and a partition of it.
psum=$(sum "$P")
ok "partitioned file: a killed run leaves a backup" backup_of "$P" "$TMP/p.bk"
cp "$TMP/p.bk" "$TMP/p.bk.keep"
expect_status 0 "partitioned file: --restore" "$FB" --restore="$TMP/p.bk" "$P"
ok "partitioned file: whole again" [ "$(sum "$P")" = "$psum" ]
make_loop "$P" -P || { fail "losetup -P"; done_testing; exit; }
LP=$LOOPDEV
if partitions "$LP"; then
	cleanup_add "partx -d $LP"
	p1start=$(($(cat /sys/class/block/$(basename "${LP}p1")/start) / 2048))
	p2start=$(($(cat /sys/class/block/$(basename "${LP}p2")/start) / 2048))
	allowed "whole loop disk" "$LP" "$P" 0 "$TMP/lp.bk"
	allowed "partition" "${LP}p2" "$P" "$p2start" "$TMP/lp2.bk"
	allowed "first partition" "${LP}p1" "$P" "$p1start" "$TMP/lp1.bk"
	refused "backing file of a partitioned loop device" "$P" "$P is the backing file of $LP" "$TMP/p.bk.keep"
	bad_out "--out on a partition" 2 "${LP}p1" -a --count=1 sim:
	bad_out "--out on the backing file, test on a partition" 2 "$P" -a --count=1 -b 64K "${LP}p2"

	# 5. Partition 1 mounted: the disk, both partitions and the file are refused.
	mkfs.ext4 -q -F "${LP}p1"
	mkdir -p "$TMP/pm"
	mount -o ro "${LP}p1" "$TMP/pm" && cleanup_add "umount $TMP/pm"
	snap
	refused "mounted partition" "${LP}p1" "${LP}p1 is mounted on $TMP/pm" "$TMP/lp1.bk.keep"
	refused "sibling of a mounted partition" "${LP}p2" "${LP}p1 is mounted on $TMP/pm" "$TMP/lp2.bk.keep"
	refused "disk with a mounted partition" "$LP" "${LP}p1 is mounted on $TMP/pm" "$TMP/lp.bk.keep"
	refused "file under a mounted partition" "$P" "${LP}p1 is mounted on $TMP/pm" "$TMP/p.bk.keep"
	refused "symlink to a file under a mounted partition" "sim:size=40M,image=$P" \
		"${LP}p1 is mounted on $TMP/pm" "$TMP/p.bk.keep"
	umount "$TMP/pm"
else
	fail "the kernel made no partition devices for $LP"
fi

# 6. An ext4 image mounted through a loop device, and a second loop device on it.
make_loop "$G" || { fail "losetup"; done_testing; exit; }
LG=$LOOPDEV
gsum=$(sum "$G")
ok "unmounted loop device: a killed run leaves a backup" backup_of "$LG" "$TMP/lg.bk"
cp "$TMP/lg.bk" "$TMP/lg.bk.keep"
expect_status 0 "unmounted loop device: --restore" "$FB" --restore="$TMP/lg.bk" "$LG"
ok "the file system image is whole again" [ "$(sum "$G")" = "$gsum" ]
mkdir -p "$TMP/gm"
mount -o ro "$LG" "$TMP/gm" && cleanup_add "umount $TMP/gm"
snap
make_loop "$G" || { fail "losetup"; done_testing; exit; }
LG2=$LOOPDEV
refused "mounted loop device" "$LG" "$LG is mounted on $TMP/gm (ext4)" "$TMP/lg.bk.keep"
refused "second loop device of a mounted image" "$LG2" "$LG is mounted on $TMP/gm (ext4) ($LG is a loop device on $G)" \
	"$TMP/lg.bk.keep"
refused "image of a mounted loop device" "$G" "$LG is mounted on $TMP/gm" "$TMP/lg.bk.keep"
refused "symlink to it" "$TMP/g.sym" "$LG is mounted on $TMP/gm" "$TMP/lg.bk.keep"
bad_out "--out on the image of a mounted loop device" 2 "$TMP/g.sym" -a --count=1 sim:
ok "--out there: names the mount" grep -q "$LG is mounted on $TMP/gm" <<<"$ERR"
# Issue 24, 4: a simulated card's image on the mounted loop device itself.
refused "sim: image on a mounted loop device" "sim:size=32M,image=$LG" "$LG is mounted on $TMP/gm" \
	"$TMP/lg.bk.keep"

# Issue 24, 5: a symlink swapped between the check and the open (the fault
# shim renames LINK.next over LINK at the first open() of LINK): the check
# saw a spare image, the open would reach the mounted one.
make_image "$TMP/spare.img" 32
race() {	# DESC DEVICE-NAMING-LINK ARGS...
	local d=$1 dev=$2; shift 2
	ln -sfn "$TMP/spare.img" "$TMP/race.link"
	ln -sfn "$G" "$TMP/race.link.next"
	expect_status 3 "$d" env LD_PRELOAD="$SHIM" FB_SWAP_AT_OPEN="$TMP/race.link" \
		FB_SWAP_FROM="$TMP/race.link.next" "$FB" "$@" "$dev"
	ok "$d: the link was swapped" [ "$(readlink "$TMP/race.link")" = "$G" ]
	ok "$d: names the change" grep -q "changed between its check and its opening" <<<"$ERR"
	now=$(all_sums)
	ok "$d: no image changed" [ "$now" = "$SNAP" ]
	SNAP=$now
}
for args in "${WRITERS[@]}"; do
	race "swapped symlink: $args" "$TMP/race.link" $args
	race "swapped sim: image: $args" "sim:size=32M,image=$TMP/race.link" $args
done
race "swapped symlink: --restore" "$TMP/race.link" --restore="$TMP/lg.bk.keep"
ok "--restore kept its backup" [ -s "$TMP/lg.bk.keep" ]

# Issue 24, 3: the image's name unlinked while a hard link remains (sysfs
# shows "(deleted)"): the loop device is found by device and inode.
ln "$G" "$TMP/g.hard2"
mv "$G" "$TMP/g.moved"
ln "$TMP/g.moved" "$G"
rm "$TMP/g.moved"
ok "sysfs shows the backing file deleted" grep -q "(deleted)" "/sys/block/$(basename "$LG")/loop/backing_file"
refused "hard link of an unlinked, mounted image" "$TMP/g.hard2" "$LG is mounted on $TMP/gm" "$TMP/lg.bk.keep"
refused "sim: image on it" "sim:size=32M,image=$TMP/g.hard2" "$LG is mounted on $TMP/gm" "$TMP/lg.bk.keep"
bad_out "--out on it" 2 "$TMP/g.hard2" -a --count=1 sim:
ok "--out there: names the mount" grep -q "$LG is mounted on $TMP/gm" <<<"$ERR"
umount "$TMP/gm"
ok "the file system is intact" e2fsck -fn "$G" >/dev/null 2>&1
# The cleanup knows its loop device by the backing file's device and inode:
# renamed and unlinked, it is still detached (by name it leaked, every run).
detach_ours "$LG" "$G"
ok "the loop device of the renamed image is detached" bash -c "! losetup '$LG' >/dev/null 2>&1 || ! losetup -nO BACK-INO '$LG' | grep -qw \"\$(stat -c %i '$G')\""

# 7. Issue 24, 1 and 2: every pair among DEVICE, --out, --log, --backup,
# standard output and standard error naming one storage is refused before
# anything is opened for writing: nothing changes, nothing is created.
H=$TMP/h.img
make_image "$H" 64
make_loop "$H" || { fail "losetup"; done_testing; exit; }
LH=$LOOPDEV
# A plain file (H2) and a loop device (LH on H) as the device under test.
H2=$TMP/h2.img
make_image "$H2" 64
hsum() { echo "$(sum "$H") $(stat -c %s "$H") $(sum "$H2") $(stat -c %s "$H2")"; }
h0=$(hsum)
echo keep >"$TMP/keep"
S24="--sustained -b 1M --size=8M --offset=16M"
# pair DESC WANT REDIRECT ARGS...: exit WANT, H and keep as they were, no backup.
pair() {
	local d=$1 want=$2 redir=$3 st; shift 3
	case $redir in
	"") "$FB" "$@" >"$TMP/pair.out" 2>"$TMP/pair.err" ;;
	2\>\>*) "$FB" "$@" >"$TMP/pair.out" 2>>"${redir#2>>}" ;;
	\>\>*) "$FB" "$@" >>"${redir#>>}" 2>"$TMP/pair.err" ;;
	esac
	st=$?
	ok "$d: exit $want (got $st)" [ "$st" -eq "$want" ]
	ok "$d: the device unchanged" [ "$(hsum)" = "$h0" ]
	ok "$d: keep unchanged" [ "$(cat "$TMP/keep")" = keep ]
	ok "$d: no backup" [ ! -e "$TMP/bk" ]
	ok "$d: no new --out or --log" [ ! -e "$TMP/o" ] && [ ! -e "$TMP/lg" ]
}
for dev in "$H2" "$LH"; do
	img=$H2
	[ "$dev" = "$LH" ] && img=$H
	ln -sfn "$img" "$TMP/h.sym"
	pair "$dev: --log on the --backup" 2 "" $S24 --preserve --backup="$TMP/bk" --log="$TMP/bk" "$dev"
	pair "$dev: --log on the device" 2 "" $S24 --log="$dev" "$dev"
	pair "$dev: --log on a symlink to the device's storage" 2 "" $S24 --log="$TMP/h.sym" "$dev"
	pair "$dev: --out on the --backup" 2 "" $S24 --preserve --backup="$TMP/bk" -o "$TMP/bk" "$dev"
	pair "$dev: --log on --out (existing)" 2 "" $S24 --log="$TMP/keep" -o "$TMP/keep" "$dev"
	pair "$dev: --log on --out (new, two names)" 2 "" $S24 --log="$TMP/o" -o "$TMP/./o" "$dev"
	pair "$dev: --log on standard output" 2 ">>$TMP/keep" $S24 --log="$TMP/keep" "$dev"
	pair "$dev: standard error on --log" 2 "2>>$TMP/keep" $S24 --log="$TMP/keep" "$dev"
	pair "$dev: standard error on --out" 2 "2>>$TMP/keep" $S24 -o "$TMP/keep" "$dev"
	pair "$dev: standard error on the device's storage" 2 "2>>$img" $S24 --preserve --backup="$TMP/bk" "$dev"
	pair "$dev: standard error on the --backup file" 2 "2>>$TMP/bk.e" $S24 --preserve --backup="$TMP/bk.e" "$dev"
	rm -f "$TMP/bk.e"
	pair "$dev: standard error on the device, read-only test" 2 "2>>$img" -a --count=1 -b 64K "$dev"
	pair "$dev: standard output on the device" 2 ">>$img" $S24 "$dev"
done
pair "standard error on the loop device" 2 "2>>$LH" $S24 --preserve --backup="$TMP/bk" "$LH"
pair "standard error on a loop device of the sim: image" 2 "2>>$LH" $S24 "sim:size=64M,image=$H"
ok "standard error on a block device: said on standard output" \
	bash -c "'$FB' -a --count=1 sim: 2>>'$LH' | grep -q 'standard error: is a block device'"
ok "... the device unchanged" [ "$(hsum)" = "$h0" ]
pair "--restore with standard error on the device's image" 2 "2>>$H" --restore="$TMP/f.bk.keep" "$LH"
pair "--restore with standard error on the device" 2 "2>>$LH" --restore="$TMP/f.bk.keep" "$LH"
pair "a usage error with standard error on the device" 2 "2>>$LH" -O --no-such-option "$LH"
pair "--analyze with standard error on a block device" 2 "2>>$LH" --analyze=/no/such/file

# Issue 24, 4: a simulated card's image on a block device another process holds (O_EXCL).
if command -v python3 >/dev/null; then
	python3 -c "import os, sys, time; fd = os.open('$LH', os.O_RDONLY | os.O_EXCL); print('held', flush=True); time.sleep(60)" \
		>"$TMP/held" &
	holder=$!
	cleanup_add "kill $holder"
	for ((i = 0; i < 100; i++)); do [ -s "$TMP/held" ] && break; sleep 0.05; done
	for args in "${WRITERS[@]}"; do
		expect_status 3 "sim: image held O_EXCL: $args" "$FB" $args "sim:size=64M,image=$LH"
		ok "held O_EXCL: said" grep -q "Device or resource busy (mounted or held by another user)" <<<"$ERR"
	done
	expect_status 3 "--restore onto a sim: image held O_EXCL" "$FB" --restore="$TMP/f.bk.keep" "sim:size=64M,image=$LH"
	ok "held O_EXCL: the device unchanged" [ "$(hsum)" = "$h0" ]
	kill $holder
	wait $holder 2>/dev/null
else
	skip_ci "python3 (to hold a device O_EXCL) is not installed"
fi

done_testing
