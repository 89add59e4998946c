#!/bin/bash
# The --analyze guide's examples are real output: each "$ ./flashbench
# --analyze ..." line of docs/guide-analyze.md is run from the top of the
# tree and must print exactly the lines shown under it (docs_examples.sh
# runs them too, with every other example).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)

section=$(cat "$ROOT/docs/guide-analyze.md")
n=0
while IFS= read -r cmd; do
	want=$(awk -v c="$cmd" '$0 == c { on = 1; next } on && (/^\$ / || /^```/) { exit } on' <<<"$section")
	got=$(cd "$ROOT" && bash -c "${cmd#\$ }" 2>&1)
	ok "docs/guide-analyze.md: '${cmd#\$ }' prints what the guide shows" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -5
	n=$((n + 1))
done < <(grep '^\$ \./flashbench --analyze ' <<<"$section")
ok "docs/guide-analyze.md has examples ($n)" [ "$n" -ge 5 ]
done_testing
