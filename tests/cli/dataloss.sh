#!/bin/bash
# Issue 10: the ways data was still lost, each reproduced as reported.
# 1 --out on the backing file of the loop device under test; 2 a second
# loop device on the image of a mounted one; 3 two runs on one file at
# once; 4 a sim: image created or grown by refused runs; 5 --find-fat
# regions wrapping past 2^64; 6 a write test going on when its results
# cannot be written. Then the smaller ones: signals during the backup and
# the test, --readahead --buffered killed, FIFOs, the backup's exit
# status, and what --restore names. The alias matrix is in matrix.sh.
. "$(dirname "$0")/lib.sh"

SHIM=$TESTS_DIR/faultshim.so
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
sum() { sha256sum <"$1" | cut -d' ' -f1; }
size() { stat -c %s "$1"; }
W="-O --open-au-nr=2 --erasesize=1M --blocksize=64K --offset=4M"	# 4-5M, 16-17M

# --- 4. refused runs neither create nor grow the sim: image -----------------
img=$TMP/small.img
make_image "$img" 1
s0=$(sum "$img")
expect_status 2 "image: -O -b 1000" "$FB" -O -b 1000 "sim:image=$img"
expect_status 2 "image: -O -e 8G" "$FB" -O -e 8G "sim:image=$img"
expect_status 2 "image: --restore of a missing backup" "$FB" --restore="$TMP/none" "sim:image=$img"
head -c 8192 /dev/urandom >"$TMP/junk"
expect_status 3 "image: --restore of a foreign file" "$FB" --restore="$TMP/junk" "sim:image=$img"
ok "image: still 1 MiB ($(size "$img"))" [ "$(size "$img")" -eq 1048576 ]
ok "image: byte for byte the same" [ "$(sum "$img")" = "$s0" ]
expect_status 2 "missing image: refused --restore" "$FB" --restore="$TMP/junk" "sim:image=$TMP/missing.img"
ok "missing image: says so" grep -q "image '$TMP/missing.img': No such file" <<<"$ERR"
expect_status 2 "missing image: bad usage" "$FB" -O -b 1000 "sim:image=$TMP/missing.img"
expect_status 2 "missing image: regions past the end" "$FB" $W "sim:size=8M,image=$TMP/missing.img"
ok "missing image: not created" [ ! -e "$TMP/missing.img" ]
expect_status 2 "missing image: a read test" "$FB" -a "sim:image=$TMP/missing.img"
ok "missing image: not created by a read test" [ ! -e "$TMP/missing.img" ]
expect_status 0 "missing image: a write test creates it" "$FB" $W "sim:size=32M,image=$TMP/missing.img"
ok "missing image: created, as far as the writes reach" [ "$(size "$TMP/missing.img")" -eq $((17 << 20)) ]

# --- 5. --find-fat regions wrapping past 2^64 -------------------------------
expect_status 2 "find-fat wrapping" "$FB" -f -e 4096T --fat-nr=4096 --preserve --backup="$TMP/wrap.bk" sim:
ok "find-fat wrapping: names the end" grep -q "find-fat would access up to byte 18446744073709551615" <<<"$ERR"
ok "find-fat wrapping: nothing announced" not grep -q "will overwrite" <<<"$ERR"
ok "find-fat wrapping: no backup" [ ! -e "$TMP/wrap.bk" ]
ok "find-fat wrapping: no internal error" not grep -q "internal error" <<<"$ERR"
expect_status 2 "open-au spacing wrapping" "$FB" -O -e 4096T --offset=0 --open-au-nr=1024 sim:
ok "open-au wrapping: nothing announced" not grep -q "will overwrite" <<<"$ERR"

