#!/bin/bash
# Issue 14: --info, what the kernel knows about the device. On sim: the
# model's parameters; on a file its file system and direct-I/O alignment;
# on loop devices (root) every value against blockdev and sysfs, a
# partition followed to its disk, a loop device to its backing file.
. "$(dirname "$0")/lib.sh"

# fact NAME: the value of fact NAME in $OUT (the text output)
fact() { awk -v n="$1" '$1 == n { $1 = ""; sub(/^ +/, ""); sub(/ \([0-9.]+[KMGTPE]?i?B\)$/, ""); print; exit }' <<<"$OUT"; }
# is NAME WANT: fact NAME is WANT
is() { local got; got=$(fact "$1"); ok "$WHAT: $1 is '$2' (got '$got')" [ "$got" = "$2" ]; }

# ---- sim: the model's parameters, exactly as sim: takes them
WHAT=sim
expect_status 0 "--info sim:" "$FB" --info sim:
ok "sim: a first line names the device" [ "$(head -1 <<<"$OUT")" = "info: sim: (simulated card)" ]
is size_bytes 4294967296
is logical_sector_bytes 512
is sim_erase_bytes 4194304
is sim_preset sd
is sim_erase 4MiB
is sim_open_au 5
is sim_read_chunk 64KiB
is discard no
# every parameter --list-sims shows for the preset (stated-erase is a claim:
# sim_stated_erase_bytes, only when made)
for kv in $("$FB" --list-sims | awk '/^sd\t/ { on = 1; next } on && /^\t[a-z]/ && /=/ { print } /^$/ { on = 0 }' | tr ',' '\n' | tr -d '\t'); do
	k=${kv%%=*} v=${kv#*=}
	[ "$k" = stated-erase ] && continue
	is "sim_${k//-/_}" "$v"
done
WHAT="sim:usb,erase=3M"
expect_status 0 "--info sim:usb,erase=3M" "$FB" --info sim:usb,erase=3M
is sim_preset usb
is sim_erase_bytes 3145728
is sim_open_au 12
# a card that states its erase block (as an SD card's AU): the -a verdict compares
WHAT="sim:stated-erase=8M"
expect_status 0 "--info sim:stated-erase=8M" "$FB" --info sim:stated-erase=8M
is sim_stated_erase_bytes 8388608
expect_status 0 "--info sim:" "$FB" --info sim:
ok "sim: states no erase block unless told" not grep -q '^sim_stated' <<<"$OUT"
stated() {	# KEY RESULT-TEXT: the last line of -a on sim:stated-erase=KEY
	expect_status 0 "-a on sim:stated-erase=$1" "$FB" -a "sim:stated-erase=$1"
	ok "-a, stated $1: $2 (got '$(tail -1 <<<"$OUT")')" [ "$(tail -1 <<<"$OUT")" = "$2" ]
	ok "-a, stated $1: the erase verdict is unchanged" grep -q '^verdict: erase block 4MiB (' <<<"$OUT"
}
stated 4M "verdict: the device states an erase block of 4MiB (sim_stated_erase_bytes): the measurement agrees"
stated 8M "verdict: the device states an erase block of 8MiB (sim_stated_erase_bytes): the measured 4MiB differs"
stated 3M "verdict: the device states an erase block of 3MiB (sim_stated_erase_bytes): the measured 4MiB differs"
stated 512K "verdict: the device states an erase block of 512KiB (sim_stated_erase_bytes): the measured 4MiB is 8 of them"
expect_status 0 "-a on sim: (states none)" "$FB" -a sim:
ok "-a without a stated size: no such line" not grep -q 'device states' <<<"$OUT"
expect_status 0 "-a on a card too noisy to judge" "$FB" -a -b 4K sim:stated-erase=4M,jitter=90
ok "-a with no erase verdict: says it cannot compare" [ "$(tail -1 <<<"$OUT")" = "verdict: the device states an erase block of 4MiB (sim_stated_erase_bytes): the measurement named none to compare" ]
"$FB" -a --format=json sim:stated-erase=4M >"$TMP/stated.json"
ok "json: the stated_erase verdict" grep -q '"verdict":"stated_erase","result":"agrees","value":4194304,"unit":"bytes"' "$TMP/stated.json"
"$FB" -a --format=csv sim:stated-erase=8M >"$TMP/stated.csv"
ok "csv: the stated_erase verdict" grep -q '^# verdict: the device states an erase block of 8MiB' "$TMP/stated.csv"
make_image "$TMP/card.img" 1
sum0=$(sha256sum <"$TMP/card.img")
expect_status 0 "--info of an image-backed card" "$FB" --info "sim:size=64M,image=$TMP/card.img"
WHAT="sim image"
is sim_image "$TMP/card.img"
is size_bytes 67108864
ok "--info leaves the image alone" [ "$(sha256sum <"$TMP/card.img")" = "$sum0" ]
bad "--info: a missing image is a typo" "No such file or directory" --info "sim:image=$TMP/none.img"
ok "--info creates no image" [ ! -e "$TMP/none.img" ]
warns "--info takes no --blocksize" "--blocksize=4K: has no effect with --info" --info -b 4K sim:
bad "--info: a bad sim spec" "sim: unknown key 'nope'" --info sim:nope=1

# ---- a regular file
WHAT=file
IMG=$TMP/img
make_image "$IMG" 8
sum0=$(sha256sum <"$IMG")
expect_status 0 "--info on a file" "$FB" --info "$IMG"
is size_bytes "$(stat -c %s "$IMG")"
is allocated_bytes "$(($(stat -c %b "$IMG") * $(stat -c %B "$IMG")))"
is fs_block_bytes "$(stat -f -c %s "$IMG")"
if need findmnt; then
	is fs_type "$(findmnt -no FSTYPE -T "$IMG" | tail -1)"
fi
a=$(fact dio_offset_align_bytes)
ok "file: dio_offset_align_bytes is a number or unknown ($a)" grep -qE '^([0-9]+|unknown)$' <<<"$a"
ok "file: direct_io said" grep -qE '^(yes|no)$' <<<"$(fact direct_io)"
ok "file: no facts of a block device" not grep -q '^logical_sector_bytes\|^scheduler' <<<"$OUT"
ok "file: --info changed nothing" [ "$(sha256sum <"$IMG")" = "$sum0" ]
ln -s "$IMG" "$TMP/link"
expect_status 0 "--info through a symlink" "$FB" --info "$TMP/link"
is size_bytes "$(stat -c %s "$IMG")"
# the output cannot be written: said, exit 1
"$FB" --info sim: >/dev/full 2>"$TMP/err"
ok "--info to a full disk: exit 1" [ $? -eq 1 ]
ok "--info to a full disk: said" grep -q "No space left on device" "$TMP/err"
# JSON: the same facts, with their sources
"$FB" --info --format=json "$IMG" >"$TMP/info.json"
if need python3; then
	ok "json: every fact has a value and a source" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["tests"][0]["records"] if r["type"] == "row"]
