#!/bin/bash
# Issue 12: --runs on --open-au goes through the statistics of
# --queue-depth (tests/steps.h): each block size written N times, the line
# shows the median (the verdicts read it as before), each step to the
# next size judged significant or within noise; without --runs the output
# is flashbench's. On sim: (virtual clock): a card with 5 open AUs
# written 6 at a time halves its rate per halving of the block size.
. "$(dirname "$0")/lib.sh"

STEP_RE='^[0-9]+(KiB|MiB) -> [0-9]+(KiB|MiB): [-+][0-9]+%, '
ROW_RE='^[0-9]+(KiB|MiB)	[0-9.]+[KMG]/s$'

expect_status 0 "-O --runs=3, garbage collecting" "$FB" -O --open-au-nr=6 -b 64K --runs=3 sim:sd,jitter=5
ok "a row per size, flashbench's format" [ "$(grep -cE "$ROW_RE" <<<"$OUT")" -eq 5 ]
ok "a step per pair of rows" [ "$(grep -cE "$STEP_RE" <<<"$OUT")" -eq 4 ]
ok "the halvings are significant" [ "$(grep -cE ': -5[0-9]%, significant$' <<<"$OUT")" -eq 3 ]
ok "the verdict is the one without --runs" grep -q '^verdict: 6 open AUs (linear): slow: ' <<<"$OUT"
verdict_runs=$(grep '^verdict:' <<<"$OUT")
# --analyze of the saved output skips the step lines and says the same.
printf '%s\n' "$OUT" >"$TMP/runs.txt"
expect_status 0 "--analyze of a --runs output" "$FB" --analyze="$TMP/runs.txt"
ok "--analyze: the same verdict" grep -qxF "$verdict_runs" <<<"$OUT"

# ... and of the JSON document
"$FB" -O --open-au-nr=6 -b 64K --runs=3 --format=json sim:sd,jitter=5 >"$TMP/runs.json" 2>/dev/null
expect_status 0 "--analyze of a --runs JSON document" "$FB" --analyze="$TMP/runs.json"
ok "--analyze JSON: the same verdict" grep -qxF "$verdict_runs" <<<"$OUT"

expect_status 0 "-O --runs=3, fast" "$FB" -O --open-au-nr=5 -b 256K --runs=3 sim:sd,jitter=5
ok "fast: a step per pair of rows" [ "$(grep -cE "$STEP_RE" <<<"$OUT")" -eq 4 ]
ok "fast: no halving" not grep -qE ': -[4-9][0-9]%, ' <<<"$OUT"
ok "fast: verdict fast" grep -q '^verdict: 5 open AUs (linear): fast' <<<"$OUT"

expect_status 0 "JSON: every run" "$FB" -O --open-au-nr=6 -b 256K --runs=4 --format=json sim:sd,jitter=5
ok "JSON: four rates per row, their median in rate_bps" python3 -c '
import json, statistics, sys
d = json.loads(sys.stdin.read())
recs = d["tests"][0]["records"]
rows = [r for r in recs if r.get("table") == "open-au"]
assert rows and all(len(r["rate_runs_bps"]) == 4 for r in rows)
assert all(abs(r["rate_bps"] - statistics.median(r["rate_runs_bps"])) < 1e-6 * r["rate_bps"] for r in rows)
steps = [r for r in recs if r.get("table") == "open-au-step"]
assert len(steps) == len(rows) - 1 and steps[0]["from_bytes"] == 4 << 20
' <<<"$OUT"

# Without --runs: one write per size, no step lines (the golden outputs
# hold the exact text).
expect_status 0 "-O without --runs" "$FB" -O --open-au-nr=6 -b 64K sim:sd,jitter=5
ok "no --runs: no step lines" not grep -q ' -> ' <<<"$OUT"
bad "--runs=0" "--runs: '0'" -O --runs=0 sim:
bad "--runs=17" "--runs: '17'" -O --runs=17 sim:

done_testing
