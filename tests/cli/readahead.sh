#!/bin/bash
# Issue 5: --readahead sweeps request sizes (direct) or the kernel
# readahead (--buffered) and marks the start of the plateau. On sim: the
# marker lands where the model's parameters put it; on a loop device both
# modes print a well-formed table and --buffered leaves the readahead as
# it found it, also when interrupted; bad sizes are usage errors.
. "$(dirname "$0")/lib.sh"

# ---- sim: the expected marker, computed from the preset's parameters
# preset_param PRESET KEY: the value of KEY in --list-sims for PRESET
preset_param() {
	"$FB" --list-sims | awk -v p="$1" -v k="$2" '
		$1 == p { on = 1; next }
		on && /^[^\t]/ { exit }
		on { n = split($0, kv, /[,\t ]+/)
		     for (i = 1; i <= n; i++) if (index(kv[i], k "=") == 1) { print substr(kv[i], length(k) + 2); exit } }'
}

# expected_marker PRESET BYTES PCT: replay the model of src/sim/sim_model.h
# (per piece of read_chunk: read_lat, + page_cross / erase_cross when a
# boundary lies strictly inside; per request: len / read_bw) for
# sequential reads of 4KiB..8MiB over BYTES, and pick the smallest size
# within PCT percent of the best.
expected_marker() {
	local v k
	declare -A P
	for k in read-lat read-bw read-chunk page-cross erase-cross page erase; do
		v=$(preset_param "$1" "$k")
		[ -n "$v" ] || { echo "no $k in --list-sims for $1" >&2; return 1; }
		P[$k]=$v
	done
	awk -v lat="${P[read-lat]}" -v bw="${P[read-bw]}" -v chunk="${P[read-chunk]}" \
	    -v pc="${P[page-cross]}" -v ec="${P[erase-cross]}" -v page="${P[page]}" \
	    -v erase="${P[erase]}" -v bytes="$2" -v pct="$3" '
	function ns(t) { if (t ~ /ms$/) return t * 1e6; if (t ~ /us$/) return t * 1e3
			 if (t ~ /ns$/) return t + 0; if (t ~ /s$/) return t * 1e9; return t + 0 }
	function bytes_of(s,  m) { m = 1; if (s ~ /KiB$/) m = 1024; if (s ~ /MiB$/) m = 1048576
				   if (s ~ /GiB$/) m = 1073741824; return s * m }
	function rate(s) { m = 1; if (s ~ /K\/s$/) m = 1e3; if (s ~ /M\/s$/) m = 1e6
			   if (s ~ /G\/s$/) m = 1e9; return s * m }
	function inside(a, b, u) { return (int(a / u) + 1) * u < b }
	function label(s) { return s >= 1048576 ? s / 1048576 "MiB" : s / 1024 "KiB" }
	BEGIN {
		lat = ns(lat); pc = ns(pc); ec = ns(ec); bw = rate(bw)
		chunk = bytes_of(chunk); page = bytes_of(page); erase = bytes_of(erase)
		n = 0; best = 0
		for (s = 4096; s <= 8388608; s *= 2) {
			t = 0
			for (off = 0; off < bytes; off += s) {
				for (a = off; a < off + s; a += chunk) {
					b = a + chunk < off + s ? a + chunk : off + s
					t += lat + (inside(a, b, page) ? pc : 0) + (inside(a, b, erase) ? ec : 0)
				}
				t += int(s * 1e9 / bw + 0.5)
			}
			size[n] = s; r[n] = bytes / t
			if (r[n] > best) best = r[n]
			n++
		}
		for (i = 0; i < n; i++) if (r[i] >= best * (1 - pct / 100)) { print label(size[i]); exit }
	}'
}

ROW_RE='^(==> |    ) *[0-9.]+(B|KiB|MiB|GiB)( +([0-9.]+|-)){4}$'
rows() { grep -cE "$ROW_RE" <<<"$OUT"; }
marked() { grep -E '^==> ' <<<"$OUT" | awk '{print $2}'; }

