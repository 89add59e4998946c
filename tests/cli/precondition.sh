#!/bin/bash
# --precondition=discard|fill|none: the announced regions are discarded
# (a file: punched holes; a loop device: BLKDISCARD, where the loop driver
# supports it; sim:: the model's AUs afresh, the image's blocks freed) or
# filled once, after the backup and before the tests; nothing outside the
# regions changes; a device that cannot discard fails the run before any
# test writes.
. "$(dirname "$0")/lib.sh"

MiB=1048576
# A search that announces its regions but writes none of them (its budget
# is below one probe), so that what the precondition left can be read back.
NOWRITE="--find-open-au -e 1M -b 64K --max-write=64K"
REGIONS="16 28 40 52"	# its erase blocks (MiB) on a 64 MiB device

# region_is FILE MIB zero|same REF: the 1 MiB at MIB reads as zeros, or as in REF
region_is() {
	local f=$1 at=$2 what=$3 ref=$4
	if [ "$what" = zero ]; then
		cmp -s <(dd if="$f" bs=$MiB skip="$at" count=1 2>/dev/null) <(head -c $MiB /dev/zero)
	else
		cmp -s <(dd if="$f" bs=$MiB skip="$at" count=1 2>/dev/null) \
			<(dd if="$ref" bs=$MiB skip="$at" count=1 2>/dev/null)
	fi
}
# outside_same FILE REF: every MiB outside the regions as in REF
outside_same() {
	local m
	for ((m = 0; m < 64; m++)); do
		case " $REGIONS " in *" $m "*) continue ;; esac
		region_is "$1" $m same "$2" || return 1
	done
}

# A file: holes punched in the regions, everything else as it was.
make_image "$TMP/ref.img" 64
cp "$TMP/ref.img" "$TMP/f.img"
# shellcheck disable=SC2086
expect_status 0 "file: discard" "$FB" $NOWRITE --precondition=discard "$TMP/f.img"
ok "file: the discard is said, with how, and that it reads as zeros" grep -qx \
	'precondition: discarded 4MiB in 4 regions (FALLOC_FL_PUNCH_HOLE); they read back as zeros' <<<"$OUT"
ok "file: said before the test" [ "$(head -1 <<<"$OUT" | cut -c1-13)" = "precondition:" ]
ok "file: after the announcement" grep -q 'will overwrite 4MiB in 4 regions' <<<"$ERR"
for m in $REGIONS; do
	ok "file: the region at ${m}MiB reads as zeros" region_is "$TMP/f.img" "$m" zero
done
ok "file: nothing else changed" outside_same "$TMP/f.img" "$TMP/ref.img"
ok "file: the size stays" [ "$(stat -c %s "$TMP/f.img")" -eq $((64 * MiB)) ]

# Fill: each region written once, sequentially; nothing else.
cp "$TMP/ref.img" "$TMP/f.img"
# shellcheck disable=SC2086
expect_status 0 "file: fill" "$FB" $NOWRITE --precondition=fill "$TMP/f.img"
ok "file: the fill is said" grep -q '^precondition: filled 4MiB in 4 regions, sequentially, in ' <<<"$OUT"
for m in $REGIONS; do
	ok "file: the region at ${m}MiB was written" not region_is "$TMP/f.img" "$m" same "$TMP/ref.img"
	ok "file: ... not with zeros" not region_is "$TMP/f.img" "$m" zero
done
ok "file: nothing else changed" outside_same "$TMP/f.img" "$TMP/ref.img"
# none (the default): nothing done, nothing said.
cp "$TMP/ref.img" "$TMP/f.img"
# shellcheck disable=SC2086
expect_status 0 "file: none" "$FB" $NOWRITE --precondition=none "$TMP/f.img"
ok "none: nothing said" not grep -q '^precondition:' <<<"$OUT"
ok "none: nothing changed" cmp -s "$TMP/f.img" "$TMP/ref.img"
# --preserve: the backup is made first, so the discarded data comes back.
# shellcheck disable=SC2086
expect_status 0 "--preserve --precondition=discard" "$FB" $NOWRITE --precondition=discard \
	--preserve --backup="$TMP/b.backup" "$TMP/f.img"
