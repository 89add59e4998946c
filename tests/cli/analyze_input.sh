#!/bin/bash
# Issue 10: the input of --analyze, whatever it is. /dev/zero and other
# endless or binary input in bounded memory and time; a directory or a
# block device refused (exit 2, one line naming the option and the value,
# no --out created); a FIFO and standard input read like a file.
. "$(dirname "$0")/lib.sh"

RUN=$TESTS_DIR/fixtures/realruns/005-readme-example-card-openau.txt
asan() { nm "$FB" 2>/dev/null | grep -q __asan_init; }

# bounded MEMORY-KB COMMAND...: run under a limit of address space (none
# for sanitizer builds, which reserve terabytes), within 60 seconds
bounded() {
	local kb=$1; shift
	if asan; then
		timeout 60 "$@"
	else
		( ulimit -v "$kb"; exec timeout 60 "$@" )
	fi
}

bounded 200000 "$FB" --analyze /dev/zero >"$TMP/out" 2>"$TMP/err"; st=$?
ok "/dev/zero: ends, exit 2 (nothing usable, as --compare; got $st)" [ $st -eq 2 ]
ok "/dev/zero: says why it stopped" grep -q '^analyze: stopped reading at line 1: more than 16MiB without a line end; this is not saved output$' "$TMP/out"
ok "/dev/zero: the line counted" grep -q '^analyze: 0 of 1 lines used, 1 skipped (line 1)$' "$TMP/out"
asan && skip "/dev/zero under 200 MB of address space: sanitizer build"

head -c 4M /dev/urandom >"$TMP/random"
bounded 200000 "$FB" --analyze "$TMP/random" >"$TMP/out" 2>"$TMP/err"; st=$?
ok "binary input: exit 2 (nothing usable; got $st)" [ $st -eq 2 ]
ok "binary input: stops at 100 lines with NUL bytes" grep -qE '^analyze: stopped reading at line [0-9]+: 100 lines with NUL bytes; this is not saved output$' "$TMP/out"

# An overlong line (a pasted blob) is skipped; the rest is read.
{ head -1 "$RUN"; head -c 200000 /dev/zero | tr '\0' 'x'; echo; cat "$RUN"; } >"$TMP/long"
expect_status 0 "a 200 KB line among the runs" bounded 200000 "$FB" --analyze "$TMP/long"
ok "overlong line: the runs after it judged" grep -q '^verdict: open AUs (linear): 2 fast, 3 slow; ' <<<"$OUT"
ok "overlong line: skipped and named" grep -q '^analyze: 12 of 19 lines used, 7 skipped (lines 1-7)$' <<<"$OUT"
# Endless text: a table that starts again at every line, in constant memory.
yes '4MiB 5M/s' | head -c 2M >"$TMP/endless"
expect_status 0 "200000 one-line runs" bounded 200000 "$FB" --analyze "$TMP/endless"
ok "200000 one-line runs: each too short to judge" [ "$(grep -c 'too short to judge: 1 line' <<<"$OUT")" -eq 209715 ]

# A directory, a block device: refused before anything is read or created.
expect_status 2 "--analyze DIR" "$FB" --analyze "$TMP" -o "$TMP/o1"
ok "DIR: one line" [ "$(wc -l <<<"$ERR")" -eq 1 ]
ok "DIR: names the option, the value and the reason" grep -qF -- "--analyze: cannot read '$TMP': Is a directory" <<<"$ERR"
ok "DIR: --out not created" [ ! -e "$TMP/o1" ]
ok "DIR: nothing on stdout" [ -z "$OUT" ]
if is_root && losetup -f >/dev/null 2>&1; then
	head -c 1M "$RUN" >"$TMP/dev.img"; truncate -s 1M "$TMP/dev.img"
	if make_loop "$TMP/dev.img" -r; then
		expect_status 2 "--analyze BLOCKDEVICE" "$FB" --analyze "$LOOPDEV" -o "$TMP/o2"
		ok "block device: one line, named" grep -qF -- "--analyze: cannot read '$LOOPDEV': a block device, not saved output" <<<"$ERR"
		ok "block device: --out not created" [ ! -e "$TMP/o2" ]
	else
		skip "no loop device for the block-device case"
	fi
else
	skip "block device: needs root and a free loop device"
fi
expect_status 2 "--analyze a missing file" "$FB" --analyze "$TMP/missing" -o "$TMP/o3"
ok "missing file: --out not created" [ ! -e "$TMP/o3" ]

# A FIFO and standard input (a pipe) read like the file.
"$FB" --analyze "$RUN" >"$TMP/want"
mkfifo "$TMP/fifo"
cat "$RUN" >"$TMP/fifo" &
expect_status 0 "--analyze FIFO" timeout 20 "$FB" --analyze "$TMP/fifo"
wait
ok "FIFO: the same output as the file" [ "$OUT" = "$(cat "$TMP/want")" ]
expect_status 0 "--analyze - from a pipe" bash -c "cat '$RUN' | '$FB' --analyze -"
ok "pipe: the same output" [ "$OUT" = "$(cat "$TMP/want")" ]
expect_status 0 "--analyze - from a file" "$FB" --analyze - <"$RUN"
ok "stdin file: the same output" [ "$OUT" = "$(cat "$TMP/want")" ]
# Results that cannot be written: said, exit 1.
"$FB" --analyze "$RUN" >/dev/full 2>"$TMP/err"; st=$?
ok "output to /dev/full: exit 1 (got $st)" [ $st -eq 1 ]
ok "output to /dev/full: one line says so" [ "$(grep -c '^flashbench: standard output: cannot write the results: No space left on device' "$TMP/err")" -eq 1 ]
done_testing