for preset in sd usb tlc smr; do
	want=$(expected_marker "$preset" $((16 * 1024 * 1024)) 5)
	ok "expected marker computed for $preset ($want)" [ -n "$want" ]
	expect_status 0 "readahead on sim:$preset" "$FB" --readahead --size=16M "sim:$preset"
	ok "sim:$preset: 12 rows, 4KiB..8MiB" [ "$(rows)" -eq 12 ]
	ok "sim:$preset: one marker" [ "$(grep -c '^==> ' <<<"$OUT")" -eq 1 ]
	ok "sim:$preset: marker at $want (got $(marked))" [ "$(marked)" = "$want" ]
	ok "sim:$preset: verdict names $want" grep -q "^readahead: plateau at $want: " <<<"$OUT"
	ok "sim:$preset: %CPU is - on virtual time" [ "$(grep -E "$ROW_RE" <<<"$OUT" | awk '{print $NF}' | sort -u)" = "-" ]
	ok "sim:$preset: the model puts it at read-chunk" [ "$want" = "$(preset_param "$preset" read-chunk)" ]
done
# The marker for the four presets is not always the same size.
ok "presets with different plateaus" [ "$(expected_marker sd $((16 << 20)) 5)" != "$(expected_marker smr $((16 << 20)) 5)" ]

# --plateau moves the marker where the model says; --runs sets the columns.
want=$(expected_marker sd $((16 * 1024 * 1024)) 30)
expect_status 0 "sim: --plateau=30 --runs=3" "$FB" --readahead --size=16M --plateau=30 --runs=3 sim:sd
ok "--plateau=30 marks $want (got $(marked))" [ "$(marked)" = "$want" ]
ok "--plateau=30 is not the 5% marker" [ "$want" != "64KiB" ]
ok "--runs=3: three rate and three %CPU columns" grep -qE '^ +size +1st MB/s +2nd MB/s +3rd MB/s +1st %CPU +2nd %CPU +3rd %CPU$' <<<"$OUT"
# --runs given: each step to the next size judged on its runs (steps.h):
# sim:sd rises to its read-chunk (64KiB) and is flat after (with jitter:
# runs without any scatter make a difference of 0.1% certain).
expect_status 0 "sim: --runs=3 with jitter" "$FB" --readahead --size=16M --runs=3 sim:sd,jitter=3
ok "--runs=3: a step line per pair of sizes" [ "$(grep -cE '^[0-9]+(KiB|MiB) -> [0-9]+(KiB|MiB): [-+][0-9]+%, ' <<<"$OUT")" -eq 11 ]
ok "--runs=3: the rise to 64KiB is significant" grep -qx '32KiB -> 64KiB: +20%, significant' <<<"$OUT"
ok "--runs=3: flat after 64KiB" [ "$(grep -cE '^(64|128|256|512)KiB -> .*: [-+][0-3]%, within noise$' <<<"$OUT")" -eq 4 ]
expect_status 0 "sim: default runs" "$FB" --readahead --size=16M sim:sd
ok "no --runs: no step lines (flashbench's table as it was)" not grep -q ' -> ' <<<"$OUT"
expect_status 0 "sim: --min-size/--max-size" "$FB" --readahead --min-size=16K --max-size=256K --size=1M sim:usb
ok "16KiB..256KiB: 5 rows" [ "$(rows)" -eq 5 ]
ok "the last row is 256KiB" grep -qE '^(==> |    ) *256KiB ' <<<"$(grep -E "$ROW_RE" <<<"$OUT" | tail -1)"
ok "plateau inside the sweep: no warning" [ "$(grep -c 'may lie beyond' <<<"$OUT")" -eq 0 ]
expect_status 0 "sim: --max-size below the plateau" "$FB" --readahead --min-size=16K --max-size=64K --size=1M sim:usb
ok "plateau at the largest size: says it may lie beyond" grep -q 'may lie beyond --max-size 64KiB' <<<"$OUT"

# ---- bad input: exit 2, one line naming the option and the value
bad "min-size larger than max-size" "--min-size 1048576 is larger than --max-size 65536" \
	--readahead --min-size=1M --max-size=64K sim:
bad "min-size not a power of two" "--min-size 12288" --readahead --min-size=12K sim:
bad "max-size not a power of two" "--max-size 3145728" --readahead --max-size=3M sim:
bad "min-size below the sector" "--min-size 256 is not a power of two times the 512-byte sector" \
	--readahead --min-size=256 sim:
bad "min-size garbage" "--min-size: invalid size 'big'" --readahead --min-size=big sim:
bad "size below max-size" "--size 1048576 is smaller than --max-size" --readahead --size=1M sim:
bad "runs 0" "--runs: '0'" --readahead --runs=0 sim:
bad "runs 17" "--runs: '17'" --readahead --runs=17 sim:
bad "plateau 100" "--plateau: '100'" --readahead --plateau=100 sim:
bad "plateau garbage" "--plateau: 'x'" --readahead --plateau=x sim:
bad "buffered on sim:" "has no kernel readahead" --readahead --buffered sim:
warns "buffered without readahead" "--buffered: has no effect with --align (it applies to --readahead)" -a --buffered sim:
make_image "$TMP/small" 4
bad "max-size past the end" "readahead would access up to byte 8388608" --readahead "$TMP/small"

