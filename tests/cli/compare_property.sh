#!/bin/bash
# Issue 30, the property: for 100 random simulated cards, --compare X X',
# where X' is the same run X written in another form (JSON, our text, a
# CSV without its first line or after a byte-order mark) or rounded to the
# digits our text prints, never reports a significant row and never a
# difference in its verdict. The cards are drawn from a fixed seed, so a
# failure names a card that can be rerun.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

RANDOM=30
tests=(--readahead -O --queue-depth)
# round3: every value cell (a number with a decimal point: keys are whole) to three digits.
round3() {
	awk -F, -v OFS=, '/^#/ || !/^[0-9]/ { print; next }
		{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) $i = sprintf("%.3g", $i); print }' "$1"
}
cards=0 compared=0 bad=0
for ((i = 0; i < 100; i++)); do
	t=${tests[i % 3]}
	spec="sim:seed=$((RANDOM % 1000 + 1)),jitter=$((RANDOM % 11)),read-bw=$((RANDOM % 40 + 5))M/s,write-bw=$((RANDOM % 20 + 3))M/s"
	"$FB" "$t" --runs=5 --format=csv "$spec" >x.csv 2>/dev/null || { fail "card $i: $t $spec did not run"; continue; }
	"$FB" "$t" --runs=5 --format=json "$spec" >x.json 2>/dev/null
	forms="x.json r.csv cut.csv bom.csv"
	if [ "$t" != --queue-depth ]; then	# compared from text too
		"$FB" "$t" --runs=5 "$spec" >x.txt 2>/dev/null
		forms="$forms x.txt"
	fi
	round3 x.csv >r.csv
	tail -n +2 x.csv >cut.csv
	{ printf '\xef\xbb\xbf'; cat x.csv; } >bom.csv
	cards=$((cards + 1))
	for y in $forms; do
		for pair in "x.csv $y" "$y x.csv"; do
			# shellcheck disable=SC2086
			"$FB" --compare $pair >out 2>err
			st=$? compared=$((compared + 1))
			if [ $st -ne 0 ] || grep -qE ' significant$' out ||
			   grep -qE '^compare: [^:]*: ([B-Z] is |[B-Z] differs)' out ||
			   grep -qE ': different$' out; then
				bad=$((bad + 1))
				fail "card $i: $t $spec: --compare $pair (exit $st): $(grep -E ' significant$|^compare: |: different$' out | head -3) $(cat err)"
			fi
		done
	done
done
ok "100 cards drawn ($cards)" [ "$cards" -eq 100 ]
ok "every form of each compared both ways ($compared comparisons, $bad called different)" \
	[ "$compared" -ge 800 ] && [ "$bad" -eq 0 ]
done_testing
