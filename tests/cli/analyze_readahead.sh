#!/bin/bash
# Issue 20, point 4: --analyze reads readahead sweeps -- flashbench's own
# --readahead text, JSON and CSV, and the kernel-mail tables of seed 001
# -- and judges them by the rule --readahead uses live: the plateau starts
# where the rise stops being larger than the noise the runs show. Wu
# Fengguang marks 4M on both tables of seed 001 (a 5% band gives 2M);
# where the runs disagree the verdict says so instead of picking one.
. "$(dirname "$0")/lib.sh"

SEED=$TESTS_DIR/fixtures/seeds/001_776ea3fbf29b988e.txt
expect_status 0 "seed 001" "$FB" --analyze "$SEED"
ok "001: two readahead runs" [ "$(grep -c '^run [0-9]* (line [0-9]*): readahead, 11 sizes, 2 runs, rows on lines ' <<<"$OUT")" -eq 2 ]
ok "001: both plateaus at 4MiB, as Wu Fengguang marks them" [ "$(grep -c '^readahead: plateau at 4MiB: a readahead of 4MiB and more read ' <<<"$OUT")" -eq 2 ]
ok "001: the first shows its evidence" grep -qF 'readahead: plateau at 4MiB: a readahead of 4MiB and more read 264-269 MB/s, no larger size faster by more than the runs'"'"' spread; from 2MiB (257-259 MB/s) to 4MiB it rises 3.3%, more than the runs'"'"' spread (1.9%)' <<<"$OUT"
ok "001: the second's rise beside the 1% floor" grep -qF 'from 2MiB (258 MB/s) to 4MiB it rises 3.1%, more than 1% (the runs agree within it)' <<<"$OUT"
ok "001: his ==> read, and agreed with (twice)" [ "$(grep -c '^analyze: the table marks 4MiB (==>, line [0-9]*): the same size$' <<<"$OUT")" -eq 2 ]
ok "001: the 64k runs that disagree are said" grep -qF 'readahead: the runs disagree at 64KiB (125-144 MB/s, 14% apart)' <<<"$OUT"
ok "001: not 2MiB" not grep -q 'plateau at 2MiB' <<<"$OUT"

# The same table one run per row, and the size column as our KiB/MiB: the same verdict.
awk '/rasize/ && ++n == 1, /Note that/' "$SEED" | sed -E 's/ +[0-9]+ MB\/s *$//; s/ 2nd run//' >"$TMP/one-run.txt"
expect_status 0 "seed 001, first runs only" "$FB" --analyze "$TMP/one-run.txt"
ok "one run: its noise taken as 1%" grep -q 'one run: its noise not measured' <<<"$OUT"

# Live and saved say the same, in every format (a noisy card: jitter).
DEV="sim:sd,jitter=3"
expect_status 0 "live --readahead --runs=3 on $DEV" "$FB" --readahead --size=16M --runs=3 "$DEV"
live=$(grep '^readahead: plateau at ' <<<"$OUT")
ok "live: a plateau named ($live)" [ -n "$live" ]
"$FB" --readahead --size=16M --runs=3 "$DEV" >"$TMP/ra.txt"
"$FB" --readahead --size=16M --runs=3 --format=json "$DEV" >"$TMP/ra.json"
"$FB" --readahead --size=16M --runs=3 --format=csv "$DEV" >"$TMP/ra.csv"
for f in json csv; do	# JSON comes back as the text lines; CSV's exact rates as printed
	expect_status 0 "--analyze of its $f" "$FB" --analyze "$TMP/ra.$f"
	ok "$f: the live verdict, word for word" grep -qxF "$live" <<<"$OUT"
	ok "$f: the run's own ==> agrees" grep -q '^analyze: the table marks .*: the same size$' <<<"$OUT"
	ok "$f: every line used" grep -qE '^analyze: ([0-9]+) of \1 lines used, 0 skipped$' <<<"$OUT"
done
expect_status 0 "--analyze of its text" "$FB" --analyze "$TMP/ra.txt"
ok "text: the live verdict, word for word" grep -qxF "$live" <<<"$OUT"
ok "text: 3 runs read" grep -q 'readahead, 12 sizes, 3 runs' <<<"$OUT"
ok "text: the step lines are ours, not skipped" grep -qE '^analyze: ([0-9]+) of \1 lines used, 0 skipped$' <<<"$OUT"

# Runs that disagree where the plateau is decided: said, no size picked.
expect_status 0 "a buffered sweep whose runs disagree" "$FB" --analyze "$TESTS_DIR/fixtures/readahead/loop-buffered-disagree.txt"
ok "disagree: no plateau named" grep -q '^readahead: no plateau named: the runs disagree at 1MiB (5301-7790 MB/s, 38% apart), 2MiB (1124-7850 MB/s, 150% apart)' <<<"$OUT"
ok "disagree: the old ==> is not confirmed" grep -q '^analyze: the table marks 512KiB (==>, line 15); the runs disagree too much to confirm it$' <<<"$OUT"
ok "disagree: no 'and more read 7888'" not grep -q '^readahead: plateau at' <<<"$OUT"
# Live, on a card whose runs scatter: no marker, and the verdict says why.
expect_status 0 "live on a card with 30% jitter" "$FB" --readahead --size=16M sim:sd,jitter=30
ok "jitter 30%: the runs disagree" grep -q '^readahead: no plateau named: the runs disagree at ' <<<"$OUT"
ok "jitter 30%: no size marked" not grep -q '^==> ' <<<"$OUT"

# Outside a readahead table, numbers without units are not read as one.
printf '4KiB 1 2\n8KiB 3 4\n16KiB 5 6\n' >"$TMP/bare.txt"
expect_status 2 "bare numbers without a table" "$FB" --analyze "$TMP/bare.txt"
ok "bare: no table found" grep -q 'no align, open-au, find-fat or readahead table found' <<<"$OUT"
done_testing
