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

done_testing
