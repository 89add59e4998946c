#!/bin/bash
# Issue 21: flashbench --compare A B [C...] on saved results of the
# simulated card (text, CSV and JSON, mixed), the refusals (one line,
# exit 2, nothing on stdout), rows only in one input listed, one run each
# "cannot tell", every test with rows, --format=json and csv of the
# comparison, and a real case: one tmpfs image through two loop devices,
# with --direct-io=on and off (its timings are the machine's: only the
# form of the verdict, and that it agrees with the rows, are asserted).
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

ra() { "$FB" --readahead --runs=5 "$@" 2>/dev/null; }
ra --format=csv sim:jitter=5,seed=1 >a.csv
ra --format=json sim:jitter=5,seed=2 >same.json
ra sim:jitter=5,seed=2 >same.txt
ra --format=json sim:jitter=5,seed=2,read-bw=20.9M/s >slow.json

# ---- the same card twice, and 5% slower
expect_status 0 "same card: CSV against JSON" "$FB" --compare a.csv same.json
ok "same card: no real difference ($(grep '^compare:' <<<"$OUT"))" \
	grep -q '^compare: --readahead: no real difference (' <<<"$OUT"
ok "heading names each input: device, command" \
	grep -q '^B: same.json (json); device sim:jitter=5,seed=2 (simulated card, 4GiB); command: .*--readahead --runs=5 --format=json sim:jitter=5,seed=2; file dated ' <<<"$OUT"
ok "a row per size with both sides" \
	grep -qE '^ +64KiB +17.6M/s +[0-9.]+% +5 +17.6M/s +[0-9.]+% +5 +[-+][0-9.]+% +within noise' <<<"$OUT"
ok "the plateau verdicts side by side" grep -q '^readahead: A plateau at 64KiB, B plateau at 64KiB: same$' <<<"$OUT"
expect_status 0 "5% lower bandwidth" "$FB" --compare a.csv slow.json
ok "5% lower bandwidth: significant, slower ($(grep '^compare:' <<<"$OUT"))" \
	grep -qE '^compare: --readahead: B is [3-5]\.[0-9]% slower from 4KiB to [48]MiB \((11|12) of 12 rows significant\)$' <<<"$OUT"
ok "5% lower: the plateau rows significant" grep -qE '^ +1MiB .* -[3-5]\.[0-9]% +significant$' <<<"$OUT"
# three inputs: each against the baseline
expect_status 0 "three inputs" "$FB" --compare a.csv same.json slow.json
ok "three inputs: B and C each against A" \
	[ "$(grep -c '^compare: --readahead: [BC] is\|^compare: --readahead: no real' <<<"$OUT")" -eq 2 ]
# one run (the same seed) saved as CSV and as JSON: the same rows and values
ra --format=json sim:jitter=5,seed=1 >a.json
expect_status 0 "the same run as CSV and JSON" "$FB" --compare a.csv a.json
ok "CSV and JSON read alike: 12 rows, no change" \
	[ "$(grep -cE '^ +[0-9.]+[KM]iB .* 5 +[-+]0\.0% +within noise$' <<<"$OUT")" -eq 12 ]
# our text output of --readahead: the same rows
expect_status 0 "text against CSV" "$FB" --compare same.txt a.csv
ok "text against CSV: no real difference" grep -q '^compare: --readahead: no real difference (' <<<"$OUT"
ok "text against CSV: 5 runs a side" grep -qE '^ +64KiB +17.6M/s +[0-9.]+% +5 +17.6M/s +[0-9.]+% +5 ' <<<"$OUT"
# seed 001: one mail with two readahead tables (two SSDs, two runs each)
seed=$TESTS_DIR/fixtures/seeds/001_776ea3fbf29b988e.txt
expect_status 0 "seed 001: the two tables of one mail" "$FB" --compare "$seed"
ok "seed 001: each table titled by its device" grep -q '^B: .*001_776ea3fbf29b988e.txt, run 2 (text); SSD 22G MARVELL SD88SA02 MP1F (reported by Jens Axboe); dated Sun, 29 Jan 2012 17:28:06 +0800$' <<<"$OUT"
ok "seed 001: 4k row, 2 runs each" grep -qE '^ +4KiB +122M/s +0.8% +2 +41M/s +0.0% +2 +-66.5% +cannot tell: 2 runs \(about 3 runs each would show it\)$' <<<"$OUT"
ok "seed 001: cannot tell" grep -q '^compare: --readahead: cannot tell: 2 runs each -- rerun with --runs=5$' <<<"$OUT"
ok "seed 001: the marked plateaus the same" grep -q '^readahead: A plateau at 4MiB, B plateau at 4MiB: same$' <<<"$OUT"
bad "one file with one run" "holds one run" --compare a.csv

