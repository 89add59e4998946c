#!/bin/bash
# Issue 3: the simulated card, seen through the flashbench tests. All on
# the virtual clock, so patterns are exact and runs are instant.
. "$(dirname "$0")/lib.sh"

# diff_at OUTPUT BOUNDARY: the diff column of that align line, in ns
diff_at() { to_num "$(awk -v b="$2" '$1 == "align" && $2 == b { print $10 }' <<<"$1")"; }
# ge A B: A >= B (floating point)
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# ---- align on a 4 MiB / 16 KiB card
expect_status 0 "align on sim:erase=4M,page=16K" "$FB" -a -b 1024 sim:erase=4M,page=16K
A=$OUT
min_big=1e18 max_mid=0
for b in $(awk '$1 == "align" { print $2 }' <<<"$A"); do
	(( (b & (b - 1)) == 0 )) || continue	# the power-of-two rows only
	d=$(diff_at "$A" "$b")
	if [ "$b" -ge 4194304 ]; then
		ge "$min_big" "$d" && min_big=$d
	elif [ "$b" -ge 32768 ] && [ "$b" -le 2097152 ]; then
		ge "$d" "$max_mid" && max_mid=$d
	fi
done
ok "align: diff at >= 4MiB ($min_big) is at least 3x the diff at 32KiB..2MiB ($max_mid)" \
	ge "$min_big" "$(awk -v m="$max_mid" 'BEGIN { print 3 * m }')"
d16=$(diff_at "$A" 16384)
for b in 8192 4096 2048; do
	db=$(diff_at "$A" $b)
	ok "align: 16KiB boundary ($d16) stands out from $b ($db)" ge "$d16" "$(awk -v m="$db" 'BEGIN { print 2 * m + 1000 }')"
done

# ---- a 3 MiB erase block shows no clean power-of-two pattern above 1 MiB
expect_status 0 "align on sim:erase=3M" "$FB" -a -b 1024 sim:erase=3M,page=16K,size=3G
B=$OUT
d1m=$(diff_at "$B" 1048576) d2m=$(diff_at "$B" 2097152) d4m=$(diff_at "$B" 4194304) d64m=$(diff_at "$B" 67108864)
ok "3MiB card: 2MiB boundary looks like a page boundary ($d2m = $d1m)" [ "$d2m" = "$d1m" ]
ok "3MiB card: 4MiB boundary looks like a page boundary too ($d4m = $d1m)" [ "$d4m" = "$d1m" ]
# pow2_diffs OUTPUT: "boundary diff_ns" for the power-of-two align rows
pow2_diffs() {
	local b d
	while read -r b d; do
		(( (b & (b - 1)) == 0 )) && echo "$b $(to_num "$d")"
	done < <(awk '$1 == "align" { print $2, $10 }' <<<"$1")
}
# clean_step ROWS E: every row >= E has at least 3x the diff of every row in 32KiB..E/2
clean_step() {
	awk -v e="$2" '$1 >= e { if (lo == "" || $2 < lo) lo = $2 }
		$1 < e && $1 >= 32768 { if ($2 > hi) hi = $2 }
		END { exit !(lo != "" && hi > 0 && lo >= 3 * hi) }' <<<"$1"
}
PA=$(pow2_diffs "$A") PB=$(pow2_diffs "$B")
clean=
for ((e = 2097152; e <= 1073741824; e *= 2)); do clean_step "$PB" $e && clean="$clean $e"; done
ok "3MiB card: no clean power-of-two step above 1MiB (found at:$clean)" [ -z "$clean" ]
ok "4MiB card: the same check finds its clean step at 4MiB" clean_step "$PA" 4194304
ok "4MiB card: and not at 2MiB" not clean_step "$PA" 2097152
pow2_erase=0
for b in $(awk '$1 == "align" && $2 > 1048576 && $2 % 3145728 == 0 { print $2 }' <<<"$B"); do
	(( (b & (b - 1)) == 0 )) && pow2_erase=$((pow2_erase + 1))
done
ok "3MiB card: no power-of-two boundary is a clean erase boundary" [ "$pow2_erase" -eq 0 ]

# ---- a block size that is no power of two still measures power-of-two boundaries
expect_status 0 "align -b 3072" "$FB" -a -b 3072 sim:
ok "-b 3072: the first block of rows is 2GiB down to 8KiB" \
	[ "$(awk '$1 == "align" { print $2 }' <<<"$OUT" | head -19 | tr '\n' ' ')" = "$(for ((b = 2147483648; b >= 8192; b /= 2)); do printf '%d ' $b; done)" ]
