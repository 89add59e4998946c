#!/bin/bash
# Issue 20: the open-AU verdicts on the card's own numbers -- a collection
# costs of the order of copying an erase block at the card's write rate;
# command overhead, writes below the page and a merge regime are named
# for what they are -- on the seed thread, the published runs, fakecard
# logstick and its variants (real loop devices), and the simulated card's
# keys for them; --find-open-au and --analyze of its output agree; the
# search's wear; docs/openau.md shows this build's output.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
F=$TESTS_DIR/fixtures

# ---- seed 000, one row per line: the cutoff between 16 and 20, both modes
expect_status 0 "seed 000" "$FB" --analyze "$F/seeds/000-usb-stick-rows.txt"
for mode in linear random; do
	ok "seed: $mode 16 fast, 20 slow" grep -q "^verdict: open AUs ($mode): 16 fast, 20 slow; a merge regime from 16 " <<<"$OUT"
done
ok "seed: the evidence, per N and the copy" grep -q '^verdict: open AUs (linear): .*; per write beyond its transfer: 1: 151µs, 16: 35.8ms, 20: 605ms; an erase-block copy 381ms (8MiB at 22M/s)$' <<<"$OUT"
ok "seed: every other line slow: the erase block given is half the card's" \
	grep -q '^verdict: 1 open AU (linear): .*every other line is slow (22M/s, 5.99M/s, 21.2M/s, 5.98M/s, .*: the erase block is likely twice the 4MiB given$' <<<"$OUT"
ok "seed: ...and the family says 8MiB" grep -q 'alternates fast and slow lines: the erase block is likely 8MiB, twice the size given$' <<<"$OUT"
ok "seed: two erase sizes given" grep -q '^open AUs: the runs were given two erase sizes, 4MiB (linear) and 8MiB (random)$' <<<"$OUT"
ok "seed: 20 is a collection" grep -q '^verdict: 20 open AUs (linear): slow: .*of the order of an erase-block copy' <<<"$OUT"

