#!/bin/bash
# --capacity: the advertised size checked with stamped blocks spread over
# the device and a second round where the trouble starts -- on simulated
# fake cards (wrap=, drop-from=), a healthy image and loop device,
# --preserve, bad input and refusals.
. "$(dirname "$0")/lib.sh"
need python3 || { done_testing; exit; }
CHECK="python3 $TESTS_DIR/cli/formats_check.py"

# cap SPEC: run on a fresh simulated card with an image; text in $OUT, JSON in $TMP/cap.json
cap() {
	rm -f "$TMP/card.img"
	"$FB" --capacity "sim:$1,image=$TMP/card.img" >"$TMP/cap.txt" 2>"$TMP/cap.err"
	ST=$?
	OUT=$(cat "$TMP/cap.txt")
	rm -f "$TMP/card.img"
	"$FB" --capacity --format=json "sim:$1,image=$TMP/card.img" >"$TMP/cap.json" 2>/dev/null
}
value() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=[r for r in d["tests"][0]["records"] if r["type"] == "verdict"][0]; print(v["result"], v["value"])' "$TMP/cap.json"; }

cap "size=4G"
ok "4GiB real: exit 0" [ "$ST" -eq 0 ]
ok "4GiB real: round 1 of 65 blocks 64MiB apart" grep -qx 'round 1: 65 blocks 64MiB apart from 0B: 0 bad (0 wrapped, 0 dropped, 0 other), first bad at -' <<<"$OUT"
ok "4GiB real: round 2, the wrap search" grep -qx 'round 2: 1812 blocks: 5.66MiB whole from 0B, then 5.66MiB apart from 2GiB: 0 bad (0 wrapped, 0 dropped, 0 other), first bad at -' <<<"$OUT"
ok "4GiB real: the verdict" grep -qx 'capacity: real: all 4GiB hold what was written at the 1877 places tried' <<<"$OUT"
ok "4GiB real: 7.33MiB written" grep -q '^wrote 7.33MiB in 2 rounds, ' <<<"$OUT"
ok "4GiB real: the JSON" [ "$(value)" = "real 4294967296" ]
ok "4GiB real: JSON records are the text lines" $CHECK json "$TMP/cap.txt" "$TMP/cap.json"
ok "4GiB real: 4450 regions announced" grep -q 'will overwrite 23MiB in 4450 regions between 0B and 4GiB' "$TMP/cap.err"

