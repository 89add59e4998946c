#!/bin/bash
# Issue 14: scripts/flashbench-plot draws a non-empty PNG (or SVG) for each
# chart it knows, from flashbench's CSV and JSON output of simulated runs,
# and refuses what it cannot draw with a message and exit 2 (usage) or 1.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
PLOT=$ROOT/scripts/flashbench-plot

png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
# draw NAME FILE [ARGS]: the script makes NAME.png from FILE
draw() {
	local name=$1 file=$2; shift 2
	"$PLOT" "$@" -o "$TMP/$name.png" "$file" >"$TMP/plot.out" 2>"$TMP/plot.err"
	ok "$name: exit 0 ($(cat "$TMP/plot.err"))" [ $? -eq 0 ]
	ok "$name: a PNG" png "$TMP/$name.png"
}

if need gnuplot; then
	"$FB" -a -b 1K --format=csv sim: >"$TMP/align.csv"
	"$FB" -a -b 1K --format=json sim: >"$TMP/align.json"
	"$FB" -s --scatter-order=8 --format=csv sim:jitter=5 >"$TMP/scatter.csv"
	"$FB" -s --scatter-order=8 --format=json sim:jitter=5 >"$TMP/scatter.json"
	"$FB" --find-open-au -e 4M --format=json sim: >"$TMP/foa.json" 2>/dev/null
	"$FB" --find-open-au -e 4M --format=csv sim: >"$TMP/foa.csv" 2>/dev/null
	"$FB" -O --open-au-nr=3 --format=csv sim: >"$TMP/oa.csv" 2>/dev/null
	"$FB" --readahead --format=csv sim:size=256M >"$TMP/ra.csv" 2>/dev/null
	"$FB" --readahead --format=json sim:size=256M >"$TMP/ra.json" 2>/dev/null
	"$FB" --queue-depth --random --format=csv sim:sd,channels=4,jitter=5 >"$TMP/qd.csv"
	"$FB" --queue-depth --random --format=json sim:sd,channels=4,jitter=5 >"$TMP/qd.json"
	"$FB" --sustained -b 1M --size=1G --log-interval=100ms --format=csv sim:ssd,cache=256M \
		>"$TMP/sus.csv" 2>/dev/null
	"$FB" --sustained --random -b 1M --size=2G --format=json sim:smr,cache=512M,cache-flush=256M \
		>"$TMP/sus.json" 2>/dev/null
	for f in align.csv align.json scatter.csv scatter.json foa.json foa.csv oa.csv ra.csv ra.json \
		qd.csv qd.json sus.csv sus.json; do
		draw "${f/./-}" "$TMP/$f"
	done
	ok "the script prints the file it wrote" [ "$(cat "$TMP/plot.out")" = "$TMP/sus-json.png" ]
	# the chart kind from the file, or named; -o .svg makes an SVG
	"$FB" -a --info -b 1K --format=csv sim: >"$TMP/two.csv"
	draw "info-and-align" "$TMP/two.csv"
	draw "named kind" "$TMP/two.csv" -k align
	"$PLOT" -o "$TMP/ra.svg" "$TMP/ra.csv" >/dev/null
	ok "svg: an SVG" grep -q "<svg" "$TMP/ra.svg"
	# the default output name: FILE with .png
	cp "$TMP/align.csv" "$TMP/default.csv"
	(cd "$TMP" && "$PLOT" default.csv >/dev/null)
	ok "default output: FILE.png" png "$TMP/default.png"
	# what the script reads: the verdict's erase block and the plateau are marked
	sh -x "$PLOT" -o "$TMP/x.png" "$TMP/align.json" 2>"$TMP/trace" >/dev/null
	ok "align: the verdict's erase block is marked (json)" grep -q "verdict: erase block 4MiB" "$TMP/trace"
	sh -x "$PLOT" -o "$TMP/x.png" "$TMP/ra.json" 2>"$TMP/trace" >/dev/null
	ok "readahead: the plateau is marked (json)" grep -q "set arrow from 65536" "$TMP/trace"
	sh -x "$PLOT" -o "$TMP/x.png" "$TMP/foa.json" 2>"$TMP/trace" >/dev/null
	# N = 1, 2, 4, 8, 6, 5: a line (a data file) each
	ok "find-open-au: one line per N" [ "$(grep -o "/n[0-9]*\.dat" "$TMP/trace" | sort -u | wc -l)" -eq 6 ]
	for f in qd.csv qd.json; do
		sh -x "$PLOT" -o "$TMP/x.png" "$TMP/$f" 2>"$TMP/trace" >/dev/null
		ok "queue-depth: the depth where the rise ends is marked ($f)" grep -q "set arrow from 4," "$TMP/trace"
		ok "queue-depth: IOPS with min..max error bars ($f)" grep -q "yerrorlines pt 7 title 'IOPS'" "$TMP/trace"
		ok "queue-depth: p99 latency on the right axis ($f)" grep -q "axes x1y2.*p99 latency" "$TMP/trace"
	done
	sh -x "$PLOT" -o "$TMP/x.png" "$TMP/sus.csv" 2>"$TMP/trace" >/dev/null
	ok "sustained: the cliff is marked at its time (csv)" grep -q "set arrow from 0.615," "$TMP/trace"
	ok "sustained: no slow episode, nothing shaded (csv)" bash -c "! grep -q 'set object rect' '$TMP/trace'"
	sh -x "$PLOT" -o "$TMP/x.png" "$TMP/sus.json" 2>"$TMP/trace" >/dev/null
	ok "sustained: one shaded box per slow episode (json)" \
		[ "$(grep -c "echo set object rect" "$TMP/trace")" -eq "$(sed -n 's/.*"slow_episodes","result":"[a-z_]*","value":\([0-9]*\).*/\1/p' "$TMP/sus.json")" ]
	ok "sustained: no cliff, none marked (json)" bash -c "! grep -q 'set arrow' '$TMP/trace'"
	# refusals
	"$FB" --info --format=csv sim: >"$TMP/info.csv"
	"$PLOT" -o "$TMP/no.png" "$TMP/info.csv" 2>"$TMP/err"
	ok "a table it does not draw: exit 1" [ $? -eq 1 ]
	ok "a table it does not draw: said" grep -q "no table this script draws" "$TMP/err"
	ok "a table it does not draw: no file" [ ! -e "$TMP/no.png" ]
	"$PLOT" -k scatter -o "$TMP/no.png" "$TMP/align.csv" 2>"$TMP/err"
	ok "-k of a table not in FILE: exit 1, said" [ $? -eq 1 ] && grep -q "no scatter rows" "$TMP/err"
	"$PLOT" -k pie "$TMP/align.csv" 2>"$TMP/err"
	ok "-k pie: exit 2" [ $? -eq 2 ] && grep -q -- "-k pie" "$TMP/err"
	"$PLOT" -o "$TMP/x.jpg" "$TMP/align.csv" 2>"$TMP/err"
	ok "-o x.jpg: exit 2" [ $? -eq 2 ] && grep -q "must end in .png or .svg" "$TMP/err"
	"$PLOT" "$TMP/none.csv" 2>"$TMP/err"
	ok "a missing file: exit 1, named" [ $? -eq 1 ] && grep -q "none.csv: cannot read it" "$TMP/err"
	# text output: the way forward (issue 22)
	"$FB" -a sim: >"$TMP/a.txt" 2>/dev/null
	"$PLOT" -o "$TMP/no.png" "$TMP/a.txt" 2>"$TMP/err"
	ok "text output: exit 1" [ $? -eq 1 ]
	ok "text output: says to use --format=csv or json ($(cat "$TMP/err"))" \
		grep -q "a.txt: not flashbench's CSV or JSON output.*--format=csv or --format=json" "$TMP/err"
	ok "text output: no file" [ ! -e "$TMP/no.png" ]
	"$PLOT" 2>"$TMP/err"
	ok "no FILE: usage, exit 2" [ $? -eq 2 ] && grep -q "^usage:" "$TMP/err"
fi
done_testing
