#!/bin/bash
# Issue 4: --analyze reads saved output. Every published run in
# tests/fixtures/realruns gets the stated truth or "uncertain", never
# another value (the NVMe and noise tables: "no clear pattern"); saved
# output of live runs on the simulated card gets the live run's verdicts,
# also after a trip through a mail archive.
. "$(dirname "$0")/lib.sh"

RUNS=$TESTS_DIR/fixtures/realruns

# truth FILE KEY: the value stated in the file's "# truth:" header
truth() { sed -n 's/^# truth:.*[ ]'"$2"'=\([0-9a-z]*\).*/\1/p' "$1" | head -1; }

for f in "$RUNS"/0*.txt; do
	name=$(basename "$f")
	"$FB" --analyze "$f" >"$TMP/out" 2>"$TMP/err"; st=$?
	OUT=$(cat "$TMP/out")
	ok "$name: exit 0 or 1 (no table)" test $st -le 1
	ok "$name: lines counted" grep -qE '^analyze: [0-9]+ of [0-9]+ lines used, [0-9]+ skipped( \(lines? [0-9, -]+(, \.\.\.)?\))?$' <<<"$OUT"
	e=$(truth "$f" erase)
	if [ "$e" != unknown ] && [ -n "$e" ]; then
		while read -r size; do
			ok "$name: erase block $size is the stated $e" [ "$(to_num "$size" | cut -d. -f1)" = "$e" ]
		done < <(sed -n 's/^verdict: erase block \([0-9.]*[KMG]iB\).*/\1/p' <<<"$OUT")
	fi
	p=$(truth "$f" page)
	if [ "$p" != unknown ] && [ -n "$p" ]; then
		while read -r size; do
			ok "$name: page $size is the stated $p" [ "$(to_num "$size" | cut -d. -f1)" = "$p" ]
		done < <(sed -n 's/^verdict: page \([0-9.]*[KMG]iB\).*/\1/p' <<<"$OUT")
	fi
	for mode in linear random; do
		n=$(truth "$f" "open_au_$mode")
		[ "$n" = unknown ] || [ -z "$n" ] && continue
		while read -r line; do
			ok "$name: '$line' states the bracket $n or nothing" \
				grep -qE "^verdict: open AUs \($mode\): ($n fast, $((n + 1)) slow(;|\$)|.*(uncertain|inconclusive|no conclusive))" <<<"$line"
		done < <(grep "^verdict: open AUs ($mode)" <<<"$OUT")
	done
done

# The conclusions, one by one.
expect_status 0 "001" "$FB" --analyze "$RUNS/001-kingston-4gb-sa04g-align.txt"
# The author could not tell 2 from 4 MiB; the card's register says 4 MiB, and every
# diff from 4 MiB up (650-696µs) lies above every one below (504-605µs), by more
# than twice the noise.
ok "001: erase block 4MiB, the card's register" grep -q '^verdict: erase block 4MiB (diff 682µs from 4MiB up vs 576µs below: 1.18x, noise ' <<<"$OUT"
expect_status 0 "002" "$FB" --analyze "$RUNS/002-kingston-4gb-sa04g-openau.txt"
ok "002: 8 runs" [ "$(grep -c '^run ' <<<"$OUT")" -eq 8 ]
ok "002: linear 3 fast, 4 slow" grep -q '^verdict: open AUs (linear): 3 fast, 4 slow; every write costs 1.55ms more even with 1 erase block: command overhead; per write beyond its transfer: 1: 1.55ms, 2: 2.15ms, 3: 2.22ms, 4: 402ms; an erase-block copy 650ms (4MiB at 6.45M/s)$' <<<"$OUT"
ok "002: random 3 fast, 4 slow" grep -q '^verdict: open AUs (random): 3 fast, 4 slow; ' <<<"$OUT"
ok "002: the ^C runs are marked" [ "$(grep -c ', interrupted$' <<<"$OUT")" -eq 2 ]
expect_status 0 "003: a find-fat table" "$FB" --analyze "$RUNS/003-kingston-4gb-sa04g-findfat.txt"
ok "003: the author saw no FAT-optimised area, nor does the verdict" \
	grep -q '^verdict: no FAT-optimised area seen (linear): at 16KiB the 6 erase blocks write 3.01M/s to 4.3M/s' <<<"$OUT"
