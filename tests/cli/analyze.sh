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
	ok "$name: lines counted" grep -qE '^analyze: [0-9]+ of [0-9]+ lines used, [0-9]+ skipped$' <<<"$OUT"
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
				grep -qE "^verdict: open AUs \($mode\): ($n fast, $((n + 1)) slow\$|.*(uncertain|inconclusive|no conclusive))" <<<"$line"
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
ok "002: linear 3 fast, 4 slow" grep -q '^verdict: open AUs (linear): 3 fast, 4 slow$' <<<"$OUT"
ok "002: random 3 fast, 4 slow" grep -q '^verdict: open AUs (random): 3 fast, 4 slow$' <<<"$OUT"
ok "002: the ^C runs are marked" [ "$(grep -c ', interrupted$' <<<"$OUT")" -eq 2 ]
expect_status 1 "003: a find-fat table only" "$FB" --analyze "$RUNS/003-kingston-4gb-sa04g-findfat.txt"
ok "003: says so" grep -q '^analyze: no align table or open-au run found' <<<"$OUT"
expect_status 0 "004" "$FB" --analyze "$RUNS/004-readme-example-card-align.txt"
ok "004: erase block 4MiB" grep -q '^verdict: erase block 4MiB (diff 301µs from 4MiB up vs 165µs below: 1.82x' <<<"$OUT"
ok "004: page 8KiB, 16KiB steps too" grep -q '^verdict: page 8KiB (.*another step at 16KiB' <<<"$OUT"
expect_status 0 "005" "$FB" --analyze "$RUNS/005-readme-example-card-openau.txt"
ok "005: 2 fast, 3 slow" grep -q '^verdict: open AUs (linear): 2 fast, 3 slow$' <<<"$OUT"
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
ok "012: N=5..7 much slower than N=1: not called fast" grep -q '^verdict: open AUs (linear): 4 fast, 5 inconclusive, none slow$' <<<"$OUT"

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
ok "open-au runs: 5 fast, 6 slow" grep -q '^verdict: open AUs (linear): 5 fast, 6 slow$' <<<"$OUT"
ok "open-au runs: the stop line is no data" grep -q '^analyze: 28 of 28 lines used, 0 skipped$' <<<"$OUT"
expect_status 0 "--analyze --out" "$FB" --analyze "$TMP/runs" --out "$TMP/o"
ok "--out: nothing on stdout" [ -z "$OUT" ]
ok "--out: the verdicts in the file" grep -q '^verdict: open AUs' "$TMP/o"

# ---- usage
expect_status 2 "--analyze with a DEVICE" "$FB" --analyze "$TMP/runs" sim:
ok "DEVICE refused: one line" [ "$(wc -l <<<"$ERR")" -eq 1 ] && ok "names the option" grep -q -- '--analyze=' <<<"$ERR"
expect_status 2 "--analyze with a test" "$FB" -a --analyze "$TMP/runs"
expect_status 2 "--analyze a missing file" "$FB" --analyze "$TMP/nonexistent"
ok "missing file named" grep -q "nonexistent" <<<"$ERR"
done_testing
