#!/bin/bash
# make bench's set-up (bench/lib.sh): the run goes on one CPU with the
# kernel's unbound work, says how to undo it should it be killed, and the
# workqueue mask is back as it was at exit -- also when the run is killed,
# or a command of the clean-up fails under set -e; one pinned bench at a
# time; BENCH_PIN=no changes nothing. Against a mask file and a lock of
# the test's own, never the machine's.
. "$(dirname "$0")/lib.sh"
BENCH=$TESTS_DIR/../bench
need taskset flock || { done_testing; exit; }

# A script that sources the bench library with the mask and the lock in
# $TMP, pins, prints what it did, and then: waits (killable), or fails in
# its clean-up (losetup -d failing), as asked.
cat >"$TMP/pin.sh" <<EOS
set -eu
. "$BENCH/lib.sh"
wq_mask=\$1 bench_lock=$TMP/lock
bench_pin
echo "note=\$pin_note"
echo "mask=\$(cat "\$wq_mask" 2>/dev/null)"
echo "cpus=\$(taskset -cp \$\$ | sed 's/.*: //')"
case \${2:-} in
place)
	bench_place free
	echo "free=\$("\${place[@]}" taskset -cp \$BASHPID | sed 's/.*: //') \$(cat "\$wq_mask")"
	bench_place pinned
	echo "pinned=\$("\${place[@]}" taskset -cp \$BASHPID | sed 's/.*: //') \$(cat "\$wq_mask")" ;;
wait) sleep 30 & echo \$! >"$TMP/sleep.pid"; wait \$! ;;
failcleanup) dev=/dev/fb-none img=x; bench_own() { true; }; losetup() { return 1; } ;;
esac
exit 0
EOS
last=$(taskset -cp $$ | sed 's/.*: //; s/.*[,-]//')
mine=$(bash -c ". '$BENCH/lib.sh'; cpu_mask $last")

echo 3 >"$TMP/mask"
expect_status 0 "bench_pin runs" bash "$TMP/pin.sh" "$TMP/mask"
ok "the run is on one CPU, the last it may use ($last): $OUT" grep -qx "cpus=$last" <<<"$OUT"
ok "the unbound work goes to that CPU: $OUT" grep -qx "mask=$mine" <<<"$OUT"
ok "the note names the CPU and the mask it restores: $OUT" grep -q "note=pinned to CPU $last, with the kernel's unbound work.* was 3, restored at exit" <<<"$OUT"
ok "stderr says how to undo it: $ERR" grep -qxF "bench: $TMP/mask was 3; should this run be killed, put it back with: echo 3 > $TMP/mask" <<<"$ERR"
ok "the mask is back at exit" [ "$(cat "$TMP/mask")" = 3 ]

# bench_place: a line measured also as the machine is (issue 32).
all=$(taskset -cp $$ | sed 's/.*: //')
echo 3 >"$TMP/mask"
expect_status 0 "bench_place free, then pinned" bash "$TMP/pin.sh" "$TMP/mask" place
ok "free: every CPU the run had ($all), the machine's mask (3): $OUT" grep -qx "free=$all 3" <<<"$OUT"
ok "pinned again: one CPU ($last), its mask: $OUT" grep -qx "pinned=$last $mine" <<<"$OUT"
ok "the mask is back at exit" [ "$(cat "$TMP/mask")" = 3 ]
BENCH_PIN=no expect_status 0 "BENCH_PIN=no: bench_place changes nothing" bash "$TMP/pin.sh" "$TMP/mask" place
ok "free and pinned are where the run is: $OUT" grep -qx "pinned=$all 3" <<<"$OUT"

BENCH_PIN=no expect_status 0 "BENCH_PIN=no runs" bash "$TMP/pin.sh" "$TMP/mask"
ok "BENCH_PIN=no pins nothing: $OUT" grep -qx "cpus=$(taskset -cp $$ | sed 's/.*: //')" <<<"$OUT"
ok "BENCH_PIN=no says so" grep -qx "note=not pinned (BENCH_PIN=no)" <<<"$OUT"
ok "BENCH_PIN=no leaves the mask" [ "$(cat "$TMP/mask")" = 3 ]