# ---- loop devices (root): both modes, readahead left as found
if ! need_root "loop-device tests" || ! need losetup blockdev mkfs.ext4 mount umount sfdisk partx; then
	done_testing
	exit
fi
make_image "$TMP/img" 64
if ! make_loop "$TMP/img"; then
	skip_ci "no loop device available"
	done_testing
	exit
fi
DEV=$LOOPDEV
NAME=$(basename "$DEV")
reads() { awk '{print $3}' "/sys/block/$NAME/stat"; }	# sectors read
ORIG_RA=$(blockdev --getra "$DEV")
cleanup_add "blockdev --setra $ORIG_RA $DEV"
blockdev --setra 968 "$DEV"	# an odd value nothing else would pick

table_ok() {	# LABEL ROWS
	ok "$1: description line" grep -qE '^readahead: (O_DIRECT|buffered) ' <<<"$OUT"
	ok "$1: header" grep -qE '^ +size +1st MB/s +2nd MB/s +1st %CPU +2nd %CPU$' <<<"$OUT"
	ok "$1: $2 well-formed rows (got $(rows))" [ "$(rows)" -eq "$2" ]
	# Real runs may disagree (page cache, a loaded machine): then no marker, and the verdict says so.
	if grep -q '^readahead: no plateau named: the runs disagree at ' <<<"$OUT"; then
		ok "$1: runs disagree: no marker" [ "$(grep -c '^==> ' <<<"$OUT")" -eq 0 ]
		return
	fi
	ok "$1: one marker" [ "$(grep -c '^==> ' <<<"$OUT")" -eq 1 ]
	ok "$1: %CPU measured" [ -z "$(grep -E "$ROW_RE" <<<"$OUT" | awk '{print $(NF-1) $NF}' | grep -vE '^[0-9.]+$')" ]
	ok "$1: verdict names the marked size" grep -q "^readahead: plateau at $(marked): " <<<"$OUT"
}

SUM=$(sha256sum <"$TMP/img")
expect_status 0 "direct on a loop device" "$FB" --readahead "$DEV"
table_ok "direct on $DEV" 12
ok "direct: 16MiB per run (a quarter of 64MiB)" grep -q 'O_DIRECT reads of each size, 16MiB ' <<<"$OUT"

before=$(reads)
expect_status 0 "buffered on a loop device" "$FB" --readahead --buffered --min-size=16K --max-size=1M --size=4M "$DEV"
table_ok "buffered on $DEV" 7
ok "buffered: readahead restored to 968 (now $(blockdev --getra "$DEV"))" [ "$(blockdev --getra "$DEV")" -eq 968 ]
ok "buffered: reads of --min-size, readahead of $DEV" grep -q "buffered 16KiB reads of 4MiB .* readahead of $DEV set" <<<"$OUT"
ok "buffered: verdict tells how to set it (or that the runs disagree)" grep -qE "blockdev --setra [0-9]+ $DEV\$|^readahead: no plateau named: the runs disagree" <<<"$OUT"
# Cache dropped before each run: every run reached the device (7 rows x 2 runs x 4 MiB).
ok "buffered: page cache dropped before each run" [ $(( ($(reads) - before) * 512 )) -ge $((14 * 4 << 20)) ]
ok "read-only: the image is unchanged" [ "$(sha256sum <"$TMP/img")" = "$SUM" ]

# Interrupted half-way: exit 130, the rows so far, and the readahead back.
"$FB" --readahead --buffered -v --min-size=64K --size=64M --runs=16 "$DEV" >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 600); do grep -q '^readahead: 64KiB:' "$TMP/int.err" && break; sleep 0.05; done
during=$(blockdev --getra "$DEV")
kill -INT "$pid"
wait "$pid"; st=$?
OUT=$(cat "$TMP/int.out")
ok "SIGINT: exit 130 (got $st; $(cat "$TMP/int.err" | tail -1))" [ "$st" -eq 130 ]
ok "SIGINT: the sweep had changed the readahead (968 -> $during)" [ "$during" -ne 968 ]
ok "SIGINT: readahead restored to 968 (now $(blockdev --getra "$DEV"))" [ "$(blockdev --getra "$DEV")" -eq 968 ]
ok "SIGINT: the 64KiB row was printed" grep -qE '^    +64KiB( +[0-9.]+){32}$' <<<"$OUT"
ok "SIGINT: no marker on a partial sweep" [ "$(grep -c '^==> ' <<<"$OUT")" -eq 0 ]
ok "SIGINT: says it was interrupted" grep -q '^interrupted by signal 2' <<<"$OUT"

