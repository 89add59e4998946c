#!/bin/bash
# --survey: -a, then the open-AU search with the erase size found (linear,
# then random), then find-fat, then the advice; within --max-write; only
# inside the announced regions; stops early when nothing more can be said.
. "$(dirname "$0")/lib.sh"

# The typical card: 4MiB erase blocks, 5 linear and 3 random open AUs.
expect_status 0 "sd" "$FB" --survey sim:
ok "sd: the erase size" grep -q '^verdict: erase block 4MiB ' <<<"$OUT"
ok "sd: linear" grep -q '^verdict: open AUs (linear): 5 fast, 6 slow; ' <<<"$OUT"
ok "sd: random" grep -q '^verdict: open AUs (random): 3 fast, 4 slow; ' <<<"$OUT"
ok "sd: find-fat, random, after them" grep -q '^verdict: FAT-optimised area uncertain (random)' <<<"$OUT"
ok "sd: the order" [ "$(grep -nE '^verdict: open AUs \(linear\)|^verdict: open AUs \(random\)|^verdict: FAT-|^start=' <<<"$OUT" | cut -d: -f1 | tr '\n' ' ')" = \
	"$(grep -nE '^verdict: open AUs \(linear\)|^verdict: open AUs \(random\)|^verdict: FAT-|^start=' <<<"$OUT" | cut -d: -f1 | sort -n | tr '\n' ' ')" ]
ok "sd: the advice uses both counts" grep -qx 'advice: open AUs (random): 3 fast, 4 slow' <<<"$OUT"
ok "sd: the sfdisk line" grep -qx 'start=8192, size=8380416, type=L' <<<"$OUT"
# Issue 20: -a runs with 1KiB blocks, small enough to see the 16KiB page, so the
# ext4 stride and FAT cluster advice rest on it; the searches keep 16KiB blocks.
ok "sd: -a reaches below the page" grep -qE '^align 2048	' <<<"$OUT"
ok "sd: the page named" grep -q '^verdict: page 16KiB (' <<<"$OUT"
ok "sd: advice: page named, not assumed" grep -qx 'advice: page 16KiB: named by the align verdict' <<<"$OUT"
ok "sd: ext4 stride from the page" grep -q '^advice: ext4 stride 4: the 16KiB page in 4KiB blocks' <<<"$OUT"
ok "sd: FAT cluster from the page" grep -q '^advice: FAT cluster 16KiB: the page' <<<"$OUT"
ok "sd: the searches keep 16KiB blocks" [ "$(grep -c '^find-open-au: erase block 4MiB, block size 16KiB, ' <<<"$OUT")" -eq 2 ]
ok "sd: the erase size still measured, not given" grep -qx 'advice: erase block 4MiB: named by the align verdict' <<<"$OUT"
# A --blocksize given is the user's, for -a too.
expect_status 0 "sd -b 16K" "$FB" --survey -b 16K sim:
ok "-b 16K: -a ends at 32KiB, as asked" [ "$(grep -E '^align [0-9]+	' <<<"$OUT" | awk '{print $2}' | sort -n | head -1)" = 32768 ]
# With --erasesize given, -a still sees the page, and the erase size stays the one given.
expect_status 0 "sd -e 4M" "$FB" --survey -e 4M sim:
ok "-e 4M: the page named" grep -q '^verdict: page 16KiB (' <<<"$OUT"
ok "-e 4M: -a once" [ "$(grep -c '^verdict: erase block ' <<<"$OUT")" -eq 1 ]
ok "-e 4M: the erase size given" grep -qx 'advice: erase block 4MiB: as --erasesize says' <<<"$OUT"
# 3 x 2^n: 6MiB erase blocks; the partition starts on one.
expect_status 0 "tlc" "$FB" --survey sim:tlc
ok "tlc: 6MiB" grep -qx 'advice: erase block 6MiB: named by the align verdict' <<<"$OUT"
ok "tlc: counts" grep -q '^verdict: open AUs (linear): 4 fast, 5 slow; ' <<<"$OUT"
ok "tlc: random counts" grep -q '^verdict: open AUs (random): 2 fast, 3 slow; ' <<<"$OUT"
ok "tlc: start at 6MiB" grep -qx 'start=12288, size=12570624, type=L' <<<"$OUT"
ok "tlc: the page named" grep -q '^verdict: page 16KiB (' <<<"$OUT"
# A FAT-optimised area is found by find-fat --random within the survey, and the
# layout starts after it.
expect_status 0 "fat" "$FB" --survey sim:fat
ok "fat: find-fat --random ran" grep -q '^survey: find-fat --random with the erase size found' <<<"$OUT"
ok "fat: the area named" grep -q '^verdict: FAT-optimised area (random): the first 2 of 6 erase blocks (8MiB)' <<<"$OUT"
ok "fat: left to FAT in the layout" grep -qx 'start=16384, size=4177920, type=L' <<<"$OUT"
ok "fat: no random slot, find-fat's 6 erase blocks" grep -qx 'survey: find-fat --random with the erase size found' <<<"$OUT"