assert d["tests"][0]["test"] == "info" and len(rows) >= 8
assert all(r["table"] == "info" and r["value"] and r["source"] for r in rows)
assert {r["fact"]: r["value"] for r in rows}["size_bytes"] == sys.argv[2]' "$TMP/info.json" "$(stat -c %s "$IMG")"
fi
# --info with another test: the facts first
expect_status 0 "--info with -a" "$FB" -a --info -b 1M -c 1 "$IMG"
ok "--info with -a: the facts come first" [ "$(head -1 <<<"$OUT")" = "info: $IMG (file)" ]

# ---- loop devices: every value against blockdev and sysfs
if need_root "--info on loop devices" && need losetup blockdev sfdisk partx; then
	cp "$IMG" "$TMP/loop.img"
	if make_loop "$TMP/loop.img"; then
		L=$LOOPDEV
		Q=/sys/block/${L#/dev/}/queue
		WHAT=loop
		expect_status 0 "--info on a loop device" "$FB" --info "$L"
		is kernel_name "${L#/dev/}"
		is device_number "$(cat /sys/block/"${L#/dev/}"/dev)"
		is size_bytes "$(blockdev --getsize64 "$L")"
		is logical_sector_bytes "$(blockdev --getss "$L")"
		is physical_sector_bytes "$(blockdev --getpbsz "$L")"
		is min_io_bytes "$(blockdev --getiomin "$L")"
		is opt_io_bytes "$(blockdev --getioopt "$L")"
		is alignment_offset_bytes "$(blockdev --getalignoff "$L")"
		is readahead_bytes "$(($(blockdev --getra "$L") * 512))"
		is read_only no
		is discard_granularity_bytes "$(cat $Q/discard_granularity)"
		is discard_max_bytes "$(cat $Q/discard_max_bytes)"
		is discard "$([ "$(cat $Q/discard_max_bytes)" -gt 0 ] && echo yes || echo no)"
		is rotational "$([ "$(cat $Q/rotational)" = 1 ] && echo yes || echo no)"
		is zoned "$(cat $Q/zoned)"
		is zone_count "$(cat $Q/nr_zones)"
		is scheduler "$(sed 's/.*\[\(.*\)\].*/\1/' $Q/scheduler)"
		is max_request_bytes "$(($(cat $Q/max_sectors_kb) * 1024))"
		is loop_backing_file "$TMP/loop.img"
		is loop_offset_bytes 0
		ok "loop: the backing file's device said" grep -qE '^(/dev/|none)' <<<"$(fact loop_backing_device)"
		ok "loop: no facts it has not (vendor unknown)" [ "$(fact vendor)" = unknown ]
		ok "loop: no MMC registers" not grep -q '^mmc_' <<<"$OUT"
		# issue 15 asks whether the device discards: the same answer in JSON
		"$FB" --info --format=json "$L" >"$TMP/loop.json"
		ok "loop: json names discard" grep -q '"fact":"discard","value":"\(yes\|no\)"' "$TMP/loop.json"
		# --info is read-only: a mounted or held device is fine, and nothing changes
		sum0=$(sha256sum <"$TMP/loop.img")
		exec 9<"$L"
		expect_status 0 "--info on a device held open" "$FB" --info "$L"
		exec 9<&-
		ok "loop: --info changed nothing" [ "$(sha256sum <"$TMP/loop.img")" = "$sum0" ]
	else
		fail "could not attach a loop device"
	fi
	# read-only, with an offset
	cp "$IMG" "$TMP/ro.img"
	if make_loop "$TMP/ro.img" --read-only --offset 1048576; then
		WHAT="read-only loop"
		expect_status 0 "--info on a read-only loop device" "$FB" --info "$LOOPDEV"
		is read_only yes
		is loop_offset_bytes 1048576
		is size_bytes "$(blockdev --getsize64 "$LOOPDEV")"
	fi
	# a partition: followed to its disk
	make_image "$TMP/parts.img" 32
	printf '2048,20480\n,\n' | sfdisk -q "$TMP/parts.img"
	if make_loop "$TMP/parts.img" -P; then
		P=$LOOPDEV
		for i in 1 2 3 4 5 6 7 8 9 10; do
			[ -b "${P}p2" ] && break
			partx -a "$P" 2>/dev/null
			sleep 0.2
		done
		cleanup_add "partx -d $P"
		if [ -b "${P}p2" ]; then
			WHAT=partition
			expect_status 0 "--info on a partition" "$FB" --info "${P}p2"
			is partition_of "$P"
			is partition_number 2
			is partition_start_bytes "$(($(cat /sys/class/block/"${P#/dev/}"p2/start) * 512))"
			is size_bytes "$(blockdev --getsize64 "${P}p2")"
			is alignment_offset_bytes "$(blockdev --getalignoff "${P}p2")"
			is scheduler "$(sed 's/.*\[\(.*\)\].*/\1/' /sys/block/"${P#/dev/}"/queue/scheduler)"
			is loop_backing_file "$TMP/parts.img"
			expect_status 0 "--info on the whole disk" "$FB" --info "$P"
			ok "disk: no partition facts" not grep -q '^partition_' <<<"$OUT"
			is loop_backing_file "$TMP/parts.img"
		else
			skip "the kernel made no partition devices for $P"
		fi
	else
		fail "losetup -P"
	fi
fi
done_testing