# A dropped terminal (SIGHUP) restores the readahead too.
"$FB" --readahead --buffered -v --min-size=64K --size=64M --runs=16 "$DEV" >/dev/null 2>"$TMP/hup.err" &
pid=$!
for _ in $(seq 600); do grep -q '^readahead: 64KiB:' "$TMP/hup.err" && break; sleep 0.05; done
kill -HUP "$pid"
wait "$pid"; st=$?
ok "SIGHUP: exit 130 (got $st)" [ "$st" -eq 130 ]
ok "SIGHUP: readahead restored to 968 (now $(blockdev --getra "$DEV"))" [ "$(blockdev --getra "$DEV")" -eq 968 ]

# Two --buffered runs on one disk at once: the second saved the first's
# temporary readahead and, ending last, put that back (968 became 128).
# The first holds the setting's lock; the second is refused before any
# I/O, also together with a write test, and the first ends as usual.
"$FB" --readahead --buffered -v --min-size=64K --size=64M --runs=16 "$DEV" >/dev/null 2>"$TMP/c1.err" &
pid1=$!
for _ in $(seq 600); do grep -q '^readahead: 64KiB:' "$TMP/c1.err" && break; sleep 0.05; done
"$FB" --readahead --buffered -v --min-size=64K --size=64M --runs=16 "$DEV" >/dev/null 2>"$TMP/c2.err" &
pid2=$!
for _ in $(seq 600); do ! kill -0 "$pid2" 2>/dev/null || grep -q '^readahead: 64KiB:' "$TMP/c2.err" && break; sleep 0.05; done
kill -STOP "$pid2" 2>/dev/null
wait "$pid1"; st1=$?
kill -CONT "$pid2" 2>/dev/null
wait "$pid2"; st2=$?
ok "two at once: the first ends (exit $st1)" [ "$st1" -eq 0 ]
ok "two at once: the second is refused (exit $st2: $(tail -1 "$TMP/c2.err"))" [ "$st2" -eq 3 ]
ok "two at once: it names the lock" grep -q "^flashbench: --buffered: refusing to change the readahead of /dev/${DEV#/dev/}: another run is changing it (it holds /sys/block/${DEV#/dev/}/queue/read_ahead_kb)$" "$TMP/c2.err"
ok "two at once: readahead back to 968 (now $(blockdev --getra "$DEV"))" [ "$(blockdev --getra "$DEV")" -eq 968 ]
"$FB" --readahead --buffered -v --min-size=64K --size=64M --runs=16 "$DEV" >/dev/null 2>"$TMP/c1.err" &
pid1=$!
for _ in $(seq 600); do grep -q '^readahead: 64KiB:' "$TMP/c1.err" && break; sleep 0.05; done
SUM2=$(sha256sum <"$TMP/img")
expect_status 3 "with a write test, while another sweeps" "$FB" -O -e 1M --readahead --buffered "$DEV"
ok "with a write test: refused before it wrote" [ "$(sha256sum <"$TMP/img")" = "$SUM2" ]
wait "$pid1"
ok "with a write test: readahead back to 968" [ "$(blockdev --getra "$DEV")" -eq 968 ]

# Bad usage with --buffered changes nothing either.
expect_status 2 "buffered with bad sizes" "$FB" --readahead --buffered --min-size=2M --max-size=1M "$DEV"
ok "bad usage left the readahead alone" [ "$(blockdev --getra "$DEV")" -eq 968 ]

