#!/bin/bash
# Issue 9: the same verdict live and in --analyze, for every test. Each
# live run on a simulated card is saved, analyzed, and its verdict lines
# compared with the live ones -- as saved, and after each kind of damage
# a paste suffers on its way through mails, gists and paste sites.
. "$(dirname "$0")/lib.sh"

DATA='^(align |[0-9.]+(B|KiB|MiB|GiB)[[:space:]])'

# The damages, each a filter from saved output to a paste.
collapse() { tr -s '\t' ' '; }				# tabs collapsed to one space
listed() { sed 's/^/- /'; }				# a "- " list item per line
table() { sed 's/\t/ | /g; s/^/| /; s/$/ |/'; }		# "|" table columns
decorated() { sed -E "/$DATA/s/^/ | | /"; }		# " | |" left of the rows
joined() {	# two rows on one line, wherever two rows follow each other
	awk -v re="$DATA" '{ if ($0 ~ re && held != "") { print held " " $0; held = "" }
		else if ($0 ~ re) { if (held != "") print held; held = $0 }
		else { if (held != "") print held; held = ""; print } }
		END { if (held != "") print held }'
}
lost_mu() { sed 's/µs/s/g'; }				# every µ lost in copying
stderr_in() {	# stderr lines of the original and ours between the rows
	awk 'NR == 1 { print "sched_setscheduler: Operation not permitted" }
		{ print } NR == 3 { print "flashbench: will overwrite 8MiB in 2 regions of /dev/sdz" }'
}
dollar() { printf '$ ./flashbench %s\n' "$ARGS"; cat; }	# the command above it
hash_cmd() { printf '# flashbench %s\n' "$ARGS"; cat; }
quoted() { sed 's/^/> /; s/$/\r/'; }			# a mail archive, CRLF

DAMAGES="collapse listed table decorated joined lost_mu stderr_in dollar hash_cmd quoted"

verdicts() { grep '^verdict: ' "$1"; }

# same LABEL ARGS...: live verdicts, then those of --analyze of each paste
same() {
	local what=$1 d; shift
	ARGS="$*"
	"$FB" "$@" >"$TMP/live" 2>/dev/null
	ok "$what: the live run prints a verdict" grep -q '^verdict: ' "$TMP/live"
	"$FB" --analyze "$TMP/live" >"$TMP/an" 2>&1
	ok "$what: --analyze of the saved output says the same" [ "$(verdicts "$TMP/live")" = "$(verdicts "$TMP/an")" ]
	ok "$what: every line of the saved output used" grep -qE '^analyze: ([0-9]+) of \1 lines used, 0 skipped$' "$TMP/an"
	for d in $DAMAGES; do
		$d <"$TMP/live" >"$TMP/paste"
		"$FB" --analyze "$TMP/paste" >"$TMP/an" 2>&1
		ok "$what, pasted ($d): the same verdicts" [ "$(verdicts "$TMP/live")" = "$(verdicts "$TMP/an")" ]
	done
}

# -a: the erase block and page found, uncertain, and no pattern
same "-a sd" -a sim:sd
same "-a tlc -b 1K" -a -b 1K sim:tlc
same "-a 3M erase blocks, jitter" -a -b 2K sim:erase=3M,page=8K,jitter=4,seed=5
same "-a noisy, one try" -a -c 1 sim:jitter=5,outliers=0.02,seed=9
same "-a ssd" -a sim:ssd
# -O: fast and slow, linear and random, stopped early, too short
same "-O 2 (fast)" -O sim:
same "-O 6 (slow, stopped early)" -O --open-au-nr=6 sim:
same "-O 6 --no-early-stop -b 4K" -O --no-early-stop --open-au-nr=6 -b 4K sim:
same "-O -r 3 (fast)" -O -r --open-au-nr=3 sim:
same "-O -r 4 (slow)" -O -r --open-au-nr=4 sim:
same "-O usb 12 (fast)" -O --open-au-nr=12 -e 8M sim:usb
same "-O usb 13 (slow)" -O --open-au-nr=13 -e 8M sim:usb
same "-O -b 256K" -O -b 256K sim:
same "-O 3 lines (too short)" -O -e 4M -b 1M sim:
same "-O tlc jitter" -O --open-au-nr=4 -e 6M sim:tlc,jitter=5,seed=3
# --find-fat: an area, none, uncertain, one column
same "-f sd (none)" -f sim:
same "-f -r fat (2 erase blocks)" -f -r sim:fat
same "-f -r -b 64K fat" -f -r -b 64K sim:fat
same "-f -r usb" -f -r -e 8M sim:usb
same "-f -r stopped early (all collect garbage)" -f -r -b 64K sim:fat,fat-aus=0
same "-f --fat-nr=1" -f --fat-nr=1 sim:fat
same "-f 3 lines (too short)" -f -e 4M -b 1M sim:fat
# --find-open-au: the probes and the bracket
same "--find-open-au sd" --find-open-au -e 4M sim:sd
same "--find-open-au -r usb" --find-open-au -r -e 8M sim:usb
same "--find-open-au with a limit" --find-open-au -e 4M --max-write=40M sim:sd

# The find-fat verdict names the area the sim card has.
"$FB" -f -r sim:fat >"$TMP/live" 2>/dev/null
ok "find-fat on sim:fat (fat-aus=2): the first 2 erase blocks" \
	grep -q '^verdict: FAT-optimised area (random): the first 2 of 6 erase blocks (8MiB): at 16KiB' "$TMP/live"
"$FB" -f sim:sd >"$TMP/live" 2>/dev/null
ok "find-fat on sim:sd (fat-aus=0): none seen" grep -q '^verdict: no FAT-optimised area seen (linear): ' "$TMP/live"
ok "find-fat linear: says linear writes may hide one" grep -q 'linear writes rarely show one (try --random)$' "$TMP/live"

# Stopped early and interrupted, live and analyzed.
"$FB" -O --open-au-nr=6 sim: >"$TMP/live" 2>/dev/null
"$FB" --analyze "$TMP/live" >"$TMP/an"
ok "stopped early: the run says so" grep -q '^run 1 (line 1): open-au, 6 erase blocks, linear, 5 lines, stopped early$' "$TMP/an"
ok "stopped early: not 'interrupted'" not grep -q 'interrupted' "$TMP/an"
SHIM=$TESTS_DIR/faultshim.so
# The shim is built without sanitizers: let ASan come second.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
IMG=$TMP/img
make_image "$IMG" 64
for args in "-O -e 1M -b 64K --open-au-nr=2" "-f -e 1M -b 64K --fat-nr=3"; do
	for at in 3 60; do
		LD_PRELOAD=$SHIM FB_SIGNAL_PWRITE_AT=$at FB_SIGNAL=2 "$FB" $args "$IMG" >"$TMP/live" 2>/dev/null
		st=$?
		"$FB" --analyze "$TMP/live" >"$TMP/an" 2>&1
		ok "$args, SIGINT at write $at: exit 130 (got $st)" [ "$st" -eq 130 ]
		ok "$args, SIGINT at write $at: a verdict on the lines so far" grep -qE '^verdict: .*(too short to judge|inconclusive)' "$TMP/live"
		ok "$args, SIGINT at write $at: --analyze says the same" [ "$(verdicts "$TMP/live")" = "$(verdicts "$TMP/an")" ]
		ok "$args, SIGINT at write $at: the run is marked interrupted" grep -qE '^run 1 .*, interrupted$' "$TMP/an"
		ok "$args, SIGINT at write $at: never fast" not grep -q ': fast: ' "$TMP/an"
	done
done
done_testing
