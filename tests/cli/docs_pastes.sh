#!/bin/bash
# docs/pastes.md shows real output: each "$ ./flashbench ..." line in a
# code block is run from the top of the tree and must print exactly the
# lines shown under it, up to the end of the block.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
DOC=$ROOT/docs/pastes.md

n=0
while IFS= read -r cmd; do
	want=$(awk -v c="$cmd" '$0 == c { on = 1; next } on && /^```/ { exit } on' "$DOC")
	got=$(cd "$ROOT" && bash -c "${cmd#\$ }" 2>&1)
	ok "docs/pastes.md: '${cmd#\$ }' prints what it shows" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -5
	n=$((n + 1))
done < <(grep '^\$ \./flashbench ' "$DOC")
ok "docs/pastes.md has its four examples ($n)" [ "$n" -eq 4 ]
done_testing