# find-fat tests 5 more erase blocks than the card's random-write slots: in
# random order those after an area collect only when more than the slots
# take turns (an LRU card, random-evict=1), so 6 would hide this area of 4
expect_status 0 "fat behind slots" "$FB" --survey sim:sd,fat-aus=4,random-evict=1
ok "fat behind slots: says why 8" grep -qx "survey: find-fat --random with the erase size found, on 8 erase blocks: beyond the card's 3 random-write slots, an area of up to 4 shows" <<<"$OUT"
ok "fat behind slots: 8 columns" [ "$(sed -n '/^survey: find-fat/{n;p;q}' <<<"$OUT" | awk -F'\t' '{print NF}')" = 9 ]
ok "fat behind slots: the area of 4 named" grep -q '^verdict: FAT-optimised area (random): the first 4 of 8 erase blocks (16MiB): ' <<<"$OUT"
ok "fat behind slots: the card has fat-aus=4" grep -q '^card: sim:.*,fat-aus=4,' <<<"$OUT"
ok "fat behind slots: the announcement holds the 10 find-fat may test" \
	grep -q '^flashbench: will overwrite 376MiB in 85 regions' <<<"$("$FB" --survey sim:sd,fat-aus=4,random-evict=1 2>&1 >/dev/null)"
"$FB" -f -r --fat-nr=6 sim:sd,fat-aus=4,random-evict=1 >"$TMP/ff6" 2>&1
ok "fat behind slots: 6 erase blocks would not show it" grep -q '^verdict: no FAT-optimised area seen (random)' "$TMP/ff6"
expect_status 0 "fat, 9 slots" "$FB" --survey sim:sd,open-au=12,open-au-random=9
ok "fat, 9 slots: says an area cannot show" grep -qx "survey: find-fat --random with the erase size found, on 6 erase blocks: an area in front of the card's 9 random-write slots cannot show" <<<"$OUT"

# --max-write: the whole chain stays within it; what does not fit is skipped, and said.
expect_status 0 "budget" "$FB" --survey --max-write=80M sim:
ok "budget: the random search had what was left" grep -q '^survey: the open-AU search in random order' <<<"$OUT"
ok "budget: find-fat skipped, said" grep -qE '^survey: find-fat not run: it may write [0-9]+MiB, --max-write leaves [0-9.]+[KM]iB$' <<<"$OUT"
total=$(sed -n 's/^find-open-au: wrote \([0-9.]*\)MiB in .*/\1/p' <<<"$OUT" | awk '{ t += $1 } END { print t + 0 }')
ok "budget: both searches wrote at most 80MiB ($total)" awk -v t="$total" 'BEGIN { exit !(t <= 80) }'
"$FB" --survey --max-write=80M --format=json sim: >"$TMP/s.json" 2>/dev/null
if need python3; then
	ok "json: the survey section is stopped by the budget" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = [t["test"] for t in d["tests"]]
assert names == ["align", "find-open-au", "survey", "advise"], names
s = d["tests"][2]
assert s["status"] == "stopped" and s["reason"] == "--max-write reached", s
' "$TMP/s.json"
fi
# A budget below one probe: the linear search measures nothing, and nothing more runs.
expect_status 0 "tiny budget" "$FB" --survey --max-write=64K sim:
ok "tiny budget: said" grep -q '^survey: the linear open-AU search measured no count' <<<"$OUT"
ok "tiny budget: no random search" not grep -q 'random' <<<"$(grep '^verdict' <<<"$OUT")"