ok "-b 3072: the 3 x 2^n block starts at 12KiB" grep -q '^align 12288	' <<<"$OUT"
ok "-b 3072: no 6KiB row (its pre and post reads would cross 4KiB boundaries)" not grep -q '^align 6144	' <<<"$OUT"
ok "-b 3072: erase block 4MiB" grep -q '^verdict: erase block 4MiB ' <<<"$OUT"
ok "-b 3072: no row left out" not grep -q 'left out' <<<"$OUT"
expect_status 0 "align -b 6144" "$FB" -a -b 6144 sim:
ok "-b 6144: no negative diff (no pre or post read crosses a page)" not grep -q 'diff -' <<<"$OUT"
ok "-b 6144: erase block 4MiB" grep -q '^verdict: erase block 4MiB (.*the 3 x 2^n rows agree' <<<"$OUT"

# ---- open-au: N <= slots stays fast; N > slots halves line by line
rates() { awk '$1 != "verdict:" { print $2 }' <<<"$1" | while read -r r; do to_num "$r"; done; }
expect_status 0 "open-au at N = slots" "$FB" -O --open-au-nr=5 -b 16K sim:
R=($(rates "$OUT"))
ok "N=5 <= 5 slots: smallest block's rate ${R[-1]} within 3x of the largest's ${R[0]}" \
	ge "${R[-1]}" "$(awk -v a="${R[0]}" 'BEGIN { print a / 3 }')"
