#!/bin/bash
# Issue 30: --compare and --analyze never call a difference real that is
# not, and never drop an input silently. Each part is one finding of the
# issue, reproduced on the simulated card.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

# ---- 1. the same run in every form reads as the same run
"$FB" --readahead --runs=5 --format=csv sim:jitter=5,seed=1 >a.csv 2>/dev/null
"$FB" --readahead --runs=5 --format=json sim:jitter=5,seed=1 >a.json 2>/dev/null
"$FB" --readahead --runs=5 sim:jitter=5,seed=1 >a.txt 2>/dev/null
for f in a.csv a.json a.txt; do
	{ printf '\xef\xbb\xbf'; cat "$f"; } >"bom.${f#a.}"
	tail -n +2 "$f" >"cut.${f#a.}"
done
# JSON without its first line is no document: the others lose theirs.
forms="a.csv a.json a.txt bom.csv bom.json bom.txt cut.csv cut.txt"
for x in $forms; do
	for y in $forms; do
		[ "$x" = "$y" ] && continue
		"$FB" --compare "$x" "$y" >out 2>&1
		ok "1: $x against $y: no real difference ($(grep '^compare:' out))" \
			grep -q '^compare: --readahead: no real difference (0 of 12 rows significant)$' out
	done
done
"$FB" --compare a.csv bom.csv >out 2>&1
ok "1: a CSV after a byte-order mark is read as CSV" grep -q '^B: bom.csv (csv); device sim:jitter=5,seed=1' out
"$FB" --compare a.csv cut.csv >out 2>&1
ok "1: a CSV without its first line is read as CSV" grep -q '^B: cut.csv (csv); device sim:jitter=5,seed=1' out
"$FB" --compare a.txt bom.json >out 2>&1
ok "1: a JSON document after a byte-order mark is read as JSON" grep -q '^B: bom.json (json)' out
# the checks of what was run apply to them: a card of another size is refused
"$FB" --readahead --runs=5 --format=csv sim:jitter=5,seed=1,size=8G 2>/dev/null | tail -n +2 >big.csv
bad "1: a cut CSV of another device size" "different devices" --compare bom.csv big.csv
# rows without spread: a difference in the last digit printed is rounding
"$FB" --readahead --runs=5 --format=csv sim: >n.csv 2>/dev/null
"$FB" --readahead --runs=5 --format=json sim: >n.json 2>/dev/null
"$FB" --readahead --runs=5 sim: >n.txt 2>/dev/null
for p in "n.csv n.json" "n.txt n.json" "n.txt n.csv"; do
	# shellcheck disable=SC2086
	"$FB" --compare $p >out 2>&1
	ok "1: no spread, $p: no real difference ($(grep '^compare:' out))" \
		grep -q '^compare: --readahead: no real difference (0 of 12 rows significant)$' out
done
ok "1: a row that differs in the digits printed says so" \
	grep -qE '^ +[0-9]+[KM]iB .* within rounding \(no change beyond the digits printed\)$' out
# a real difference without spread is still found
"$FB" --readahead --runs=5 sim:read-bw=20M/s >slow.txt 2>/dev/null
"$FB" --compare n.csv slow.txt >out 2>&1
ok "1: 20M/s against the default, no spread: slower ($(grep '^compare:' out))" \
	grep -qE '^compare: --readahead: B is [0-9.]+% slower ' out

# ---- 7. a cell cut short or garbled is no number; a file cut short says so
sed '/^8388608,/,$d' a.csv >cut7.csv
echo "8388608,false,1761" >>cut7.csv
"$FB" --compare a.csv cut7.csv >out 2>&1
ok "7: a row cut short is skipped and named" \
	grep -q '^B: 1 row skipped, not compared (line 27: 3 of 12 cells (cut short))$' out
ok "7: the row cut short is not compared" grep -qE '^ +8MiB .* only in A$' out
ok "7: no '# status' line: said" grep -q '^B: no "# status" line at its end: the run or the file was cut short$' out
for bad in abc -2e+07 1e+300 nan; do
	sed "s/^4096,false,[0-9.]*/4096,false,$bad/" a.csv >bad.csv
	"$FB" --compare a.csv bad.csv >out 2>&1
	ok "7: a cell '$bad' skips its row, named ($(grep '^B: 1 row' out))" \
		grep -q "^B: 1 row skipped, not compared (line 16: .*$bad" out
	ok "7: a cell '$bad': its row not compared" grep -qE '^ +4KiB .* only in A$' out