# A file: only the announced regions change.
make_image "$TMP/ref.img" 256
cp "$TMP/ref.img" "$TMP/f.img"
expect_status 0 "file" "$FB" --survey -e 1M -b 64K --max-write=40M "$TMP/f.img"
ok "file: announced" grep -q 'will overwrite' <<<"$ERR"
# every MiB that changed lies in an announced region: 0..6MiB (find-fat) or the search's
# erase blocks (16MiB + 12k MiB)
bad_mib=""
for ((m = 0; m < 256; m++)); do
	if ! cmp -s <(dd if="$TMP/f.img" bs=1M skip=$m count=1 2>/dev/null) \
		<(dd if="$TMP/ref.img" bs=1M skip=$m count=1 2>/dev/null); then
		if [ $m -ge 6 ] && { [ $m -lt 16 ] || [ $(((m - 16) % 12)) -ne 0 ]; }; then bad_mib+=" $m"; fi
	fi
done
ok "file: nothing outside the regions changed ($bad_mib)" [ -z "$bad_mib" ]

# Issue 31: the card as data. The survey ends with a sim: spec fitted to what it
# measured, printed last (after the twin and the advice); pasted as a DEVICE, its survey gives the card's
# verdicts back; and the survey's tests on that twin say how close it came.
expect_status 0 "fat" "$FB" --survey sim:fat
card=$(sed -n 's/^card: //p' <<<"$OUT" | grep '^sim:')
ok "fat: the read sweep, before anything is written" grep -q '^read 8KiB	' <<<"$OUT"
ok "fat: a card line: $card" [ -n "$card" ]
for kv in erase=4MiB page=8KiB open-au=3 open-au-random=0 fat-aus=2 read-bw=18M/s write-bw=8M/s \
	read-lat=500µs page-cross=120µs erase-cross=400µs write-lat=500µs; do
	ok "fat: the card has $kv (the preset's truth)" grep -q "[:,]$kv\(,\|$\)" <<<"$card"
done
ok "fat: copy-bw near the preset's 12M/s" grep -qE ',copy-bw=1[12](\.[0-9])?M/s,' <<<"$card"
ok "fat: erase-time near the preset's 3ms (the twins tell which lines erased)" grep -qE ',erase-time=(2\.9[0-9]|3(\.0[0-9])?)ms,' <<<"$card"
ok "fat: the keys left out, with the reason" grep -q '^card: not in the spec, .*log-aus: no merge regime seen;' <<<"$OUT"
ok "fat: the twin reached the card" grep -qx "twin: -a 39 of 39 rows within the card's noise; erase block and page as the card; open AUs linear 3/4 and random 0/1 as the card; FAT area as the card; N=1 rows within 0%; reads within 0%" <<<"$OUT"
ok "fat: the twin before the advice" [ "$(grep -nE '^(twin|advice): ' <<<"$OUT" | head -1 | cut -d: -f2)" = twin ]
ok "fat: the card's line is the output's last" [ "$(tail -n 1 <<<"$OUT")" = "card: $card" ]
verdicts() { grep -E '^verdict: (erase block|page|open AUs \(|FAT)|^advice: partition' <<<"$1" | sed 's/(diff.*//; s/; per write.*//; s/: at 16KiB.*//'; }
want=$(verdicts "$OUT")
expect_status 0 "fat: the card pasted as the DEVICE" "$FB" --survey "$card"
ok "fat: the twin's survey, the card's verdicts and partition" [ "$(verdicts "$OUT")" = "$want" ]
expect_status 0 "fat: json" "$FB" --survey --format=json sim:fat
ok "fat: json: the card verdict, its spec the text" grep -qF "\"verdict\":\"card\",\"result\":\"fitted\",\"value\":15,\"unit\":\"count\",\"text\":\"$card\"" <<<"$OUT"
ok "fat: json: the twin verdict" grep -qF '"verdict":"twin","result":"same"' <<<"$OUT"
ok "fat: json: the card the last record" [ "$(grep -o '"verdict":"[a-z-]*"' <<<"$OUT" | tail -n 1)" = '"verdict":"card"' ]
expect_status 0 "fat: csv" "$FB" --survey --format=csv sim:fat
ok "fat: csv: the card's line last, before the status" \
	[ "$(tail -n 2 <<<"$OUT" | head -n 1)" = "# card: $card" ]