# --- 6. results that cannot be written stop the test ------------------------
simimg=$TMP/sim.img
make_image "$simimg" 64
simsum=$(sum "$simimg")
S="sim:size=64M,image=$simimg"
# 7 lines of 2 MiB each: a run that goes on writes 14 MiB.
expect_status 1 "-o /dev/full" "$FB" -v -O -e 1M -b 16K --preserve --backup="$TMP/full.bk" -o /dev/full "$S"
ok "/dev/full: the real errno" grep -q -- "--out=/dev/full: cannot write the results: No space left on device; stopping the test" <<<"$ERR"
ok "/dev/full: not Input/output error" not grep -q "Input/output error" <<<"$ERR"
ok "/dev/full: stopped after the first line (2 MiB and 2 MiB restored)" grep -q "^sim: read .*, wrote 4MiB," <<<"$ERR"
ok "/dev/full: restored" grep -q "restored 2097152 bytes, verified" <<<"$ERR"
ok "/dev/full: data back" [ "$(sum "$simimg")" = "$simsum" ]
# --out naming a device node that does not exist (mistyped, or a partition
# node gone with its loop device): refused, no regular file left in /dev.
nosuch=/dev/fbtest-nosuch-$$
expect_status 2 "--out=$nosuch" "$FB" -a --count=1 -o "$nosuch" sim:
ok "--out=$nosuch: said" grep -q -- "--out=$nosuch: no such device" <<<"$ERR"
ok "--out=$nosuch: nothing created in /dev" [ ! -e "$nosuch" ]
# /dev/shm holds files: results may go there
expect_status 0 "--out in /dev/shm" "$FB" -a --count=1 -o "/dev/shm/fbtest-out-$$" sim:
ok "--out in /dev/shm: written" [ -s "/dev/shm/fbtest-out-$$" ]
rm -f "/dev/shm/fbtest-out-$$"

# Standard output a pipe whose reader is gone (opened read-write, then closed).
mkfifo "$TMP/fifo"
exec 5<>"$TMP/fifo" 6>"$TMP/fifo"
exec 5<&-
"$FB" -v -O -e 1M -b 16K --preserve --backup="$TMP/pipe.bk" "$S" >&6 2>"$TMP/err"
st=$?
exec 6>&-
ERR=$(cat "$TMP/err")
ok "closed pipe: exit 1 (got $st)" [ "$st" -eq 1 ]
ok "closed pipe: Broken pipe named" grep -q "standard output: cannot write the results: Broken pipe" <<<"$ERR"
ok "closed pipe: stopped at the first line" grep -q "^sim: read .*, wrote 4MiB," <<<"$ERR"
ok "closed pipe: data back" [ "$(sum "$simimg")" = "$simsum" ]
"$FB" -O -e 1M -b 16K --preserve --backup="$TMP/head.bk" "$S" 2>"$TMP/err" | head -1 >/dev/null
ok "| head -1: restored" grep -q "restored 2097152 bytes, verified" "$TMP/err"
ok "| head -1: data back" [ "$(sum "$simimg")" = "$simsum" ]

# --- FIFOs where a regular file is needed: refused, not waited on ------------
expect_status 2 "--restore=FIFO" timeout 10 "$FB" --restore="$TMP/fifo" "$S"
ok "--restore=FIFO: not a regular file" grep -q "'$TMP/fifo' is not a regular file" <<<"$ERR"
expect_status 2 "sim:image=FIFO, read test" timeout 10 "$FB" -a "sim:image=$TMP/fifo"
ok "sim:image=FIFO: refused" grep -q "image '$TMP/fifo': not a regular file or block device" <<<"$ERR"
expect_status 2 "sim:image=FIFO, write test" timeout 10 "$FB" $W "sim:image=$TMP/fifo"