done
head -c -1 a.csv >nonl.csv
"$FB" --compare a.csv nonl.csv >out 2>&1
ok "7: a file whose last line (no row) lacks its line end: read whole" not grep -q '^B: .*skipped' out
head -n 27 a.csv | head -c -1 >nonl.csv
"$FB" --compare a.csv nonl.csv >out 2>&1
ok "7: a last row without its line end is skipped, named" \
	grep -q '^B: 1 row skipped, not compared (line 27: a row without its line end (cut short))$' out
head -n 14 a.txt | head -c -1 >nonl.txt
"$FB" --compare a.txt nonl.txt >out 2>&1
ok "7: text: a last row without its line end is skipped, named" \
	grep -q '^B: 1 row skipped, not compared (line 14: a row without its line end (cut short))$' out
"$FB" --compare a.csv a.json >out 2>&1
ok "7: a whole file: no such notes" not grep -qE '^[AB]: (.* skipped|its last line|no "# status)' out

# ---- 4. several JSON documents in one file (a shell loop), and more after one
for s in 1 2; do "$FB" --readahead --runs=5 --format=json sim:jitter=5,seed=$s 2>/dev/null; done >two.json
expect_status 0 "4: one file of two JSON documents" "$FB" --compare two.json
ok "4: its two runs compared" grep -q '^B: two.json, run 2 (json); device sim:jitter=5,seed=2' <<<"$OUT"
expect_status 0 "4: two JSON documents against one" "$FB" --compare a.json two.json
ok "4: both documents read: 10 runs a row" grep -qE '^ +64KiB .* 5 +[0-9.]+M/s +[0-9.]+% +10 ' <<<"$OUT"
ok "4: the merge said" grep -q '^B: 2 runs one after another: read as more runs of each row$' <<<"$OUT"
expect_status 0 "4: --analyze of two JSON documents" "$FB" --analyze two.json
ok "4: --analyze reads both ($(grep 'lines used' <<<"$OUT"))" grep -q '^analyze: 52 of 52 lines used, 0 skipped$' <<<"$OUT"
{ cat a.json; echo garbage; } >trail.json
bad "4: more after the document" "more after JSON document 1 ends, from 'g'" --compare a.json trail.json
expect_status 0 "4: --analyze: more after the document" "$FB" --analyze trail.json
ok "4: --analyze names it" grep -q "^analyze: stopped reading at line 27: more after JSON document 1 ends" <<<"$OUT"
# two text runs in one file without a blank line between: two runs too
"$FB" --readahead --runs=5 sim:jitter=5,seed=2 2>/dev/null | cat a.txt - >two.txt
expect_status 0 "4: two text tables one after another" "$FB" --compare a.json two.txt
ok "4: text: the merge said" grep -q '^B: 2 runs one after another: read as more runs of each row$' <<<"$OUT"

# ---- 3. one file of more than 26 runs: refused, as 27 files are
for i in $(seq 1 28); do echo "Card $i:"; "$FB" --readahead --runs=2 sim:jitter=5,seed=$i 2>/dev/null; echo; done >mail28.txt
bad "3: a mail of 28 runs" "holds more than 26 runs (A to Z): run 27 starts at line 730" --compare mail28.txt
head -n 728 mail28.txt >mail26.txt
expect_status 0 "3: a mail of 26 runs" "$FB" --compare mail26.txt
ok "3: 26 runs: Z is the last, of 2 runs a row" grep -qE '^ +64KiB .* 2 +[0-9.]+M/s +[0-9.]+% +2 ' <<<"$(sed -n '/^--readahead: Z against/,$p' <<<"$OUT")"
ok "3: 26 runs: nothing merged" not grep -q 'runs one after another' <<<"$OUT"