# --analyze of the saved survey, text or JSON, fits the same card.
"$FB" --survey -o "$TMP/fat.txt" sim:fat 2>/dev/null
"$FB" --survey --format=json -o "$TMP/fat.json" sim:fat 2>/dev/null
for f in fat.txt fat.json; do
	expect_status 0 "fat: --analyze $f" "$FB" --analyze "$TMP/$f"
	ok "fat: --analyze $f: the survey's card, last" [ "$(tail -n 1 <<<"$OUT")" = "card: $card" ]
	ok "fat: --analyze $f: the twin's line, as the survey's" \
		grep -qx "twin: -a 39 of 39 rows within the card's noise; erase block and page as the card; open AUs linear 3/4 and random 0/1 as the card; FAT area as the card; N=1 rows within 0%; reads within 0[.0-9]*%" <<<"$OUT"
	expect_status 0 "fat: --analyze $f --advise" "$FB" --analyze "$TMP/$f" --advise
	ok "fat: --analyze $f --advise: the card once, after the advice" \
		[ "$(grep -c '^card: sim:' <<<"$OUT"):$(tail -n 1 <<<"$OUT")" = "1:card: $card" ]
done
grep -v '^read \|^card: ' "$TMP/fat.txt" >"$TMP/old.txt"
expect_status 0 "fat: --analyze of a survey without its read sweep and card" "$FB" --analyze "$TMP/old.txt"
ok "old: a card of what it has" grep -q '^card: sim:erase=4MiB,page=8KiB,page-cross=120µs,' <<<"$OUT"
ok "old: read-lat and the size left out, why" grep -q '^card: not in the spec.* size: the device.s size was not said; read-lat: no read sweep' <<<"$OUT"

# Random-write slots that hand over the least recent one (random-evict=1, the
# rule fakecard's cards follow): the fit names the rule, with the FAT area
# and the random slots the card has (not a FAT area over find-fat's erase
# blocks with a slot fewer, which the sim's own rule would need to show
# find-fat's erase blocks all alike); a card without it gets none.
for spec in sd,random-evict=1 sd,random-evict=1,open-au-random=2,jitter=3 usb,random-evict=1 \
	sd,random-evict=1,fat-aus=2 tlc,random-evict=1; do
	expect_status 0 "$spec" "$FB" --survey "sim:$spec"
	want=$(sed 's/^sd,/open-au=5,open-au-random=3,fat-aus=0,/; s/^usb,/open-au=12,open-au-random=4,fat-aus=0,/;
		s/^tlc,/open-au=4,open-au-random=2,fat-aus=0,/' <<<"$spec")
	for kv in $(tr , ' ' <<<"${want%,jitter=*}"); do
		case $spec in *open-au-random=2*) [ "$kv" = open-au-random=3 ] && kv=open-au-random=2 ;; esac
		case $spec in *fat-aus=2*) [ "$kv" = fat-aus=0 ] && kv=fat-aus=2 ;; esac
		ok "$spec: the card has $kv" grep -q "^card: sim:.*[:,]$kv\(,\|$\)" <<<"$OUT"
	done
	ok "$spec: the twin reaches the card's verdicts" grep -q "^twin: .* open AUs linear [0-9/]* and random [0-9/]* as the card; FAT area as the card;" <<<"$OUT"
done
for spec in sd fat tlc; do
	expect_status 0 "$spec: the sim's own rule" "$FB" --survey "sim:$spec"
	ok "$spec: no random-evict in the card" [ -z "$(grep '^card: sim:.*random-evict' <<<"$OUT")" ]
done

# fakecard logstick's saved survey: the copy rate from the linear lines, not
# from random lines a twin with too few random slots collects in (the card
# merges there): 100 MiB/s (104.9M/s) with its 12 open AUs and merge from 5.
expect_status 0 "logstick survey" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/025-logstick-survey.txt"
ok "logstick: copy-bw within 10% of 104.9M/s" grep -qE '^card: sim:.*,copy-bw=(9[5-9]|1[01][0-9])(\.[0-9])?M/s,' <<<"$OUT"
for kv in open-au=12 fat-aus=0 log-aus=4; do
	ok "logstick: $kv" grep -q "^card: sim:.*,$kv," <<<"$OUT"
done

