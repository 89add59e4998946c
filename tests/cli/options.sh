#!/bin/bash
# Options the selected tests do not use: a warning, and the run goes on
# (refused with --analyze and --restore); sim: spec keys given twice, the
# --align block size, --interval past the end of a small file:
# refused with exit 2, one line, and no I/O at all.
. "$(dirname "$0")/lib.sh"

IMG=$TMP/card.img
make_image "$IMG" 64
sum0=$(sha256sum <"$IMG")
NEW=$TMP/never.img	# a sim image that a refused run must not create
# refused DESCRIPTION WORDS ARGS...: bad, and the image and $NEW untouched
refused() {
	bad "$@"
	ok "$1: $IMG unchanged" [ "$(sha256sum <"$IMG")" = "$sum0" ]
	ok "$1: $NEW not created" [ ! -e "$NEW" ]
}

# ---- options that do nothing in the chosen test (issue 10): a warning,
# and the run goes on (issue 22: old scripts pass one set of options to
# several tests in a loop, and the original ignored what a test did not use)
warns "-O --max-write" "--max-write=1M: has no effect with --open-au (it applies to --find-open-au and --survey)" \
	-O --max-write=1M --open-au-nr=1 -b 1M sim:
warns "-O --max-time" "--max-time=10s: has no effect with --open-au" -O --max-time=10s -b 1M sim:
warns "--preserve with read-only tests" \
	"--preserve: has no effect with --align, --scatter, --interval and --readahead" \
	-a -s -i --readahead --preserve "$IMG"
ok "--preserve with read-only tests: $IMG unchanged" [ "$(sha256sum <"$IMG")" = "$sum0" ]
warns "--find-open-au --open-au-nr" "--open-au-nr=3: has no effect with --find-open-au" \
	--find-open-au -e 4M --open-au-nr=3 --max-write=64M sim:
warns "-f -c (short option, long name)" "--count=4: has no effect with --find-fat" \
	-f -c 4 sim:
warns "-a -e" "--erasesize=8M: has no effect with --align" -a -e 8M "$IMG"
warns "-s --offset" "--offset=0: has no effect with --scatter" -s --offset=0 "$IMG"
warns "--readahead -b" "--blocksize=4K: has no effect with --readahead" --readahead -b 4K "$IMG"
warns "-i --scatter-order" "--scatter-order=3: has no effect with --interval" \
	-i --scatter-order=3 "$IMG"
warns "-O --size" "--size=16M: has no effect with --open-au" -O --size=16M -b 1M sim:
ok "read-only runs with warnings: $IMG unchanged" [ "$(sha256sum <"$IMG")" = "$sum0" ]
# two options no test uses: two warnings, one line each
expect_status 0 "-a -e 8M -r: two warnings" "$FB" -a -e 8M -r sim:
ok "-a -e 8M -r: two warning lines ($ERR)" [ "$(grep -c '^flashbench: warning: ' <<<"$ERR")" -eq 2 ]
ok "-a -e 8M -r: --random named" grep -qF -- "--random: has no effect with --align" <<<"$ERR"
# a malformed or out-of-range value is still refused, used or not
refused "-a -e 8X: malformed, unused" "--erasesize: invalid size '8X'" -a -e 8X "$IMG"
refused "-a -c 0: out of range, used" "--count: '0' is not a whole number from 1 to 1000000" \
	-a -c 0 "$IMG"
refused "-O -c 0: out of range, unused" "--count: '0' is not a whole number" -O -c 0 "sim:image=$NEW"
# the modes are newer than those scripts: there it is still refused
refused "--restore -v" "--verbose: has no effect with --restore" --restore="$TMP/b" -v "$IMG"
refused "--analyze -b" "--blocksize=1M: has no effect with --analyze" --analyze="$IMG" -b 1M

# ---- the old-script loop of issue 22, on sim: and on a loop device
for t in -a -O -f; do
	expect_status 0 "loop on sim: $t" "$FB" $t -e 8M -b 16K -c 3 sim:
	ok "loop on sim: $t: a warning ($ERR)" grep -q '^flashbench: warning: --[a-z]*=[0-9A-Z]*: has no effect with' <<<"$ERR"
	ok "loop on sim: $t: results" [ -n "$OUT" ]
done
if need_root "the old-script loop on a loop device"; then
	make_image "$TMP/loop.img" 256
	if make_loop "$TMP/loop.img"; then
		for t in -a -O -f; do
			expect_status 0 "loop on $LOOPDEV: $t" "$FB" $t -e 8M -b 16K -c 3 "$LOOPDEV"
			ok "loop on $LOOPDEV: $t: a warning ($ERR)" \
				grep -q '^flashbench: warning: --[a-z]*=[0-9A-Z]*: has no effect with' <<<"$ERR"
			ok "loop on $LOOPDEV: $t: results" [ -n "$OUT" ]
		done
	else
		fail "losetup $TMP/loop.img"
	fi
fi
# one test of several using it is enough
expect_status 0 "-a -O -c 2 (-a uses --count)" "$FB" -a -O -c 2 --open-au-nr=1 -b 1M sim:
ok "-a -O -c 2: both tables" [ "$(grep -c '^align ' <<<"$OUT")" -gt 5 ] && \
	ok "-a -O -c 2: the open-au lines" grep -q '^1MiB	' <<<"$OUT"