expect_status 0 "004" "$FB" --analyze "$RUNS/004-readme-example-card-align.txt"
ok "004: erase block 4MiB" grep -q '^verdict: erase block 4MiB (diff 301µs from 4MiB up vs 165µs below: 1.82x' <<<"$OUT"
ok "004: page 8KiB, 16KiB steps too" grep -q '^verdict: page 8KiB (.*another step at 16KiB' <<<"$OUT"
expect_status 0 "005" "$FB" --analyze "$RUNS/005-readme-example-card-openau.txt"
ok "005: 2 fast, 3 slow" grep -q '^verdict: open AUs (linear): 2 fast, 3 slow; ' <<<"$OUT"
for f in 009-intel-600p-256gb-nvme-align.txt 010-unknown-sda-negative-diffs-align.txt; do
	expect_status 0 "$f" "$FB" --analyze "$RUNS/$f"
	ok "$f: no clear pattern" grep -q '^verdict: no clear pattern: ' <<<"$OUT"
	ok "$f: no erase or page size" not grep -qE '^verdict: (erase block|page) [0-9]' <<<"$OUT"
done
expect_status 0 "011" "$FB" --analyze "$RUNS/011-sandisk-su04g-4gb-wirenboard1-align.txt"
ok "011: a blurred rise is uncertain" grep -q '^verdict: erase block uncertain: ' <<<"$OUT"
expect_status 0 "013: three runs, one with 1e+03µ" "$FB" --analyze "$RUNS/013-sandisk-su04g-4gb-wirenboard2-align.txt"
ok "013: three align runs of 20 rows" [ "$(grep -c '^run [123] (line [0-9]*): align, 20 rows$' <<<"$OUT")" -eq 3 ]
expect_status 0 "012: 14 runs under script headers" "$FB" --analyze "$RUNS/012-sandisk-su04g-4gb-wirenboard1-openau.txt"
ok "012: 14 runs with N known" [ "$(grep -c '^run .*open-au, [0-9] erase blocks\?, ' <<<"$OUT")" -eq 14 ]
# (issue 20) N=5..7 are slower at the middle sizes, but a write at 4KiB costs
# 2-3ms at every N, two orders below copying an erase block: fast, not
# inconclusive; in random mode 16KiB to 256KiB writes cost a collection's
# worth at every N alike, the smallest ones do not.
ok "012: a few ms a write at every N: at least 7 fast" grep -q '^verdict: open AUs (linear): at least 7 fast, none slow; per write beyond its transfer: 1: 905µs, 2: 1.07ms, 3: 1.1ms, 4: 1.13ms, 5: 1.68ms, 6: 1.92ms, 7: 2.2ms; an erase-block copy 403ms (4MiB at 10.4M/s)$' <<<"$OUT"
# (issue 29) in random order every write costs 64ms from 1 to 4 erase
# blocks (what a write out of order costs this card), 136ms at 5 (72ms
# more: between a merge and a collection), a collection's worth from 6 on
# at every size above the page; only the 4KiB and 8KiB writes are cheap
# (the card buffers them): they do not decide.
ok "012: random 4 fast, 6 slow, 5 uncertain" grep -q '^verdict: open AUs (random): 4 fast, 6 slow (5 inconclusive); from 5 a write costs 72.[0-9]ms more, ' <<<"$OUT"
ok "012: the 4KiB writes below the page named" grep -q '^verdict: 1 open AU (linear): fast: .*: writes below 8KiB cost 656µs more (a read-modify-write of a partial page: the page is 8KiB?, or, with more than 1 erase block, a merge of a buffer the card keeps for small writes)$' <<<"$OUT"
ok "012: the random band is a collection, the small writes the exception" grep -q '^verdict: 6 open AUs (random): slow: from 2MiB to 16KiB every write costs about 183ms, of the order of an erase-block copy (611ms: 4MiB at 6.87M/s): garbage collection; but writes from 8KiB down cost 5.21ms: the card buffers writes below the page$' <<<"$OUT"
expect_status 0 "015" "$FB" --analyze "$RUNS/015-sandisk-sl08g-8gb-wirenboard27-openau.txt"
ok "015: writes below the page named" grep -q '^verdict: 1 open AU (linear): fast: .*: writes below 16KiB cost 600µs more (a read-modify-write of a partial page: the page is 16KiB?, or, with more than 1 erase block, a merge of a buffer the card keeps for small writes)$' <<<"$OUT"
ok "015: no inconclusive run" not grep -q 'inconclusive' <<<"$OUT"

