#!/bin/bash
# README's --analyze examples are real output: each "$ ./flashbench
# --analyze ..." line in its section is run from the top of the tree and
# must print exactly the lines shown under it.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)

section=$(awk '/^### `--analyze`/ { on = 1; next } /^### / { on = 0 } on' "$ROOT/README.md")
n=0
while IFS= read -r cmd; do
	want=$(awk -v c="$cmd" '$0 == c { on = 1; next } on && (/^\$ / || /^```/) { exit } on' <<<"$section")
	got=$(cd "$ROOT" && bash -c "${cmd#\$ }" 2>&1)
	ok "README: '${cmd#\$ }' prints what README shows" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -5
	n=$((n + 1))
done < <(grep '^\$ \./flashbench --analyze ' <<<"$section")
ok "README: the --analyze section has examples ($n)" [ "$n" -ge 5 ]
done_testing