expect_status 0 "open-au at N > slots" "$FB" -O --no-early-stop --open-au-nr=6 -b 512 sim:
R=($(rates "$OUT"))
n=${#R[@]}
for i in $((n - 4)) $((n - 3)) $((n - 2)) $((n - 1)); do
	ratio=$(awk -v a="${R[$i]}" -v b="${R[$((i - 1))]}" 'BEGIN { printf "%.3f", a / b }')
	ok "N=6 > 5 slots: line $i falls to ${ratio}x of the line before (0.4..0.65)" \
		awk -v r="$ratio" 'BEGIN { exit !(r >= 0.4 && r <= 0.65) }'
done
# --random: fast up to open-au-random (3 on sim:sd), slow above
expect_status 0 "open-au --random at 3" "$FB" -O -r --open-au-nr=3 sim:
R3=($(rates "$OUT"))
expect_status 0 "open-au --random at 4" "$FB" -O -r --no-early-stop --open-au-nr=4 sim:
R4=($(rates "$OUT"))
ok "random N=3 (= open-au-random) stays within 3x: ${R3[-1]} vs ${R3[0]}" \
	ge "${R3[-1]}" "$(awk -v a="${R3[0]}" 'BEGIN { print a / 3 }')"
ok "random N=4 (> open-au-random) collapses: ${R4[-1]} below a tenth of ${R4[0]}" \
	ge "$(awk -v a="${R4[0]}" 'BEGIN { print a / 10 }')" "${R4[-1]}"

# ---- find-fat on the FAT preset: the first erase blocks take small random writes fast
expect_status 0 "find-fat --random on sim:fat" "$FB" -f -r -b 64K sim:fat
last=$(grep -v '^verdict: ' <<<"$OUT" | tail -1)
c1=$(to_num "$(cut -f2 <<<"$last")") c2=$(to_num "$(cut -f3 <<<"$last")") c3=$(to_num "$(cut -f4 <<<"$last")") c6=$(to_num "$(cut -f7 <<<"$last")")
ok "fat: AUs 0 and 1 ($c1, $c2) at least 5x faster than AU 2 ($c3)" ge "$c2" "$(awk -v a="$c3" 'BEGIN { print 5 * a }')"
ok "fat: AU 0 at least 5x faster than AU 5 ($c6)" ge "$c1" "$(awk -v a="$c6" 'BEGIN { print 5 * a }')"

# ---- determinism: same spec, same bytes; another seed with jitter differs, same pattern
"$FB" -O --no-early-stop --open-au-nr=6 -b 64K sim:jitter=5,seed=7 >"$TMP/a"
"$FB" -O --no-early-stop --open-au-nr=6 -b 64K sim:jitter=5,seed=7 >"$TMP/b"
"$FB" -O --no-early-stop --open-au-nr=6 -b 64K sim:jitter=5,seed=8 >"$TMP/c"
ok "same spec and seed: byte-identical output" cmp -s "$TMP/a" "$TMP/b"
ok "another seed: different numbers" not cmp -s "$TMP/a" "$TMP/c"
ok "another seed: same sizes" [ "$(grep -v '^verdict: ' "$TMP/a" | cut -f1)" = "$(grep -v '^verdict: ' "$TMP/c" | cut -f1)" ]
ra=$(to_num "$(grep -v '^verdict: ' "$TMP/a" | tail -1 | cut -f2)") rc=$(to_num "$(grep -v '^verdict: ' "$TMP/c" | tail -1 | cut -f2)")
ok "another seed: same pattern (last rates $ra vs $rc within 20%)" \
	awk -v a="$ra" -v c="$rc" 'BEGIN { exit !(c > 0.8 * a && c < 1.2 * a) }'

# ---- the big overnight sweep finishes at once on the virtual clock
start=$(date +%s)
expect_status 0 "open-au 20 x 8MiB at 512B --random" "$FB" --open-au --no-early-stop --open-au-nr=20 -e 8M -b 512 --random sim:usb
ok "open-au 20 x 8MiB: 15 rate lines" [ "$(grep -vc '^verdict: ' <<<"$OUT")" -eq 15 ]
ok "open-au 20 x 8MiB finished within 30s of wall time" [ $(($(date +%s) - start)) -le 30 ]

# ---- a 1 GiB erase block (SMR zone) needs no gigabyte of memory: writes
# larger than 64 MiB go out as consecutive 64 MiB requests
if nm "$FB" 2>/dev/null | grep -q __asan_init; then
	skip "1 GiB erase block under a memory limit: sanitizer builds need more address space"
else
	( ulimit -v 600000; "$FB" -v -O --open-au-nr=1 -e 1G -b 256M sim:size=64G ) >"$TMP/big" 2>"$TMP/big.err"
	rc=$?
	ok "1 GiB erase block within 600 MB of address space: $(tail -1 "$TMP/big.err")" [ "$rc" -eq 0 ]
	ok "1 GiB erase block: lines 1GiB..256MiB" [ "$(grep -v '^verdict: ' "$TMP/big" | cut -f1 | tr '\n' ' ')" = "1GiB 512MiB 256MiB " ]
	ok "1 GiB erase block: exactly 3GiB written" grep -q 'wrote 3GiB,' "$TMP/big.err"
fi

# ---- -v prints the wear counters
expect_status 0 "-v on sim:" "$FB" -v -O --open-au-nr=6 -b 1M sim:
ok "-v: garbage collections counted" grep -qE 'sim: read .*, wrote .*, [0-9]+ garbage collections, [0-9]+ erases' <<<"$ERR"

# ---- bad specs: one line, exit 2
for spec in sim:foo=1 sim:page=3x sim:erase=1000000 sim:open-au=0 sim:nosuchpreset sim:page=16K,erase=40K; do
	expect_status 2 "bad spec $spec" "$FB" -a "$spec"
	ok "bad spec $spec: one line starting with flashbench: sim:" grep -qE '^flashbench: sim: ' <<<"$ERR"
	ok "bad spec $spec: one line" [ "$(wc -l <<<"$ERR")" -eq 1 ]
done

# ---- --list-sims documents at least four presets with their parameters
expect_status 0 "--list-sims" "$FB" --list-sims
for p in sd usb fat tlc; do
	ok "--list-sims shows $p" grep -qE "^$p"$'\t' <<<"$OUT"
done
ok "--list-sims shows the tlc erase size 6MiB" grep -q 'erase=6MiB' <<<"$OUT"

# ---- random-evict=1: full random-write slots give the least recent one's slot to
# an erase block written out of order, after one merge (fakecard's rule, a
# log-block card's victim), instead of collecting that erase block on every
# such write: find-fat's one-at-a-time random streams all pay alike, and the
# random open-AU cliff stays where the slots end
S=sim:sd,size=1G,write-bw=20M,copy-bw=20M
expect_status 0 "-f --random, the sim's rule" "$FB" -f --random -e 4M "$S"
ok "-f --random: the erase blocks past the slots collect on every write" \
	grep -q '^verdict: FAT-optimised area uncertain (random): at 16KiB the erase blocks write 129K/s' <<<"$OUT"
expect_status 0 "-f --random, random-evict=1" "$FB" -f --random -e 4M "$S,random-evict=1"
ok "-f --random, random-evict=1: every erase block alike, one merge each" \
	grep -q '^16KiB	8.25M/s	8.25M/s	8.25M/s	8.25M/s	8.25M/s	8.25M/s$' <<<"$OUT"
ok "-f --random, random-evict=1: no FAT area seen" \
	grep -q '^verdict: no FAT-optimised area seen (random)' <<<"$OUT"
for n in 3 4; do
	expect_status 0 "-O --random N=$n, random-evict=1" "$FB" -O --random --open-au-nr=$n -e 4M "$S,random-evict=1"
	want=$([ $n = 3 ] && echo fast || echo slow)
	ok "-O --random N=$n, random-evict=1: $want (3 random slots)" \
		grep -q "^verdict: $n open AUs (random): $want: " <<<"$OUT"
done
expect_status 2 "random-evict=2" "$FB" -a sim:random-evict=2
ok "random-evict=2: the key named" grep -q "random-evict" <<<"$ERR"

# ---- every preset runs every read test
for p in sd usb fat tlc ssd smr; do
	expect_status 0 "align on sim:$p" "$FB" -a -b 8K -c 1 "sim:$p"
done
done_testing
