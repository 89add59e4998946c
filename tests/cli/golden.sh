#!/bin/bash
# The text output of every test on simulated cards (and the CSV of some:
# rows that wait and go out in batches, among verdicts and notes), and of --analyze on
# every saved real run, byte for byte as recorded in tests/golden/
# (tests/golden/update rewrites them when a change is intended).
. "$(dirname "$0")/lib.sh"
G=$TESTS_DIR/golden

# CSV and JSON name the command first: the program's path made "flashbench" (as update does)
norm='1s|^\(# flashbench [^:]*: \)[^ ]*|\1flashbench|; 1s|^\({"tool":"flashbench".*"command":\["\)[^"]*|\1flashbench|'
check_golden() {	# name, arguments...
	local name=$1; shift
	"$FB" "$@" 2>/dev/null | sed "$norm" >"$TMP/got"
	echo "exit ${PIPESTATUS[0]}" >>"$TMP/got"
	if cmp -s "$TMP/got" "$G/$name.out"; then
		pass
	else
		fail "golden $name: flashbench $* differs: $(diff "$G/$name.out" "$TMP/got" | head -5 | tr '\n' ' ')"
	fi
}

while IFS=$'\t' read -r name args; do
	case "$name" in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086
	check_golden "$name" $args
done <"$G/commands"
# relative paths: --analyze names its input in the output
cd "$TESTS_DIR/.." || exit 1
for f in tests/fixtures/realruns/*.txt; do
	check_golden "analyze-$(basename "$f" .txt)" --analyze "$f"
done
ok "every command has a golden" test "$(grep -c '^[a-z]' "$G/commands")" -le "$(ls "$G"/*.out | grep -vc analyze-)"
done_testing