# ---- 016-023: each gives a verdict or says why it cannot, with the lines used
expect_status 0 "016: an align table with double tabs" "$FB" --analyze "$RUNS/016-sd-card-sm-00000-johnlane-sdinfo-align.txt"
ok "016: its '# flashbench' command line used, the header skipped" grep -q '^analyze: 22 of 25 lines used, 3 skipped (lines 1-3)$' <<<"$OUT"
expect_status 0 "017: open-au, 5 random" "$FB" --analyze "$RUNS/017-sd-card-sm-00000-johnlane-sdinfo-openau.txt"
ok "017: a copy's worth from 512KiB to 8KiB: slow" grep -q '^verdict: 5 open AUs (random): slow: from 512KiB to 8KiB every write costs about 614ms, of the order of an erase-block copy' <<<"$OUT"
expect_status 0 "019: an align table cut inside the 1MiB row" "$FB" --analyze "$RUNS/019-unnamed-card-sdb-bradfa-issue13-align.txt"
ok "019: no size named from half a table" not grep -qE '^verdict: (erase block|page) [0-9]' <<<"$OUT"
expect_status 0 "021: find-fat with a stderr line" "$FB" --analyze "$RUNS/021-4gb-sd-odroid-neagix-findfat.txt"
ok "021: a find-fat run of 6 erase blocks" grep -q '^run 1 (line 5): find-fat, 6 erase blocks, mode not said (read as linear), 9 lines$' <<<"$OUT"
ok "021: no FAT-optimised area (the first erase blocks are the slow ones)" grep -q '^verdict: no FAT-optimised area seen (linear): at 16KiB the 6 erase blocks write 2.71M/s to 4.12M/s' <<<"$OUT"
ok "021: the stderr line skipped and named" grep -q '^analyze: 9 of 13 lines used, 4 skipped (lines 1-4)$' <<<"$OUT"
expect_status 0 "022: open-au with no command line" "$FB" --analyze "$RUNS/022-4gb-sd-odroid-neagix-openau.txt"
ok "022: N and mode not said" grep -q '^run 1 (line 5): open-au, erase blocks: not said, mode not said (read as linear), 9 lines$' <<<"$OUT"
ok "022: fast" grep -q '^verdict: open-au run (linear): fast: 16KiB at 3.27M/s' <<<"$OUT"
expect_status 0 "023: open-au to 4KiB" "$FB" --analyze "$RUNS/023-microsd-shuhaowu-gist-w530-openau.txt"
ok "023: a verdict" grep -q '^verdict: open-au run (linear): ' <<<"$OUT"