# ---- the published open-au series: their truth, and nothing inconclusive
# where a write costs a tenth of a copy or less (all but 012's random runs:
# there every write out of order costs a sixth of a copy, 64ms, from 1 to 4
# erase blocks, which one run alone cannot place)
for f in "$F"/realruns/*openau*.txt; do
	name=$(basename "$f")
	"$FB" --analyze "$f" >"$TMP/out" 2>/dev/null
	case $name in
	012-*) ok "$name: inconclusive only in random order" not grep -q '^verdict: .*(linear).*inconclusive' "$TMP/out" ;;
	*) ok "$name: no inconclusive verdict" not grep -q '^verdict: .*inconclusive' "$TMP/out" ;;
	esac
done
for f in 012-sandisk-su04g-4gb-wirenboard1 015-sandisk-sl08g-8gb-wirenboard27; do
	"$FB" --analyze "$F/realruns/$f-openau.txt" >"$TMP/out" 2>/dev/null
	ok "$f: at least 7 fast, linear" grep -q '^verdict: open AUs (linear): at least 7 fast, none slow; ' "$TMP/out"
done
# (issue 29) 015 in random order: every write costs 240ms at every N, three
# quarters of a copy, above the page; the small ones are buffered
"$FB" --analyze "$F/realruns/015-sandisk-sl08g-8gb-wirenboard27-openau.txt" >"$TMP/out" 2>/dev/null
ok "015: random: even 1 is slow" grep -q '^verdict: open AUs (random): even 1 is slow; the smallest writes cost 3.83ms even where larger ones collect (from 1): the card buffers writes below the page; ' "$TMP/out"

# ---- fakecard logstick and variants (real loop devices, a loaded host)
expect_status 0 "logstick find-open-au" "$FB" --analyze "$F/fakecard/020-logstick-findau.txt"
ok "logstick: 12 fast, 13 slow, the merge from 5" grep -q '^verdict: open AUs (linear): 12 fast, 13 slow; a merge regime from 5 ' <<<"$OUT"
expect_status 0 "logstick -O N=1..16" "$FB" --analyze "$F/fakecard/020-logstick-openau.txt"
ok "logstick -O: 12 fast, 13 slow, the merge from 5" grep -q '^verdict: open AUs (linear): 12 fast, 13 slow; a merge regime from 5 ' <<<"$OUT"
ok "logstick -O: 13 alone is a collection" grep -q '^verdict: 13 open AUs (linear): slow: .*garbage collection$' <<<"$OUT"
expect_status 0 "logstick -b 4K" "$FB" --analyze "$F/fakecard/020-logstick-subpage.txt"
ok "logstick: the page 16KiB" grep -q '^verdict: 1 open AU (linear): fast: .*writes below 16KiB cost .* the page is 16KiB?, or, with more than 1 erase block, a merge of a buffer the card keeps for small writes)$' <<<"$OUT"
expect_status 0 "L=2, K=8, jitter" "$FB" --analyze "$F/fakecard/021-logstick-l2k8-jitter10-findau.txt"
ok "L=2, K=8: 8 fast, 9 slow, the merge from 3" grep -q '^verdict: open AUs (linear): 8 fast, 9 slow; a merge regime from 3 ' <<<"$OUT"
expect_status 0 "L=3, K=10, 8K pages" "$FB" --analyze "$F/fakecard/022-logstick-l3k10-page8k-findau.txt"
ok "L=3, K=10: 10 fast, 11 slow" grep -q '^verdict: open AUs (linear): 10 fast, 11 slow; ' <<<"$OUT"
expect_status 0 "8K pages, -b 2K" "$FB" --analyze "$F/fakecard/022-logstick-l3k10-page8k-subpage.txt"
ok "L=3, K=10: the page 8KiB" grep -q 'the page is 8KiB?, or, with more than 1 erase block, a merge of a buffer the card keeps for small writes)$' <<<"$OUT"

# ---- issue 29's patterns on fakecard (real loop devices, collections of a
# copy's cost): a card that buffers 4 KiB writes, one that only merges, a
# plain one
expect_status 0 "smallbuf -O -r -b 4K" "$FB" --analyze "$F/fakecard/023-smallbuf-openau-random.txt"
ok "smallbuf random: 3 fast, 4 slow, the 4KiB writes the exception" grep -q '^verdict: open AUs (random): 3 fast, 4 slow; the smallest writes cost 2[0-9.]*ms even where larger ones collect (from 4): the card buffers writes below the page; ' <<<"$OUT"
ok "smallbuf random: 4 slow alone, with its exception" grep -q '^verdict: 4 open AUs (random): slow: from .* every write costs about [0-9.]*ms, of the order of an erase-block copy .*: garbage collection; but 4KiB writes cost 2[0-9.]*ms: the card buffers writes below the page$' <<<"$OUT"
expect_status 0 "smallbuf -O -b 4K N = 6, no early stop" "$FB" --analyze "$F/fakecard/023-smallbuf-openau-nostop.txt"
ok "smallbuf linear: collections from 2MiB to 8KiB, the 4KiB writes named" grep -q '^verdict: 6 open AUs (linear): slow: from 2MiB to 8KiB every write costs about [0-9.]*ms, of the order of an erase-block copy .*: garbage collection; but 4KiB writes cost 2[0-9.]*ms: the card buffers writes below the page$' <<<"$OUT"
expect_status 0 "mergeonly -O N = 1..7" "$FB" --analyze "$F/fakecard/024-mergeonly-openau.txt"
ok "mergeonly: at least 7 fast, a merge from 2" grep -q '^verdict: open AUs (linear): at least 7 fast, none slow; a merge regime from 2 (every write that moves to another erase block costs [0-9.]*ms more, [0-9.]*x below an erase-block copy: ' <<<"$OUT"
ok "mergeonly: no run slow" not grep -q '^verdict: [0-9]* open AUs (linear): slow' <<<"$OUT"
expect_status 0 "sd4m -O N = 4..7" "$FB" --analyze "$F/fakecard/001-sd4m-openau.txt"
ok "sd4m: 5 fast, 6 slow" grep -q '^verdict: open AUs (linear): 5 fast, 6 slow; ' <<<"$OUT"

# ---- the simulated card's keys (all off by default: the presets unchanged)
ok "--list-sims: the keys, off" grep -q 'log-aus=0,log-merge=0,subpage-write=0,cmd-overhead=0' < <("$FB" --list-sims)
rate16() { sed -n 's/^16KiB\t\(.*\)$/\1/p' <<<"$OUT"; }
expect_status 0 "-O 3, no merge" "$FB" -O --open-au-nr=3 sim:
plain=$(rate16)
expect_status 0 "-O 3, a 10ms merge above 2" "$FB" -O --open-au-nr=3 sim:log-aus=2,log-merge=10ms
ok "log-merge slows 3 erase blocks ($plain -> $(rate16))" \
	awk -v a="$(to_num "$(rate16)")" -v b="$(to_num "$plain")" 'BEGIN { exit !(a > 0 && a * 2 < b) }'
expect_status 0 "-O 2, a 10ms merge above 2" "$FB" -O --open-au-nr=2 sim:log-aus=2,log-merge=10ms
ok "log-aus=2: 2 erase blocks at full speed" [ "$(rate16)" = "$plain" ]
expect_status 0 "-O 6 in the merge regime" "$FB" -O --open-au-nr=6 -b 64K sim:log-aus=2,log-merge=20ms,open-au=8
ok "merge: not stopped as a collection" not grep -q '^stopped' <<<"$OUT"
ok "merge: every size measured" [ "$(grep -c $'\t' <<<"$OUT")" -eq 7 ]
ok "merge: not slow" grep -q '^verdict: 6 open AUs (linear): fast: .*a cost of its own on every write' <<<"$OUT"
expect_status 0 "find-open-au, three regimes" "$FB" --find-open-au -e 4M sim:log-aus=2,log-merge=20ms,open-au=8
ok "three regimes: 8 fast, 9 slow, the merge from 3" grep -q '^verdict: open AUs (linear): 8 fast, 9 slow; a merge regime from 3 ' <<<"$OUT"
"$FB" --find-open-au -e 4M sim:log-aus=2,log-merge=20ms,open-au=8 >"$TMP/live" 2>/dev/null
"$FB" --analyze "$TMP/live" >"$TMP/an" 2>/dev/null
ok "three regimes: --analyze says what the search said" [ "$(grep '^verdict: ' "$TMP/live")" = "$(grep '^verdict: ' "$TMP/an")" ]
expect_status 0 "-O 1 -b 4K, sub-page writes" "$FB" -O --open-au-nr=1 -b 4K sim:subpage-write=2ms
ok "subpage-write: the page 16KiB" grep -q 'writes below 16KiB cost 1.99ms more (a read-modify-write of a partial page: the page is 16KiB?, or, with more than 1 erase block, a merge of a buffer the card keeps for small writes)$' <<<"$OUT"
expect_status 0 "-O 1 -b 4K, without" "$FB" -O --open-au-nr=1 -b 4K sim:
ok "no subpage-write: no page named" not grep -q 'the page is' <<<"$OUT"
expect_status 0 "-O 1, 3ms command overhead" "$FB" -O --open-au-nr=1 sim:cmd-overhead=3ms
ok "cmd-overhead: command overhead, fast" grep -q '^verdict: 1 open AU (linear): fast: 16KiB at .*a write costs 5.06ms, 3.39ms beyond its transfer.*not a collection: command overhead' <<<"$OUT"

# ---- issue 29's two patterns on the simulated card, as a shell loop of
# -O runs pastes them (N = 1..7, down to 4 KiB)
loop() {	# spec [-r]: the pasted runs in $TMP/loop.txt
	local n
	for n in 1 2 3 4 5 6 7; do
		echo "\$ ./flashbench --open-au --open-au-nr=$n -b 4K ${2:-} $1"
		"$FB" --open-au --open-au-nr=$n -b 4K ${2:-} --no-early-stop "$1" 2>/dev/null | grep -v '^verdict: '
	done >"$TMP/loop.txt"
}
# A merge of 6ms on every switch of erase block from 2 on, a collection
# never (open-au=64): 6.4ms a write at 4KiB, 79x below a 500ms copy.
MERGE=sim:open-au=64,open-au-random=64,log-aus=1,log-merge=6ms,write-bw=8M,copy-bw=8M
loop $MERGE
expect_status 0 "merge-only card, N = 1..7" "$FB" --analyze "$TMP/loop.txt"
ok "merge-only: at least 7 fast, a merge from 2, not a collection" grep -q '^verdict: open AUs (linear): at least 7 fast, none slow; a merge regime from 2 (every write that moves to another erase block costs 6ms more, 83.9x below an erase-block copy: writes of 4KiB to 2 or more erase blocks at once run 7.7x slower than to 1); per write beyond its transfer: 1: 398µs, 2: 6.4ms, ' <<<"$OUT"
ok "merge-only: each run alone fast" [ "$(grep -c '^verdict: [2-7] open AUs (linear): fast: .*not a collection' <<<"$OUT")" -eq 6 ]
loop $MERGE -r
expect_status 0 "merge-only card, random" "$FB" --analyze "$TMP/loop.txt"
ok "merge-only random: at least 7 fast, a merge from 2" grep -q '^verdict: open AUs (random): at least 7 fast, none slow; a merge regime from 2 ' <<<"$OUT"
expect_status 0 "merge-only card, find-open-au" "$FB" --find-open-au -e 4M $MERGE
ok "merge-only find-open-au: 64 fast, 65 slow, the merge from 2" grep -q '^verdict: open AUs (linear): 64 fast, 65 slow; a merge regime from 2 ' <<<"$OUT"
ok "merge-only find-open-au: no merge probe stopped early" not grep -q '^stopped' < <(awk '/^probe: --open-au-nr=(2|4|8|16|32|64) /{on=1; next} /^probe/{on=0} on' <<<"$OUT")
# Collections of 400ms from 2MiB to 8KiB beyond 3 erase blocks, but the
# 4KiB writes (below the 8KiB page) go to a buffer: 21ms.
SMALL=sim:page=8K,open-au=3,open-au-random=3,small-buffer=4K,small-merge=20ms,write-bw=10M,copy-bw=10M
loop $SMALL
expect_status 0 "small-write buffer, N = 1..7" "$FB" --analyze "$TMP/loop.txt"
ok "small-write buffer: 3 fast, 4 slow, the exception named" grep -q '^verdict: open AUs (linear): 3 fast, 4 slow; the smallest writes cost 20.8ms even where larger ones collect (from 4): the card buffers writes below the page; ' <<<"$OUT"
ok "small-write buffer: each run from 4 slow, its 4KiB writes named" [ "$(grep -c '^verdict: [4-7] open AUs (linear): slow: from 2MiB to 8KiB every write costs about 403ms, .*; but 4KiB writes cost 20.8ms: the card buffers writes below the page$' <<<"$OUT")" -eq 4 ]
loop $SMALL -r
expect_status 0 "small-write buffer, random" "$FB" --analyze "$TMP/loop.txt"
ok "small-write buffer random: 3 fast, 4 slow" grep -q '^verdict: open AUs (random): 3 fast, 4 slow; ' <<<"$OUT"

# ---- wear: at most a fifth of -O at N = 1..K+1 (its lines from the erase
# size down to 16 KiB) on the fakecard profiles' parameters (a collection
# costs an erase block at the card's write rate: copy-bw = write-bw),
# linear and random (K: the open AUs of the mode)
wear() {	# name spec erase-MiB K [--random]
	local out w lines=0 s=$(($3 * 1024)) mode=linear
	[ -n "${5:-}" ] && mode=random
	out=$("$FB" --find-open-au ${5:-} -e "$3M" "sim:$2" 2>/dev/null)
	while [ "$s" -ge 16 ]; do lines=$((lines + 1)); [ $((s % 2)) -eq 1 ] && break; s=$((s / 2)); done
	w=$(sed -n 's/^find-open-au: wrote \([^ ]*\) in .*/\1/p' <<<"$out")
	local want="$4 fast, $(($4 + 1)) slow"
	[ "$4" -eq 0 ] && want="even 1 is slow"
	ok "$1 $mode: $want" grep -q "^verdict: open AUs ($mode): $want" <<<"$out"
	ok "$1 $mode: wrote $w, at most a fifth of $((($4 + 1) * ($4 + 2) / 2 * $3 * lines))MiB" \
		awk -v w="$(to_num "$w")" -v m="$((($4 + 1) * ($4 + 2) / 2 * $3 * lines))" 'BEGIN { exit !(w > 0 && w * 5 <= m * 1048576) }'
}
SD4M=size=1G,erase=4M,page=16K,write-lat=300us,write-bw=20M,copy-bw=20M,erase-time=1ms,open-au=5,open-au-random=3
TLC3M=size=768M,erase=3M,page=16K,write-lat=300us,write-bw=20M,copy-bw=20M,erase-time=1ms,open-au=4,open-au-random=2
LOGSTICK=size=1G,erase=4M,page=16K,write-lat=200us,write-bw=100M,copy-bw=100M,erase-time=1ms,open-au=12,open-au-random=12,log-aus=4,log-merge=4ms,subpage-write=2ms
wear sd4m $SD4M 4 5
wear sd4m $SD4M 4 3 --random
wear tlc3m $TLC3M 3 4
wear tlc3m $TLC3M 3 2 --random
FAT4=size=512M,erase=2M,page=16K,write-lat=300us,write-bw=20M,copy-bw=20M,erase-time=1ms,open-au=3,open-au-random=0,fat-aus=4
wear fat4 $FAT4 2 3
wear fat4 $FAT4 2 0 --random
wear logstick $LOGSTICK 4 12
wear logstick $LOGSTICK 4 12 --random