# --- issue 24: the outputs, checked as what they are --------------------------
# 12. --out and --log on a FIFO: no reader is an error at once, a reader gets the results.
L24="--sustained -b 1M --size=8M"
expect_status 2 "--log=FIFO without a reader" timeout 20 "$FB" $L24 --log="$TMP/fifo" sim:size=64M
ok "--log=FIFO: said at once" grep -q -- "--log=$TMP/fifo: a FIFO that no process reads" <<<"$ERR"
expect_status 2 "--out=FIFO without a reader" timeout 20 "$FB" -a --count=1 -o "$TMP/fifo" sim:
ok "--out=FIFO: said at once" grep -q -- "--out=$TMP/fifo: a FIFO that no process reads" <<<"$ERR"
# (The reader: this shell, through a descriptor open before the run; the results fit the pipe.)
exec 7<>"$TMP/fifo"
expect_status 0 "--out=FIFO with a reader" timeout 20 "$FB" -a --count=1 -o "$TMP/fifo" sim:
while read -t 1 -r line <&7; do echo "$line"; done >"$TMP/fifo.read"
exec 7<&-
ok "--out=FIFO: the reader got the results" grep -q "^align " "$TMP/fifo.read"
# 11. A dangling symlink into /dev: the new file would land in /dev.
stray=/dev/fbtest-stray-$$
ln -s "$stray" "$TMP/stray.link"
expect_status 2 "--out through a dangling symlink into /dev" "$FB" -a --count=1 -o "$TMP/stray.link" sim:
ok "--out through a symlink: said" grep -q -- "--out=$TMP/stray.link: no such device" <<<"$ERR"
expect_status 2 "--log through a dangling symlink into /dev" "$FB" $L24 --log="$TMP/stray.link" sim:size=64M
ok "nothing created in /dev" [ ! -e "$stray" ]
rm -f "$stray"
# ... while a dangling symlink elsewhere is followed, as the kernel would.
ln -s "$TMP/landed.out" "$TMP/elsewhere.link"
expect_status 0 "--out through a dangling symlink elsewhere" "$FB" -a --count=1 -o "$TMP/elsewhere.link" sim:
ok "--out: created where the symlink leads" grep -q "^align " "$TMP/landed.out"
# 15. --log and --out compared as paths are (a new file by two names).
(cd "$TMP" && expect_status 2 "--log=./o --out=o" "$FB" $L24 --log=./o --out=o sim:size=64M)
ok "--log=./o --out=o: not created" [ ! -e "$TMP/o" ]
expect_status 2 "--log=DIR/o --out=DIR/./o" "$FB" $L24 --log="$TMP/o" --out="$TMP/./o" sim:size=64M
ok "--log=DIR/o: names the --out file" grep -q -- "--log=$TMP/o: is the --out file" <<<"$ERR"
# 1. --log on the backup, the device, its symlink: refused, nothing written or created.
img24=$TMP/i24.img
make_image "$img24" 32
i24=$(sum "$img24")
ln -s "$img24" "$TMP/i24.link"
for log in "$TMP/bk24" "$img24" "$TMP/i24.link"; do
	expect_status 2 "--log=$log, --backup=$TMP/bk24" "$FB" $L24 --offset=16M --preserve \
		--backup="$TMP/bk24" --log="$log" "$img24"
	ok "--log=$log: the image unchanged" [ "$(sum "$img24")" = "$i24" ]
	ok "--log=$log: no backup" [ ! -e "$TMP/bk24" ]
done
expect_status 2 "--out on the backup" "$FB" $W --preserve --backup="$TMP/bk24" -o "$TMP/bk24" "$img24"
# Standard error onto the device (2>>): refused before a word is said there.
"$FB" $W --preserve --backup="$TMP/bk24" "$img24" 2>>"$img24" >"$TMP/said"
st=$?
ok "2>>DEVICE: exit 2 (got $st)" [ "$st" -eq 2 ]
ok "2>>DEVICE: not a byte written to it" [ "$(sum "$img24")" = "$i24" ]
ok "2>>DEVICE: no backup" [ ! -e "$TMP/bk24" ]
"$FB" $W "$TMP/i24.link" 2>>"$img24" | cat >"$TMP/said"
ok "2>>DEVICE: the message on standard output (a pipe)" \
	grep -q "^flashbench: standard error: is the device under test ($TMP/i24.link)" "$TMP/said"
ok "2>>DEVICE (via a symlink): not a byte written to it" [ "$(sum "$img24")" = "$i24" ]
"$FB" -a --count=1 sim:size=32M,image="$img24" 2>>"$img24" >/dev/null
ok "2>>the sim: image, read-only test: refused ($?)" [ "$(sum "$img24")" = "$i24" ]
# Standard output and error onto --out or --log: refused; onto each other (2>&1) as ever.
echo keep >"$TMP/keep24"
"$FB" $L24 --log="$TMP/keep24" sim:size=64M >>"$TMP/keep24" 2>"$TMP/err"
ok "stdout onto --log: exit 2 ($?)" [ "$(cat "$TMP/keep24")" = keep ]
ok "stdout onto --log: said so" grep -q -- "--log=$TMP/keep24: is standard output" "$TMP/err"
"$FB" $L24 --log="$TMP/keep24" sim:size=64M 2>>"$TMP/keep24" | cat >"$TMP/said"
ok "stderr onto --log: kept" [ "$(cat "$TMP/keep24")" = keep ]
ok "stderr onto --log: said so" grep -q "standard error: is the --log file" "$TMP/said"
"$FB" -a --count=1 -o "$TMP/keep24" sim: 2>>"$TMP/keep24" | cat >"$TMP/said"
ok "stderr onto --out: kept" [ "$(cat "$TMP/keep24")" = keep ]
ok "stderr onto --out: said so" grep -q "standard error: is the --out file" "$TMP/said"
expect_status 0 "stdout and stderr on one file (>f 2>&1)" bash -c "'$FB' -a --count=1 sim: >'$TMP/both' 2>&1"
ok ">f 2>&1: the results there" grep -q "^align " "$TMP/both"
# 6. A run refused after a test measured first leaves --out (and stdout) as they were.
expect_status 2 "-a --find-open-au, regions past the end after -a" "$FB" -a --find-open-au --offset=62M \
	-b 64K --out="$TMP/keep24" sim:size=64M
