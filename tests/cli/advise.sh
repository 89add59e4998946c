#!/bin/bash
# --advise: on simulated cards of known geometry (4 MiB, 3 x 2^n, a FAT
# area) the sfdisk script's starts and sizes are whole erase blocks and
# sfdisk accepts it; mkfs.vfat, mkfs.ext4 and mkfs.f2fs take the advised
# options and lay the file system out as advised; --analyze of the saved
# output gives the same advice; refusals.
. "$(dirname "$0")/lib.sh"

# script FILE: the sfdisk script of an advice output (the lines after its heading)
script() { sed -n '/^advice: the layout as an sfdisk script/,/^advice: /p' "$1" | sed '1d;$d'; }
# advised NAME FILE: the text of one advice line ("advice: NAME ...")
advised() { grep -m1 "^advice: $1" "$2"; }
# fat_data IMAGE: the data area's first sector, from the FAT32 boot sector
fat_data() {
	python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(512); r=struct.unpack_from("<H",b,14)[0]; print(r + b[16] * struct.unpack_from("<I",b,36)[0])' "$1"
}

cards=(
	"sd|4194304|4294967296|-a -b 4K -O --open-au-nr=5 --advise sim:"
	"tlc|6291456|6442450944|-a -b 1K --advise sim:tlc"
	"3m|3145728|4294967296|-a -b 1K --advise sim:erase=3M,page=16K"
	"1.5m|1572864|4294967296|-a -b 1K --advise sim:erase=1536K,page=16K"
	"fat|4194304|2147483648|-a -f --random -b 1K --advise sim:fat"
)
for c in "${cards[@]}"; do
	IFS='|' read -r name erase size args <<<"$c"
	# shellcheck disable=SC2086
	expect_status 0 "$name: -a --advise runs" "$FB" $args
	echo "$OUT" >"$TMP/$name.out"
	script "$TMP/$name.out" >"$TMP/$name.sfdisk"
	ok "$name: a script of label, unit, sector size and a partition" \
		[ "$(grep -c '^label: dos$\|^unit: sectors$\|^sector-size: 512$\|type=L$' "$TMP/$name.sfdisk")" -eq 4 ]
	while read -r c s n; do
		ok "$name: start $s is a multiple of the erase block" [ $((s * 512 % erase)) -eq 0 ]
		ok "$name: size $n is a multiple of the erase block" [ $((n * 512 % erase)) -eq 0 ]
		ok "$name: the partition ends inside the device" [ $(((s + n) * 512)) -le "$size" ]
		[ "$c" = "#" ] && continue	# the optional FAT partition, before the main one
		ok "$name: less than an erase block left at the end" [ $((size - (s + n) * 512)) -lt "$erase" ]
	done < <(sed -n 's/^\(#\)\{0,1\} \{0,1\}start=\([0-9]*\), size=\([0-9]*\),.*/\1- \2 \3/p' "$TMP/$name.sfdisk" | sed 's/^#- /# /; s/^- /. /')
	if need sfdisk; then
		truncate -s "$size" "$TMP/$name.img"
		ok "$name: sfdisk --no-act accepts the script" \
			sfdisk --no-act -q "$TMP/$name.img" <"$TMP/$name.sfdisk"
		ok "$name: sfdisk makes that table" sfdisk -q "$TMP/$name.img" <"$TMP/$name.sfdisk"
		start=$(sed -n 's/^start=\([0-9]*\),.*/\1/p' "$TMP/$name.sfdisk")
		ok "$name: sfdisk kept the start" grep -q "start= *$start," <(sfdisk -d "$TMP/$name.img")
		rm -f "$TMP/$name.img"
	fi
done

# The numbers match the geometry.
ok "sd: start 4MiB" grep -qx 'start=8192, size=8380416, type=L' "$TMP/sd.sfdisk"
ok "sd: ext4 stride 4, stripe_width 1024" grep -q 'mkfs.ext4 -b 4096 -E stride=4,stripe_width=1024 ' "$TMP/sd.out"
ok "sd: f2fs sections of one erase block" grep -q 'mkfs.f2fs -s 2 ' "$TMP/sd.out"
ok "sd: one -O run at 5 fast: at least 5 open" grep -q '^advice: open AUs (linear): at least 5' "$TMP/sd.out"
ok "sd: 4 active logs for 5 open AUs" grep -q 'active_logs=4' "$TMP/sd.out"
ok "tlc: start 6MiB" grep -qx 'start=12288, size=12570624, type=L' "$TMP/tlc.sfdisk"
ok "tlc: stripe_width 1536, f2fs -s 3" grep -q 'stripe_width=1536' "$TMP/tlc.out"
ok "tlc: the 3 x 2^n start is said" grep -q '3 x 2^n erase block: tools that align to 1MiB or 4MiB miss it' "$TMP/tlc.out"
ok "3m: start 3MiB" grep -q '^start=6144,' "$TMP/3m.sfdisk"
ok "3m: f2fs sections of 6MiB (two erase blocks)" grep -q 'segments per section 3: a section of 6MiB' "$TMP/3m.out"
ok "3m: stripe_width 768" grep -q 'stride=4,stripe_width=768 ' "$TMP/3m.out"
ok "1.5m: start 1.5MiB" grep -q '^start=3072,' "$TMP/1.5m.sfdisk"
ok "fat: the area found" grep -q '^advice: FAT-optimised area: the first 2 erase blocks (find-fat, random)' "$TMP/fat.out"
ok "fat: the partition starts after it" grep -qx 'start=16384, size=4177920, type=L' "$TMP/fat.sfdisk"
ok "fat: the FAT partition in it, commented" grep -qx '# start=8192, size=8192, type=c' "$TMP/fat.sfdisk"
ok "fat: clusters of the 8KiB page" grep -q '^advice: FAT cluster 8KiB: the page' "$TMP/fat.out"
ok "no open-AU count: active_logs declined" grep -q 'f2fs active_logs: not advised' "$TMP/tlc.out"

