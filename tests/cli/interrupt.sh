#!/bin/bash
# Ctrl-C keeps what was measured. SIGINT or SIGTERM during a test stops it
# at the next request: the lines measured so far, a line saying it was
# interrupted, --out flushed, exit 130. The signal comes at a known
# request, raised by the fault shim (tests/faultshim.c) before the Nth
# pread or pwrite: no sleeping, so the tests hold however fast the device
# (an image on tmpfs or on a disk) is. tests/unit/test_interrupt.c does the
# same in-process on the simulated card (and under the sanitizers, which
# the shim cannot reach).
. "$(dirname "$0")/lib.sh"

IMG=$TMP/img
make_image "$IMG" 64
SHIM=$TESTS_DIR/faultshim.so

# interrupt AT KIND SIGNAL ARGS...: run with SIGNAL raised before the AT-th
# KIND (PREAD or PWRITE) call; stdout in $OUT, the exit status in $ST
interrupt() {
	local at=$1 kind=$2 sig=$3; shift 3
	env LD_PRELOAD="$SHIM" "FB_SIGNAL_${kind}_AT=$at" FB_SIGNAL_ONCE=1 FB_SIGNAL="$sig" \
		"$FB" "$@" >"$TMP/stdout" 2>"$TMP/err"
	ST=$?
	OUT=$(cat "$TMP/stdout")
}

INTR='^interrupted by signal [0-9]+: the lines above are all that was measured$'

if [ ! -f "$SHIM" ]; then
	fail "tests/faultshim.so is missing (make check builds it)"
	done_testing
	exit
fi
interrupt 1 PREAD 2 -a -b 1K -c 1 "$IMG"
if [ "$ST" -ne 130 ]; then
	skip "the fault shim does not reach this build's pread (sanitizers)"
	done_testing
	exit
fi

# -a: the rows so far, no verdict on half a table (the whole table has more
# than 30 rows; 120 reads are a few of them).
interrupt 120 PREAD 2 -a -b 1K -c 2 "$IMG"
ok "align + SIGINT: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "align + SIGINT: the last line says so" grep -qE "${INTR/\[0-9\]+/2}" <<<"$(tail -1 <<<"$OUT")"
rows=$(grep -c $'^align [0-9]*\tpre ' <<<"$OUT")
ok "align + SIGINT: the rows measured before ($rows)" [ "$rows" -ge 2 ] && [ "$rows" -lt 30 ]
ok "align + SIGINT: no verdict on a partial table" not grep -q '^verdict' <<<"$OUT"

# --out is flushed
interrupt 120 PREAD 2 -a -b 1K -c 2 -o "$TMP/o.txt" "$IMG"
ok "--out + SIGINT: exit 130" [ "$ST" -eq 130 ]
ok "--out + SIGINT: nothing on stdout" [ -z "$OUT" ]
ok "--out + SIGINT: the interrupted line in the file" grep -qE "$INTR" <<<"$(tail -1 "$TMP/o.txt")"
ok "--out + SIGINT: the same rows in the file" [ "$(grep -c '^align ' "$TMP/o.txt")" -eq "$rows" ]

# a write test and SIGTERM: the lines so far. 1 MiB erase blocks in 512 B
# blocks, 4 of them: the 1 MiB line is 4 writes, the 512 KiB line 8.
interrupt 13 PWRITE 15 -O -e 1M -b 512 --open-au-nr=4 --no-early-stop --offset=0 "$IMG"
ok "open-au + SIGTERM: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "open-au + SIGTERM: signal 15 named" grep -qE "${INTR/\[0-9\]+/15}" <<<"$(tail -1 <<<"$OUT")"
ok "open-au + SIGTERM: the two lines before" [ "$(grep -cE $'^[0-9]+[KM]iB\t[0-9.]+[KMG]?/s$' <<<"$OUT")" -eq 2 ]

# scatter prints at the end: what was measured before the signal (one read
# each, -c 1; the read the signal came before completes, then the test stops)
interrupt 100 PREAD 2 -s --scatter-order=10 -c 1 "$IMG"
ok "scatter + SIGINT: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "scatter + SIGINT: the 100 points measured" [ "$(grep -cE $'^[0-9.e+]+\t[0-9.e+-]+$' <<<"$OUT")" -eq 100 ]
ok "scatter + SIGINT: the interrupted line" grep -qE "$INTR" <<<"$(tail -1 <<<"$OUT")"

# SIGHUP (a dropped terminal) is a stop too
interrupt 50 PREAD 1 -i -c 1 --offset=0 "$IMG"
ok "interval + SIGHUP: exit 130 (got $ST)" [ "$ST" -eq 130 ]
ok "interval + SIGHUP: signal 1 named" grep -qE "${INTR/\[0-9\]+/1}" <<<"$(tail -1 <<<"$OUT")"
done_testing
