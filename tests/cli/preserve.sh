#!/bin/bash
# --preserve and --restore: after a normal run, a Ctrl-C, an injected I/O
# error, a short write and a SIGKILL followed by --restore, the device's
# sha256 equals the one before; --restore refuses truncated, corrupted and
# foreign backups. On image files and the simulated card's image here; on
# loop devices in safety.sh.
. "$(dirname "$0")/lib.sh"

SHIM=$TESTS_DIR/faultshim.so
# An ASan build refuses to share the process with a library it did not load first.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
sum() { sha256sum <"$1" | cut -d' ' -f1; }
shim() { env LD_PRELOAD="$SHIM" "$@"; }

img=$TMP/card.img
make_image "$img" 48
before=$(sum "$img")
W="-O --open-au-nr=3 --erasesize=1M --blocksize=64K --offset=4M"	# 4-5M, 16-17M, 28-29M

# A write test without --preserve changes the image: the control for all below.
expect_status 0 "plain write run" "$FB" $W "$img"
ok "plain run changes the data" [ "$(sum "$img")" != "$before" ]
make_image "$img" 48
before=$(sum "$img")

# What will be overwritten is announced, exactly.
ok "announces the regions" grep -q "will overwrite 3MiB in 3 regions between 4MiB and 29MiB of $img" "$TMP/err"

# 1. A normal run.
expect_status 0 "--preserve run" "$FB" $W --preserve --backup="$TMP/b1" "$img"
ok "normal run: restored and verified" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "normal run: data back" [ "$(sum "$img")" = "$before" ]
ok "normal run: backup removed" [ ! -e "$TMP/b1" ]
ok "normal run: results printed" grep -q "^1MiB" <<<"$OUT"

# The default backup name: in the current directory, named after the device.
(cd "$TMP" && "$FB" $W --preserve card.img >/dev/null 2>"$TMP/err2")
ok "default backup name" grep -q "backed up 3MiB of card.img to flashbench-card.img-[0-9]*-[0-9]*.backup" "$TMP/err2"
ok "default name: data back" [ "$(sum "$img")" = "$before" ]

# 2. The simulated card with an image: an injected I/O error in the middle.
simimg=$TMP/sim.img
make_image "$simimg" 64
simbefore=$(sum "$simimg")
expect_status 1 "sim fail-write-at" "$FB" -O --open-au-nr=3 --erasesize=1M --offset=4M --preserve \
	--backup="$TMP/b2" "sim:size=64M,image=$simimg,fail-write-at=16M"
ok "sim error: offset, length and errno" \
	grep -q "write at offset 16777216, length 1048576: Input/output error" <<<"$ERR"
ok "sim error: restored" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "sim error: data back" [ "$(sum "$simimg")" = "$simbefore" ]

# An image shorter than the card: -O writes past its end, the restore
# writes back the zeros the card read there, and the image goes back to
# its size and bytes (it stayed at 30408704 bytes); without --preserve
# what the test wrote stays.
short=$TMP/short.img
head -c 1000001 /dev/urandom >"$short"
cp "$short" "$TMP/short.orig"
expect_status 0 "short image --preserve" "$FB" -O -e 1M --preserve --backup="$TMP/b16" "sim:size=64M,image=$short"
ok "short image: back to 1000001 bytes ($(stat -c %s "$short"))" [ "$(stat -c %s "$short")" -eq 1000001 ]
ok "short image: its bytes back" cmp -s "$short" "$TMP/short.orig"
expect_status 0 "short image without --preserve" "$FB" -O -e 1M "sim:size=64M,image=$short"
ok "short image without --preserve: the test's data stays" [ "$(stat -c %s "$short")" -eq 30408704 ]

if [ ! -e "$SHIM" ]; then
	skip_ci "no $SHIM: run make check"
	done_testing
	exit
fi
# Is the shim in effect? (A sanitizer built into the binary may shadow pwrite.)
expect_status 1 "shim probe" shim FB_FAIL_PWRITE_AT=1 "$FB" $W "$img"
if [ "$(sum "$img")" != "$before" ] || ! grep -q "Input/output error" <<<"$ERR"; then
	skip "the fault shim does not reach this build's pwrite"
	done_testing
	exit
fi