ok "--out kept as it was" [ "$(cat "$TMP/keep24")" = keep ]
"$FB" -a --find-open-au --offset=62M -b 64K sim:size=64M >>"$TMP/keep24" 2>/dev/null
ok "standard output (>>) kept as it was ($?)" [ "$(cat "$TMP/keep24")" = keep ]
expect_status 2 "... and a new --out is not created" "$FB" -a --find-open-au --offset=62M -b 64K \
	--out="$TMP/new24" sim:size=64M
ok "no new --out" [ ! -e "$TMP/new24" ]

# --- a backup that cannot be placed: exit 3, whatever the cause -------------
expect_status 3 "backup: missing directory" "$FB" $W --preserve --backup="$TMP/no/dir/b" "$S"
touch "$TMP/exists"
expect_status 3 "backup: exists" "$FB" $W --preserve --backup="$TMP/exists" "$S"
expect_status 3 "backup: the image itself" "$FB" $W --preserve --backup="$simimg" "$S"
expect_status 3 "backup: the image yet to be created" "$FB" $W --preserve --backup="$TMP/new.img" \
	"sim:size=32M,image=$TMP/new.img"
ok "backup on the new image: named" grep -q "would lie on" <<<"$ERR"
ok "backup on the new image: nothing created" [ ! -e "$TMP/new.img" ]
mkdir "$TMP/ro"
if is_root; then
	chmod 555 "$TMP/ro"
	expect_status 3 "backup: directory not writable (as nobody)" setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$FB" $W --preserve --backup="$TMP/ro/b" sim:size=32M
	chmod 755 "$TMP/ro"
fi
ok "refused backups: data unchanged" [ "$(sum "$simimg")" = "$simsum" ]

if [ ! -e "$SHIM" ]; then
	skip "no $SHIM: run make check"
	done_testing
	exit
fi
expect_status 1 "shim probe" env LD_PRELOAD="$SHIM" FB_FAIL_PWRITE_AT=1 "$FB" $W "$S"
if ! grep -q "Input/output error" <<<"$ERR"; then
	skip "the fault shim does not reach this build's pwrite"
	done_testing
	exit
fi
make_image "$simimg" 64
simsum=$(sum "$simimg")

# --- signals: SIGINT during the backup stops it, nothing is written back ----
# The backup is written in 1 MiB write() calls: the 2nd of 2 MiB.
expect_status 130 "SIGINT during the backup" env LD_PRELOAD="$SHIM" FB_SIGNAL_WRITE_AT=2 FB_SIGNAL=2 \
	"$FB" $W --preserve --backup="$TMP/int.bk" "$S"
ok "SIGINT during the backup: said so" grep -q "interrupted by signal 2 during the backup; nothing was written" <<<"$ERR"
ok "SIGINT during the backup: nothing written back" not grep -q "restoring" <<<"$ERR"
ok "SIGINT during the backup: no test" [ -z "$OUT" ]
ok "SIGINT during the backup: backup removed" [ ! -e "$TMP/int.bk" ]
ok "SIGINT during the backup: data unchanged" [ "$(sum "$simimg")" = "$simsum" ]

# Default-fatal signals during a write test restore like SIGTERM.
for sig in 10 12 14 $(kill -l SIGRTMIN+3); do
	expect_status 130 "signal $sig during the test" env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=5 \
		FB_SIGNAL="$sig" "$FB" $W --preserve --backup="$TMP/sig.bk" "$S"
	ok "signal $sig: interrupted line" grep -q "^interrupted by signal $sig" <<<"$OUT"
	ok "signal $sig: restored" grep -q "restored 2097152 bytes, verified" <<<"$ERR"
	ok "signal $sig: data back" [ "$(sum "$simimg")" = "$simsum" ]