# ---- 9. experiments that measure something else are refused, the parameter named
"$FB" --queue-depth --runs=3 --format=csv sim: >qr.csv 2>/dev/null
"$FB" --queue-depth --runs=3 --write --format=json sim: >qw.json 2>/dev/null
"$FB" --queue-depth --runs=3 --format=json sim:seed=2 >qr.json 2>/dev/null
bad "9: reads against writes" "different experiments (--write)" --compare qr.csv qw.json
expect_status 0 "9: reads against reads (CSV, JSON)" "$FB" --compare qr.csv qr.json
"$FB" -O --open-au-nr=2 --format=csv sim: >o2.csv 2>/dev/null
"$FB" -O --open-au-nr=6 --format=json sim: >o6.json 2>/dev/null
"$FB" -O --open-au-nr=3 sim: >o3.txt 2>/dev/null
bad "9: -O with 2 against 6 open AUs" "with --open-au-nr=6, A (o2.csv) with 2: different experiments (--open-au-nr)" --compare o2.csv o6.json
bad "9: -O with 2 against 3 (text: its verdict line)" "different experiments (--open-au-nr)" --compare o2.csv o3.txt
"$FB" -O --random --format=csv sim: >or.csv 2>/dev/null
"$FB" -O sim: >ol.txt 2>/dev/null
bad "9: -O random against linear (text)" "different experiments (--random)" --compare or.csv ol.txt
{ echo '$ flashbench -O /dev/sdb'; grep -v '^verdict' ol.txt; } >olc.txt
bad "9: -O random against linear (a mail's command line)" "different experiments (--random)" --compare or.csv olc.txt
"$FB" -O --format=json sim:seed=3 >ol.json 2>/dev/null
expect_status 0 "9: -O linear: text against JSON" "$FB" --compare ol.txt ol.json

# ---- 8. saved verdicts paired by what they say, not by their place
for s in 1 2 3 4 5; do "$FB" -a sim:jitter=5,seed=$s 2>/dev/null; done >a5.txt
ok "8: five runs of -a: five erase-block verdicts, none left out" \
	[ "$(grep -c '^verdict: erase block 4MiB' a5.txt)" -eq 5 ] && ! grep -q 'left out' a5.txt
awk '/^verdict: erase/ && !d { print "verdict: 1 row left out (1GiB): a read or the diff in it sticks out (try a larger --count)"; d = 1 } { print }' a5.txt >a5x.txt
expect_status 0 "8: one with an extra note" "$FB" --compare a5.txt a5x.txt
ok "8: the five erase blocks the same" \
	[ "$(grep -c '^align: A erase block 4MiB, B erase block 4MiB: same$' <<<"$OUT")" -eq 5 ]
ok "8: the extra note only in B" grep -q '^align: only B says: 1 row left out (1GiB)$' <<<"$OUT"
ok "8: nothing called different" not grep -q ': different$' <<<"$OUT"
awk '/^verdict: erase/ && ++n == 3 { sub(/erase block 4MiB/, "erase block 8MiB") } { print }' a5.txt >a5y.txt
expect_status 0 "8: one erase block another" "$FB" --compare a5.txt a5y.txt
ok "8: another erase block: paired with one of its kind, different" \
	[ "$(grep -c '^align: A erase block 4MiB, B erase block 8MiB: different$' <<<"$OUT")" -eq 1 ]

# ---- 2. --sustained logs below 1s: paired interval by interval, never merged
"$FB" --sustained --log-interval=100ms --format=csv sim:seed=1 >s1.csv 2>/dev/null
"$FB" --sustained --log-interval=100ms --format=csv sim:write-bw=9M/s >s3.csv 2>/dev/null
"$FB" --sustained --log-interval=100ms --log=l3.csv sim:write-bw=9M/s >/dev/null 2>&1
rows1=$(grep -c '^[0-9]' s1.csv) rows3=$(grep -c '^[0-9]' s3.csv)
for b in s3.csv l3.csv; do
	expect_status 0 "2: 100ms logs, CSV against $b" "$FB" --compare s1.csv "$b"
	ok "2: $b: every row of A paired ($(grep -c 'only in A' <<<"$OUT"))" not grep -q '^only in A' <<<"$OUT"
	ok "2: $b: the rest of B only in B" grep -q "^only in B ($((rows3 - rows1)) rows, not compared): " <<<"$OUT"
	ok "2: $b: one run each, no fake runs" grep -q '^compare: --sustained: cannot tell: one run each' <<<"$OUT"
	ok "2: $b: rows keyed by their interval" grep -qE '^ +0\.1s +8\.04M/s .* 1 +7\.38M/s .* 1 ' <<<"$OUT"
	ok "2: $b: 100.3s a row of its own" grep -qE '^ +100\.3s ' <<<"$OUT"
done
cat s1.csv s1.csv >ss.csv
expect_status 0 "2: a log twice against one" "$FB" --compare ss.csv s3.csv
ok "2: two runs a row in A" grep -q '^compare: --sustained: cannot tell: 2 runs in A, 1 in the other' <<<"$OUT"
"$FB" --sustained --log-interval=1s --format=csv sim:seed=1 >s1s.csv 2>/dev/null
bad "2: logs of other intervals" "with --log-interval=1s, A (s1.csv) with 100ms: rows of different intervals" --compare s1.csv s1s.csv