cap "size=4G,wrap=2G"
ok "wrap at half: keeps 2GiB" grep -qx 'capacity: wrapped: the device keeps at most 2GiB of the 4GiB it reports (writes 2GiB apart land on the same blocks)' <<<"$OUT"
ok "wrap at half: 32 wrapped from 0" grep -q '^round 1: 65 blocks 64MiB apart from 0B: 32 bad (32 wrapped, 0 dropped, 0 other), first bad at 0B$' <<<"$OUT"
ok "wrap at half: the JSON" [ "$(value)" = "wrapped 2147483648" ]
ok "wrap at half: JSON records are the text lines" $CHECK json "$TMP/cap.txt" "$TMP/cap.json"
# a wrap that round 1's 64 MiB steps do not divide: round 2 finds it
cap "size=4G,wrap=48M"
ok "wrap at 48MiB: round 2 from 0" grep -q '^round 2: 64 blocks 1MiB apart from 0B: 16 bad (16 wrapped' <<<"$OUT"
ok "wrap at 48MiB: the JSON" [ "$(value)" = "wrapped 50331648" ]
cap "size=4G,wrap=1536M"
ok "wrap at 1.5GiB: the JSON" [ "$(value)" = "wrapped 1610612736" ]
# Sizes that are not powers of two (a "64 GB" card is 62.5 GiB): round 1
# lands no two probes on one block, the wrap search finds them.
cap "size=15G,wrap=4G"
ok "15GiB keeping 4GiB: wrapped" grep -qx 'capacity: wrapped: the device keeps at most 4GiB of the 15GiB it reports (writes 4GiB apart land on the same blocks)' <<<"$OUT"
ok "15GiB keeping 4GiB: round 2 finds it" grep -q '^round 2: 3507 blocks: 11MiB whole from 0B, then 11MiB apart from 7.5GiB: 2 bad (2 wrapped' <<<"$OUT"
cap "size=7800M,wrap=2G"
ok "7800MiB keeping 2GiB: the JSON" [ "$(value)" = "wrapped 2147483648" ]
cap "size=100M,wrap=30M"
ok "100MiB keeping 30MiB: the JSON" [ "$(value)" = "wrapped 31457280" ]
# The grid: advertised sizes, powers of two and not, each keeping from a
# 64th to just under all of it, wrapping or dropping: every one found (a
# wrap-around reported as a multiple of the real size, a loss at or
# below it); each advertised size without a fault: real.
grid() {
	local adv=$1 bytes=$2 f w line got miss=0 n=0
	# the real size as a fraction of the advertised one (num/den)
	for f in 1/64 1/32 1/10 1/4 1/3 1/2 2/3 10/11 100/101 near; do
		if [ "$f" = near ]; then w=$((bytes - 1048576)); else w=$((bytes * ${f%/*} / ${f#*/} / 4096 * 4096)); fi
		for key in wrap drop-from; do
			rm -f "$TMP/g.img"
			"$FB" --capacity --format=json "sim:size=$adv,$key=$w,image=$TMP/g.img" >"$TMP/cap.json" 2>/dev/null
			got=$(value)
			n=$((n + 1))
			case "$key ${got% *}" in
			"wrap wrapped") [ $(( ${got#* } % w )) -eq 0 ] || { miss=$((miss + 1)); echo "# $adv $key=$w: $got"; } ;;
			"wrap lost"|"drop-from lost") [ "${got#* }" -le "$w" ] || { miss=$((miss + 1)); echo "# $adv $key=$w: $got"; } ;;
			*) miss=$((miss + 1)); echo "# $adv $key=$w: $got" ;;
			esac
		done
	done
	rm -f "$TMP/g.img"
	"$FB" --capacity --format=json "sim:size=$adv,image=$TMP/g.img" >"$TMP/cap.json" 2>/dev/null
	got=$(value)
	ok "grid $adv: $n fakes found" [ "$miss" -eq 0 ]
	ok "grid $adv: the real card is real" [ "$got" = "real $bytes" ]
}
grid 64M 67108864
grid 100M 104857600
grid 1000M 1048576000
grid 4G 4294967296
grid 7800M 8178892800
grid 15G 16106127360
grid 62500M 65536000000
# drops: the end narrowed to 1 MiB
cap "size=4G,drop-from=3000M"
ok "drop at 3000MiB: round 2 from the last good block" grep -q '^round 2: 64 blocks 1MiB apart from 2.88GiB: 8 bad (0 wrapped, 8 dropped, 0 other), first bad at 2.93GiB$' <<<"$OUT"
ok "drop at 3000MiB: the bracket" grep -qx 'capacity: lost: blocks written from 2.93GiB on do not hold; the real end lies between bytes 3144683520 and 3145728000' <<<"$OUT"
ok "drop at 3000MiB: the JSON" [ "$(value)" = "lost 3144683520" ]
ok "drop: 516KiB written in 2 rounds" grep -q '^wrote 516KiB in 2 rounds, ' <<<"$OUT"

# Smaller than it claims (issue 22, f3 users): the partition table for the
# real size, as f3fix writes it, and --advise lays out that size only
cap "size=4G,drop-from=3000M"
ok "drop: f3fix's partition ($OUT)" grep -qx 'advice: partition only the 2.93GiB that hold, not the 4GiB the device reports (as f3fix does): start 1MiB (sector 2048), size 2.93GiB (6139912 sectors), to the real end, so that no file system reaches the blocks that do not hold' <<<"$OUT"
ok "drop: its sfdisk script" [ "$(grep -A4 '^advice: the layout as an sfdisk script' <<<"$OUT" | tail -4 | tr '\n' '|')" = "label: dos|unit: sectors|sector-size: 512|start=2048, size=6139912, type=c|" ]
ok "drop: ends at the last byte that holds" [ $(((2048 + 6139912) * 512)) -eq 3144683520 ]
ok "drop: JSON records are the text lines" $CHECK json "$TMP/cap.txt" "$TMP/cap.json"
if need sfdisk; then
	truncate -s 4G "$TMP/disk.img"
	grep -A4 '^advice: the layout as an sfdisk script' <<<"$OUT" | tail -4 >"$TMP/script"
	ok "drop: sfdisk takes the script" sfdisk -q "$TMP/disk.img" <"$TMP/script"
	ok "drop: the partition ends inside what holds" \
		[ "$(sfdisk -d "$TMP/disk.img" | sed -n 's/.*start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2/p' | awk "{ printf \"%d\\n\", (\$1 + \$2) * 512 }")" -le 3144683520 ]
	rm -f "$TMP/disk.img"
fi
cap "size=4G,wrap=2G"
ok "wrap: f3fix's partition" grep -q '^advice: partition only the 2GiB that hold, not the 4GiB the device reports (as f3fix does): start 1MiB (sector 2048), size 2GiB (4192256 sectors)' <<<"$OUT"
cap "size=4G"
ok "real: no partition advice" not grep -q '^advice:' <<<"$OUT"
rm -f "$TMP/card.img"
expect_status 0 "-a --capacity --advise on a wrapped card" "$FB" -a --capacity --advise "sim:size=4G,wrap=2G,image=$TMP/card.img"
ok "--advise: the real size ($OUT)" grep -qx 'advice: device size 2GiB: what --capacity found holds, not the 4GiB the device reports: the advice is for that size' <<<"$OUT"
ok "--advise: the layout inside 2GiB" grep -qx 'start=8192, size=4186112, type=L' <<<"$OUT"
ok "--advise: 2GiB less its first 4MiB" [ $(((8192 + 4186112) * 512)) -eq $((2048 * 1048576)) ]
rm -f "$TMP/card.img"

# A healthy image file and loop device; --preserve puts all back.
IMG=$TMP/img
make_image "$IMG" 64
cp "$IMG" "$TMP/orig"
expect_status 0 "image --preserve" "$FB" --capacity --preserve --backup="$TMP/b.backup" "$IMG"
ok "image: real" grep -qx 'capacity: real: all 64MiB hold what was written at the 294 places tried' <<<"$OUT"
ok "image --preserve: restored" cmp -s "$IMG" "$TMP/orig"
ok "image --preserve: backup removed" [ ! -e "$TMP/b.backup" ]
expect_status 0 "image" "$FB" --capacity "$IMG"
ok "image: only the probe blocks changed" [ "$(cmp -l "$IMG" "$TMP/orig" | awk '{ print int(($1 - 1) / 4096) }' | sort -un | wc -l)" -le 357 ]
if is_root; then
	make_image "$TMP/loop.img" 64
	if make_loop "$TMP/loop.img"; then
		expect_status 0 "loop" "$FB" --capacity "$LOOPDEV"
		ok "loop: real" grep -qx 'capacity: real: all 64MiB hold what was written at the 294 places tried' <<<"$OUT"
	else
		fail "cannot attach a loop device"
	fi
else
	skip_ci "loop devices need root"
fi

# Bad input and refusals: exit 2, nothing written.
cp "$IMG" "$TMP/before"
bad "no data" "keeps no data" --capacity sim:
bad "a zoned card" "zoned" --capacity sim:size=64M,erase=4M,zoned=1
# options it does not use: a warning, and it runs (issue 22)
warns "--blocksize" "--blocksize=64K: has no effect with --capacity" --capacity -b 64K "sim:size=64M,image=$TMP/w.img"
warns "--size" "--size=1M: has no effect with --capacity" --capacity --size=1M "sim:size=64M,image=$TMP/w2.img"
truncate -s 4K "$TMP/tiny"
bad "too small" "too small" --capacity "$TMP/tiny"
ok "bad input: nothing written" cmp -s "$IMG" "$TMP/before"
# A file that ends inside a sector is refused before the first write (it
# wrote 64 probes and failed on the last block); one that ends inside a
# 4 KiB block is probed up to its last whole block.
head -c 10000001 /dev/zero >"$TMP/odd"
bad "an odd-sized file" "is 10000001 bytes, not a whole number of its" --capacity "$TMP/odd"
ok "an odd-sized file: untouched" [ "$(tr -d '\0' <"$TMP/odd" | wc -c)" -eq 0 ]
truncate -s $((10002432 + 512)) "$TMP/odd512"
expect_status 0 "a file ending inside a block" "$FB" --capacity "$TMP/odd512"
ok "a file ending inside a block: its whole blocks are real" grep -qx 'capacity: real: all 9.54MiB hold what was written at the 154 places tried' <<<"$OUT"
done_testing