# ---- one run each: cannot tell
"$FB" -O sim:jitter=5,seed=1 >o1.txt 2>/dev/null
"$FB" -O --format=json sim:jitter=5,seed=2,write-bw=9M/s >o2.json 2>/dev/null
expect_status 0 "-O, one run each (text against JSON)" "$FB" --compare o1.txt o2.json
ok "one run each: cannot tell, rerun with --runs" \
	grep -q "^compare: -O: cannot tell: one run each -- -O's text keeps one value a row (the median of its runs): rerun with --runs=5 --format=csv (or json), which keep every run$" <<<"$OUT"
ok "one run each: each row says so" grep -qE '^ +4MiB .*cannot tell: 1 run each' <<<"$OUT"
# two runs of one side: the runs needed are estimated from its spread
"$FB" -O --runs=2 --format=csv sim:jitter=5,seed=3 >o3.csv 2>/dev/null
"$FB" -O --runs=2 --format=csv sim:jitter=5,seed=4,write-bw=9M/s >o4.csv 2>/dev/null
expect_status 0 "-O, two runs each" "$FB" --compare o3.csv o4.csv
ok "two runs: an estimate of the runs needed" grep -qE 'cannot tell: 2 runs \(about [0-9]+ runs each would show it\)' <<<"$OUT"
# five runs of -O in one text file: repeated rows are runs
for s in 1 2 3 4 5; do "$FB" -O sim:jitter=5,seed=$s 2>/dev/null; done >o5.txt
for s in 6 7 8 9 10; do "$FB" -O sim:jitter=5,seed=$s,write-bw=9M/s 2>/dev/null; done >o6.txt
expect_status 0 "-O, five runs in one text file each" "$FB" --compare o5.txt o6.txt
ok "repeated rows are runs: slower ($(grep '^compare:' <<<"$OUT"))" \
	grep -qE '^compare: -O: B is [0-9.]+% slower ' <<<"$OUT"
ok "repeated rows are runs: 5 a side" grep -qE '^ +4MiB +[0-9.]+M/s +[0-9.]+% +5 ' <<<"$OUT"

# ---- rows only in one input are listed
ra --format=csv --min-size=16K --max-size=16M sim:jitter=5,seed=3 >b.csv
expect_status 0 "rows only in one" "$FB" --compare a.csv b.csv
ok "only in A: listed" grep -q '^only in A (2 rows, not compared): 4KiB, 8KiB$' <<<"$OUT"
ok "only in B: listed" grep -q '^only in B (1 row, not compared): 16MiB$' <<<"$OUT"
ok "only in A: shown as a row" grep -qE '^ +4KiB .* only in A$' <<<"$OUT"

# ---- tests that only one input holds: the others compared, and said so
"$FB" -a -O --runs=3 --format=csv sim:jitter=5,seed=1 >ao.csv 2>/dev/null
"$FB" -O --runs=3 --format=json sim:jitter=5,seed=2 >oj.json 2>/dev/null
expect_status 0 "-a and -O against -O alone" "$FB" --compare ao.csv oj.json
ok "a test only in A: said" grep -q '^-a: only in A, not in B: not compared$' <<<"$OUT"
ok "the test both hold: compared" grep -q '^compare: -O: ' <<<"$OUT"
ok "a verdict only A has: said" grep -q '^align: only A says: erase block 4MiB$' <<<"$OUT"

# find-fat's rows are not compared, but its verdict is, in text as in CSV
"$FB" -f -O sim:jitter=5 >fo.txt 2>/dev/null
"$FB" -f -O --format=csv sim:jitter=5,seed=2 >fo.csv 2>/dev/null
expect_status 0 "-f -O: text against CSV" "$FB" --compare fo.txt fo.csv
ok "find-fat rows: said not compared" grep -q '^A: 9 rows of find-fat or find-open-au: not compared$' <<<"$OUT"
ok "find-fat table: said not compared" grep -q '^B: find-fat: not compared' <<<"$OUT"
ok "find-fat verdicts paired" grep -q '^find-fat: A no FAT-optimised area seen (linear), B no FAT-optimised area seen (linear): same$' <<<"$OUT"
"$FB" -f sim:jitter=5 >f.txt 2>/dev/null
bad "find-fat alone" "holds no rows of a test that can be compared (find-fat or find-open-au rows only)" --compare f.txt fo.csv

