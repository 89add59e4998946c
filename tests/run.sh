#!/bin/bash
# Test runner for make check: every unit-test binary in tests/unit and
# every command-line test script in tests/cli. Each unit CHECK and each
# cli assertion counts; the last line is "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

tally() {	# name, output file, exit status
	local p f s
	p=$(sed -n 's/^\(unit\|cli\): \([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$2" | tail -1)
	f=$(sed -n 's/^\(unit\|cli\): \([0-9]*\) passed, \([0-9]*\) failed.*/\3/p' "$2" | tail -1)
	s=$(sed -n 's/^cli: .* \([0-9]*\) skipped$/\1/p' "$2" | tail -1)
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ -z "$(grep -E '^(unit|cli): ' "$2")" ] || { [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; }; then
		f=$((f + 1))	# crashed or printed no tally
		echo "FAIL $1: exit status $3, no complete tally"
	fi
	grep -E '^(FAIL|SKIP)' "$2"
	printf '%-40s %4d passed, %d failed%s\n' "$1" "$p" "$f" "$( [ "$s" -gt 0 ] && echo ", $s skipped")"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

only=${1:-}
for t in tests/unit/*.c; do
	b=${t%.c}
	case "$b" in *"$only"*) ;; *) continue ;; esac
	"./$b" >"$log" 2>&1; tally "$b" "$log" $?
done
for t in tests/cli/*.sh; do
	case "$t" in */lib.sh) continue ;; *"$only"*) ;; *) continue ;; esac
	bash "$t" >"$log" 2>&1; tally "$t" "$log" $?
done
# Skips say what went untested (CI=true turns the avoidable ones into failures).
[ "$skipped" -gt 0 ] && echo "$skipped skipped: the SKIP lines above name what was not tested"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
