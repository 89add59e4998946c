#!/bin/bash
# Every example in README.md and docs/*.md prints what the page shows:
# tests/cli/docs_examples.py runs each "$ command" of a fenced block and
# compares its output with the lines under it (the format: docs/README.md).
# A guide added to docs/ is checked as soon as it exists.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
need python3 || { done_testing; exit; }

pages=()
for f in "$ROOT/README.md" "$ROOT"/docs/*.md; do
	# the charts guide runs flashbench-plot, which needs gnuplot
	case $f in */plots.md) need gnuplot || continue ;; esac
	pages+=("$f")
done
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "${pages[@]}" >"$TMP/log" 2>&1; st=$?
failing=""	# a failed example, its diff gathered from the indented lines after it
flush() { [ -n "$failing" ] && fail "$failing"; failing=""; }
while IFS= read -r line; do
	case $line in
	"    "*) [ -n "$failing" ] && failing+=" | ${line#    }"; continue ;;
	esac
	flush
	case $line in
	"ok "*) pass ;;
	"FAIL "*) failing="${line#FAIL }: prints other lines than the page shows:" ;;
	"notrun "*) echo "not run (the page says why): ${line#notrun }" ;;
	*) fail "docs_examples.py: $line" ;;
	esac
done <"$TMP/log"
flush
ok "docs_examples.py ends well (exit $st)" [ $st -eq 0 ]
n=$(grep -c '^ok ' "$TMP/log")
ok "README and docs/ have examples that run ($n)" [ "$n" -ge 40 ]
for f in README.md docs/test-align.md docs/guide-analyze.md docs/guide-sim.md; do
	ok "$f has examples that run" grep -q "^ok $f:" "$TMP/log"
done

# The checker catches what it should: a page whose shown output is off by
# one line, a command that fails, and a block skipped without a reason.
mkdir -p "$TMP/t/docs"
printf '```\n$ ./flashbench -a -b 1K sim: | grep -c verdict\n3\n```\n' >"$TMP/t/docs/wrong.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/wrong.md" >"$TMP/o" 2>&1; st=$?
ok "a wrong example fails (exit $st)" [ $st -eq 1 ]
ok "... with the line it printed" grep -q '^    +2$' "$TMP/o"
printf '```\n$ ./flashbench -a -b 1K sim: | grep -c verdict\n2\n```\n' >"$TMP/t/docs/right.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/right.md" >"$TMP/o" 2>&1; st=$?
ok "the right one passes (exit $st): $(cat "$TMP/o")" [ $st -eq 0 ]
printf '```\n$ ./flashbench -a sim: | sed -n 1,2p\nalign 2147483648\tpre 1.34ms\ton 1.94ms\tpost 1.34ms\tdiff 600µs\n...\n$ echo $?\n0\n```\n' >"$TMP/t/docs/wild.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/wild.md" >"$TMP/o" 2>&1; st=$?
ok "'...' stands for lines, \$? is the status before (exit $st): $(cat "$TMP/o")" [ $st -eq 0 ]
printf '```\n$ ./flashbench -a sim: | sed -n 1,2p\n...\nalign 1\n```\n' >"$TMP/t/docs/wild2.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/wild2.md" >"$TMP/o" 2>&1; st=$?
ok "'...' does not excuse a wrong line (exit $st)" [ $st -eq 1 ]
printf '<!-- example setup: truncate -s 16M x.img -->\n```\n$ ./flashbench --info x.img | sed -n 2p\nsize_bytes                      16777216 (16MiB)\n```\n' >"$TMP/t/docs/setup.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/setup.md" >"$TMP/o" 2>&1; st=$?
ok "a setup comment runs first (exit $st): $(cat "$TMP/o")" [ $st -eq 0 ]
printf '<!-- example not run: -->\n```\n$ ./flashbench -a sim: | head -1\nwrong\n```\n' >"$TMP/t/docs/noreason.md"
python3 "$TESTS_DIR/cli/docs_examples.py" "$FB" "$ROOT" "$TMP/t/docs/noreason.md" >"$TMP/o" 2>&1; st=$?
ok "'not run' without a reason runs the block (exit $st)" [ $st -eq 1 ]
done_testing
