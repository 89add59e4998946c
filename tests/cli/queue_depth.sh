#!/bin/bash
# Issue 12: --queue-depth sweeps the number of requests in flight. On sim:
# (virtual clock) throughput rises up to the channels and is flat after,
# the steps judged significant / within noise; the LIST forms; bad input
# is a usage error before any I/O; a write sweep is a write test (its
# region only, --preserve, refused on a held or mounted device); on a
# file and a loop device every engine runs reads and writes and -v names it.
. "$(dirname "$0")/lib.sh"

ROW_RE='^ +[0-9]+ +[0-9]+ +\([0-9]+\.\.[0-9]+\) +[0-9.]+( +[0-9.]+(ns|µs|ms|s)){3}$'
rows() { grep -cE "$ROW_RE" <<<"$OUT"; }
depths() { grep -E "$ROW_RE" <<<"$OUT" | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $1 }'; }
iops() { grep -E "$ROW_RE" <<<"$OUT" | awk -v d="$1" '$1 == d {print $2}'; }
step() { grep -E "^$1 -> $2: " <<<"$OUT" | sed 's/^[^:]*: //'; }
# ratio A B: A / B with two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'; }
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

# ---- sim: 4 channels with jitter: the rise to 4, then flat ----------------
CARD="sim:sd,channels=4,jitter=5"
expect_status 0 "default sweep on $CARD" "$FB" --queue-depth --random "$CARD"
ok "default depths 1..32 doubling ($(depths))" [ "$(depths)" = "1,2,4,8,16,32" ]
ok "the heading says what was measured" \
	grep -qE '^queue-depth: 4KiB random reads, 16MiB per cell from offset 16MiB of sim:.*, 3 runs interleaved, simulated card$' <<<"$OUT"
ok "a column header" grep -qE '^depth +IOPS +\(min\.\.max\) +MB/s +p50 +p99 +max$' <<<"$OUT"
one=$(iops 1)
ok "depth 2 doubles depth 1 ($(ratio "$(iops 2)" "$one"))" between "$(ratio "$(iops 2)" "$one")" 1.9 2.1
ok "depth 4 is four times depth 1 ($(ratio "$(iops 4)" "$one"))" between "$(ratio "$(iops 4)" "$one")" 3.8 4.2
for d in 8 16 32; do
	ok "depth $d is flat with 4 ($(ratio "$(iops $d)" "$(iops 4)"))" between "$(ratio "$(iops $d)" "$(iops 4)")" 0.97 1.03
done
ok "1 -> 2 significant ($(step 1 2))" grep -qE '^\+(9[0-9]|10[0-9])%, significant$' <<<"$(step 1 2)"
ok "2 -> 4 significant ($(step 2 4))" grep -qE '^\+(9[0-9]|10[0-9])%, significant$' <<<"$(step 2 4)"
for p in "4 8" "8 16" "16 32"; do
	set -- $p
	ok "$1 -> $2 within noise ($(step "$1" "$2"))" grep -qE '^[-+][0-3]%, within noise$' <<<"$(step "$1" "$2")"
done
ok "the rise ends at 4" grep -qx 'queue-depth: throughput rises significantly up to depth 4, not beyond' <<<"$OUT"
# latency: the same up to the channels, then it grows with the queue
p50() { grep -E "$ROW_RE" <<<"$OUT" | awk -v d="$1" '$1 == d {print $6}'; }
ok "p50 at 32 is about 8 times p50 at 4" between "$(ratio "$(to_num "$(p50 32)")" "$(to_num "$(p50 4)")")" 7 9

# Without jitter the runs do not scatter: still judged (no division by zero).
expect_status 0 "one channel, no jitter" "$FB" --queue-depth=1,8 sim:sd
ok "one channel: flat" grep -qE '^1 -> 8: \+0%, within noise$' <<<"$OUT"
ok "one channel: no rise" grep -qx 'queue-depth: throughput does not rise significantly from depth 1 to 8' <<<"$OUT"
expect_status 0 "8 channels, still rising at 4" "$FB" --queue-depth=1..4 sim:ssd
ok "still rising" grep -qx 'queue-depth: throughput still rises significantly at depth 4, the deepest measured' <<<"$OUT"

