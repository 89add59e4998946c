#!/bin/bash
# Issue 4: Ctrl-C keeps what was measured. SIGINT or SIGTERM during a test
# stops it at the next request: the lines measured so far, a line saying
# it was interrupted, --out flushed, exit 130. Runs on an image file with
# many tries per measurement, so that a run lasts long enough to be hit.
. "$(dirname "$0")/lib.sh"

IMG=$TMP/img
make_image "$IMG" 64

# run_until_lines N SIGNAL FILE ARGS...: start with standard output in
# $TMP/stdout, wait for N lines in FILE (N = 0: a second, for tests that
# print at the end), send SIGNAL; the exit status in $ST
run_until_lines() {
	local want=$1 sig=$2 out=$3 pid i; shift 3
	: >"$TMP/stdout"
	"$FB" "$@" >"$TMP/stdout" 2>"$TMP/err" &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		if [ "$want" -eq 0 ]; then
			[ $i -ge 10 ] && break
		elif [ "$(grep -c . "$out" 2>/dev/null)" -ge "$want" ]; then
			break
		fi
		sleep 0.1
	done
	kill -"$sig" $pid 2>/dev/null
	wait $pid
	ST=$?
}

INTR='^interrupted by signal [0-9]+: the lines above are all that was measured$'

# -a: the rows so far, no verdict on half a table
run_until_lines 2 INT "$TMP/stdout" -a -b 1K -c 400 "$IMG"
OUT=$(cat "$TMP/stdout")
ok "align + SIGINT: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "align + SIGINT: the last line says so" grep -qE "${INTR/\[0-9\]+/2}" <<<"$(tail -1 <<<"$OUT")"
ok "align + SIGINT: rows measured so far" [ "$(grep -c $'^align [0-9]*\tpre ' <<<"$OUT")" -ge 2 ]
ok "align + SIGINT: cut short (not every row)" [ "$(grep -c '^align ' <<<"$OUT")" -lt 30 ]
ok "align + SIGINT: no verdict on a partial table" not grep -q '^verdict' <<<"$OUT"

# --out is flushed
run_until_lines 2 INT "$TMP/o.txt" -a -b 1K -c 400 -o "$TMP/o.txt" "$IMG"
ok "--out + SIGINT: exit 130" [ "$ST" -eq 130 ]
ok "--out + SIGINT: nothing on stdout" [ ! -s "$TMP/stdout" ]
ok "--out + SIGINT: rows and the interrupted line in the file" \
	grep -qE "$INTR" <<<"$(tail -1 "$TMP/o.txt")"
ok "--out + SIGINT: rows in the file" [ "$(grep -c '^align ' "$TMP/o.txt")" -ge 2 ]

# a write test and SIGTERM: the lines so far
run_until_lines 1 TERM "$TMP/stdout" -O -e 1M -b 512 --open-au-nr=4 --no-early-stop "$IMG"
OUT=$(cat "$TMP/stdout")
ok "open-au + SIGTERM: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "open-au + SIGTERM: signal 15 named" grep -qE "${INTR/\[0-9\]+/15}" <<<"$(tail -1 <<<"$OUT")"
ok "open-au + SIGTERM: rate lines so far" grep -qE $'^1MiB\t[0-9.]+[KMG]?/s$' <<<"$OUT"

# (the open-AU search is interrupted at an exact request in tests/unit/test_interrupt.c:
# on an image file it finishes too fast to be hit reliably)

# scatter prints at the end: what was measured before the signal
run_until_lines 0 INT "$TMP/stdout" -s --scatter-order=16 -c 50 "$IMG"
OUT=$(cat "$TMP/stdout")
ok "scatter + SIGINT: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "scatter + SIGINT: the points measured" [ "$(grep -cE $'^[0-9.e+]+\t[0-9.e+-]+$' <<<"$OUT")" -ge 1 ]
ok "scatter + SIGINT: fewer than all 65536" [ "$(grep -cE $'^[0-9.e+]+\t' <<<"$OUT")" -lt 65536 ]
ok "scatter + SIGINT: the interrupted line" grep -qE "$INTR" <<<"$(tail -1 <<<"$OUT")"
done_testing