# ---- refusals: one line, exit 2, nothing on stdout
"$FB" --queue-depth --format=csv sim:jitter=5 >qd.csv
"$FB" --queue-depth -b 8K --format=csv sim:jitter=5 >qd8.csv
"$FB" --queue-depth --format=json sim:jitter=5,size=8G >qdbig.json
bad "different tests" "different tests" --compare a.csv qd.csv
bad "different device sizes" "is of a device of 8GiB, A (qd.csv) of 4GiB: different devices" --compare qd.csv qdbig.json
bad "different block sizes" "was run with --blocksize=8KiB, A (qd.csv) with 4KiB: different block sizes" --compare qd.csv qd8.csv
bad "no input" "needs at least two saved results" --compare
bad "a test as well" "runs no test" --compare -a a.csv b.csv
bad "a missing input" "cannot read 'nothere.csv'" --compare a.csv nothere.csv
bad "a directory" "cannot read '.'" --compare a.csv .
bad "an option of a test" "--runs=3: has no effect with --compare" --compare --runs=3 a.csv b.csv
cp a.csv out.csv
bad "--out onto an input" "out.csv" --compare a.csv out.csv --out=out.csv
ok "--out onto an input: the input is intact" cmp -s a.csv out.csv

# ---- every test with rows
"$FB" --queue-depth --format=json sim:jitter=5,seed=2,channels=2 >qd2.json
expect_status 0 "--queue-depth: CSV against JSON" "$FB" --compare qd.csv qd2.json
ok "--queue-depth: faster from depth 2 ($(grep '^compare:' <<<"$OUT"))" \
	grep -qE '^compare: --queue-depth: B is [0-9.]+% faster from depth 2 to 32 \(5 of 6 rows significant\)$' <<<"$OUT"
ok "--queue-depth: the saturation verdicts differ" grep -q '^queue-depth: A throughput does not rise .*, B throughput rises significantly up to depth 2, not beyond: different$' <<<"$OUT"
"$FB" -a sim:jitter=5,seed=1 >al.txt
"$FB" -a --format=csv sim:jitter=5,seed=2 >al.csv
expect_status 0 "-a: text against CSV" "$FB" --compare al.txt al.csv
ok "-a: a row per boundary" grep -qE '^ +4MiB +[0-9.]+µs +- +1 ' <<<"$OUT"
ok "-a: the erase block verdicts the same" grep -q '^align: A erase block 4MiB, B erase block 4MiB: same$' <<<"$OUT"
ok "-a: takes no --runs: said" grep -q '^compare: -a: cannot tell: one run each -- -a takes no --runs' <<<"$OUT"
"$FB" --sustained --size=32M --log=s1.csv sim:cache=8M,jitter=5,seed=1 >/dev/null 2>&1
"$FB" --sustained --size=32M --format=json sim:cache=12M,jitter=5,seed=2 >s2.json 2>/dev/null
expect_status 0 "--sustained: a --log CSV against JSON" "$FB" --compare s1.csv s2.json
ok "--sustained: rows by time" grep -qE '^ +1s +[0-9.]+M/s ' <<<"$OUT"
ok "--sustained: the cliff only in B's verdicts" grep -q '^cliff: only B says: ' <<<"$OUT"
"$FB" --app-class --format=csv sim:jitter=5,seed=1 >ap1.csv 2>/dev/null
"$FB" --app-class --format=json sim:jitter=5,seed=2 >ap2.json 2>/dev/null
expect_status 0 "--app-class" "$FB" --compare ap1.csv ap2.json
ok "--app-class: a row per figure" grep -qE '^ +random read 4KiB +[0-9]+ IOPS ' <<<"$OUT"
ok "--app-class: the class verdicts the same" grep -q '^app-class: A application performance class: none, B application performance class: none: same$' <<<"$OUT"