# Issue 20: no verdict contradicts its own table. Small steps on a card whose
# runs scatter (16 channels, depths 6..16, few requests per cell): each
# step alone is often "within noise", yet 16 reads far more than 6. The
# named depth has no deeper depth 25% above it by the median -- or the
# verdict says the runs disagree.
# consistent: the verdict in $OUT against its own rows
consistent() {
	awk '
	/^ +[0-9]+ +[0-9]+ +\(/ { med[$1] = $2; order[n++] = $1 }
	/^queue-depth: throughput rises significantly up to depth / { d = $8; sub(",", "", d) }
	/^queue-depth: throughput does not rise significantly from depth / { d = $9 }
	/^queue-depth: the runs disagree: / { ok = 1 }
	/^queue-depth: throughput still rises/ { ok = 1 }
	END {
		if (ok) exit 0
		if (d == "") exit 1
		for (i = 0; i < n; i++) if (order[i] + 0 > d + 0 && med[order[i]] > 1.25 * med[d]) exit 1
		exit 0
	}' <<<"$OUT"
}
bad_seeds=""
for seed in 1 3 4 6 9 14 17 20; do
	OUT=$("$FB" --queue-depth=6,7,8,9,10,11,12,13,14,15,16 --size=64K --runs=3 \
		"sim:ssd,channels=16,jitter=60,seed=$seed" 2>/dev/null)
	consistent || bad_seeds="$bad_seeds $seed"
done
ok "scattered small steps: every verdict agrees with its table (contradicted:$bad_seeds)" [ -z "$bad_seeds" ]
OUT=$("$FB" --queue-depth=6,7,8,9,10,11,12,13,14,15,16 --size=64K --runs=3 "sim:ssd,channels=16,jitter=60,seed=3" 2>/dev/null)
ok "seed 3: a rise found past the adjacent steps (not 'does not rise')" grep -qE '^queue-depth: throughput rises significantly up to depth 1[0-6], not beyond$' <<<"$OUT"
OUT=$("$FB" --queue-depth=6,7,8,9,10,11,12,13,14,15,16 --size=64K --runs=3 "sim:ssd,channels=16,jitter=60,seed=9" 2>/dev/null)
ok "seed 9: the runs disagree, said with their numbers" grep -qE '^queue-depth: the runs disagree: throughput rises significantly up to depth [0-9]+, but depth [0-9]+ reads [0-9.]+x depth [0-9]+ by the median \(runs [0-9]+\.\.[0-9]+ IOPS vs [0-9]+\.\.[0-9]+\), too scattered to call a rise; measure again with more --runs$' <<<"$OUT"

# ---- the LIST forms, --runs, --blocksize, --size ---------------------------
expect_status 0 "LIST 3..20" "$FB" --queue-depth=3..20 --size=1M sim:
ok "3..20 is 3,6,12,20 ($(depths))" [ "$(depths)" = "3,6,12,20" ]
expect_status 0 "LIST 1,4..16,64" "$FB" --queue-depth=1,4..16,64 --size=1M sim:
ok "1,4..16,64 ($(depths))" [ "$(depths)" = "1,4,8,16,64" ]
# One depth (as issue 16 runs it against fio): a row, no step, no verdict.
expect_status 0 "one depth" "$FB" --queue-depth=32 --runs=4 --random -b 4096 --size=1M "$CARD"
ok "one depth: one row" [ "$(depths)" = "32" ]
ok "one depth: no step, no verdict" not grep -qE ' -> |throughput' <<<"$OUT"
ok "one depth: 4 runs" grep -q ', 4 runs interleaved' <<<"$OUT"
expect_status 0 "--runs=1" "$FB" --queue-depth=1,2 --runs=1 --size=1M sim:
ok "--runs=1: too few runs to judge" grep -qE '^1 -> 2: \+0%, too few runs to judge$' <<<"$OUT"
ok "--runs=1: no verdict" not grep -q 'throughput' <<<"$OUT"
ok "--runs=1: said" grep -q ', 1 run, simulated card$' <<<"$OUT"
expect_status 0 "--runs=5 -b 64K --size=2M --offset=0" "$FB" --queue-depth=1,4 --runs=5 -b 64K --size=2M --offset=0 "$CARD"
ok "64KiB requests, 2MiB from 0, 5 runs" grep -q '^queue-depth: 64KiB linear reads, 2MiB per cell from offset 0B of .*, 5 runs interleaved' <<<"$OUT"
expect_status 0 "JSON: every run's IOPS" "$FB" --queue-depth=1,4 --runs=5 --size=1M --format=json "$CARD"
ok "JSON: 5 IOPS per row, a step with p" python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
recs = d["tests"][0]["records"]
rows = [r for r in recs if r.get("table") == "queue-depth"]
steps = [r for r in recs if r.get("table") == "queue-depth-step"]
assert [r["depth"] for r in rows] == [1, 4] and all(len(r["iops_runs"]) == 5 for r in rows)
assert all(r["iops_min"] <= r["iops"] <= r["iops_max"] for r in rows)
assert len(steps) == 1 and steps[0]["verdict"] == "significant" and 0 <= steps[0]["p"] < 0.05
v = [r for r in recs if r["type"] == "verdict"]
assert v and v[0]["verdict"] == "saturation_depth" and v[0]["value"] == 4, v
' <<<"$OUT"

# ---- bad input: exit 2, one line, no I/O -----------------------------------
bad "depth 0" "--queue-depth=0" --queue-depth=0 sim:
bad "falling list" "--queue-depth=4,2" --queue-depth=4,2 sim:
bad "not a list" "--queue-depth=a" --queue-depth=a sim:
bad "empty range end" "--queue-depth=1.." --queue-depth=1.. sim:
bad "too deep" "--queue-depth=2000" --queue-depth=2000 sim:
bad "unknown engine" "--engine=fast" --queue-depth --engine=fast sim:
bad "--size not a multiple of the requests" "--size 5000" --queue-depth --size=5000 sim:
bad "fewer requests than the deepest depth" "--size 65536" --queue-depth --size=64K sim:
bad "past the end" "passes the end" --queue-depth --offset=4G sim:
bad "misaligned request" "--blocksize 1000" --queue-depth -b 1000 sim:
warns "--write without --queue-depth" "--write: has no effect with --align" -a --write sim:
warns "--engine without --queue-depth" "--engine=aio: has no effect with --align" -a --engine=aio sim:
warns "--erasesize is not for a read sweep" "--erasesize=1M: has no effect with --queue-depth" --queue-depth -e 1M sim:

# ---- a file: reads and writes through every engine ------------------------
IMG=$TMP/qd.img
make_image "$IMG" 24
ORIG=$TMP/qd.orig
cp "$IMG" "$ORIG"
bad "no I/O on a usage error" "--queue-depth=0" --queue-depth=0 --write --offset=0 "$IMG"
ok "no I/O on a usage error: file unchanged" cmp -s "$IMG" "$ORIG"

# engine_run NAME DEVICE ARGS...: run it; a refused engine (not in this
# kernel, or a seccomp filter) is a skip, anything else must work.
engine_run() {
	local e=$1 dev=$2; shift 2
	"$FB" --queue-depth=1,32 --engine="$e" -v --runs=2 --size=1M "$@" "$dev" >"$TMP/out" 2>"$TMP/err"
	local st=$?
	OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
	if [ "$st" -ne 0 ] && [ "$e" != sync ] && grep -q "the $e I/O engine:" <<<"$ERR"; then
		skip_ci "engine $e on $dev: $ERR"
		return 1
	fi
	if [ "$st" -eq 0 ]; then pass; else fail "engine $e on $dev $*: exit $st: $ERR"; return 1; fi
}
declare -A WORD=([sync]="synchronous pread/pwrite" [aio]="Linux AIO" [uring]="io_uring")
for e in sync aio uring; do
	engine_run "$e" "$IMG" --offset=0 || continue
	ok "file, $e: -v names it" grep -q "^queue-depth: engine ${WORD[$e]}, depth 32" <<<"$ERR"
	ok "file, $e: the heading names it" grep -q ", ${WORD[$e]}\$" <<<"$OUT"
	ok "file, $e: two rows" [ "$(depths)" = "1,32" ]
	ok "file, $e: reads leave the file as it was" cmp -s "$IMG" "$ORIG"
done
expect_status 0 "auto on a file" "$FB" --queue-depth=1,32 -v --runs=2 --size=1M --offset=0 "$IMG"
ok "auto: -v says what it took" grep -qE '^queue-depth: engine (io_uring|Linux AIO|synchronous)' <<<"$ERR"

# A write sweep writes its region and nothing else.
for e in sync aio uring; do
	cp "$ORIG" "$IMG"
	engine_run "$e" "$IMG" --write --random --offset=4M || continue
	ok "file, $e --write: announced" grep -q "will overwrite 1MiB in 1 region between 4MiB and 5MiB" <<<"$ERR"
	ok "file, $e --write: before the region unchanged" cmp -s -n $((4 << 20)) "$IMG" "$ORIG"
	ok "file, $e --write: after the region unchanged" \
		cmp -s -i $((5 << 20)) "$IMG" "$ORIG"
	ok "file, $e --write: the region written" not cmp -s -n $((5 << 20)) "$IMG" "$ORIG"
done
cp "$ORIG" "$IMG"
expect_status 0 "--write --preserve" "$FB" --queue-depth=1,8 --write --preserve --size=1M \
	--offset=0 --backup="$TMP/qd.backup" "$IMG"
ok "--preserve: the file is back as it was" cmp -s "$IMG" "$ORIG"
ok "--preserve: the write sweep ran" [ "$(depths)" = "1,8" ]

# A Ctrl-C in the second run (the synchronous engine reads with pread(),
# where the shim raises it): the depths measured, no verdict on one run.
SHIM=$TESTS_DIR/faultshim.so
env LD_PRELOAD="$SHIM" FB_SIGNAL_PREAD_AT=600 "$FB" --queue-depth=1,2 --engine=sync --size=1M \
	--offset=0 "$IMG" >"$TMP/out" 2>"$TMP/err"
st=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
if [ ! -f "$SHIM" ]; then
	fail "tests/faultshim.so is missing (make check builds it)"
elif [ "$st" -eq 0 ] || grep -q "ASan runtime does not come first" <<<"$ERR"; then
	skip "the fault shim does not reach this build's pread/pwrite (sanitizers)"
else
	ok "interrupted in run 2: exit 130 ($st)" [ "$st" -eq 130 ]
	ok "interrupted: both depths of run 1" [ "$(depths)" = "1,2" ]
	ok "interrupted: one run is too few" grep -qE '^1 -> 2: [-+][0-9]+%, too few runs to judge$' <<<"$OUT"
	ok "interrupted: no verdict" not grep -q 'throughput' <<<"$OUT"
	ok "interrupted: said" grep -q '^interrupted by signal 2' <<<"$OUT$ERR"
	# A write that fails: offset, length and the error; the rows before it.
	cp "$ORIG" "$IMG"
	expect_status 1 "a failed write" env LD_PRELOAD="$SHIM" FB_FAIL_PWRITE_AT=300 \
		"$FB" --queue-depth=1,2 --write --engine=sync --size=1M --offset=0 "$IMG"
	ok "failed write: offset and length (256 + 44th request)" \
		grep -q "write at offset 176128, length 4096: Input/output error" <<<"$ERR"
	ok "failed write: the depth measured before it" [ "$(depths)" = "1" ]
	# A short write (the shim: half, then ENOSPC): --engine=sync writes as
	# every test does, so the rest is written at once, and the device's
	# refusal of it is what is reported, at any depth.
	for d in 1 2; do
		cp "$ORIG" "$IMG"
		expect_status 1 "a short write at depth $d" env LD_PRELOAD="$SHIM" FB_SHORT_PWRITE=10 \
			"$FB" --queue-depth=$d --write --engine=sync --size=1M --offset=0 "$IMG"
		ok "short write at depth $d: the rest refused, with offset and length ($ERR)" \
			grep -q "write at offset 36864, length 4096: No space left on device" <<<"$ERR"
	done
fi
expect_status 1 "results that cannot be written" "$FB" --queue-depth=1,2 --size=1M --offset=0 \
	--out=/dev/full "$IMG"
ok "/dev/full: said" grep -q "cannot write the results" <<<"$ERR"
cp "$ORIG" "$IMG"

# Held by another run (a lock as runlock.c takes): the write sweep is
# refused, the read sweep runs.
exec 9<>"$IMG"
flock_pid=
if command -v python3 >/dev/null; then
	python3 -c '
import fcntl, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
F_OFD_SETLK = 37
fcntl.fcntl(fd, F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
print("locked", flush=True)
time.sleep(30)' "$IMG" >"$TMP/lock.out" &
	flock_pid=$!
	cleanup_add "kill $flock_pid"
	for ((i = 0; i < 50; i++)); do grep -q locked "$TMP/lock.out" && break; sleep 0.1; done
	expect_status 3 "write sweep on a held file" "$FB" --queue-depth=1,8 --write --size=1M --offset=0 "$IMG"
	ok "held: said why" grep -q "being written by another run" <<<"$ERR"
	ok "held: file unchanged" cmp -s "$IMG" "$ORIG"
	expect_status 0 "read sweep on a held file" "$FB" --queue-depth=1,8 --size=1M --offset=0 "$IMG"
	kill "$flock_pid" 2>/dev/null
fi
exec 9>&-

# ---- a loop device: every engine, reads and writes; a mounted one ----------
if need_root "loop devices" && need losetup mkfs.ext4 mount umount; then
	LIMG=$TMP/loop.img
	make_image "$LIMG" 24
	if make_loop "$LIMG" --direct-io=on; then
		for e in sync aio uring; do
			engine_run "$e" "$LOOPDEV" --offset=0 --random || continue
			ok "loop, $e: -v names it" grep -q "^queue-depth: engine ${WORD[$e]}, depth 32" <<<"$ERR"
			# io_uring's waits poll before they sleep (deferred task
			# work, 6.1): -v counts at the end the polls and the catches
			if [ "$e" = uring ] && grep -q "deferred task work" <<<"$ERR"; then
				polls=$(sed -n 's/^queue-depth: engine at the end: io_uring.*waits poll up to 50us before they sleep (\([0-9]*\) polled, \([0-9]*\) caught).*/\1 \2/p' <<<"$ERR")
				ok "loop, uring: -v counts the polls at the end ($polls)" \
					awk -v p="${polls% *}" 'BEGIN { exit !(p > 0) }'
			fi
			ok "loop, $e: reads" [ "$(depths)" = "1,32" ]
			engine_run "$e" "$LOOPDEV" --offset=0 --write || continue
			ok "loop, $e: writes" grep -q "linear writes" <<<"$OUT"
		done
	else
		fail "no loop device"
	fi
	# ext4 made on the image, then attached and mounted
	FIMG=$TMP/fs.img
	make_image "$FIMG" 48
	mkfs.ext4 -q -F "$FIMG"
	mkdir -p "$TMP/mnt"
	if make_loop "$FIMG" && mount -o ro "$LOOPDEV" "$TMP/mnt"; then
		cleanup_add "umount $TMP/mnt"
		sum=$(cksum <"$LOOPDEV")
		expect_status 3 "write sweep on a mounted device" "$FB" --queue-depth --write "$LOOPDEV"
		ok "mounted: said why" grep -q "is mounted on $TMP/mnt" <<<"$ERR"
		ok "mounted: nothing written" [ "$(cksum <"$LOOPDEV")" = "$sum" ]
		expect_status 0 "read sweep on a mounted device" "$FB" --queue-depth=1,4 --size=1M "$LOOPDEV"
		umount "$TMP/mnt"
	else
		fail "could not mount an ext4 loop device"
	fi
fi

done_testing
