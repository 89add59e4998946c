#!/bin/bash
# make bench's set-up (bench/lib.sh): the run goes on one CPU with the
# kernel's unbound work, and the workqueue mask is back as it was at exit,
# also when the run is killed; BENCH_PIN=no changes nothing. Against a
# mask file of the test's own, never the machine's.
. "$(dirname "$0")/lib.sh"
BENCH=$TESTS_DIR/../bench
need taskset || { done_testing; exit; }

# A script that sources the bench library with the mask in $TMP, pins,
# prints what it did, and waits (killable) when asked to.
cat >"$TMP/pin.sh" <<EOS
. "$BENCH/lib.sh"
wq_mask=\$1
bench_pin
echo "note=\$pin_note"
echo "mask=\$(cat "\$wq_mask" 2>/dev/null)"
echo "cpus=\$(taskset -cp \$\$ | sed 's/.*: //')"
[ "\${2:-}" = wait ] && { sleep 30 & wait \$!; }
exit 0
EOS
last=$(taskset -cp $$ | sed 's/.*: //; s/.*[,-]//')

echo 3 >"$TMP/mask"
expect_status 0 "bench_pin runs" bash "$TMP/pin.sh" "$TMP/mask"
ok "the run is on one CPU, the last it may use ($last): $OUT" grep -qx "cpus=$last" <<<"$OUT"
ok "the unbound work goes to that CPU: $OUT" grep -qx "mask=$(bash -c ". '$BENCH/lib.sh'; cpu_mask $last")" <<<"$OUT"
ok "the note names the CPU and the mask it restores: $OUT" grep -q "note=pinned to CPU $last, with the kernel's unbound work.* was 3, restored at exit" <<<"$OUT"
ok "the mask is back at exit" [ "$(cat "$TMP/mask")" = 3 ]

BENCH_PIN=no expect_status 0 "BENCH_PIN=no runs" bash "$TMP/pin.sh" "$TMP/mask"
ok "BENCH_PIN=no pins nothing: $OUT" grep -qx "cpus=$(taskset -cp $$ | sed 's/.*: //')" <<<"$OUT"
ok "BENCH_PIN=no says so" grep -qx "note=not pinned (BENCH_PIN=no)" <<<"$OUT"
ok "BENCH_PIN=no leaves the mask" [ "$(cat "$TMP/mask")" = 3 ]

expect_status 0 "a mask that cannot be written" bash "$TMP/pin.sh" "$TMP/no/such/mask"
ok "says the unbound work is not pinned: $OUT" grep -q "note=pinned to CPU $last; the kernel's unbound work is not" <<<"$OUT"
ok "and nothing on stderr: $ERR" [ -z "$ERR" ]

# Killed half-way: the mask goes back.
for sig in TERM INT HUP; do
	echo ff >"$TMP/mask"
	bash "$TMP/pin.sh" "$TMP/mask" wait >"$TMP/out.$sig" 2>&1 &
	pid=$!
	for ((i = 0; i < 50 && $(grep -c '^cpus=' "$TMP/out.$sig") == 0; i++)); do sleep 0.1; done
	ok "SIG$sig: the mask was set before the kill" grep -qx "mask=$(bash -c ". '$BENCH/lib.sh'; cpu_mask $last")" "$TMP/out.$sig"
	kill -"$sig" "$pid"
	wait "$pid"
	ok "SIG$sig: the mask is back (ff)" [ "$(cat "$TMP/mask")" = ff ]
done

# The kernel's format: hex, a comma every 32 CPUs.
m() { bash -c ". '$BENCH/lib.sh'; cpu_mask $1"; }
ok "cpu_mask 0" [ "$(m 0)" = 1 ]
ok "cpu_mask 1" [ "$(m 1)" = 2 ]
ok "cpu_mask 31" [ "$(m 31)" = 80000000 ]
ok "cpu_mask 32" [ "$(m 32)" = 1,00000000 ]
ok "cpu_mask 69" [ "$(m 69)" = 20,00000000,00000000 ]
done_testing
