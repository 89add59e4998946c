#!/bin/bash
# Issue 14: the progress line. Under a pseudo-terminal (script) a test
# that runs longer than two seconds shows "WHAT: done/total (pct), Ns
# elapsed, Ns left" on stderr, redrawn in place and erased before the
# result lines; with stderr a file or a pipe it never appears. The fault
# shim's FB_DELAY_US makes each device request of an image file slow, so
# that a short test takes a few seconds of wall time. No timing is
# asserted: only what appears where.
. "$(dirname "$0")/lib.sh"
SHIM=$TESTS_DIR/faultshim.so
IMG=$TMP/card.img
make_image "$IMG" 16

# slow CMD...: the command with every request DELAY (2000) µs slower
slow() { env LD_PRELOAD="$SHIM" FB_DELAY_US="${DELAY:-2000}" "$@"; }
# check_tty FILE WHAT ROWRE: the progress line of WHAT was drawn, and erased
# before every result line (each line, after the last \r, is a clean row)
check_tty() {
	python3 - "$@" <<'PY'
import re, sys
data = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()
what, rowre = sys.argv[2], re.compile(sys.argv[3])
drawn = re.findall(r"\r" + re.escape(what) + r": (\d+)/(\d+) \((\d+)%\), (\d+)s elapsed, (\d+)s left", data)
assert drawn, "no progress line of %r" % what
done = [int(d[0]) for d in drawn]
assert done == sorted(done) and int(drawn[-1][1]) >= done[-1], "done goes backwards or past the total"
assert all(int(d[3]) >= 2 for d in drawn), "shown before two seconds"
rows = 0
for line in data.replace("\r\n", "\n").split("\n"):
    if not line:
        continue
    last = line.split("\r")[-1]
    assert "elapsed" not in last, "a progress line left in the output: %r" % line[-80:]
    if "\r" in line:
        # the line was erased: blanks over it, then the cursor back at the start
        assert re.search(r"\r +\r[^\r]*$", line), "not erased before %r" % last
    if rowre.match(last):
        rows += 1
assert rows > 0, "no result lines"
PY
}

# Does the shim reach this build's reads? (Not under sanitizers: ASan must come first.)
shim_works() {
	env LD_PRELOAD="$SHIM" FB_SIGNAL_PREAD_AT=1 FB_SIGNAL_ONCE=1 "$FB" -a -b 1K -c 1 "$IMG" \
		>/dev/null 2>&1
	[ $? -eq 130 ]
}

if [ ! -f "$SHIM" ]; then
	fail "tests/faultshim.so is missing (make check builds it)"
elif ! shim_works; then
	skip "the fault shim does not reach this build's pread (sanitizers): no slow runs"
elif need script python3; then
	# a read-only test: -s reads 512 positions, three times each
	slow script -qec "$FB -s -c 3 $IMG" /dev/null >"$TMP/tty.out" 2>&1
	ok "-s on a terminal: exit 0" [ $? -eq 0 ]
	ok "-s on a terminal: a progress line, erased before the rows" \
		check_tty "$TMP/tty.out" "scatter positions" '^[0-9.]+\t[0-9.]+$'
	# the same run, stderr to a file and to a pipe: never a progress line
	slow script -qec "$FB -s -c 3 $IMG 2>$TMP/err.file" /dev/null >"$TMP/tty2.out"
	ok "-s, stderr a file: no progress line" not grep -q "elapsed" "$TMP/err.file"
	ok "-s, stderr a file: the rows still on the terminal" grep -q $'^0\t' "$TMP/tty2.out"
	ok "-s, stderr a file: no progress on the terminal either" not grep -q "elapsed" "$TMP/tty2.out"
	slow "$FB" -s -c 3 "$IMG" 2>&1 | cat >"$TMP/pipe.out"
	ok "-s, stderr a pipe: no progress line" not grep -q "elapsed\|scatter positions" "$TMP/pipe.out"
	ok "-s, stderr a pipe: the rows" [ "$(grep -c $'\t' "$TMP/pipe.out")" -eq 512 ]
	# a write test on an image file: one row per block size, 1022 writes (a delay
	# the same for every write looks like garbage collection: measure every size)
	DELAY=4000 slow script -qec "$FB -O --open-au-nr=2 -e 1M -b 4K --offset=0 --no-early-stop $IMG" /dev/null >"$TMP/oa.out" 2>&1
	ok "-O on a terminal: exit 0" [ $? -eq 0 ]
	ok "-O on a terminal: a progress line, erased before the rows" \
		check_tty "$TMP/oa.out" "open-au block sizes" '^[0-9.]+[KMG]?i?B\t'
	ok "-O on a terminal: the total is the 9 block sizes" grep -q "open-au block sizes: [0-9]/9 (" "$TMP/oa.out"
	# a fast run shows nothing, even on a terminal
	script -qec "$FB -a sim:" /dev/null >"$TMP/fast.out" 2>&1
	ok "-a on sim: (fast): no progress line" not grep -q "elapsed" "$TMP/fast.out"
	ok "-a on sim: (fast): the verdict" grep -q "^verdict: erase block 4MiB" "$TMP/fast.out"
fi
done_testing
