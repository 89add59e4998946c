#!/bin/bash
# --help and the man page describe the same options; the man page is
# lint-clean; README opens with the two commands.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
MAN=$ROOT/man/flashbench.1

help_opts=$("$FB" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
ok "--help lists options" [ "$(wc -l <<<"$help_opts")" -ge 15 ]
if need mandoc col; then
	lint=$(mandoc -Tlint -W warning "$MAN" 2>&1)
	ok "mandoc -Tlint is clean: $lint" [ -z "$lint" ]
	man_opts=$(mandoc -Tascii "$MAN" | col -b | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
	only_help=$(comm -23 <(echo "$help_opts") <(echo "$man_opts") | tr '\n' ' ')
	only_man=$(comm -13 <(echo "$help_opts") <(echo "$man_opts") | tr '\n' ' ')
	ok "options in --help but not in the man page: $only_help" [ -z "$only_help" ]
	ok "options in the man page but not in --help: $only_man" [ -z "$only_man" ]
fi
# The SYNOPSIS and the --help usage lines name every mode.
if need mandoc col; then
	syn=$(mandoc -Tascii "$MAN" | col -b | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p')
	for m in --info -a -s -i --readahead -O -f --find-open-au --restore= --analyze= --list-sims; do
		ok "man SYNOPSIS names $m" grep -qF -- " $m" <<<"$syn"
	done
fi
usage=$("$FB" --help | sed '/^Find out/,$d')
for m in --info -a -s -i --readahead -O -f --find-open-au --restore= --analyze= --list-sims; do
	ok "--help usage names $m" grep -qF -- " $m" <<<"$usage"
done
# Every size suffix parse.c takes is in the man page, the options guide and --help.
suffixes=$(sed -n '/suffixes\[\] = {/,/^};/p' "$ROOT/src/core/parse.c" | grep -oE '"[A-Za-z]+"' | tr -d '"')
ok "found the size suffixes in parse.c" [ "$(wc -w <<<"$suffixes")" -ge 15 ]
man_text=$(mandoc -Tascii "$MAN" 2>/dev/null | col -b)
for x in $suffixes; do
	ok "the man page lists the size suffix $x" grep -qE "[ ,(]$x[ ,)]" <<<"$man_text"
	ok "docs/guide-options.md lists the size suffix $x" grep -qF "\`$x\`" "$ROOT/docs/guide-options.md"
	ok "--help lists the size suffix $x" grep -qE "(^|[ ,:])$x([ ,;)]|$)" <<<"$("$FB" --help | sed -n '/^SIZE:/,/^An option/p')"
done
# --help is made from the parser's own tables: every option it shows is
# one the binary takes (and unit/test_cli checks the other way round).
shown=$(grep -oE -- '--[a-z][a-z0-9-]+' <<<"$help_opts" | sort -u)
ok "--help shows the options" [ "$(wc -w <<<"$shown")" -ge 30 ]
for o in $shown; do
	"$FB" "$o" >/dev/null 2>"$TMP/opt.err"
	ok "$o of --help is an option the binary takes" not grep -q "unrecognized option" "$TMP/opt.err"
done
# README opens with exactly the two commands.
cmds=$(awk '/^```/{n++; next} n==1' "$ROOT/README.md")
ok "README's first block has two commands" [ "$(wc -l <<<"$cmds")" -eq 2 ]
ok "README's second command is make check" [ "$(sed -n 2p <<<"$cmds")" = "make check" ]
ok "README's first command builds and runs sim:" grep -qE '^make && \./flashbench .*sim:' <<<"$cmds"
done_testing