# 3. An I/O error on a file, after some writes went through.
expect_status 1 "EIO at the 5th pwrite" shim FB_FAIL_PWRITE_AT=5 "$FB" $W --preserve --backup="$TMP/b3" "$img"
ok "EIO: names offset and errno" grep -Eq "write at offset [0-9]+, length [0-9]+: Input/output error" <<<"$ERR"
ok "EIO: restored" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "EIO: data back" [ "$(sum "$img")" = "$before" ]
ok "EIO: backup removed" [ ! -e "$TMP/b3" ]

# 4. ENOSPC, and a short write followed by ENOSPC (a full disk).
expect_status 1 "ENOSPC" shim FB_FAIL_PWRITE_AT=7 FB_FAIL_ERRNO=28 "$FB" $W --preserve --backup="$TMP/b4" "$img"
ok "ENOSPC: named" grep -q "No space left on device" <<<"$ERR"
ok "ENOSPC: data back" [ "$(sum "$img")" = "$before" ]
expect_status 1 "short write" shim FB_SHORT_PWRITE=6 "$FB" $W --preserve --backup="$TMP/b5" "$img"
ok "short write: stops with ENOSPC" grep -q "No space left on device" <<<"$ERR"
ok "short write: data back" [ "$(sum "$img")" = "$before" ]

# 5. Ctrl-C in the middle, and again at every write after it (also during
# the restore, which must go on regardless).
expect_status 130 "SIGINT" shim FB_SIGNAL_PWRITE_AT=5 FB_SIGNAL=2 "$FB" $W --preserve --backup="$TMP/b6" "$img"
ok "SIGINT: partial results and the interrupted line" grep -q "^interrupted by signal 2" <<<"$OUT"
ok "SIGINT: restored" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "SIGINT: data back" [ "$(sum "$img")" = "$before" ]
expect_status 130 "SIGTERM" shim FB_SIGNAL_PWRITE_AT=9 FB_SIGNAL=15 "$FB" $W --preserve --backup="$TMP/b7" "$img"
ok "SIGTERM: data back" [ "$(sum "$img")" = "$before" ]
expect_status 130 "SIGHUP" shim FB_SIGNAL_PWRITE_AT=9 FB_SIGNAL=1 "$FB" $W --preserve --backup="$TMP/b7" "$img"
ok "SIGHUP (terminal gone): data back" [ "$(sum "$img")" = "$before" ]

# Ctrl-\ (SIGQUIT) during the restore waits until the data is back (it
# is caught like SIGINT; the test had already ended, so the run ends as
# done): the one write of the test is pwrite 1, the restore's is pwrite 2.
( ulimit -c 0; exec env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=2 FB_SIGNAL=3 "$FB" -f --fat-nr=1 \
	--erasesize=1M --blocksize=1M --preserve --backup="$TMP/bq" "$img" >/dev/null 2>"$TMP/err" )
st=$?
ok "SIGQUIT during the restore: not killed by it (status $st)" [ "$st" -eq 0 ]
ok "SIGQUIT: restored" grep -q "restored 1048576 bytes, verified" "$TMP/err"
ok "SIGQUIT: data back" [ "$(sum "$img")" = "$before" ]

# A reader that goes away (| head) must not kill a run that has to restore.
"$FB" $W --preserve --backup="$TMP/bp" "$img" 2>"$TMP/err" | head -1 >/dev/null
ok "closed pipe: restored" grep -q "restored 3145728 bytes, verified" "$TMP/err"
ok "closed pipe: data back" [ "$(sum "$img")" = "$before" ]

# 6. SIGKILL: nothing can run, the backup stays; --restore puts it back.
expect_status 137 "SIGKILL" shim FB_SIGNAL_PWRITE_AT=5 FB_SIGNAL=9 "$FB" $W --preserve --backup="$TMP/b8" "$img"
ok "SIGKILL: data changed" [ "$(sum "$img")" != "$before" ]
ok "SIGKILL: backup kept" [ -s "$TMP/b8" ]
cp "$TMP/b8" "$TMP/keep"
killed=$(sum "$img")

