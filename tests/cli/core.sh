#!/bin/bash
# Issue 2: every flashbench test on an image file and a loop device prints
# well-formed lines; bad input exits 2 and touches nothing; a test that
# would run past the end is refused.
. "$(dirname "$0")/lib.sh"

IMG=$TMP/img
make_image "$IMG" 64
SUM=$(sha256sum <"$IMG")

ALIGN_RE=$'^align [0-9]+\tpre [0-9.]+(ns|µs|ms|s)\ton [0-9.]+(ns|µs|ms|s)\tpost [0-9.]+(ns|µs|ms|s)\tdiff -?[0-9.]+(ns|µs|ms|s)$'
RATE_RE=$'^[0-9.]+(B|KiB|MiB|GiB)(\t[0-9.]+(B|K|M|G)/s)+$'

# all_match REGEX: every line of $OUT matches, and there is at least one
all_match() { [ -n "$OUT" ] && ! grep -qvE "$1" <<<"$OUT"; }

run_modules() {	# DEVICE LABEL
	local dev=$1 what=$2
	expect_status 0 "align on $what" "$FB" -a -b 1024 -c 2 "$dev"
	ok "align lines on $what" all_match "$ALIGN_RE|^verdict: "
	ok "align starts at 32MiB on a 64MiB $what" grep -q '^align 33554432	' <<<"$(head -1 <<<"$OUT")"
	ok "power-of-two rows end at twice the block size on $what" \
		grep -q '^align 2048	' <<<"$(grep -E '^align (33554432|16777216|8388608|4194304|2097152|1048576|524288|262144|131072|65536|32768|16384|8192|4096|2048)	' <<<"$OUT" | tail -1)"
	ok "15 power-of-two rows on $what" [ "$(grep -cE '^align (33554432|16777216|8388608|4194304|2097152|1048576|524288|262144|131072|65536|32768|16384|8192|4096|2048)	' <<<"$OUT")" -eq 15 ]
	expect_status 0 "open-au on $what" "$FB" -O -e 1M -b 64K --open-au-nr=2 "$dev"
	ok "open-au lines on $what" all_match "$RATE_RE|^verdict: "
	ok "open-au sizes 1MiB..64KiB on $what" [ "$(grep -v '^verdict: ' <<<"$OUT" | cut -f1 | tr '\n' ' ')" = "1MiB 512KiB 256KiB 128KiB 64KiB " ]
	expect_status 0 "open-au --random on $what" "$FB" -O -r -e 1M -b 128K "$dev"
	ok "open-au random lines on $what" all_match "$RATE_RE|^verdict: "
	expect_status 0 "find-fat on $what" "$FB" -f -e 1M -b 256K --fat-nr=3 "$dev"
	ok "find-fat lines with 3 columns on $what" all_match $'^[0-9.]+(KiB|MiB)(\t[0-9.]+(B|K|M|G)/s){3}$|^verdict: '
	expect_status 0 "scatter on $what" "$FB" -s --scatter-order=4 -c 1 "$dev"
	ok "scatter: 16 gnuplot lines on $what" [ "$(grep -cE $'^[0-9.e+]+\t[0-9.e+-]+$' <<<"$OUT")" -eq 16 ]
	expect_status 0 "interval on $what" "$FB" -i --interval-order=4 -c 1 "$dev"
	ok "interval: 5 sizes and a fit on $what" [ "$(grep -cE $'^[0-9.]+(B|KiB)\t[0-9.]+(ns|µs|ms)$' <<<"$OUT")" -eq 5 ]
	ok "interval fit line on $what" grep -qE '^interval: (access time .*, throughput .*/s|no fit: .*)$' <<<"$OUT"
	expect_status 0 "-o writes to a file on $what" "$FB" -a -b 1M -c 1 -o "$TMP/out.txt" "$dev"
	ok "-o: nothing on stdout" [ -z "$OUT" ]
	ok "-o: align lines in the file" grep -q '^align ' "$TMP/out.txt"
	expect_status 0 "-v on $what" "$FB" -v -a -b 1M -c 1 "$dev"
	ok "-v prints size and sector" grep -qE '67108864 bytes \(64MiB\), sector [0-9]+' <<<"$ERR"
}

run_modules "$IMG" "image file"

# Read-only tests work without write permission (they open read-only);
# as root, drop to nobody so that the file mode counts.
chmod 444 "$IMG"
chmod 755 "$TMP"
as_user=()
if is_root && ! need setpriv; then
	:	# counted by need
else
	is_root && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	expect_status 0 "align on a file without write permission" "${as_user[@]}" "$FB" -a -b 1M -c 1 "$IMG"
	expect_status 1 "open-au on a file without write permission cannot open it" "${as_user[@]}" "$FB" -O -e 1M "$IMG"
	ok "open-au without write permission: says why" grep -q 'Permission denied' <<<"$ERR"
fi
chmod 644 "$IMG"