expect_status 0 "-s -b 8M: a block above the erase size is fine for --scatter" \
	"$FB" -s -b 8M --scatter-order=2 sim:
ok "-s -b 8M: four points" [ "$(wc -l <<<"$OUT")" -eq 4 ]

# ---- messages with a way forward (issue 22)
bad "--allign: the option meant" "unrecognized option '--allign': did you mean '--align'? (flashbench --help lists them all)" \
	--allign sim:
bad "--frobnicate: --help" "unrecognized option '--frobnicate' (flashbench --help lists them all)" \
	--frobnicate sim:
# a write test past the end: the options that shrink its regions, with their values
refused "-O past the end of 64MiB" \
	"open-au would access up to byte 125829120, but $IMG has only 67108864 bytes: give --offset=0 (now 16MiB), a smaller --open-au-nr (now 2) or --erasesize (now 8MiB)" \
	-O -e 8M "$IMG"
refused "-f past the end: no --offset (it starts at 0)" \
	"find-fat would access up to byte 83886080, but $IMG has only 67108864 bytes: give a smaller --fat-nr (now 20) or --erasesize (now 4MiB)" \
	-f --fat-nr=20 "$IMG"
refused "--sustained past the end" \
	"sustained would access up to byte 71303168, but sim:size=64M,image=$NEW has only 67108864 bytes: give --offset=0 (now 60MiB) or a smaller --size (now 8MiB)" \
	--sustained --offset=60M --size=8M "sim:size=64M,image=$NEW"
# a block device this user may not open: the access it needs, and how to get it
if need_root "a loop device opened by an unprivileged user" && need setpriv; then
	make_image "$TMP/perm.img" 64
	perm0=$(sha256sum <"$TMP/perm.img")
	if make_loop "$TMP/perm.img"; then
		mode0=$(stat -c %a "$LOOPDEV") grp0=$(stat -c %g "$LOOPDEV")
		cleanup_add "chmod $mode0 $LOOPDEV; chgrp $grp0 $LOOPDEV"
		chmod 600 "$LOOPDEV" && chgrp 0 "$LOOPDEV"
		nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
		expect_status 1 "--info as nobody on a 0600 root node" nobody "$FB" --info "$LOOPDEV"
		ok "--info as nobody: the access, root, a grant, the disk group ($ERR)" \
			grep -qF "flashbench: $LOOPDEV: Permission denied: this run needs read access to the node (mode 0600, owner root, group root): run it as root (sudo), grant it (sudo setfacl -m u:$(id -nu 65534):r $LOOPDEV), or join a group that has it (usually 'disk')" <<<"$ERR"
		chgrp disk "$LOOPDEV" && chmod 660 "$LOOPDEV"
		expect_status 1 "-O as nobody on a 0660 disk node" nobody "$FB" -O "$LOOPDEV"
		ok "-O as nobody: read and write, join 'disk' ($ERR)" \
			grep -qF "this run needs read and write access to the node (mode 0660, owner root, group disk): run it as root (sudo), grant it (sudo setfacl -m u:$(id -nu 65534):rw $LOOPDEV), or join its group (sudo usermod -aG disk $(id -nu 65534), then log in again)" <<<"$ERR"
		ok "-O as nobody: $TMP/perm.img untouched" [ "$(sha256sum <"$TMP/perm.img")" = "$perm0" ]
	else
		fail "losetup $TMP/perm.img"
	fi
fi

# ---- sim: keys given twice, two presets
refused "sim: key twice" "sim: key 'erase' given twice" -a "sim:erase=4M,erase=8M,image=$NEW"
refused "sim: two presets" "sim: two presets, 'usb' and 'fat'" -a "sim:usb,fat,image=$NEW"
refused "sim: preset after a key" "sim: preset 'fat' must come first" -a "sim:size=1G,fat"
expect_status 0 "sim: fail-at may be given more than once" \
	"$FB" -s --scatter-order=1 sim:fail-read-at=1G,fail-read-at=3G
ok "sim: two fail points: no read failed at 0" grep -q '^0	' <<<"$OUT"

# ---- --align needs a block of an even number of sectors
refused "-a -b 1536" "--blocksize 1536: --align reads half a block on each side of a boundary, so the block size must be a multiple of twice the 512-byte sector (1024)" \
	-a -b 1536 "$IMG"
expect_status 0 "-a -b 3072 (six sectors) runs" "$FB" -a -b 3072 sim:
expect_status 0 "-O -b 1536 (no --align) runs" "$FB" -O -b 1536 -e 96K --open-au-nr=1 sim:

# ---- --interval reads at --offset
make_image "$TMP/16m" 16
bad "-i on a 16 MiB file" "--interval reads up to 524288 bytes (--interval-order 10) at --offset 16777216 (the default: 16MiB, rounded up to the erase size), but $TMP/16m has only 16777216 bytes: give a smaller --offset or --interval-order" -i "$TMP/16m"
bad "-i --offset=15M on a 16 MiB file" "at --offset 15728640, but" -i --offset=15M --interval-order=12 "$TMP/16m"
bad "-i --offset past 2^64" "at --offset 18446744073709551104, but" -i --offset=0xFFFFFFFFFFFFFE00 "$TMP/16m"
expect_status 0 "-i --offset=0 on a 16 MiB file" "$FB" -i --offset=0 --interval-order=4 "$TMP/16m"
done_testing