# ---- 5. --analyze prints the caveat the live run prints
"$FB" --readahead --max-size=32K --runs=3 sim: >ra32.txt 2>/dev/null
"$FB" --readahead --max-size=32K --runs=3 --format=json sim: >ra32.json 2>/dev/null
caveat='readahead: the largest size is the first on the plateau: it may lie beyond --max-size 32KiB'
ok "5: the live run says the plateau may lie beyond" grep -qxF "$caveat" ra32.txt
for f in ra32.txt ra32.json; do
	expect_status 0 "5: --analyze $f" "$FB" --analyze "$f"
	ok "5: --analyze $f says so too" grep -qxF "$caveat" <<<"$OUT"
done
"$FB" --readahead --runs=3 sim: 2>/dev/null | head -6 >racut.txt
expect_status 0 "5: --analyze of a paste cut after 32KiB" "$FB" --analyze racut.txt
ok "5: a cut paste: the plateau may lie beyond" grep -qxF "$caveat" <<<"$OUT"

# ---- 6. a value no device gives is skipped, named, never judged
"$FB" -f --random sim: 2>/dev/null | grep -v '^verdict' >ff.txt
{ echo '$ flashbench -f --random /dev/sdb'; sed 's|^16KiB\t[^\t]*|16KiB\t1e+300M/s|' ff.txt; } >ffx.txt
expect_status 0 "6: --analyze of find-fat with 1e+300M/s" "$FB" --analyze ffx.txt
ok "6: find-fat: the row named" grep -q '^analyze: line 10 skipped, not judged: a rate of 1e+306 B/s, which no device gives (above 1 TB/s)$' <<<"$OUT"
ok "6: find-fat: no verdict from it" not grep -q 'e+299\|e+30[0-9]' <<<"$(grep '^verdict' <<<"$OUT")"
ok "6: find-fat: the skip counted" grep -q '^analyze: skipped: 1: a row with a value no device gives (named above) (line 10)$' <<<"$OUT"
"$FB" -O sim: 2>/dev/null | grep -v '^verdict' >oo.txt
{ echo '$ flashbench -O /dev/sdb'; sed 's|^4MiB\t.*|4MiB\t1e+300M/s|' oo.txt; } >oox.txt
{ echo '$ flashbench -O /dev/sdb'; cat oo.txt; } >ooy.txt
expect_status 0 "6: --analyze of -O with 1e+300M/s" "$FB" --analyze oox.txt
ok "6: -O: the row named" grep -q '^analyze: line 2 skipped, not judged: a rate of 1e+306 B/s' <<<"$OUT"
ok "6: -O: still fast" grep -q '^verdict: open-au run (linear): fast: ' <<<"$OUT"
ok "6: -O: no absurd best" not grep -q 'best 1000' <<<"$OUT"
expect_status 0 "6: --compare of -O with 1e+300M/s" "$FB" --compare ooy.txt oox.txt
ok "6: --compare: the row named" grep -q '^B: 1 row skipped, not compared (line 2: a rate of 1e+306 B/s, which no device gives (above 1 TB/s))$' <<<"$OUT"

# ---- 10. advice that can help: -O's text keeps one value a row
"$FB" -O --runs=5 sim:jitter=5,seed=1 >or1.txt 2>/dev/null
"$FB" -O --runs=5 sim:jitter=5,seed=2 >or2.txt 2>/dev/null
"$FB" -O --runs=5 --format=csv sim:jitter=5,seed=1 >or1.csv 2>/dev/null
"$FB" -O --runs=5 --format=json sim:jitter=5,seed=2 >or2.json 2>/dev/null
expect_status 0 "10: two -O --runs=5 texts" "$FB" --compare or1.txt or2.txt
ok "10: points to CSV or JSON, not to --runs alone" \
	grep -q "^compare: -O: cannot tell: one run each -- -O's text keeps one value a row (the median of its runs): rerun with --runs=5 --format=csv (or json), which keep every run$" <<<"$OUT"
expect_status 0 "10: the same runs as CSV and JSON" "$FB" --compare or1.csv or2.json
ok "10: CSV and JSON keep the runs: judged" grep -q '^compare: -O: no real difference (' <<<"$OUT"