# The file systems take the options, and lay out as advised.
for name in sd tlc 3m; do
	IFS='|' read -r _ erase _ _ <<<"$(printf '%s\n' "${cards[@]}" | grep "^$name|")"
	bytes=$(( $(sed -n 's/^start=[0-9]*, size=\([0-9]*\),.*/\1/p' "$TMP/$name.sfdisk") * 512 ))
	part="$TMP/$name.part"
	if need mkfs.vfat python3; then
		truncate -s "$bytes" "$part"
		cmd=$(advised "FAT: " "$TMP/$name.out" | sed 's/.*FAT: \(mkfs.vfat[^(]*\)PARTITION.*/\1/')
		# shellcheck disable=SC2086
		ok "$name: $cmd takes the options" $cmd "$part" >/dev/null
		d=$(fat_data "$part")
		ok "$name: the FAT data area (sector $d) lies on an erase-block boundary" [ $((d * 512 % erase)) -eq 0 ]
		ok "$name: where the advice says" grep -q "^advice: FAT data area at $(python3 -c "
import sys; n=$d*512
for u,s in ((1<<30,'GiB'),(1<<20,'MiB'),(1<<10,'KiB')):
    if n>=u: print(('%.3g'%(n/u))+s); break")" "$TMP/$name.out"
		rm -f "$part"
	fi
	if need mkfs.ext4 dumpe2fs; then
		truncate -s "$bytes" "$part"
		opts=$(advised "ext4: mkfs.ext4" "$TMP/$name.out" | sed 's/.*-E \([^ ]*\) .*/\1/')
		ok "$name: mkfs.ext4 -E $opts" mkfs.ext4 -q -F -b 4096 -E "$opts" "$part"
		w=$(dumpe2fs -h "$part" 2>/dev/null | sed -n 's/^RAID stripe width: *//p')
		ok "$name: ext4's stripe width is the erase block ($w)" [ "$((w * 4096))" -eq "$erase" ]
		rm -f "$part"
	fi
	if need mkfs.f2fs python3; then
		truncate -s "$bytes" "$part"
		s=$(advised "f2fs: mkfs.f2fs" "$TMP/$name.out" | sed 's/.*mkfs.f2fs -s \([0-9]*\) .*/\1/')
		ok "$name: mkfs.f2fs -s $s" mkfs.f2fs -q -f -s "$s" "$part" >/dev/null
		got=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(2048); print(struct.unpack_from("<I",b,1024+24)[0] * 2 * 1048576)' "$part")
		ok "$name: an f2fs section is whole erase blocks ($got bytes)" [ $((got % erase)) -eq 0 ]
		rm -f "$part"
	fi
done

# --analyze of the saved output: the same advice, but for what needs the device's size.
size_free() { grep '^advice: ' "$1" | grep -v '^advice: \(partition size\|FAT data area\|FAT: \|sector\|the layout\)'; }
for name in sd tlc fat; do
	expect_status 0 "$name: --analyze --advise" "$FB" --analyze "$TMP/$name.out" --advise
	echo "$OUT" >"$TMP/$name.an"
	ok "$name: --analyze gives the same advice" diff <(size_free "$TMP/$name.out") <(size_free "$TMP/$name.an")
	ok "$name: --analyze: the size is not known, said" grep -q '^advice: partition size: not known here' "$TMP/$name.an"
	ok "$name: --analyze: no size= in the script" grep -q '^start=[0-9]*, type=L$' "$TMP/$name.an"
