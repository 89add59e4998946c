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
	# ---- issue 22: charts a person can read
	# find-open-au: every N its own marker, dashes and colour; labels at the
	# line ends, lines that end together (N = 1, 2, 4, 5 on sim:) named together
	"$PLOT" -g "$TMP/foa.gp" -o "$TMP/x.png" "$TMP/foa.json" >/dev/null
	plots=$(grep -o "n[0-9]*\.dat' using 2:(\$3/1e6) with linespoints lc [0-9]* pt [0-9]* ps [0-9.]* dt [0-9]*" "$TMP/foa.gp")
	ok "find-open-au: six lines ($plots)" [ "$(wc -l <<<"$plots")" -eq 6 ]
	ok "find-open-au: six markers" [ "$(grep -o ' pt [0-9]*' <<<"$plots" | sort -u | wc -l)" -eq 6 ]
	ok "find-open-au: six marker sizes" [ "$(grep -o ' ps [0-9.]*' <<<"$plots" | sort -u | wc -l)" -eq 6 ]
	ok "find-open-au: five dash patterns" [ "$(grep -o ' dt [0-9]*' <<<"$plots" | sort -u | wc -l)" -eq 5 ]
	ok "find-open-au: N=1, 2, 4, 5 labelled together at 16KiB" \
		grep -q '^set label "N=1, 2, 4, 5" at 16384, 8.04 ' "$TMP/foa.gp"
	ok "find-open-au: N=6, 8 labelled together at 128KiB" grep -q '^set label "N=6, 8" at 131072, ' "$TMP/foa.gp"
	# sizes as the text prints them, on a log-2 axis, the outer ones drawn
	ok "find-open-au: the sizes as text (KiB, not kiB)" \
		grep -qx 'set xtics ("512KiB" 524288, "256KiB" 262144, "128KiB" 131072, "64KiB" 65536, "32KiB" 32768, "16KiB" 16384)' "$TMP/foa.gp"
	ok "find-open-au: a log-2 axis, largest first" grep -qx 'set xrange \[655360:13107\]' "$TMP/foa.gp" && \
		grep -qx 'set logscale x 2' "$TMP/foa.gp"
	for f in align.csv ra.csv oa.csv; do
		"$PLOT" -g "$TMP/t.gp" -o "$TMP/x.png" "$TMP/$f" >/dev/null
		ok "$f: no gnuplot size format (it prints kiB)" not grep -q "format x" "$TMP/t.gp"
		ok "$f: sizes as text" grep -q '^set xtics (.*"16KiB" 16384' "$TMP/t.gp"
	done
	# open-au: the early stop and the verdict marked
	"$FB" -O --open-au-nr=8 --format=csv sim: >"$TMP/oa8.csv" 2>/dev/null
	"$FB" -O --open-au-nr=8 --format=json sim: >"$TMP/oa8.json" 2>/dev/null
	for f in oa8.csv oa8.json; do
		draw "open-au-early-stop-${f#*.}" "$TMP/$f" -g "$TMP/oa8.gp"
		ok "open-au ($f): the early stop marked after 256KiB" \
			grep -q '^set arrow from 262144, graph 0 to 262144, graph 1' "$TMP/oa8.gp"
		ok "open-au ($f): said where it stopped and why" \
			grep -q '^set label "early stop after 256KiB:\\nevery write costs the same 300ms' "$TMP/oa8.gp"
		ok "open-au ($f): the verdict" \
			grep -q '^set label "verdict: 8 open AUs (linear): slow: from 1MiB down every write costs about 300ms' "$TMP/oa8.gp"
	done
	"$PLOT" -g "$TMP/oa.gp" -o "$TMP/x.png" "$TMP/oa.csv" >/dev/null
	ok "open-au without a stop: no stop marked" not grep -q "early stop" "$TMP/oa.gp"
	ok "open-au without a stop: its verdict" grep -q '^set label "verdict: 3 open AUs (linear): fast' "$TMP/oa.gp"
	# find-fat: a kind of its own; the FAT-optimised area drawn apart
	"$FB" -f --random --format=csv sim:fat >"$TMP/ff.csv" 2>/dev/null
	"$FB" -f --random --format=json sim:fat >"$TMP/ff.json" 2>/dev/null
	for f in ff.csv ff.json; do
		draw "find-fat-${f#*.}" "$TMP/$f" -g "$TMP/ff.gp"
		ok "find-fat ($f): six lines" [ "$(grep -o "title 'erase block [0-9]" "$TMP/ff.gp" | wc -l)" -eq 6 ]
		ok "find-fat ($f): erase blocks 0 and 1 are the area, thick" \
			[ "$(grep -o "lw 3 dt 1 title 'erase block [0-9] (FAT-optimised)'" "$TMP/ff.gp" | wc -l)" -eq 2 ]
		ok "find-fat ($f): labelled at the ends" grep -q '^set label "erase block 0, 1" at 16384, ' "$TMP/ff.gp" && \
			grep -q '^set label "erase block 2, 3, 4, 5" at 16384, ' "$TMP/ff.gp"
		ok "find-fat ($f): the verdict" grep -q '^set label "verdict: FAT-optimised area (random): the first 2 of 6' "$TMP/ff.gp"
	done
	draw "find-fat by name" "$TMP/ff.csv" -k find-fat
	"$PLOT" -g "$TMP/ffl.gp" -o "$TMP/x.png" "$TMP/two.csv" >/dev/null
	# -g: the script kept
	ok "-g: the gnuplot script kept" grep -q "^set output '$TMP/x.png'" "$TMP/ffl.gp"
	# the man page: lint-clean, and its examples run (on sim: for /dev/mmcblk0)
	if need mandoc; then
		ok "flashbench-plot.1: mandoc -Tlint clean" mandoc -Tlint -W warning "$ROOT/man/flashbench-plot.1"
	fi
	mkdir "$TMP/ex"
	awk '/^\.Bd -literal/ { on = 1; next } /^\.Ed/ { on = 0 } on' "$ROOT/man/flashbench-plot.1" |
		sed 's|/dev/mmcblk0|sim:fat|; s|^flashbench |"$FB" |; s|^flashbench-plot |"$PLOT" |' >"$TMP/ex/run.sh"
	ok "flashbench-plot.1: four example lines" [ "$(wc -l <"$TMP/ex/run.sh")" -eq 4 ]
	(cd "$TMP/ex" && FB=$FB PLOT=$PLOT bash -e run.sh >out 2>/dev/null)
	ok "flashbench-plot.1 examples: they run" [ $? -eq 0 ]
	ok "flashbench-plot.1 examples: foa.png" png "$TMP/ex/foa.png"
	ok "flashbench-plot.1 examples: fat.svg" grep -q "<svg" "$TMP/ex/fat.svg"
	ok "flashbench-plot.1 examples: the names printed" [ "$(cat "$TMP/ex/out" | tr '\n' ' ')" = "foa.png fat.svg " ]
	# docs/plots.md: its commands are the Makefile's, every chart it shows is there,
	# and its first example prints what it shows
	doc=$ROOT/docs/plots.md
	mk=$(sed -n '/^plots:/,/^$/p' "$ROOT/Makefile" | tr -d '\\\t' | tr '\n' ' ' | sed 's/  */ /g')
	while read -r cmd; do
		ok "docs/plots.md: '$cmd' is in make plots" grep -qF -- "$cmd " <<<"$mk"
	done < <(sed -n 's/^`\(\.\/flashbench [^`]*\)`$/\1/p' "$doc")
	ok "docs/plots.md: eight commands" [ "$(grep -c '^`\./flashbench ' "$doc")" -eq 8 ]
	for img in $(sed -n 's/^!\[[^]]*\](\(plots\/[^)]*\))$/\1/p' "$doc"); do
		ok "docs/plots.md: $img is there" png "$ROOT/docs/$img"
	done
	ok "docs/plots.md: eight charts" [ "$(grep -c '^!\[' "$doc")" -eq 8 ]
	(cd "$TMP/ex" && "$FB" --find-open-au -e 4M --format=json sim: >foa.json 2>/dev/null && "$PLOT" foa.json >doc.out)
	ok "docs/plots.md: the example prints foa.png" [ "$(cat "$TMP/ex/doc.out")" = "$(sed -n '/^\$ scripts\/flashbench-plot foa.json$/{n;p}' "$doc")" ]
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
