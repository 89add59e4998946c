#!/bin/bash
# make lint's size rules (scripts/lint.sh): files under 600 lines,
# functions under 80, none below a folder of src/; and the check itself
# finds what breaks them.
. "$(dirname "$0")/lib.sh"
LINT=$TESTS_DIR/../scripts/lint.sh

out=$("$LINT" 2>&1); st=$?
ok "src/ keeps the size rules (scripts/lint.sh): $out" [ "$st" -eq 0 ]

# A tree with one file and one function just at the limits, then over.
mkdir -p "$TMP/src/core"
body() { local i; for ((i = 0; i < $1; i++)); do echo "	x++;"; done; }
{ echo "static int x;"; echo "static void fits(void)"; echo "{"; body 77; echo "}"; } >"$TMP/src/core/a.c"
{ for ((i = 0; i < 600; i++)); do echo "/* $i */"; done; } >"$TMP/src/core/b.c"
expect_status 0 "a function of 80 lines and a file of 600 pass" "$LINT" "$TMP/src"
{ echo "static int x;"; echo "static void too_long(int a,"; echo "		     int b)"; echo "{"; body 77; echo "}"; } >"$TMP/src/core/a.c"
echo "/* 601 */" >>"$TMP/src/core/b.c"
expect_status 1 "a function of 81 lines and a file of 601 fail" "$LINT" "$TMP/src"
ok "the long function is named with its line and length" grep -qxF "core/a.c:2: too_long: 81 lines (limit 80)" <<<"$OUT"
ok "the long file is named with its length" grep -qxF "core/b.c: 601 lines (limit 600)" <<<"$OUT"
ok "the count of what is left goes to stderr" grep -q "2 over the limits" <<<"$ERR"
# A file below a folder of src/ is neither built nor layered: lint says so.
echo "/* 600 */" >"$TMP/src/core/b.c"
{ echo "static int x;"; echo "static void fits(void)"; echo "{"; body 77; echo "}"; } >"$TMP/src/core/a.c"
mkdir -p "$TMP/src/core/deep"
echo "static int y;" >"$TMP/src/core/deep/c.c"
expect_status 1 "a file two folders down fails" "$LINT" "$TMP/src"
ok "it is named: $OUT" grep -qxF "core/deep/c.c: deeper than src/FOLDER/ (make and layers.sh see one folder deep)" <<<"$OUT"
ok "and nothing else: $OUT" [ "$(wc -l <<<"$OUT")" -eq 1 ]
# The allow-list names what the lead must still split; it only covers
# what it names.
ok "the allow-list has reasons" grep -q '^#' "$TESTS_DIR/../scripts/lint-allow"
while read -r entry; do
	case "$entry" in '#'* | '') continue ;; esac
	ok "allow-list entry '$entry' is still over the limits (else drop it)" \
		grep -q "^${entry%%:*}" <<<"$out"
done <"$TESTS_DIR/../scripts/lint-allow"
done_testing