# ---- a regular file on ext4 on a loop device: the file system's disk
if truncate -s 64M "$TMP/fs.img" &&
   mkfs.ext4 -q -F "$TMP/fs.img" 2>/dev/null && make_loop "$TMP/fs.img" &&
   mkdir -p "$TMP/mnt" && mount "$LOOPDEV" "$TMP/mnt" 2>/dev/null; then
	cleanup_add "umount $TMP/mnt"
	FSDEV=$LOOPDEV
	head -c $((24 << 20)) /dev/urandom >"$TMP/mnt/data"
	FS_RA=$(blockdev --getra "$FSDEV")
	expect_status 0 "buffered on a file on ext4" "$FB" --readahead --buffered --max-size=2M "$TMP/mnt/data"
	ok "file: readahead of the file system's disk $FSDEV" grep -q "readahead of $FSDEV set" <<<"$OUT"
	ok "file: 10 rows" [ "$(rows)" -eq 10 ]
	ok "file: readahead restored" [ "$(blockdev --getra "$FSDEV")" -eq "$FS_RA" ]
	expect_status 0 "direct on a file on ext4" "$FB" --readahead --max-size=2M --runs=1 "$TMP/mnt/data"
	ok "file direct: 10 rows" [ "$(grep -cE '^(==> |    ) *[0-9.]+(KiB|MiB) +[0-9.]+ +[0-9.]+$' <<<"$OUT")" -eq 10 ]
	# Without root: a clear message, nothing changed.
	if need setpriv; then
		chmod 755 "$TMP" "$TMP/mnt"
		chmod 644 "$TMP/mnt/data"
		expect_status 1 "buffered as nobody" setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$FB" --readahead --buffered "$TMP/mnt/data"
		ok "as nobody: says it needs root ($ERR)" grep -q 'needs root' <<<"$ERR"
		ok "as nobody: readahead unchanged" [ "$(blockdev --getra "$FSDEV")" -eq "$FS_RA" ]
	fi
else
	skip_ci "cannot make and mount an ext4 image"
fi
# A file on a partition: the readahead belongs to the whole disk.
# part_node: the node of ${LOOPDEV}p1, made in $TMP where no udev makes it.
part_node() {
	local sys=/sys/block/${LOOPDEV#/dev/}/${LOOPDEV#/dev/}p1
	[ -r "$sys/dev" ] || blockdev --rereadpt "$LOOPDEV" 2>/dev/null
	[ -r "$sys/dev" ] || partx -a "$LOOPDEV" 2>/dev/null
	[ -r "$sys/dev" ] || return 1
	PART=${LOOPDEV}p1
	[ -b "$PART" ] && return 0
	PART=$TMP/p1
	mknod "$PART" b "$(cut -d: -f1 "$sys/dev")" "$(cut -d: -f2 "$sys/dev")"
}
if truncate -s 64M "$TMP/part.img" &&
   echo 'start=2048, type=83' | sfdisk -q "$TMP/part.img" >/dev/null 2>&1 &&
   make_loop "$TMP/part.img" -P && part_node &&
   mkfs.ext4 -q -F "$PART" 2>/dev/null && mkdir -p "$TMP/pmnt" &&
   mount "$PART" "$TMP/pmnt" 2>/dev/null; then
	cleanup_add "umount $TMP/pmnt"
	head -c $((16 << 20)) /dev/urandom >"$TMP/pmnt/data"
	P_RA=$(blockdev --getra "$LOOPDEV")
	expect_status 0 "buffered on a file on a partition" "$FB" --readahead --buffered \
		--runs=1 --max-size=1M "$TMP/pmnt/data"
	ok "partition: readahead of the disk $LOOPDEV, not its partition" \
		grep -q "readahead of $LOOPDEV set" <<<"$OUT"
	ok "partition: readahead restored" [ "$(blockdev --getra "$LOOPDEV")" -eq "$P_RA" ]
else
	skip_ci "cannot make and mount a partitioned loop device"
fi
# A file on a file system without a block device: a clear error.
if mountpoint -q /dev/shm && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	f=$(mktemp /dev/shm/fbra.XXXXXX)
	cleanup_add "rm -f $f"
	head -c $((16 << 20)) /dev/zero >"$f"
	expect_status 1 "buffered on tmpfs" "$FB" --readahead --buffered "$f"
	ok "tmpfs: says there is no block device ($ERR)" grep -q 'cannot find the disk holding .*is not a block device' <<<"$ERR"
else
	skip "no tmpfs at /dev/shm"
fi
# -v names the sweep's parameters too
expect_status 0 "-v --readahead on sim:" "$FB" -v --readahead --runs=1 --min-size=64K --max-size=256K sim:
ok "-v prints the readahead parameters" grep -q '^readahead: min-size 64KiB, max-size 256KiB, buffered off, plateau 0%$' <<<"$ERR"
ok "-v prints the shared parameters" grep -q '^blocksize 16KiB, erasesize 4MiB, offset 16MiB, count 8, runs 1$' <<<"$ERR"
done_testing
