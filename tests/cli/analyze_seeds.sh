#!/bin/bash
# Issue 20, point 3: --analyze reads seed 000 as the mail archive holds it
# -- each run after a prompt and a time, several runs on one line,
# $[8 * 512 * 1024] arguments, a trailing "Terminated (...)" -- into its
# six runs (N, linear/random, erase size, rows), the same runs and
# verdicts as the same text with one row per line; the summary says which
# lines it used and why it skipped the others. (The open-AU verdicts
# themselves are the classifier's, verdict_openau.c.)
. "$(dirname "$0")/lib.sh"

S=$TESTS_DIR/fixtures/seeds
expect_status 0 "seed 000 as it stands" "$FB" --analyze "$S/000_0eba2a22dff55622.txt"
AS_IS=$OUT
ok "000: six runs" [ "$(grep -c '^run [0-9]* (line [0-9]*): open-au, ' <<<"$OUT")" -eq 6 ]
i=0
for want in "line 11): open-au, 1 erase block, linear, 9 lines" \
	    "line 13): open-au, 16 erase blocks, linear, 14 lines" \
	    "line 13): open-au, 20 erase blocks, linear, 12 lines, interrupted (the shell: Terminated)" \
	    "line 17): open-au, 1 erase block, random, 15 lines" \
	    "line 19): open-au, 16 erase blocks, random, 15 lines" \
	    "line 19): open-au, 20 erase blocks, random, 11 lines"; do
	i=$((i + 1))
	ok "000: run $i ($want)" grep -qF "run $i ($want" <<<"$OUT"
done
ok "000: the two erase sizes said" grep -qx 'open AUs: the runs were given two erase sizes, 4MiB (linear) and 8MiB (random)' <<<"$OUT"
ok "000: the two erase sizes said once" [ "$(grep -c 'two erase sizes\|two different --erasesize' <<<"$OUT")" -eq 1 ]
ok "000: lines used and skipped" grep -qx 'analyze: 4 of 25 lines used, 21 skipped (lines 1-10, 12, 14-16, 18, 20-25)' <<<"$OUT"
ok "000: why skipped (the shell loop's command has no table)" grep -qx 'analyze: skipped: 20: text that is no table, command or line of ours (from line 1); 1: a flashbench command line that no table follows (line 23)' <<<"$OUT"
for m in linear random; do
	ok "000 as mailed: the cutoff between 16 and 20 ($m), as Arnd reads it" grep -q "^verdict: open AUs ($m): 16 fast, 20 slow; " <<<"$OUT"
done
ok "000: a bracket per mode" [ "$(grep -c '^verdict: open AUs (\(linear\|random\)): ' <<<"$OUT")" -eq 2 ]

expect_status 0 "seed 000, one row per line" "$FB" --analyze "$S/000-rows-one-per-line.txt"
ok "one row per line: the same runs and verdicts" \
	[ "$(grep -E '^(run|verdict)' <<<"$AS_IS" | sed 's/ (line [0-9]*)//')" = "$(grep -E '^(run|verdict)' <<<"$OUT" | sed 's/ (line [0-9]*)//')" ]
ok "one row per line: 83 lines used" grep -q '^analyze: 83 of 104 lines used' <<<"$OUT"

# A lone command line: never "1 of 1 used" beside "no table found".
echo '$ ./flashbench --open-au --open-au-nr=4 /dev/sdd' >"$TMP/cmd.txt"
expect_status 2 "a command and no table" "$FB" --analyze "$TMP/cmd.txt"
ok "lone command: 0 of 1 used" grep -qx 'analyze: 0 of 1 lines used, 1 skipped (line 1)' <<<"$OUT"
ok "lone command: why" grep -qx 'analyze: skipped: 1: a flashbench command line that no table follows (line 1)' <<<"$OUT"
ok "lone command: no table" grep -q 'no align, open-au, find-fat or readahead table found' <<<"$OUT"
done_testing