# ---- --format=json and csv of the comparison
expect_status 0 "--format=json" "$FB" --compare --format=json a.csv slow.json
ok "json: a document" python3 -c 'import json,sys; json.loads(sys.stdin.read())' <<<"$OUT"
ok "json: rows with judgements" python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
rows = [r for t in d["tests"] for r in t["records"] if r.get("table") == "compare"]
assert len(rows) == 12 and sum(r["judgement"] == "significant" for r in rows) >= 11
assert all(r["runs"] == 5 and r["base_runs"] == 5 and r["unit"] == "bytes_per_s" for r in rows)
v = [r for t in d["tests"] for r in t["records"] if r["type"] == "verdict"]
assert v[0]["result"] == "different" and v[0]["verdict"] == "readahead"' <<<"$OUT"
expect_status 0 "--format=csv" "$FB" --compare --format=csv a.csv slow.json
ok "csv: the compare table" grep -q '^test,key,key_value,input,base_median,base_spread,base_runs,median,spread,runs,unit,change_pct,p,judgement,runs_needed$' <<<"$OUT"
ok "csv: a row" grep -qE '^readahead,64KiB,65536,B,[0-9.e+]+,[0-9.e+]+,5,[0-9.e+]+,[0-9.e+]+,5,bytes_per_s,-[0-9.]+,[0-9.e-]+,significant,0$' <<<"$OUT"
expect_status 0 "--out" "$FB" --compare --out=cmp.json --format=json a.csv slow.json
ok "--out: the file written, stdout empty" [ -s cmp.json ] && [ -z "$OUT" ]
expect_status 0 "standard input as one input" bash -c "\"$FB\" --compare a.csv - <slow.json"
ok "standard input: read" grep -q '^compare: --readahead: B is ' <<<"$OUT"

# ---- the chart: flashbench-plot -k compare (every input's curve, significant rows circled)
PLOT=$TESTS_DIR/../scripts/flashbench-plot
png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
if need gnuplot; then
	"$FB" --compare --format=csv a.csv slow.json same.json >cmp.csv
	"$FB" --compare --format=json ap1.csv ap2.json >cmpa.json
	for f in cmp.csv cmpa.json; do
		ok "plot: $f drawn" "$PLOT" -o "${f%.*}.png" "$f"
		ok "plot: $f: a PNG" png "${f%.*}.png"
	done
	sh -x "$PLOT" -o x.png cmp.csv 2>trace >/dev/null
	ok "plot: the baseline a line" grep -q "title 'A (baseline)'" trace
	ok "plot: B and C a line each, their significant rows circled" \
		[ "$(grep -c "printf .*cmp_[BC].dat" trace)" -eq 4 ] && grep -q "%s: significant" trace
	ok "plot: --readahead in MB/s by size" grep -q "MB/s (median of the runs)" trace
	sh -x "$PLOT" -o x.png cmpa.json 2>trace >/dev/null
	ok "plot: --app-class as percent of A" grep -q "percent of A" trace
fi

# ---- a real case: one tmpfs image, two loop devices, --direct-io=on and off
if need_root "--compare on loop devices" && need losetup blockdev && [ -d /dev/shm ]; then
	img=$(mktemp /dev/shm/fbcompare.XXXXXX)
	cleanup_add "rm -f $img"
	head -c $((64 << 20)) /dev/urandom >"$img"
	if make_loop "$img" --direct-io=off && off=$LOOPDEV && make_loop "$img" --direct-io=on; then
		on=$LOOPDEV
		"$FB" --readahead --runs=5 --max-size=1M --size=16M --format=csv "$off" >off.csv
		"$FB" --readahead --runs=5 --max-size=1M --size=16M --format=json "$on" >on.json
		expect_status 0 "loop: direct-io off against on" "$FB" --compare --format=csv off.csv on.json
		"$FB" --compare off.csv on.json >loop.txt
		v=$(grep '^compare: ' loop.txt)
		echo "loop: $v"
		ok "loop: a verdict on which is faster and whether it is real ($v)" \
			grep -qE '^compare: --readahead: (no real difference \([0-9]+ of 9 rows significant|B is [0-9.]+% (faster|slower) (at|from) [0-9.]+[KM]iB|B differs: faster in [0-9]+ rows, slower in [0-9]+)' <<<"$v"
		# the verdict agrees with the rows it counts
		sig=$(grep -c ',significant,' <<<"$OUT")
		up=$(grep ',significant,' <<<"$OUT" | awk -F, '$12 > 0' | wc -l)
		case $v in
		*"no real difference"*) ok "loop: few significant rows ($sig)" [ "$sig" -le 2 ] ;;
		*faster\ from* | *faster\ at*) ok "loop: faster rows" [ "$up" -eq "$sig" ] ;;
		*slower\ from* | *slower\ at*) ok "loop: slower rows" [ "$up" -eq 0 ] ;;
		*) ok "loop: mixed rows" [ "$up" -gt 0 ] && [ "$up" -lt "$sig" ] ;;
		esac
		ok "loop: the headings name both devices" grep -q "^B: on.json (json); device $on (block device, 64MiB)" loop.txt
	else
		fail "could not attach two loop devices"
	fi
fi
done_testing