# ---- a look above where the erase block has no quarter to spare (-e 1M -b 256K:
# each probe line writes the whole erase block): after an inconclusive N = 2 it
# is a whole probe, never a block and then whole erase blocks from there, which
# crossed the erase block's end (the write guard's "internal error", exit 1;
# seen on loop devices whose N = 2 the host's noise made inconclusive)
for m in 12ms 20ms; do
	expect_status 0 "look above, merge $m" "$FB" --find-open-au -e 1M -b 256K --offset=4M \
		"sim:size=32M,erase=1M,log-aus=1,log-merge=$m"
	ok "look above, merge $m: no write outside the regions" [ -z "$(grep 'internal error' <<<"$ERR")" ]
	ok "look above, merge $m: 2 inconclusive, the look at 3 measured" \
		grep -q "^verdict: open AUs (linear): 1 fast, 2 inconclusive, none slow; .*per write beyond its transfer: 1: [0-9.]*µs, 2: [0-9.]*ms, 3: [0-9.]*ms;" <<<"$OUT"
done
expect_status 0 "look above at 8 (room for it)" "$FB" --find-open-au -e 1M -b 256K --offset=4M \
	sim:size=128M,erase=1M,log-aus=1,log-merge=15ms
ok "look above at 8: no write outside the regions" [ -z "$(grep 'internal error' <<<"$ERR")" ]
ok "look above at 8: a collection there (5 open AUs)" \
	grep -q "^verdict: open AUs (linear): 1 fast, 8 slow (2 inconclusive); " <<<"$OUT"