# ---- 12. exit codes: the same situation, the same code, in every mode
# term PID: TERM to PID once it catches TERM (its handlers are set), then its exit status.
term() {
	local i mask
	for ((i = 0; i < 100; i++)); do
		mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		[ -n "$mask" ] && (( 0x$mask & 0x4000 )) && break
		sleep 0.05
	done
	kill -TERM "$1"
	wait "$1"
}
{ cat a.txt; sleep 5; } | "$FB" --analyze - >out 2>&1 &
term $!; st=$?
ok "12: --analyze killed by TERM exits 130, as a test (got $st)" [ "$st" -eq 130 ]
ok "12: --analyze killed: says so" grep -q '^interrupted by signal 15: the lines above are all that was read$' out
{ cat a.csv; sleep 5; } | "$FB" --compare a.json - >out 2>&1 &
term $!; st=$?
ok "12: --compare killed by TERM exits 130 (got $st)" [ "$st" -eq 130 ]
ok "12: --compare killed: says so" grep -q '^flashbench: --compare: interrupted by signal 15 while reading' out
# (a pipe whose reader is gone before the first write: '| head -1' races,
# the whole output may fit in the pipe before head exits)
python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.run(sys.argv[1:], stdout=w, stderr=open("err", "w")).returncode)' \
	"$FB" --compare s1.csv s3.csv; st=$?
ok "12: --compare | head -1 exits 1, as a test (got $st)" [ "$st" -eq 1 ]
ok "12: --compare | head -1: the error named" grep -q 'Broken pipe' err
echo 'nothing to see here' >nothing.txt
expect_status 2 "12: --analyze of a file with nothing usable" "$FB" --analyze nothing.txt
expect_status 2 "12: --compare of a file with nothing usable" "$FB" --compare nothing.txt a.csv

# ---- 13. cosmetics: no "nan%", no absurd value, no stray row, sizes to the byte
"$FB" --compare a.csv cut7.csv >out 2>&1
ok "13: a row only in A shows no nan% spread" not grep -q 'nan' out
ok "13: a row only in A: its spread '-'" grep -qE '^ +8MiB +17\.[0-9]M/s +- +5 +- +only in A$' out
sed 's/^2147483648,\([0-9]*\),\([0-9]*\),\([0-9]*\),[0-9]*/2147483648,\1,\2,\3,1e+300/' \
	<("$FB" -a --format=csv sim: 2>/dev/null) >alx.csv
"$FB" -a --format=csv sim: >al.csv 2>/dev/null
"$FB" --compare al.csv alx.csv >out 2>&1
ok "13: an absurd time is skipped, named, not printed" \
	grep -q '^B: 1 row skipped, not compared (line 10: 1e+300 is no value a device gives (beyond 1e15 ns, 11 days))$' out
ok "13: the absurd value is in no row" not grep -qE '^ +2GiB .*e\+' out
cp a.csv "$(printf 'new\nline.csv')"
"$FB" --compare --format=csv a.csv "$(printf 'new\nline.csv')" >nl.csv 2>/dev/null
ok "13: a line break in a file name stays inside its # line" \
	grep -q '^# flashbench [0-9.]*: .* a.csv new\\nline.csv$' nl.csv
ok "13: every line of the CSV a comment, a blank or a row of its table" \
	not grep -vE '^(#|$|test,|compare,|topic,|readahead,)' nl.csv
expect_status 2 "13: --offset=4092M past the end" "$FB" -O --offset=4092M sim:
ok "13: the offset as given, not rounded ($ERR)" grep -q 'give --offset=0 (now 4092MiB)' <<<"$ERR"

# ---- 11. time no worse than n log n: 200,000 distinct rows a side
# (the pairing and the count of rows chance gives were quadratic: minutes
# here; a hang guard, not a timing: it ends in seconds).
qd() {
	grep '^# \(flashbench\|device\|parameter\)' qr.csv
	echo '# table: queue-depth'
	echo 'depth,iops_runs_1,iops_runs_2,iops_runs_3'
	awk -v s="$1" 'BEGIN { srand(s); for (i = 1; i <= 200000; i++)
		printf "%d,%.6f,%.6f,%.6f\n", i, 1000 + rand(), 1000 + rand(), 1000 + rand() }'
	echo '# status: done, exit status 0'
}
qd 1 >q1.csv
qd 2 >q2.csv
expect_status 0 "11: 200,000 rows a side" timeout 300 "$FB" --compare q1.csv q2.csv
ok "11: every row paired" grep -q '^--queue-depth: B against A (the baseline), 200000 rows$' <<<"$OUT"
ok "11: noise alone: no real difference ($(grep '^compare:' <<<"$OUT"))" \
	grep -q '^compare: --queue-depth: no real difference (' <<<"$OUT"

done_testing
