#!/bin/bash
# The output layer's flushing: rows to a file or pipe go out in stdio's
# blocks (a 65536-row scatter is a few hundred write(2) calls, not one per
# row), while an interrupted or finished run still leaves every row.
. "$(dirname "$0")/lib.sh"
need strace

strace -f -c -o "$TMP/trace" -e trace=write "$FB" -s --scatter-order=16 sim: >"$TMP/out" 2>/dev/null
calls=$(awk '$NF == "write" { print $4 }' "$TMP/trace")
ok "scatter order 16: every row printed" [ "$(wc -l <"$TMP/out")" -eq 65536 ]
ok "scatter order 16: at most 1000 write calls (got ${calls:-none})" [ -n "$calls" ] && [ "$calls" -le 1000 ]
# A full output is still seen at once by a write test: it stops with the error.
expect_status 1 "-O to /dev/full" "$FB" -O -e 1M -b 16K --no-early-stop -o /dev/full sim:
ok "-O to /dev/full: the real error" grep -q "No space left on device" <<<"$ERR"
done_testing