# A search whose probes do not settle ends, and says so: collections 17 times
# cheaper than a copy moved the bracket with every probe, and the search went
# back to 3, 4, 7 and 13 for ever (732GiB written in its announced erase blocks).
expect_status 0 "unsettled search ends" timeout 60 "$FB" --find-open-au -e 4M \
	'sim:write-lat=1.36ms,write-bw=24.3M/s,copy-bw=268M/s,open-au=2'
ok "unsettled: said" grep -qx 'find-open-au: the probes do not settle (an N probed a third time): the bracket above is what was found so far' <<<"$OUT"
ok "unsettled: at most 48 probes ($(grep -c '^probe: ' <<<"$OUT"))" [ "$(grep -c '^probe: ' <<<"$OUT")" -le 48 ]
ok "unsettled: no N probed more than 3 times" \
	[ "$(grep '^probe: ' <<<"$OUT" | sort | uniq -c | awk '$1 > m { m = $1 } END { print m + 0 }')" -le 3 ]

# ---- docs/openau.md: every example is this build's output
n=0
while IFS= read -r cmd; do
	want=$(awk -v c="$cmd" '$0 == c { on = 1; next } on && (/^\$ / || /^```/) { exit } on' "$ROOT/docs/openau.md")
	got=$(cd "$ROOT" && bash -c "${cmd#\$ }" 2>/dev/null)
	ok "docs/openau.md: '${cmd#\$ }' prints what it shows" [ "$got" = "$want" ]
	n=$((n + 1))
done < <(grep '^\$ \./flashbench ' "$ROOT/docs/openau.md")
ok "docs/openau.md: its examples ($n)" [ "$n" -ge 6 ]
# A write below the page costs 2 ms at every count (a read-modify-write): taken
# off the levels, it is no "command overhead", and the 4 ms merges from 3 show.
OUT=$("$FB" --find-open-au -e 4M -b 4K sim:sd,subpage-write=2ms,log-aus=2,log-merge=4ms 2>/dev/null)
ok "sub-page cost: the merge regime above it named" \
	grep -q '^verdict: open AUs (linear): 5 fast, 6 slow; a merge regime from 3 (every write that moves to another erase block costs 4.01ms more' <<<"$OUT"
ok "sub-page cost: said, and taken off" \
	grep -q '; writes below 16KiB cost 2.01ms more even with 1 erase block (a read-modify-write of a partial page: the page is 16KiB?), taken off the costs; per write beyond its transfer: 1: 386µs, 2: 386µs, 3: 4.39ms' <<<"$OUT"
ok "sub-page cost: not command overhead" not grep -q '^verdict: open AUs (linear): .*command overhead' <<<"$OUT"
done_testing