done
# A saved JSON document too, and its records.
"$FB" -a -b 4K -O --open-au-nr=5 --advise --format=json sim: >"$TMP/sd.json" 2>/dev/null
expect_status 0 "--analyze of JSON --advise" "$FB" --analyze "$TMP/sd.json" --advise
ok "JSON: the same advice" diff <(size_free "$TMP/sd.out") <(size_free <(echo "$OUT"))
ok "JSON: the advice's own section" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"][-1]; assert t["test"] == "advise" and t["status"] == "done"; v={r["verdict"]: r for r in t["records"] if r["type"] == "verdict"}; assert v["partition_start"]["value"] == 4194304 and v["ext4_stripe_width"]["value"] == 1024 and v["f2fs_active_logs"]["value"] == 4 and v["basis_erase_block"]["result"] == "named"; assert [r["line"] for r in t["records"] if r["type"] == "row"][0] == "label: dos"' "$TMP/sd.json"
# Published runs of a real card: the Kingston 4GB (realruns 001 to 003).
cat "$TESTS_DIR"/fixtures/realruns/00[123]-kingston-*.txt >"$TMP/kingston.txt"
expect_status 0 "realruns: --analyze --advise" "$FB" --analyze "$TMP/kingston.txt" --advise
ok "realruns: erase block named 4MiB" grep -q '^advice: erase block 4MiB: named' <<<"$OUT"
ok "realruns: open AUs 3 fast, 4 slow" grep -q '^advice: open AUs (linear): 3 fast, 4 slow' <<<"$OUT"
ok "realruns: 2 active logs for 3 open AUs" grep -q '^advice: f2fs active_logs 2:' <<<"$OUT"
ok "realruns: start 4MiB" grep -qx 'start=8192, type=L' <<<"$OUT"
# A merge regime below the collections (issue 29): the streams said, and
# f2fs's logs kept below it.
expect_status 0 "merge regime: --find-open-au --advise" "$FB" --find-open-au --advise -e 4M \
	sim:erase=4M,write-bw=100M,copy-bw=100M,open-au=12,open-au-random=12,log-aus=4,log-merge=4ms
ok "merge: the basis names it" grep -q '^advice: open AUs (linear): 12 fast, 13 slow; a merge regime from 5: every switch of erase block costs 4ms$' <<<"$OUT"
ok "merge: 4 streams at full speed, 12 at most" grep -q '^advice: write streams: up to 4 at once at full speed; 5 to 12 pay 4ms a switch of erase block (a merge, small writes [0-9.]*x slower), more collect garbage$' <<<"$OUT"
ok "merge: f2fs below it" grep -q '^advice: f2fs active_logs 2: 2 logs and the checkpoint and tables make 3 erase blocks written at once, below the 5 from which' <<<"$OUT"
expect_status 0 "no merge: --find-open-au --advise" "$FB" --find-open-au --advise -e 4M sim:open-au=7
ok "no merge: as many streams as open" grep -q '^advice: write streams: up to 7 at once (as many erase blocks as the card keeps open; more collect garbage)$' <<<"$OUT"
ok "no merge: f2fs 6 logs" grep -q '^advice: f2fs active_logs 6: ' <<<"$OUT"
# A card that never collects: what lies above the largest N run is not claimed.
expect_status 0 "merge only: --analyze --advise" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/024-mergeonly-openau.txt" --advise
ok "merge only: more were not measured" grep -q '^advice: write streams: up to 1 at once at full speed; 2 to 7 pay .* a switch of erase block (a merge, small writes [0-9.]*x slower), more were not measured$' <<<"$OUT"
# A merge from 3: f2fs cannot stay below it, and says so.
expect_status 0 "merge from 3: --find-open-au --advise" "$FB" --find-open-au --advise -e 4M sim:open-au=12,log-aus=2,log-merge=6ms
ok "merge from 3: f2fs says the merge" grep -q '^advice: f2fs active_logs 6: .*; from 3 erase blocks on every switch of erase block costs [0-9.]*ms (a merge), which even the fewest logs f2fs takes pay$' <<<"$OUT"
# An align table whose verdict is uncertain: assumed or declined, said.
expect_status 0 "uncertain: --analyze --advise" "$FB" --analyze \
	"$TESTS_DIR/fixtures/realruns/019-unnamed-card-sdb-bradfa-issue13-align.txt" --advise
ok "uncertain: no erase block, no layout" grep -q '^advice: erase block: not known' <<<"$OUT"
ok "uncertain: no script" not grep -q '^label:' <<<"$OUT"
# --erasesize is taken over the verdict, and said.
expect_status 0 "--advise --erasesize" "$FB" -a -b 1K --advise --erasesize=8M sim:
ok "--erasesize: taken" grep -q '^advice: erase block 8MiB: as --erasesize says; the align verdict named 4MiB' <<<"$OUT"
ok "--erasesize: the start" grep -q '^start=16384,' <<<"$OUT"

# Refusals: nothing to advise on; a test with --analyze; an option no test uses.
bad "--advise alone" "--advise: needs the verdicts" --advise sim:
bad "--analyze with -a" "runs no test" --analyze "$TMP/sd.out" -a --advise
bad "--analyze --advise --fat-nr" "--fat-nr=3: has no effect" --analyze "$TMP/sd.out" --advise --fat-nr=3
expect_status 0 "--analyze --advise --erasesize is taken" "$FB" --analyze "$TMP/sd.out" --advise --erasesize=8M
ok "--analyze --erasesize: 8MiB" grep -q '^advice: erase block 8MiB: as --erasesize says' <<<"$OUT"
done_testing