# ---- bad input: exit 2, one line naming the option and the value, no I/O
make_image "$TMP/small" 64
SUM2=$(sha256sum <"$TMP/small")
S=$TMP/small
bad "garbage blocksize" "--blocksize: invalid size 'abc'" -O -b abc "$S"
bad "zero blocksize" "--blocksize" -O -b 0 "$S"
bad "negative erasesize" "-4M" -O -e -4M "$S"
bad "overflowing erasesize" "99999999999999999999" -O -e 99999999999999999999 "$S"
bad "overflow through a suffix" "17179869184G" -O -e 17179869184G "$S"
bad "blocksize not a multiple of the sector" "--blocksize 1000" -O -b 1000 "$S"
bad "erasesize not a multiple of the sector" "--erasesize 1000000" -O -e 1000000 -b 512 "$S"
bad "offset not a multiple of the sector" "--offset 1000" -O --offset=1000 -e 1M "$S"
bad "blocksize larger than erasesize" "--blocksize 8388608 is larger than --erasesize" -O -b 8M -e 4M "$S"
bad "open-au-nr 0" "--open-au-nr: '0'" -O --open-au-nr=0 "$S"
bad "open-au-nr negative" "--open-au-nr: '-3'" -O --open-au-nr=-3 "$S"
bad "scatter-order 17" "--scatter-order: '17'" -s --scatter-order=17 "$S"
bad "count garbage" "--count: 'x'" -a -c x "$S"
bad "fat-nr zero" "--fat-nr: '0'" -f --fat-nr=0 "$S"
bad "missing DEVICE" "missing DEVICE" -O
bad "extra DEVICE" "unexpected argument '$S'" -O "$S" "$S"
bad "no test selected" "no test selected" "$S"
bad "DEVICE does not exist" "$TMP/nonexistent" -O "$TMP/nonexistent"
bad "unknown option" "--frobnicate" --frobnicate "$S"
bad "align blocksize below two sectors" "--blocksize 512" -a -b 512 "$S"
bad "--out onto DEVICE itself" "--out=$S: is $S itself" -a -b 1M -o "$S" "$S"
bad "--out onto the sim: image" "--out=$S: is $S itself" -a -b 1M -o "$S" "sim:size=64M,image=$S"
cp "$TESTS_DIR/fixtures/realruns/004-readme-example-card-align.txt" "$TMP/saved.txt"
bad "--out onto the --analyze input" "--out=$TMP/saved.txt: is $TMP/saved.txt itself" --analyze="$TMP/saved.txt" -o "$TMP/saved.txt"
ok "--analyze input left as it was" cmp -s "$TMP/saved.txt" "$TESTS_DIR/fixtures/realruns/004-readme-example-card-align.txt"
ok "bad input left the image byte-identical" [ "$(sha256sum <"$S")" = "$SUM2" ]

# ---- past the end: refused before the first request, with the numbers
bad "open-au past the end" "67108864" -O -e 4M --open-au-nr=2 "$S"
bad "find-fat past the end" "would access up to byte 100663296" -f -e 16M --fat-nr=6 "$S"
bad "interval past the end" "--interval reads up to 2097152 bytes (--interval-order 12) at --offset 66060288, but" -i --offset=63M --interval-order=12 "$S"
ok "refused tests left the image byte-identical" [ "$(sha256sum <"$S")" = "$SUM2" ]


# ---- --help and --version
expect_status 0 "--help" "$FB" --help
ok "--help lists --open-au-nr" grep -q -- '--open-au-nr' <<<"$OUT"
expect_status 0 "--version" "$FB" --version
ok "--version prints the name" grep -q '^flashbench [0-9]' <<<"$OUT"

# ---- the same on a loop device
if need_root "loop device tests" && need losetup && losetup -f >/dev/null 2>&1; then
	cp "$IMG" "$TMP/loopimg"
	if make_loop "$TMP/loopimg"; then
		run_modules "$LOOPDEV" "loop device"
		bad "loop: open-au past the end" "but $LOOPDEV has only 67108864 bytes" -O -e 4M --open-au-nr=3 "$LOOPDEV"
		lsum=$(sha256sum <"$LOOPDEV")
		bad "loop: --out onto a block device" "--out=$LOOPDEV: is a block device" -a -b 1M -c 1 -o "$LOOPDEV" "$IMG"
		ok "loop: --out refused, device unchanged" [ "$(sha256sum <"$LOOPDEV")" = "$lsum" ]
	else
		fail "could not attach a loop device"
	fi
	cp "$IMG" "$TMP/roimg"
	if make_loop "$TMP/roimg" --read-only; then
		expect_status 0 "align on a read-only loop device" "$FB" -a -b 1M -c 1 "$LOOPDEV"
		expect_status 1 "open-au on a read-only loop device fails cleanly" "$FB" -O -e 1M "$LOOPDEV"
		ok "read-only loop: one-line error with device, offset, length, strerror" \
			grep -qE "^flashbench: $LOOPDEV: write at offset 16777216, length 1048576: [A-Z][a-z ]+" <<<"$ERR"
		ok "read-only loop: no rate invented" [ -z "$OUT" ]
	fi
elif is_root && command -v losetup >/dev/null; then
	skip_ci "no free loop device"
fi
done_testing