done

# --- 3. two runs on one file at once -----------------------------------------
# The first run stops itself (SIGSTOP) at its 3rd pwrite, holding its lock.
file=$TMP/shared.img
make_image "$file" 48
fsum=$(sum "$file")
env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL_ONCE=1 FB_SIGNAL=19 \
	"$FB" $W --preserve --backup="$TMP/first.bk" "$file" >"$TMP/first.out" 2>"$TMP/first.err" &
first=$!
cleanup_add "kill -KILL $first"
for ((i = 0; i < 100; i++)); do
	grep -q '^State:.*T' /proc/$first/status 2>/dev/null && break
	sleep 0.05
done
ok "first run: stopped mid-test" grep -q '^State:.*T' /proc/$first/status
expect_status 3 "second --preserve run on the same file" "$FB" $W --preserve --backup="$TMP/second.bk" "$file"
ok "second run: names the other run" grep -q "is being written by another run (pid $first: .*first.bk" <<<"$ERR"
ok "second run: no backup" [ ! -e "$TMP/second.bk" ]
ln -s "$file" "$TMP/shared.link"
expect_status 3 "sim: image through a symlink, same file" "$FB" $W "sim:size=48M,image=$TMP/shared.link"
expect_status 3 "--restore onto it" "$FB" --restore="$TMP/first.bk" "$file"
expect_status 3 "--out onto it" "$FB" -a -o "$file" sim:
ok "--out onto it: names the other run" grep -q "refusing to write to --out=$file: .* another run (pid $first" <<<"$ERR"
kill -CONT $first
wait $first
st=$?
ok "first run: exit 0 (got $st)" [ "$st" -eq 0 ]
ok "first run: restored and verified" grep -q "restored 2097152 bytes, verified" "$TMP/first.err"
ok "the file is intact" [ "$(sum "$file")" = "$fsum" ]
# 15 (issue 24). Two runs with one --log: the second is refused, the log stays the first's.
env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL_ONCE=1 FB_SIGNAL=19 "$FB" --sustained -b 1M \
	--size=8M --log="$TMP/one.log" "sim:size=64M,image=$TMP/la.img" >/dev/null 2>&1 &
first=$!
cleanup_add "kill -KILL $first"
for ((i = 0; i < 100; i++)); do
	grep -q '^State:.*T' /proc/$first/status 2>/dev/null && break
	sleep 0.05
done
expect_status 3 "a second run with the same --log" "$FB" --sustained -b 1M --size=8M \
	--log="$TMP/one.log" "sim:size=64M,image=$TMP/lb.img"
ok "second --log run: names the other run" grep -q -- "--log=$TMP/one.log: .*another run (pid $first" <<<"$ERR"
ok "second --log run: wrote nothing" [ ! -e "$TMP/lb.img" ]
kill -CONT $first
wait $first
ok "the first run's log: its header and its one record" [ "$(wc -l <"$TMP/one.log")" -eq 2 ]
# SIGKILL leaves no lock behind: the next run goes ahead, and --restore works.
expect_status 137 "killed run" env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL=9 \
	"$FB" $W --preserve --backup="$TMP/killed.bk" "$file"
expect_status 0 "no stale lock: --restore" "$FB" --restore="$TMP/killed.bk" "$file"
ok "killed run restored" [ "$(sum "$file")" = "$fsum" ]

# --restore=X other-path names the device it writes.
expect_status 137 "killed run (via symlink)" env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL=9 \
	"$FB" $W --preserve --backup="$TMP/k2.bk" "$TMP/shared.link"
expect_status 0 "--restore through another path" "$FB" --restore="$TMP/k2.bk" "$file"
ok "--restore: says which path the backup was made of" grep -q "was made of $TMP/shared.link; writing it to $file" <<<"$ERR"
ok "--restore: names the device written" grep -q "^flashbench: restoring 2MiB of $file from" <<<"$ERR"
ok "--restore: retry hint would name it too" not grep -q "restoring 2MiB of $TMP/shared.link" <<<"$ERR"
ok "restored through another path" [ "$(sum "$file")" = "$fsum" ]

if ! is_root; then
	skip "loop devices need root"
	done_testing
	exit
fi
for tool in losetup mkfs.ext4 blockdev; do
	command -v $tool >/dev/null || { fail "$tool is missing (install util-linux, e2fsprogs)"; done_testing; exit; }