# ---- pasted: the real runs damaged as pastes are (tests/fixtures/pasted/README.md)
PASTED=$TESTS_DIR/fixtures/pasted
for f in "$PASTED"/*.txt; do
	name=$(basename "$f")
	src=$(sed -n 's/^# same-as: //p' "$f" | tr -d '\r')
	"$FB" --analyze "$f" >"$TMP/out" 2>"$TMP/err"; st=$?
	ok "pasted $name: exit 0 (got $st)" [ $st -eq 0 ]
	ok "pasted $name: a verdict" grep -q '^verdict: ' "$TMP/out"
	ok "pasted $name: the skipped lines named" grep -qE '^analyze: [0-9]+ of [0-9]+ lines used, [0-9]+ skipped \(lines? [0-9, -]+\)$' "$TMP/out"
	[ -n "$src" ] || continue
	"$FB" --analyze "$RUNS/$src" >"$TMP/src" 2>/dev/null
	ok "pasted $name: the verdicts of $src" [ "$(grep '^verdict: ' "$TMP/out")" = "$(grep '^verdict: ' "$TMP/src")" ]
	ok "pasted $name: as many runs as $src" [ "$(grep -c '^run ' "$TMP/out")" -eq "$(grep -c '^run ' "$TMP/src")" ]
done
an() { expect_status 0 "pasted $1" "$FB" --analyze "$PASTED/$1"; }
an 004-lost-mu.txt
ok "lost µ: each row's units restored and said" [ "$(grep -c '^analyze: line [0-9]*: pre [0-9.]*s read as [0-9.]*µs, post .*: only that agrees with on - (pre + post) / 2$' <<<"$OUT")" -eq 4 ]
ok "lost µ: the rest counted" grep -q '^analyze: 13 more rows restored or left out$' <<<"$OUT"
an 001-lost-mu-diff.txt
ok "lost µ of the diff: 'diff 686s read as 686µs'" grep -q '^analyze: line 8: diff 686s read as 686µs: only that agrees' <<<"$OUT"
an 004-mistyped-diff.txt
ok "mistyped diff: the row left out, with its own numbers" \
	grep -q '^analyze: line 13: left out: diff 711µs disagrees with on - (pre + post) / 2 = 172µs$' <<<"$OUT"
ok "mistyped diff: 4MiB or uncertain, never another size" not grep -qE '^verdict: erase block ([0-35-9]|4[^M])' <<<"$OUT"
an 021-stderr-inside.txt
ok "stderr between the rows: one table, not three" grep -q '^run 1 (line 7): find-fat, 6 erase blocks, mode not said (read as linear), 9 lines$' <<<"$OUT"
ok "stderr between the rows: skipped and named" grep -q ' skipped (lines 1-6, 10, 14)$' <<<"$OUT"
an 022-dollar-command.txt
ok "\$ command line: N from it" grep -q '^verdict: 2 open AUs (linear): fast: ' <<<"$OUT"
an 023-hash-command.txt
ok "# command line: N and --random from it" grep -q '^verdict: 5 open AUs (random): ' <<<"$OUT"
for f in 017-one-line.txt 017-two-lines.txt 017-four-lines.txt 022-cut-no-command.txt; do
	an $f
	ok "$f: never fast" not grep -q ': fast: ' <<<"$OUT"
	ok "$f: says it is cut off" grep -qE '^run 1 .*, cut off\? \(ends at [0-9.]+[KM]iB; ' <<<"$OUT"
done
an 017-one-line.txt
ok "one line: too short to judge" grep -q '^verdict: 5 open AUs (random): inconclusive: too short to judge: 1 line (4MiB); ' <<<"$OUT"
an 017-four-lines.txt
# (issue 20) cut before the rate halves line by line, but a 512KiB write
# already costs 600ms, of the order of copying an erase block: slow.
ok "four lines, cut before the signature: a copy's worth, slow" grep -q '^verdict: 5 open AUs (random): slow: from 512KiB down every write costs about 604ms, of the order of an erase-block copy' <<<"$OUT"
an 022-cut-no-command.txt
ok "cut, no command line: the default block size said" grep -q 'no --blocksize said, the default is 16KiB)$' <<<"$OUT"

# ---- hostile pastes (issue 29's review): runs too short to judge make no
# family verdict; lines at 0M/s tell no cost; a loop of 64 N keeps its
# evidence whole
printf '$ ./flashbench --open-au --open-au-nr=1 /dev/sdx\n4MiB\t10M/s\n2MiB\t10M/s\n$ ./flashbench --open-au --open-au-nr=2 /dev/sdx\n4MiB\t10M/s\n2MiB\t1M/s\n' >"$TMP/p2.txt"
expect_status 0 "two 2-line runs" "$FB" --analyze "$TMP/p2.txt"
ok "two 2-line runs: each too short, no bracket" not grep -q '^verdict: open AUs' <<<"$OUT"
printf '$ ./flashbench --open-au --open-au-nr=1 /dev/sdx\n4MiB\t0M/s\n2MiB\t0M/s\n1MiB\t0M/s\n512KiB\t0M/s\n' >"$TMP/p0.txt"
"$FB" --analyze "$TMP/p0.txt" >"$TMP/out" 2>&1
ok "0M/s lines: no verdict of a collection" not grep -q 'garbage collection\|1000000000s' "$TMP/out"
python3 - "$TMP/p64.txt" <<'PY'
import sys
names = {4194304: '4MiB', 2097152: '2MiB', 1048576: '1MiB', 524288: '512KiB', 262144: '256KiB',
         131072: '128KiB', 65536: '64KiB', 32768: '32KiB', 16384: '16KiB'}
out = []
for n in range(1, 65):
    out.append('$ ./flashbench --open-au --open-au-nr=%d /dev/sdx' % n)
    s = 4 << 20
    while s >= 16384:
        t = s / 10e6 + 0.0003 + (0.006 if 2 <= n < 60 else 0) + (0.4 if n >= 60 and s < 4 << 20 else 0)
        out.append('%s\t%.3gM/s' % (names[s], s / t / 1e6))
        s //= 2
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
PY
expect_status 0 "a loop over N = 1..64" "$FB" --analyze "$TMP/p64.txt"
ok "64 N: 59 fast, 60 slow, the merge from 2, the evidence to the copy" grep -q '^verdict: open AUs (linear): 59 fast, 60 slow; a merge regime from 2 .*, 64: 400ms; an erase-block copy 420ms (4MiB at 9.99M/s)$' <<<"$OUT"

# ---- live runs on emulated cards (real loop devices): the live verdict, and the truth
LIVE=$TESTS_DIR/fixtures/fakecard-live
for f in "$LIVE"/*.txt; do
	name=$(basename "$f")
	"$FB" --analyze "$f" >"$TMP/out" 2>/dev/null
	ok "fakecard $name: --analyze says what the live run said" [ "$(grep '^verdict: ' "$f")" = "$(grep '^verdict: ' "$TMP/out")" ]
	fat=$(sed -n 's/^# truth: fat=\([0-9]*\).*/\1/p' "$f")
	[ -n "$fat" ] || continue
	if [ "$fat" -eq 0 ]; then
		ok "fakecard $name: no area named" not grep -q '^verdict: FAT-optimised area (' "$TMP/out"
	else
		ok "fakecard $name: the first $fat, or none seen / uncertain" \
			grep -qE "^verdict: (FAT-optimised area \((random|linear)\): the first $fat of |no FAT-optimised area seen|FAT-optimised area uncertain)" "$TMP/out"
	fi
