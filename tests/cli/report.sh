#!/bin/bash
# Issue 14: --report[=full], one plain-text block to paste into a mail:
# at most 72 columns, the head (version, date, command, device,
# parameters), a section per test, the verdicts again at the end. It
# writes (--find-open-au), so it says so first and every safety rule
# applies; bad values and --format are usage errors that touch nothing.
. "$(dirname "$0")/lib.sh"

# widest FILE: the widest line in columns (characters, not bytes: "µs")
widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"; }
has() { ok "$WHAT: has '$1'" grep -qxF -- "$1" "$TMP/r.txt"; }
has_re() { ok "$WHAT: has /$1/" grep -qE -- "$1" "$TMP/r.txt"; }

WHAT="--report sim:"
"$FB" --report sim: >"$TMP/r.txt" 2>"$TMP/r.err"
ok "$WHAT: exit 0" [ $? -eq 0 ]
if need python3; then
	ok "$WHAT: no line over 72 columns ($(widest "$TMP/r.txt"))" [ "$(widest "$TMP/r.txt")" -le 72 ]
fi
ok "$WHAT: no tabs" not grep -q $'\t' "$TMP/r.txt"
has_re '^flashbench [0-9.]+ report, [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC$'
has "command: $FB --report sim:"
has "device: sim: (simulated card, 4GiB, 512-byte sectors)"
has "parameters: blocksize 16KiB, erasesize 4MiB, offset 16MiB, count 8"
has "== device facts (--info) =="
has "size_bytes                      4294967296 (4GiB)"
has "== align =="
has "align 4194304  pre 1.34ms  on 1.94ms  post 1.34ms  diff 600µs"
has "== find-open-au =="
has "== verdicts =="
has_re "^verdict: open AUs \(linear\): 5 fast, 6 slow; per write beyond its"
has "end of report: done, exit status 0"
ok "$WHAT: no readahead without =full" not grep -q "^== readahead ==" "$TMP/r.txt"
# the summary: the answers, once each, not every probe's
sed -n '/^== verdicts ==$/,$p' "$TMP/r.txt" >"$TMP/summary"
ok "$WHAT: the summary names the erase block" grep -q "^verdict: erase block 4MiB (" "$TMP/summary"
ok "$WHAT: the summary leaves the probes out" not grep -q "open AUs\? (linear): \(fast\|slow\):" "$TMP/summary"
ok "$WHAT: the probes are in their section" grep -q "^verdict: 6 open AUs (linear): slow:" "$TMP/r.txt"
# it says first that it writes
ok "$WHAT: the first word on stderr: it writes" \
	grep -q "^flashbench: --report runs --find-open-au, which writes to sim: and destroys" <<<"$(head -1 "$TMP/r.err")"
ok "$WHAT: then the regions" grep -q "^flashbench: will overwrite .* of sim:" "$TMP/r.err"

WHAT="--report=full"
"$FB" --report=full -b 64K sim:size=512M >"$TMP/r.txt" 2>/dev/null
ok "$WHAT: exit 0" [ $? -eq 0 ]
has "== readahead =="
has_re "^readahead: plateau at 64KiB: "
if need python3; then
	ok "$WHAT: no line over 72 columns ($(widest "$TMP/r.txt"))" [ "$(widest "$TMP/r.txt")" -le 72 ]
fi

# a long device string and --out: wrapped, still 72 columns, to the file
WHAT="--report, long words"
long="sim:size=512M,erase=4M,page=16K,read-lat=600us,read-bw=22M/s,write-bw=10M/s,copy-bw=14M/s,seed=7,jitter=1"
expect_status 0 "$WHAT: --out" "$FB" --report -b 64K -o "$TMP/r.txt" "$long"
ok "$WHAT: nothing on stdout with --out" [ -z "$OUT" ]
if need python3; then
	ok "$WHAT: no line over 72 columns ($(widest "$TMP/r.txt"))" [ "$(widest "$TMP/r.txt")" -le 72 ]
fi
# (where a line broke at a space, the space is gone: compare without them)
ok "$WHAT: the command is all there" [ "$(sed -n '/^command: /,/^device: /p' "$TMP/r.txt" | sed '$d' | tr -d ' \n')" = "$(echo "command: $FB --report -b 64K -o $TMP/r.txt $long" | tr -d ' ')" ]
ok "$WHAT: a long word breaks after a comma" grep -q "^    .*,$" "$TMP/r.txt"

# refusals: one line naming the value, exit 2, nothing touched
bad "--report=bogus" "--report=bogus: takes nothing or 'full'" --report=bogus sim:
bad "--report with --format=json" "--report: is plain text, it does not go with --format=json" --report --format=json sim:
bad "--report with --format=csv" "--report: is plain text, it does not go with --format=csv" --format=csv --report sim:
expect_status 0 "--report with --format=text" "$FB" --report --format=text -b 64K sim:size=256M
ok "--report --format=text: still the report" grep -q "^== verdicts ==$" <<<"$OUT"
IMG=$TMP/card.img
make_image "$IMG" 64
sum0=$(sha256sum <"$IMG")
# a usage error found on the device comes after the warning: still exit 2, no I/O
expect_status 2 "--report -b 3 (not a multiple of the sector)" "$FB" --report -b 3 "$IMG"
ok "--report -b 3: the last line names --blocksize" grep -q -- "--blocksize" <<<"$(tail -1 <<<"$ERR")"
ok "--report: a usage error writes nothing" [ "$(sha256sum <"$IMG")" = "$sum0" ]

# the safety rules of a write test: a loop device's backing file is refused
if need_root "--report refused on a loop device's backing file" && need losetup; then
	if make_loop "$IMG"; then
		expect_status 3 "--report on the backing file of $LOOPDEV" "$FB" --report -e 1M "$IMG"
		ok "--report refused: it said first that it writes" \
			grep -q "^flashbench: --report runs --find-open-au, which writes" <<<"$(head -1 <<<"$ERR")"
		ok "--report refused: says why" grep -q "backing file of $LOOPDEV" <<<"$ERR"
		ok "--report refused: no report" [ -z "$OUT" ]
		ok "--report refused: nothing written" [ "$(sha256sum <"$IMG")" = "$sum0" ]
	else
		fail "could not attach a loop device"
	fi
fi
done_testing