done

# --- 1. --out on the backing file of the loop device under test --------------
x=$TMP/x.img
make_image "$x" 64
xsum=$(sum "$x")
make_loop "$x" || { fail "losetup"; done_testing; exit; }
L=$LOOPDEV
expect_status 2 "--out on the backing file, read-only test" "$FB" -a --count=1 -o "$x" "$L"
ok "--out on the backing file: named" grep -q -- "--out=$x: is $x ($x is the backing file of $L)" <<<"$ERR"
ok "--out on the backing file: not truncated" [ "$(sum "$x")" = "$xsum" ]

# --- 2. a second loop device on the image of a mounted loop device -----------
d=$TMP/d.img
truncate -s 64M "$d"
mkfs.ext4 -q -F "$d"
mkdir -p "$TMP/m"
make_loop "$d" && LY=$LOOPDEV
mount "$LY" "$TMP/m" && cleanup_add "umount $TMP/m"
make_loop "$d" && LX=$LOOPDEV
expect_status 3 "second loop device of a mounted image" "$FB" -O --offset=0 -e 1M "$LX"
ok "second loop: names the mount" grep -q "$LY is mounted on $TMP/m (ext4) ($LY is a loop device on $d)" <<<"$ERR"
expect_status 3 "--restore onto the second loop device" "$FB" --restore="$TMP/junk" "$LX"
umount "$TMP/m"
ok "the file system is intact" e2fsck -fn "$d" >/dev/null 2>&1

# --- locks on block devices: a partition's range of its disk ---------------
pimg=$TMP/parts.img
make_image "$pimg" 48
printf ',20M\n,\n' | sfdisk -q "$pimg"
if make_loop "$pimg" -P; then
	LP=$LOOPDEV
	for i in 1 2 3 4 5 6 7 8 9 10; do
		[ -b "${LP}p2" ] && break
		partx -a "$LP" 2>/dev/null
		sleep 0.2
	done
	cleanup_add "partx -d $LP"
	psum0=$(sum "$pimg")
	env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL_ONCE=1 FB_SIGNAL=19 \
		"$FB" $W --preserve --backup="$TMP/p1.bk" "${LP}p1" >/dev/null 2>"$TMP/p1.err" &
	p1run=$!
	cleanup_add "kill -KILL $p1run"
	for ((i = 0; i < 100; i++)); do
		grep -q '^State:.*T' /proc/$p1run/status 2>/dev/null && break
		sleep 0.05
	done
	psum=$(sum "$pimg")
	expect_status 3 "the whole disk while a partition is written" "$FB" $W "$LP"
	ok "whole disk: names the other run" grep -q "another run (pid $p1run" <<<"$ERR"
	expect_status 3 "the same partition through the image" "$FB" --restore="$TMP/p1.bk" "${LP}p1"
	ok "refused runs on the disk changed nothing" [ "$(sum "$pimg")" = "$psum" ]
	expect_status 0 "the other partition meanwhile" "$FB" -f --fat-nr=1 -e 1M -b 1M --preserve \
		--backup="$TMP/p2.bk" "${LP}p2"
	kill -CONT $p1run
	wait $p1run
	st=$?
	ok "the partition's run ends well (status $st)" [ "$st" -eq 0 ]
	ok "the partition's run restored" grep -q "restored 2097152 bytes, verified" "$TMP/p1.err"
	ok "both partitions back as they were" [ "$(sum "$pimg")" = "$psum0" ]
else
	fail "losetup -P"
fi

# --- --readahead --buffered killed: the command to put it back comes first ---
old=$(blockdev --getra "$L")
"$FB" --readahead --buffered --min-size=64K --size=64M --runs=16 "$L" >/dev/null 2>"$TMP/ra.err" &
ra=$!
for ((i = 0; i < 100; i++)); do
	[ "$(blockdev --getra "$L")" != "$old" ] && break
	sleep 0.05
done
kill -KILL $ra
wait $ra 2>/dev/null
ok "readahead hint printed before the sweep" \
	grep -q "the readahead of $L is $old sectors; should this run be killed, put it back with: blockdev --setra $old $L" "$TMP/ra.err"
cmd=$(sed -n 's/.*put it back with: //p' "$TMP/ra.err")
$cmd
ok "the hinted command puts it back" [ "$(blockdev --getra "$L")" = "$old" ]

done_testing