done
ok "fakecard fat4 --random: the first 4 found" grep -q '^verdict: FAT-optimised area (random): the first 4 of 6 ' "$LIVE/fat4-findfat-random.txt"
# (random-write slots: the later erase blocks write at half the rate, short of
# FF_FACTOR; each pays an erase-block copy per line, which names the area)
"$FB" --analyze "$LIVE/sd4m-fat2-findfat-random.txt" >"$TMP/out" 2>/dev/null
ok "fakecard sd4m --fat-aus=2: the first 2 named by the copy the others pay" grep -q \
	"^verdict: FAT-optimised area (random): the first 2 of 6 erase blocks (8MiB): from 512KiB to 16KiB each of the others takes about 20[0-9]ms longer to write (at least 19[0-9]ms: .*), an erase-block copy's worth (203ms: 4MiB at 20.7M/s)" "$TMP/out"

# ---- saved output of live runs: the same verdicts
check_same() {	# LABEL FLASHBENCH-ARGS...: live verdicts == verdicts of --analyze on the saved output
	local what=$1; shift
	"$FB" "$@" >"$TMP/live" 2>/dev/null
	"$FB" --analyze "$TMP/live" >"$TMP/an" 2>/dev/null
	ok "$what: verdicts found" grep -q '^verdict: ' "$TMP/live"
	ok "$what: --analyze says the same" [ "$(grep '^verdict: ' "$TMP/live")" = "$(grep '^verdict: ' "$TMP/an")" ]
}
check_same "-a sd" -a sim:sd
check_same "-a tlc -b 1K" -a -b 1K sim:tlc
check_same "-a 3M card, jitter" -a -b 2K sim:erase=3M,page=8K,jitter=4,seed=5
check_same "-a noisy, one try" -a -c 1 sim:jitter=5,outliers=0.02,seed=9
check_same "find-open-au linear" --find-open-au -e 4M sim:sd
check_same "find-open-au random" --find-open-au -r -e 8M sim:usb
check_same "find-open-au with a limit" --find-open-au -e 4M --max-write=40M sim:sd