# Small writes' costs (issue 31): a write below the page that costs more
# (subpage-write), a buffer for the smallest writes (small-buffer, small-merge),
# fitted from the probes' lines below the block size they end at, and left out
# of the other write keys; the twin, with them, reaches the card's verdicts. A
# card without them gets neither, and no note of them where its lines could
# have shown them.
twin_same="^twin: .*erase block and page as the card; open AUs linear [0-9/]* and random [0-9/]* as the card; FAT area as the card;"
expect_status 0 "subpage" "$FB" --survey sim:page=32K,subpage-write=2ms
ok "subpage: the card has subpage-write=2ms" grep -q '^card: sim:.*,subpage-write=2ms,' <<<"$OUT"
ok "subpage: write-lat and write-bw as the preset's" grep -q '^card: sim:.*,write-lat=400µs,write-bw=10M/s,' <<<"$OUT"
ok "subpage: no buffer" not grep -q '^card: sim:.*small-' <<<"$OUT"
ok "subpage: the twin reaches the card's verdicts" grep -q "$twin_same" <<<"$OUT"
expect_status 0 "small buffer" "$FB" --survey -b 4K sim:small-buffer=8K,small-merge=10ms
ok "small buffer: the card has small-buffer=8KiB" grep -q '^card: sim:.*,small-buffer=8KiB,small-merge=\(9\.9[0-9]\|10\)ms,' <<<"$OUT"
ok "small buffer: no sub-page cost" not grep -q '^card: sim:.*subpage-write' <<<"$OUT"
ok "small buffer: no merge regime of the log" not grep -q '^card: sim:.*log-' <<<"$OUT"
ok "small buffer: the twin reaches the card's verdicts" grep -q "$twin_same" <<<"$OUT"
expect_status 0 "both" "$FB" --survey -b 4K sim:page=32K,subpage-write=1ms,small-buffer=8K,small-merge=20ms,jitter=3
ok "both: the card has both" grep -qE '^card: sim:.*,subpage-write=(9[0-9][0-9]µs|1(\.[0-9]+)?ms),small-buffer=8KiB,small-merge=(19|20|21)(\.[0-9]+)?ms,' <<<"$OUT"
ok "both: the buffer's bounds, said" grep -qx 'card: small-buffer=8KiB is the largest block the probes buffered, the next 16KiB not: the buffer takes 8KiB or more, less than 16KiB' <<<"$OUT"
ok "both: the twin reaches the card's verdicts" grep -q "$twin_same" <<<"$OUT"
# A merge regime of the log from 2: every small line pays as the whole pages do, so a
# buffer could not show, and the note says that (it said no probe reached below the page).
expect_status 0 "log from 2, -b 4K" "$FB" --survey -b 4K sim:log-aus=1,log-merge=5ms
ok "log from 2: the note on small-buffer says why" grep -q '^card: not in the spec.* small-buffer: the probes of 2 erase blocks or more paid alike on every line, whole pages too' <<<"$OUT"
ok "log from 2: not that no probe reached below the page" not grep -q 'small-buffer: no linear probe of 2 erase blocks or more reached' <<<"$OUT"
# 6MiB erase blocks: lines of 3 x 2^n bytes; a 24KiB line writes part of its 16KiB pages
expect_status 0 "tlc" "$FB" --survey sim:tlc,subpage-write=1ms
ok "tlc: the card has subpage-write=1ms" grep -q '^card: sim:.*,subpage-write=1ms,' <<<"$OUT"
ok "tlc: the twin reaches the card's verdicts" grep -q "$twin_same" <<<"$OUT"
expect_status 0 "-b 4K sim:" "$FB" --survey -b 4K sim:
ok "-b 4K: no small keys" not grep -qE '^card: sim:.*(subpage-write|small-)' <<<"$OUT"
ok "-b 4K: none noted either" not grep -qE '^card: not in the spec.*(subpage-write|small-buffer)' <<<"$OUT"
expect_status 0 "sim:" "$FB" --survey sim:
ok "sim: no small keys" not grep -qE '^card: sim:.*(subpage-write|small-)' <<<"$OUT"
ok "sim: no block below the page, said" grep -q '^card: not in the spec.* subpage-write: the survey wrote no block below the page' <<<"$OUT"
ok "sim: cmd-overhead and cache never fitted, said" grep -q 'cache, cmd-overhead: the survey measures none of them (a write cache only a long sustained write fills; a command.s overhead is within read-lat and write-lat)$' <<<"$OUT"