expect_status 0 "a mask that cannot be written" bash "$TMP/pin.sh" "$TMP/no/such/mask"
ok "says the unbound work is not pinned: $OUT" grep -q "note=pinned to CPU $last; the kernel's unbound work is not" <<<"$OUT"
ok "and nothing on stderr: $ERR" [ -z "$ERR" ]
: >"$TMP/mask"
expect_status 0 "an empty mask file" bash "$TMP/pin.sh" "$TMP/mask"
ok "an empty mask is not replaced (it could not be put back): $OUT" [ ! -s "$TMP/mask" ]

# The clean-up under set -e: losetup -d failing does not keep the mask.
echo 3 >"$TMP/mask"
bash "$TMP/pin.sh" "$TMP/mask" failcleanup >"$TMP/out" 2>&1
ok "a failing losetup -d in the clean-up: the mask is back first" [ "$(cat "$TMP/mask")" = 3 ]

# A second bench while one holds the lock: it leaves the mask alone.
echo 3 >"$TMP/mask"
bash "$TMP/pin.sh" "$TMP/mask" wait >"$TMP/out.first" 2>&1 &
first=$!
for ((i = 0; i < 50 && $(grep -c '^cpus=' "$TMP/out.first") == 0; i++)); do sleep 0.1; done
expect_status 0 "a second bench at once" bash "$TMP/pin.sh" "$TMP/mask"
ok "the second is not pinned, and says why: $OUT" grep -qx "note=not pinned: another bench holds $TMP/lock" <<<"$OUT"
kill -TERM "$first"; wait "$first"
kill "$(cat "$TMP/sleep.pid")" 2>/dev/null
ok "after both, the mask is the machine's (3)" [ "$(cat "$TMP/mask")" = 3 ]

# Killed half-way: the mask goes back, the exit status tells the signal.
# (A background job starts with SIGINT ignored, and under nohup SIGHUP
# too: env gives them back.)
for sig in TERM:143 INT:130 HUP:129; do
	echo ff >"$TMP/mask"
	env --default-signal=INT,HUP,TERM bash "$TMP/pin.sh" "$TMP/mask" wait >"$TMP/out.${sig%:*}" 2>&1 &
	pid=$!
	for ((i = 0; i < 50 && $(grep -c '^cpus=' "$TMP/out.${sig%:*}") == 0; i++)); do sleep 0.1; done
	ok "SIG${sig%:*}: the mask was set before the kill" grep -qx "mask=$mine" "$TMP/out.${sig%:*}"
	kill -"${sig%:*}" "$pid"
	{ wait "$pid"; } 2>/dev/null
	st=$?
	kill "$(cat "$TMP/sleep.pid")" 2>/dev/null
	# The sleep held the run's lock (fd 8): the next run must find it free,
	# or it runs unpinned (seen under load).
	flock -w 10 "$TMP/lock" true
	ok "SIG${sig%:*}: exit ${sig#*:} ($st)" [ "$st" -eq "${sig#*:}" ]
	ok "SIG${sig%:*}: the mask is back (ff)" [ "$(cat "$TMP/mask")" = ff ]
done

# The kernel's format: hex, a comma every 32 CPUs.
m() { bash -c ". '$BENCH/lib.sh'; cpu_mask $1"; }
ok "cpu_mask 0" [ "$(m 0)" = 1 ]
ok "cpu_mask 1" [ "$(m 1)" = 2 ]
ok "cpu_mask 31" [ "$(m 31)" = 80000000 ]
ok "cpu_mask 32" [ "$(m 32)" = 1,00000000 ]
ok "cpu_mask 69" [ "$(m 69)" = 20,00000000,00000000 ]
done_testing