# a mail archive: tabs turned into spaces, quoted, CRLF line ends
"$FB" -a -b 1K sim:erase=12M >"$TMP/live"
sed 's/\t/    /g; s/^/> /; s/$/\r/' "$TMP/live" >"$TMP/mail"
expect_status 0 "--analyze a mangled mail" "$FB" --analyze "$TMP/mail"
ok "mail: same verdicts" [ "$(grep '^verdict: ' "$TMP/live")" = "$(grep '^verdict: ' <<<"$OUT")" ]
# several --open-au runs after their command lines, one of them cut by ^C
for n in 4 5 6; do
	echo "\$ ./flashbench -O --erasesize=\$[4 * 1024 * 1024] --open-au-nr=$n /dev/sdz"
	"$FB" -O --open-au-nr=$n sim:
done >"$TMP/runs" 2>/dev/null
echo "^C" >>"$TMP/runs"
expect_status 0 "--analyze - (standard input)" "$FB" --analyze - <"$TMP/runs"
ok "open-au runs: 5 fast, 6 slow" grep -q '^verdict: open AUs (linear): 5 fast, 6 slow; ' <<<"$OUT"
ok "open-au runs: the stop and verdict lines are no data" grep -q '^analyze: 31 of 31 lines used, 0 skipped$' <<<"$OUT"
expect_status 0 "--analyze --out" "$FB" --analyze "$TMP/runs" --out "$TMP/o"
ok "--out: nothing on stdout" [ -z "$OUT" ]
ok "--out: the verdicts in the file" grep -q '^verdict: open AUs' "$TMP/o"

# ---- usage
expect_status 2 "--analyze with a DEVICE" "$FB" --analyze "$TMP/runs" sim:
ok "DEVICE refused: one line" [ "$(wc -l <<<"$ERR")" -eq 1 ] && ok "names the option" grep -q -- '--analyze=' <<<"$ERR"
expect_status 2 "--analyze with a test" "$FB" -a --analyze "$TMP/runs"
expect_status 2 "--analyze a missing file" "$FB" --analyze "$TMP/nonexistent"
ok "missing file named" grep -q "nonexistent" <<<"$ERR"
# A live -a stopped by a signal prints no verdict on its rows: nor does
# --analyze of that output. A pasted ^C (the original's runs) is judged.
"$FB" -a -b 1024 sim: 2>/dev/null | head -12 >"$TMP/int-a"
echo "interrupted by signal 2: the lines above are all that was measured" >>"$TMP/int-a"
expect_status 0 "--analyze of an interrupted -a" "$FB" --analyze "$TMP/int-a"
ok "interrupted -a: no verdict, as live" not grep -q '^verdict:' <<<"$OUT"
ok "interrupted -a: says why" grep -q 'no verdict on an align table a signal stopped' <<<"$OUT"
"$FB" -a -b 1024 sim: 2>/dev/null | head -12 >"$TMP/ctrlc-a"
echo "^C" >>"$TMP/ctrlc-a"
expect_status 0 "--analyze of a pasted ^C -a" "$FB" --analyze "$TMP/ctrlc-a"
ok "pasted ^C: judged" grep -q '^verdict: erase block' <<<"$OUT"
# An align paste of fewer than four rows is too short to judge, not "no pattern".
head -3 "$TMP/ctrlc-a" >"$TMP/short-a"
expect_status 0 "--analyze of a three-row align paste" "$FB" --analyze "$TMP/short-a"
ok "three rows: too short to judge" grep -q '^verdict: erase block uncertain: too short to judge: 3 rows' <<<"$OUT"
ok "three rows: no pattern not claimed" not grep -q 'no clear pattern' <<<"$OUT"
done_testing