# fakecard's 6 MiB card: the first line of its smallest slow probe collects where
# the twin's does not; that line tells no erase time (it made erase-time=1.32s and
# left copy-bw out): copy-bw 12 MiB/s (12.58M/s), the erase left to the twin's default.
expect_status 0 "6 MiB survey" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/026-6mib-survey.txt"
ok "6 MiB: copy-bw within 10% of 12.58M/s" grep -qE '^card: sim:.*,copy-bw=1[1-3](\.[0-9]+)?M/s,' <<<"$OUT"
ok "6 MiB: no erase-time of seconds" [ -z "$(grep -E '^card: sim:.*,erase-time=[0-9.]+s,' <<<"$OUT")" ]
for kv in erase=6MiB page=8KiB open-au=3 open-au-random=1 fat-aus=0; do
	ok "6 MiB: $kv" grep -q "^card: sim:.*,$kv," <<<"$OUT"
done

# fakecard logstick again (12 open AUs, all random-capable, merges of its log from 5):
# random probes that pay the merges as their linear peers do, a percent or two
# apart, are not collecting: open-au-random=12.
expect_status 0 "logstick 027" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/027-logstick-survey.txt"
for kv in open-au=12 open-au-random=12 log-aus=4; do
	ok "logstick 027: $kv" grep -q "^card: sim:.*,$kv," <<<"$OUT"
done
# fakecard sd4m: the random count the twin's rounds found survives the FAT-area
# counts tried after them, and with it fakecard's rule for the random victim.
expect_status 0 "sd4m 028" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/028-sd4m-survey.txt"
ok "sd4m 028: open-au-random=3, random-evict=1" \
	grep -q '^card: sim:.*,open-au=5,open-au-random=3,fat-aus=0,random-evict=1,' <<<"$OUT"
ok "sd4m 028: the twin reaches the random count and the FAT verdict" \
	grep -q "^twin: .*random 3/4 as the card; FAT area as the card;" <<<"$OUT"
# fakecard fat4, README's transcript: the FAT area and no random slot, read back
# from the saved run as the live one fitted them, and its rates within 5%.
expect_status 0 "fat4 029" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/029-fat4-survey-preserve.txt"
ok "fat4 029: counts" grep -q '^card: sim:.*,open-au=3,open-au-random=0,fat-aus=4,' <<<"$OUT"
ok "fat4 029: write-bw and copy-bw of 20MiB/s (20.97M/s) within 5%" \
	grep -qE '^card: sim:.*,write-bw=(19\.[9]|20\.[0-9]|21\.[0-9])M/s,copy-bw=(19\.[9]|20\.[0-9]|21\.[0-9])M/s,' <<<"$OUT"
ok "fat4 029: the card line is the output's last" [ "$(tail -1 <<<"$OUT" | cut -c1-10)" = "card: sim:" ]

# fakecard's small-buffer card surveyed with -b 4K: --analyze runs the twins with
# the survey's -b, and lines whose copies were the twin's alone set no copy rate.
expect_status 0 "smallbuf 030" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/030-smallbuf-survey-b4k.txt"
ok "smallbuf 030: copy-bw of 20MiB/s (20.97M/s) within 25%" \
	grep -qE '^card: sim:.*,copy-bw=(1[6-9]|2[0-6])\.[0-9]M/s,' <<<"$OUT"
ok "smallbuf 030: the buffer and its merge" grep -q '^card: sim:.*,small-buffer=4KiB,small-merge=20\.[0-9]ms,' <<<"$OUT"
ok "smallbuf 030: the twin reached every verdict, its -a rows the card's" \
	grep -q "^twin: -a 33 of 33 rows within the card's noise; erase block and page as the card; open AUs linear 5/6 and random 3/4 as the card; FAT area as the card;" <<<"$OUT"
# fakecard logstick surveyed with -b 4K: the 2 ms of every write below the page
# is taken off the families' levels, so the 4 ms merges from 5 show above it.
expect_status 0 "logstick 031" "$FB" --analyze "$TESTS_DIR/fixtures/fakecard/031-logstick-survey-b4k.txt"
ok "logstick 031: the merge regime from 5, linear" \
	grep -q '^verdict: open AUs (linear): 12 fast, 13 slow; a merge regime from 5 (every write that moves to another erase block costs 4\.[0-9]*ms more' <<<"$OUT"