ok "--preserve: discarded after the backup" grep -q 'backed up 4MiB' <<<"$ERR"
ok "--preserve: the data is back" cmp -s "$TMP/f.img" "$TMP/ref.img"

# JSON: a section of its own, and the parameter.
# shellcheck disable=SC2086
"$FB" $NOWRITE --precondition=discard --format=json "$TMP/f.img" >"$TMP/p.json" 2>/dev/null
if need python3; then
	ok "json: the precondition section and parameter" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["parameters"]["precondition"] == "discard"; t=d["tests"][0]; assert t["test"] == "precondition" and t["status"] == "done" and "discarded" in t["records"][0]["text"], t' "$TMP/p.json"
fi

# sim: the model's AUs start afresh (-v counts what was discarded); an image's blocks are freed.
expect_status 0 "sim: discard" "$FB" -v -O --open-au-nr=2 --precondition=discard sim:
ok "sim: the discard is said" grep -q '^precondition: discarded 8MiB in 2 regions (the model' <<<"$OUT"
ok "sim: -v counts it" grep -q '8MiB discarded' <<<"$ERR"
head -c $((32 * MiB)) /dev/urandom >"$TMP/sim.img"
expect_status 0 "sim image: discard" "$FB" --find-open-au -e 1M -b 64K --max-write=64K \
	--precondition=discard "sim:size=64M,image=$TMP/sim.img"
ok "sim image: the region reads back as zeros" region_is "$TMP/sim.img" 16 zero
ok "sim image: said so" grep -q 'they read back as zeros' <<<"$OUT"

# Refusals: a read-only test, a bad mode.
warns "with a read-only test" "--precondition=discard: has no effect with --align" -a --precondition=discard sim:
bad "a bad mode" "--precondition: 'trim' is not discard, fill or none" -O --precondition=trim sim:

# A loop device: BLKDISCARD where the loop driver supports it (the region
# reads back as zeros); where it does not (as on some kernels), the run
# fails with the discard's offset, length and error before any test writes.
if need_root "loop devices" && need losetup; then
	cp "$TMP/ref.img" "$TMP/l.img"
	if make_loop "$TMP/l.img"; then
		q=/sys/block/${LOOPDEV#/dev/}/queue/discard_max_bytes
		if [ "$(cat "$q" 2>/dev/null || echo 0)" -gt 0 ]; then
			# shellcheck disable=SC2086
			expect_status 0 "loop: discard" "$FB" $NOWRITE --precondition=discard "$LOOPDEV"
			ok "loop: BLKDISCARD, and zeros" grep -qx \
				'precondition: discarded 4MiB in 4 regions (BLKDISCARD); they read back as zeros' <<<"$OUT"
			for m in $REGIONS; do
				ok "loop: the region at ${m}MiB reads as zeros" region_is "$LOOPDEV" "$m" zero
			done
			ok "loop: nothing else changed" outside_same "$LOOPDEV" "$TMP/ref.img"
		else
			expect_status 1 "loop without discard: fails" "$FB" -O --open-au-nr=2 -e 1M -b 256K \
				--precondition=discard "$LOOPDEV"
			ok "loop without discard: the error names the discard" \
				grep -q "$LOOPDEV: discard at offset 16777216, length 1048576: Operation not supported" <<<"$ERR"
			ok "loop without discard: the way out is said" grep -q -- '--precondition=fill' <<<"$ERR"
			ok "loop without discard: said in the results" grep -q '^precondition: the discard failed' <<<"$OUT"
			ok "loop without discard: no test ran" not grep -q 'verdict' <<<"$OUT"
			ok "loop without discard: nothing written" cmp -s "$LOOPDEV" "$TMP/ref.img"
		fi
	else
		fail "could not attach a loop device"
	fi
fi
done_testing
