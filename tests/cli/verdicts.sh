#!/bin/bash
# Issue 4: the verdicts of live runs on the simulated card. -a names the
# erase block (2^n and 3 x 2^n) and the page; --find-open-au finds the
# true bracket for 1..20 open erase blocks, linear and --random, writing
# at most a quarter of what --open-au at every N up to the cut-off + 1
# would; --open-au and --find-fat stop early on a card that collects
# garbage on every write, and not on a healthy one.
. "$(dirname "$0")/lib.sh"

MiB=1048576

# ---- -a: the verdict follows the unchanged lines
expect_status 0 "align on sim:sd" "$FB" -a sim:sd
ok "sd: erase block 4MiB" grep -q '^verdict: erase block 4MiB (diff 600µs from 4MiB up vs 150µs below: 4x' <<<"$OUT"
ok "sd: the verdict lines come last" [ "$(grep -n '^verdict' <<<"$OUT" | head -1 | cut -d: -f1)" -gt "$(grep -c '^align' <<<"$OUT")" ]
ok "sd: power-of-two rows first, unchanged" [ "$(head -1 <<<"$OUT")" = $'align 2147483648\tpre 1.34ms\ton 1.94ms\tpost 1.34ms\tdiff 600µs' ]
ok "sd: a block of 3 x 2^n rows" grep -q $'^align 12582912\t' <<<"$OUT"
expect_status 0 "align -b 1K on sim:sd" "$FB" -a -b 1K sim:sd
ok "sd -b 1K: page 16KiB" grep -q '^verdict: page 16KiB ' <<<"$OUT"
for spec in "tlc 6MiB, a 3 x 2^n size" "erase=3M,page=8K 3MiB, a 3 x 2^n size" \
	"erase=1536K,page=4K 1.5MiB, a 3 x 2^n size" "erase=12M 12MiB, a 3 x 2^n size" \
	"usb 8MiB" "fat 4MiB" "ssd 16MiB" "smr 256MiB" "erase=1M 1MiB"; do
	s=${spec%% *} want=${spec#* }
	expect_status 0 "align on sim:$s" "$FB" -a -b 2K "sim:$s"
	ok "sim:$s: erase block $want" grep -q "^verdict: erase block $want (" <<<"$OUT"
done
expect_status 0 "align on a noisy card, one try each" "$FB" -a -c 1 sim:jitter=5,outliers=0.02,seed=3
ok "noisy card: 4MiB or uncertain, never another size" \
	grep -qE '^verdict: erase block (4MiB \(|uncertain: )' <<<"$OUT"

# ---- --find-open-au: the true bracket, and the bytes it costs
full_bytes() {	# bytes --open-au writes at N = 1..K+1 with 4MiB blocks down to 16KiB (9 lines)
	echo $((4 * MiB * 9 * ($1 + 1) * ($1 + 2) / 2))
}
for k in $(seq 1 20); do
	for mode in linear random; do
		# linear: k open slots; random: more slots, k of them for writes out of order
		flag= spec="sim:open-au=$k,open-au-random=1"
		[ $mode = random ] && flag=--random spec="sim:open-au=$((k + 2)),open-au-random=$k"
		expect_status 0 "find-open-au $mode, $k open" "$FB" --find-open-au $flag -e 4M "$spec"
		ok "$mode, $k open: bracket $k fast, $((k + 1)) slow" \
			grep -q "^verdict: open AUs ($mode): $k fast, $((k + 1)) slow; per write beyond its transfer: " <<<"$OUT"
		w=$(sed -n 's/^find-open-au: wrote \([^ ]*\) in .*/\1/p' <<<"$OUT")
		# (a quarter: the upper end of the bracket is probed twice when its cost is near the threshold)
		ok "$mode, $k open: wrote $w, at most a quarter of $(full_bytes $k) bytes" \
			awk -v w="$(to_num "$w")" -v f="$(full_bytes $k)" 'BEGIN { exit !(w > 0 && w * 4 <= f) }'
		n=$(grep -c "^probe: --open-au-nr=$((k + 1)) " <<<"$OUT")
		ok "$mode, $k open: the upper end $((k + 1)) probed once or twice" [ "$n" -ge 1 ] && [ "$n" -le 2 ]
	done
done
ok "probes print their lines with the slowest erase block" \
	grep -qE $'^16KiB\t[0-9.]+[KM]/s\tslowest [0-9.]+[KM]/s$' <<<"$OUT"
ok "probes say why: fast" grep -qE '^verdict: [0-9]+ open AUs? \((linear|random)\): fast: 16KiB at ' <<<"$OUT"
ok "probes say why: slow" grep -qE '^verdict: [0-9]+ open AUs \((linear|random)\): slow: .* garbage collection$' <<<"$OUT"

# Probes do not disturb each other: none writes backwards into an erase
# block the one before left open (which would switch it to random mode on
# a card with random-write slots), so every probe with N <= 7 open AUs
# writes its smallest size as fast as --open-au with the same N does.
spec=sim:erase=3M,open-au=7
expect_status 0 "find-open-au, 3MiB erase blocks, 7 open" "$FB" --find-open-au -e 3M -b 512 "$spec"
ok "3MiB, 7 open: bracket 7 fast, 8 slow" grep -q '^verdict: open AUs (linear): 7 fast, 8 slow; ' <<<"$OUT"
probes=$(awk '/^probe: / { split($2, a, "="); n = a[2] }
	/^1.5KiB\t/ && n <= 7 { print n, $2, $4 }' <<<"$OUT")
ok "3MiB, 7 open: at least 4 probes with N <= 7" [ "$(wc -l <<<"$probes")" -ge 4 ]
while read -r n rate slowest; do
	expect_status 0 "open-au $n on $spec" "$FB" -O --open-au-nr="$n" -e 3M -b 512 "$spec"
	ref=$(sed -n 's/^1.5KiB\t\([^\t]*\)$/\1/p' <<<"$OUT")
	ok "3MiB, probe N=$n at 1.5KiB: $rate, slowest $slowest, within 20% of --open-au's $ref" \
		awk -v p="$(to_num "$rate")" -v s="$(to_num "$slowest")" -v r="$(to_num "$ref")" \
		'BEGIN { exit !(r > 0 && p >= 0.8 * r && s >= 0.8 * r) }'
done <<<"$probes"

# 20 ms of overhead on every write (the small blocks' rate halves line by
# line) is a twentieth of an erase-block copy: no collection, whatever its
# shape (issue 29), even for the probe with 1 erase block alone; every N
# pays the same: the family names it command overhead.
expect_status 0 "find-open-au, 20ms overhead" "$FB" --find-open-au -e 4M sim:write-lat=20ms,open-au=3
ok "20ms overhead: the probe with 1 erase block is fast alone, not a collection" \
	grep -q '^verdict: 1 open AU (linear): fast: .*not a collection: command overhead (or, with more than 1 erase block, a merge' <<<"$OUT"
ok "20ms overhead: the family names it" \
	grep -q '^verdict: open AUs (linear): 3 fast, 4 slow; every write costs 1[89][0-9.]*ms more even with 1 erase block: command overhead' <<<"$OUT"
ok "20ms overhead: 3 fast, 4 slow" grep -q '^verdict: open AUs (linear): 3 fast, 4 slow; ' <<<"$OUT"
# 8 ms of overhead is command overhead (fast) up to the end of the device.
expect_status 0 "find-open-au, overhead up to the end of the device" "$FB" --find-open-au -e 4M \
	sim:size=200M,write-lat=8ms
ok "to the end: probes 1, 2 and 4" \
	[ "$(sed -n 's/^probe: --open-au-nr=\([0-9]*\) .*/\1/p' <<<"$OUT" | tr '\n' ' ')" = "1 2 4 " ]
ok "to the end: command overhead" grep -q '^verdict: 4 open AUs (linear): fast: .*command overhead' <<<"$OUT"
ok "to the end: at least 4 fast" grep -q '^verdict: open AUs (linear): at least 4 fast, none slow; ' <<<"$OUT"
ok "to the end: why it stopped" \
	grep -q '^find-open-au: no room on the device for more erase blocks: the bracket above' <<<"$OUT"

# -a gives the erase size when --erasesize is missing; 6 MiB blocks on the TLC preset
expect_status 0 "-a --find-open-au on sim:tlc" "$FB" -a --find-open-au sim:tlc
ok "tlc: probes use the 6MiB verdict" grep -q '^probe: --open-au-nr=1 --erasesize=6MiB$' <<<"$OUT"
ok "tlc: 4 fast, 5 slow" grep -q '^verdict: open AUs (linear): 4 fast, 5 slow; ' <<<"$OUT"
expect_status 2 "--find-open-au without --erasesize or -a" "$FB" --find-open-au sim:
ok "usage error names the option" grep -q -- '--find-open-au: needs --erasesize' <<<"$ERR"
expect_status 1 "-a --find-open-au without a clear erase block" "$FB" -a --find-open-au -b 1M -c 1 \
	"sim:page-cross=0,erase-cross=0"

# limits: the bracket found so far
expect_status 0 "--max-write" "$FB" --find-open-au -e 4M --max-write=40M sim:
ok "--max-write: the bracket so far" grep -q '^verdict: open AUs (linear): 4 fast, 8 slow; ' <<<"$OUT"
ok "--max-write: says why it ended" grep -q '^find-open-au: --max-write reached: the bracket above is what was found so far$' <<<"$OUT"
w=$(sed -n 's/^find-open-au: wrote \([^ ]*\) in .*/\1/p' <<<"$OUT")
ok "--max-write: wrote $w, at most 40MiB" awk -v w="$(to_num "$w")" 'BEGIN { exit !(w <= 40 * 1048576) }'
expect_status 0 "--max-time" "$FB" --find-open-au -e 4M --max-time=30s sim:
ok "--max-time: the bracket so far" grep -q '^find-open-au: --max-time reached: the bracket above' <<<"$OUT"
expect_status 2 "--max-time garbage" "$FB" --find-open-au -e 4M --max-time=soon sim:
ok "--max-time garbage: named" grep -q -- "--max-time: invalid duration 'soon'" <<<"$ERR"

# ---- early stop: over-committed card stops, healthy card does not
expect_status 0 "open-au, 6 on 5 slots" "$FB" -O --open-au-nr=6 sim:
ok "over-committed: stopped after the signature" grep -qE '^stopped: every write costs the same [0-9.]+ms — the card is garbage-collecting' <<<"$OUT"
ok "over-committed: 5 lines, then the stop line" [ "$(grep -c $'\t' <<<"$OUT")" -eq 5 ]
expect_status 0 "open-au, 5 on 5 slots" "$FB" -O --open-au-nr=5 sim:
ok "healthy: every size measured, no stop" [ "$(grep -c $'\t' <<<"$OUT")" -eq 9 ] && ok "healthy: no stop line" not grep -q '^stopped' <<<"$OUT"
expect_status 0 "open-au --no-early-stop" "$FB" -O --no-early-stop --open-au-nr=6 sim:
ok "--no-early-stop: all 9 sizes" [ "$(grep -c $'\t' <<<"$OUT")" -eq 9 ]
expect_status 0 "find-fat --random, no random AUs" "$FB" -f -r -b 64K sim:fat,fat-aus=0
ok "find-fat: stops when every column collects garbage" grep -q '^stopped: every write costs' <<<"$OUT"
expect_status 0 "find-fat --random with a FAT area" "$FB" -f -r -b 64K sim:fat
ok "find-fat: the FAT area stays fast, no stop" not grep -q '^stopped' <<<"$OUT"
expect_status 0 "find-fat --random, a FAT area and 2 random slots" "$FB" -f -r sim:fat,open-au-random=2
ok "find-fat: the later erase blocks' copy per line names the area" \
	grep -q "^verdict: FAT-optimised area (random): the first 2 of 6 erase blocks (8MiB): from 512KiB to 16KiB each of the others takes about 352ms longer to write (at least 265ms: 5.29M/s against 7.94M/s at 512KiB), an erase-block copy's worth (525ms: 4MiB at 7.99M/s)" <<<"$OUT"
done_testing