ok "logstick 031: the page's cost said, taken off" \
	grep -q '; writes below 16KiB cost 2\.0[0-9]ms more even with 1 erase block (a read-modify-write of a partial page: the page is 16KiB?), taken off the costs;' <<<"$OUT"
ok "logstick 031: no command overhead read from it" not grep -q '^verdict: open AUs (linear): .*command overhead' <<<"$OUT"
ok "logstick 031: log-aus=4 and the sub-page cost" \
	grep -qE '^card: sim:.*,open-au=12,open-au-random=12,log-aus=4,log-merge=4\.[0-9]+ms,subpage-write=2\.0[0-9]ms,' <<<"$OUT"
# (its 12 random-write slots take find-fat's 6 erase blocks: no FAT area could
# show, so none is fitted, and the note says why; before, the twins' search
# among equal tables set one)
ok "logstick 031: fat-aus left out, said why" \
	grep -q "^card: not in the spec.* fat-aus: find-fat's erase blocks fit in the random-write slots: a FAT area would not show;" <<<"$OUT"
ok "logstick 031: no fat-aus in the spec" not grep -q '^card: sim:.*fat-aus=' <<<"$OUT"
# A search that ran out of room before a slow count (fakecard stick8m, 17 open
# erase blocks of 8 MiB on 1 GiB): its counts are lower bounds, said, and kept,
# so the twin ends its searches alike.
"$FB" --survey -o "$TMP/room.txt" sim:size=1G,erase=8M,page=32K,open-au=17,open-au-random=17 2>/dev/null
expect_status 0 "no room: --analyze" "$FB" --analyze "$TMP/room.txt"
ok "no room: the search says so" grep -q '^find-open-au: no room on the device for more erase blocks' "$TMP/room.txt"
ok "no room: open-au a lower bound" grep -q '^card: open-au=11 is a lower bound: the linear search found that many fast and no slow count' <<<"$OUT"
ok "no room: open-au-random too" grep -q '^card: open-au-random=11 is a lower bound: the random search' <<<"$OUT"
ok "no room: the twin as the card" grep -q "^twin: .*; open AUs linear 11/0 and random 11/0 as the card;" <<<"$OUT"
ok "no room: the counts in the spec" grep -q '^card: sim:.*,open-au=11,open-au-random=11,' <<<"$OUT"
expect_status 0 "no room: json" "$FB" --format=json --analyze "$TMP/room.txt"
ok "no room: json: at_least" grep -qF '"verdict":"open-au","result":"at_least"' <<<"$OUT"
# --analyze of a survey run with -b: the same twin as the live run's
"$FB" --survey -b 4K -o "$TMP/b4k.txt" sim:sd,small-buffer=4K,small-merge=20ms 2>/dev/null
expect_status 0 "-b 4K: --analyze" "$FB" --analyze "$TMP/b4k.txt"
# (but for the reads, which the saved text rounds to three digits)
noreads() { sed -e 's/; reads within .*//' -e 's/read-lat=[^,]*,read-bw=[^,]*,//'; }
ok "-b 4K: --analyze's twin line is the live one's" \
	[ "$(grep '^twin: ' <<<"$OUT" | noreads)" = "$(grep '^twin: ' "$TMP/b4k.txt" | noreads)" ]
ok "-b 4K: --analyze's card is the live one's" \
	[ "$(grep '^card: sim:' <<<"$OUT" | noreads)" = "$(grep '^card: sim:' "$TMP/b4k.txt" | noreads)" ]

# A survey cut short still fits what it measured, and says what it could not.
expect_status 0 "sd: --max-write=60M" "$FB" --survey --max-write=60M sim:
ok "60M: a card without the random keys" grep -q '^card: sim:.*,open-au=5,' <<<"$OUT"
ok "60M: open-au-random left out, why" grep -q '^card: not in the spec.* open-au-random: no random probe (the random search did not run);' <<<"$OUT"

# Refused: --random (both orders are run), and options of other tests.
bad "with --random" "--survey: runs the open-AU search both linear and random; --random has no place in it" \
	--survey -r sim:
warns "with --app-area" "--app-area=16M: has no effect with" --survey --app-area=16M sim:
done_testing
