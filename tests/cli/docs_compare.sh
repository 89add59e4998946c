#!/bin/bash
# docs/compare.md shows real output: each "$ ./flashbench ..." line in
# its blocks is run, in order, in a copy of the files it names (the
# binary, the fixtures), and must print exactly the lines shown under it.
# Every file is dated as the document shows (our output carries no date:
# --compare names the file's).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
DOC=$ROOT/docs/compare.md
W=$TMP/work
mkdir -p "$W/tests/fixtures/seeds"
ln -s "$FB" "$W/flashbench"
cp -r "$ROOT/tests/fixtures/compare" "$W/tests/fixtures/"
cp "$ROOT/tests/fixtures/seeds/001_776ea3fbf29b988e.txt" "$W/tests/fixtures/seeds/"
redate() { find "$W" -type f -exec touch -d "2026-12-01 12:00 UTC" {} +; }
redate
n=0
while IFS= read -r cmd; do
	want=$(awk -v c="$cmd" '$0 == c { on = 1; next } on && (/^\$ / || /^```/) { exit } on' "$DOC")
	got=$(cd "$W" && bash -c "${cmd#\$ }" 2>&1)
	redate
	ok "docs/compare.md: '${cmd#\$ }' prints what it shows" [ "$got" = "$want" ]
	[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | head -5
	n=$((n + 1))
done < <(grep '^\$ \./flashbench ' "$DOC")
ok "docs/compare.md has its examples ($n)" [ "$n" -ge 9 ]
ok "docs/compare.md: a significant difference shown" grep -q '^compare: --readahead: B is [0-9.]*% slower' "$DOC"
ok "docs/compare.md: a real comparison shown" grep -q '^A (the baseline): tests/fixtures/compare/loop-dio-off.csv (csv); device /dev/loop' "$DOC"
done_testing
