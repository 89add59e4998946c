#!/bin/bash
# Back-to-back runs on one loop device, the way users work (a shell loop):
# each run must release the device before it exits. io_uring's teardown
# runs in a kernel worker after the ring is closed and held the registered
# device file -- and its O_EXCL claim -- past the exit: the next write test
# was refused as busy (exit 3).
. "$(dirname "$0")/lib.sh"
need_root "loop devices" || { done_testing; exit; }
need losetup || { done_testing; exit; }

make_image "$TMP/b2b.img" 64
make_loop "$TMP/b2b.img" || { fail "cannot attach a loop device"; done_testing; exit; }
L=$LOOPDEV
QD="--queue-depth=1,8 --size=1M --offset=0"
runs=(
	"$QD --write --engine=uring"	"-O -e 1M"
	"$QD --write --engine=aio"	"-O -e 1M"
	"$QD --write --engine=uring"	"--sustained -b 1M --size=4M --offset=0"
	"$QD --write --engine=sync"	"$QD --write --engine=uring"
	"$QD --engine=uring"		"-O -e 1M"
	"$QD --write --engine=uring"	"--capacity"
	"$QD --write --engine=aio"	"$QD --write --engine=uring"
	"$QD --write --engine=uring"	"-O -e 1M"
	"$QD --write --engine=uring"	"--sustained -b 1M --size=4M --offset=0"
	"$QD --write --engine=auto"	"-O -e 1M"
)
bad=0
for ((i = 0; i < ${#runs[@]}; i++)); do
	# shellcheck disable=SC2086
	"$FB" ${runs[$i]} "$L" >"$TMP/out" 2>"$TMP/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		bad=$((bad + 1))
		echo "# run $((i + 1)) (${runs[$i]}): exit $st: $(tail -1 "$TMP/err")"
	fi
done
ok "${#runs[@]} runs in a row on one loop device, alternating engines and tests: all exit 0" [ "$bad" -eq 0 ]
done_testing