# --restore refuses what it cannot trust, and changes nothing then.
head -c -4096 "$TMP/keep" >"$TMP/trunc"
expect_status 3 "truncated backup" "$FB" --restore="$TMP/trunc" "$img"
ok "truncated: named" grep -q "truncated" <<<"$ERR"
cp "$TMP/keep" "$TMP/corrupt"
printf 'X' | dd of="$TMP/corrupt" bs=1 seek=$((64 * 1024 + 100)) conv=notrunc status=none
expect_status 3 "corrupted data" "$FB" --restore="$TMP/corrupt" "$img"
ok "corrupted: named" grep -q "corrupted" <<<"$ERR"
cp "$TMP/keep" "$TMP/badhdr"
printf 'X' | dd of="$TMP/badhdr" bs=1 seek=100 conv=notrunc status=none
expect_status 3 "corrupted header" "$FB" --restore="$TMP/badhdr" "$img"
other=$TMP/other.img
make_image "$other" 48
othersum=$(sum "$other")
expect_status 3 "backup of another device" "$FB" --restore="$TMP/keep" "$other"
ok "other device: says it does not match" grep -q "does not match" <<<"$ERR"
ok "other device: untouched" [ "$(sum "$other")" = "$othersum" ]
make_image "$other" 32
expect_status 3 "device of another size" "$FB" --restore="$TMP/keep" "$other"
expect_status 2 "missing backup" "$FB" --restore="$TMP/nonexistent" "$img"
expect_status 2 "sim: without image" "$FB" --restore="$TMP/keep" "sim:size=48M"
ok "nothing restored by a refusal" [ "$(sum "$img")" = "$killed" ]

expect_status 0 "--restore after SIGKILL" "$FB" --restore="$TMP/b8" "$img"
ok "restore: verified" grep -q "restored 3145728 bytes, verified" <<<"$ERR"
ok "restore: data back" [ "$(sum "$img")" = "$before" ]
ok "restore: the user's backup is kept" [ -s "$TMP/b8" ]

# The simulated card with an image: killed, then restored.
expect_status 137 "sim SIGKILL" shim FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL=9 "$FB" -f --fat-nr=2 --erasesize=1M \
	--preserve --backup="$TMP/b9" "sim:size=64M,image=$simimg"
expect_status 0 "sim --restore" "$FB" --restore="$TMP/b9" "sim:size=64M,image=$simimg"
ok "sim restore: data back" [ "$(sum "$simimg")" = "$simbefore" ]

# A loop device that shrinks during the run (its image truncated,
# losetup -c, while a SIGSTOP holds the run): the restore cannot write
# past the new end and says so once -- the range not restored and the
# --restore command -- not once per 512-byte sector (24576 lines).
if is_root; then
	make_image "$TMP/shrink.img" 64
	if make_loop "$TMP/shrink.img"; then
		SL=$LOOPDEV
		env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=3 FB_SIGNAL=19 FB_SIGNAL_ONCE=1 "$FB" --sustained -b 1M \
			--size=16M --offset=40M --preserve --backup="$TMP/bshrink" "$SL" \
			>"$TMP/shrink.out" 2>"$TMP/shrink.err" &
		pid=$!
		for _ in $(seq 200); do [ "$(awk '{ print $3 }' /proc/$pid/stat 2>/dev/null)" = T ] && break; sleep 0.05; done
		truncate -s 44M "$TMP/shrink.img"
		losetup -c "$SL"
		kill -CONT "$pid"
		wait "$pid"; st=$?
		ERR=$(cat "$TMP/shrink.err")
		ok "shrunk: exit 1 (got $st)" [ "$st" -eq 1 ]
		ok "shrunk: a few lines, not one per sector ($(wc -l <<<"$ERR"))" [ "$(wc -l <<<"$ERR")" -le 8 ]
		ok "shrunk: the range not restored, once" [ "$(grep -c '^flashbench: restore: ' <<<"$ERR")" -eq 1 ]
		ok "shrunk: which range" grep -qx 'flashbench: restore: 12MiB between offset 46137344 and 58720256 of the device (1 piece) not written back; the first failed write, at offset 46137344, length 512: No space left on device' <<<"$ERR"
		ok "shrunk: the --restore command" grep -qx "flashbench: RESTORE FAILED: the original data is kept in $TMP/bshrink; retry with: flashbench --restore=$TMP/bshrink $SL" <<<"$ERR"
		ok "shrunk: the backup is kept" [ -s "$TMP/bshrink" ]
	else
		fail "cannot attach a loop device"
	fi
else
	skip_ci "loop devices need root"
fi

done_testing
