#!/bin/bash
# --sustained on the simulated card (virtual clock: patterns, never
# timings), on files and loop devices: the cache cliff, slow episodes and
# recovery, the records and --log, --duration, --random, --verify of
# healthy and fake cards, Ctrl-C, bad input and refusals.
. "$(dirname "$0")/lib.sh"
need python3 || { done_testing; exit; }

# jq-like: the first record of a kind in a JSON document; KEY of it
rec() { # FILE TYPE NAME KEY  (TYPE row: NAME is the table; verdict: the verdict name)
	python3 - "$@" <<'EOF'
import json, sys
f, typ, name, key = sys.argv[1:]
d = json.load(open(f))
for t in d["tests"]:
    for r in t["records"]:
        if r["type"] == typ and r.get("table" if typ == "row" else "verdict") == name:
            print(r[key]); sys.exit(0)
print("missing"); sys.exit(1)
EOF
}

# The cliff: a 256 MiB cache at 450 MB/s, then 200 MB/s; within 10% of 256 MiB.
CACHE="sim:ssd,cache=256M"
"$FB" --sustained -b 1M --size=1G --log-interval=50ms --format=json "$CACHE" >"$TMP/c.json" 2>/dev/null
cliff=$(rec "$TMP/c.json" verdict cliff value)
ok "cliff: named ($cliff)" [ "$(rec "$TMP/c.json" verdict cliff result)" = named ]
ok "cliff: within 10% of 256MiB ($cliff)" python3 -c "import sys; v=$cliff; sys.exit(not abs(v - 268435456) <= 26843546)"
ok "cliff: the initial rate is the cache's" python3 -c "import sys; v=$(rec "$TMP/c.json" row sustained-summary initial_bps); sys.exit(not 400e6 < v < 460e6)"
ok "cliff: the sustained rate is the bands'" python3 -c "import sys; v=$(rec "$TMP/c.json" row sustained-summary sustained_bps); sys.exit(not 150e6 < v < 210e6)"
# a larger cache moves it; none without a cache
"$FB" --sustained -b 1M --size=1G --log-interval=50ms --format=json sim:ssd,cache=512M >"$TMP/c2.json" 2>/dev/null
ok "cliff: follows the cache size" python3 -c "import sys; v=$(rec "$TMP/c2.json" verdict cliff value); sys.exit(not abs(v - 536870912) <= 53687091)"
# A cliff inside the first interval (the cache writes 441 MB/s for 0.6 s
# of the default 1 s): found from the start in tenths, the initial rate
# the cache's; the intervals alone said "cliff: none", initial 194M/s.
expect_status 0 "cliff in the first interval" "$FB" --sustained -b 1M --size=2G "$CACHE"
ok "cliff in the first interval: named" grep -qx 'cliff: after 257MiB (615ms): the rate stays below 220M/s (50% of the initial 441M/s, from tenths of the first intervals: the cliff lies inside the first one)' <<<"$OUT"
ok "cliff in the first interval: the summary's initial rate" grep -q '^2GiB in 10.3s: average 208M/s, initial 441M/s, sustained 194M/s;' <<<"$OUT"
ok "cliff in the first interval: the intervals as before" grep -qP '^1.00s\tat 329MiB\t329MiB\t344M/s\t' <<<"$OUT"
expect_status 0 "no cache" "$FB" --sustained -b 1M --size=512M --log-interval=50ms sim:ssd,cache=0
ok "no cache: no cliff" grep -q '^cliff: none: the rate does not stay below' <<<"$OUT"
ok "no cache: no slow episode" grep -q '^slow: none below' <<<"$OUT"

# The text: a header note, one line per interval, the summary and two verdicts.
expect_status 0 "text" "$FB" --sustained -b 1M --size=1G --log-interval=50ms "$CACHE"
ok "text: the note" grep -qx 'sustained sequential writes of 1MiB over 1GiB from 0B' <<<"$OUT"
ok "text: interval lines" grep -qE $'^[0-9]+\\.[0-9]{2}s\tat [0-9.]+[KMG]iB\t[0-9.]+[KMG]?i?B\t[0-9.]+[KMG]/s\tp99 [0-9.]+(µs|ms)\tmax [0-9.]+(µs|ms)$' <<<"$OUT"
ok "text: the summary" grep -qE '^1GiB in [0-9.]+s: average [0-9.]+M/s, initial [0-9.]+M/s, sustained [0-9.]+M/s; latency p50 [0-9.]+ms p99 [0-9.]+ms p99.9 [0-9.]+ms max [0-9.]+ms$' <<<"$OUT"
ok "text: the cliff" grep -qE '^cliff: after 2[0-9]{2}MiB \([0-9]+ms\): the rate stays below [0-9.]+M/s \(50% of the initial [0-9.]+M/s\)$' <<<"$OUT"
ok "text: the region announced" grep -q 'will overwrite 1GiB in 1 region between 0B and 1GiB' <<<"$ERR"

# --log: the same records as CSV, one line per interval, bytes adding up.
"$FB" --sustained -b 1M --size=1G --log-interval=50ms --log="$TMP/log.csv" "$CACHE" >"$TMP/l.txt" 2>/dev/null
ok "--log: the header" [ "$(head -1 "$TMP/log.csv")" = "elapsed_ns,offset_bytes,written_bytes,bytes,rate_bps,p99_ns,max_ns" ]
rows=$(grep -cE $'^[0-9.]+s\tat ' "$TMP/l.txt")
ok "--log: one line per interval ($rows)" [ "$(($(wc -l <"$TMP/log.csv") - 1))" -eq "$rows" ] && [ "$rows" -gt 20 ]
ok "--log: the bytes add up to 1GiB" [ "$(awk -F, 'NR > 1 { s += $4 } END { print s }' "$TMP/log.csv")" = 1073741824 ]
ok "--log: written_bytes ends at 1GiB" [ "$(tail -1 "$TMP/log.csv" | cut -d, -f3)" = 1073741824 ]
ok "--log: elapsed increases" awk -F, 'NR > 2 && $1 <= p { exit 1 } { p = $1 }' "$TMP/log.csv"
# a --log that cannot be written: said, exit 1, the results still complete
expect_status 1 "--log on a full disk" "$FB" --sustained -b 1M --size=64M --log-interval=10ms --log=/dev/full sim:
ok "--log on a full disk: said" grep -qx 'flashbench: --log=/dev/full: No space left on device' <<<"$ERR"
ok "--log on a full disk: the summary still printed" grep -q '^64MiB in ' <<<"$OUT"
# --log-interval changes the number of records
"$FB" --sustained -b 1M --size=1G --log-interval=200ms --log="$TMP/log2.csv" "$CACHE" >/dev/null 2>&1
ok "--log-interval: fewer records" [ "$(wc -l <"$TMP/log2.csv")" -lt $((rows / 3)) ]

# Slow episodes: an SMR-like media cache that folds 64 MiB at a time;
# stalls of 32 requests; --slow above the band rate: the run ends slow.
"$FB" --sustained -b 1M --size=4G --log-interval=100ms --format=json \
	sim:ssd,cache=0,stalls=0.002,stall-time=50ms >"$TMP/s.json" 2>/dev/null
n=$(rec "$TMP/s.json" verdict slow_episodes value)
ok "stalls: slow episodes ($n)" [ "$n" -ge 1 ]
ok "stalls: recovered" [ "$(rec "$TMP/s.json" verdict slow_episodes result)" = recovered ]
"$FB" --sustained -b 1M --size=4G --log-interval=100ms --format=json \
	sim:ssd,cache=0,stalls=0.002,stall-time=50ms,seed=9 >"$TMP/s9.json" 2>/dev/null
ok "stalls: another seed, other episodes" not cmp -s "$TMP/s.json" "$TMP/s9.json"
expect_status 0 "--slow above the bands" "$FB" --sustained -b 1M --size=1G --log-interval=50ms --slow=300M/s "$CACHE"
ok "--slow: one episode from the cliff on, not recovered" grep -qE '^slow: 1 episode below 300M/s, [0-9.]+s in all, longest [0-9.]+s, lowest [0-9.]+M/s; not recovered by the end$' <<<"$OUT"
expect_status 0 "--cliff=90" "$FB" --sustained -b 1M --size=1G --log-interval=50ms --cliff=90 "$CACHE"
ok "--cliff=90: said in the verdict" grep -qE '^cliff: after 2[0-9]{2}MiB .*\(90% of the initial' <<<"$OUT"

# --duration: stops after that much device time.
"$FB" --sustained -b 1M --duration=2s --log-interval=500ms --format=json sim:ssd >"$TMP/d.json" 2>/dev/null
el=$(rec "$TMP/d.json" row sustained-summary elapsed_ns)
ok "--duration: 2s of device time ($el)" python3 -c "import sys; sys.exit(not 2e9 <= $el < 2.1e9)"
ok "--duration: less than the device written" python3 -c "import sys; sys.exit(not $(rec "$TMP/d.json" row sustained-summary written_bytes) < 32 << 30)"

# --offset and --size: the region written, and nothing outside it (image).
IMG=$TMP/card.img
make_image "$IMG" 16
cp "$IMG" "$TMP/orig.img"
expect_status 0 "a file region" "$FB" --sustained -b 64K --offset=4M --size=8M "$IMG"
ok "region: the bytes before untouched" cmp -s -n 4194304 "$IMG" "$TMP/orig.img"
ok "region: the bytes after untouched" cmp -s -i 12582912 "$IMG" "$TMP/orig.img"
ok "region: the region written" not cmp -s -i 4194304 -n 8388608 "$IMG" "$TMP/orig.img"
# --random writes every block of it once: --verify finds them all
expect_status 0 "--random --verify" "$FB" --sustained --random -b 64K --offset=4M --size=8M --verify "$IMG"
ok "--random: said" grep -q '^sustained random writes of 64KiB over 8MiB from 4MiB' <<<"$OUT"
ok "--random --verify: 128 blocks, none bad" grep -qE '^read back 128 blocks: 0 bad ' <<<"$OUT"
ok "--random --verify: good" grep -qx 'verify: good: every block holds what was written' <<<"$OUT"
# --preserve puts the region back
cp "$IMG" "$TMP/before.img"
expect_status 0 "--preserve" "$FB" --sustained -b 64K --size=8M --preserve --backup="$TMP/b.backup" "$IMG"
ok "--preserve: restored" cmp -s "$IMG" "$TMP/before.img"
# a whole-device --preserve needs the space for its backup: refused before anything
if is_root && mkdir -p "$TMP/small" && mount -t tmpfs -o size=4m tmpfs "$TMP/small" 2>/dev/null; then
	cleanup_add "umount $TMP/small"
	expect_status 3 "--preserve of the whole device without room" "$FB" --sustained -b 64K --preserve \
		--backup="$TMP/small/b.backup" "$IMG"
	ok "--preserve without room: says why" grep -q 'not enough free space' <<<"$ERR"
	ok "--preserve without room: nothing written" cmp -s "$IMG" "$TMP/before.img"
else
	skip_ci "a small tmpfs for the backup needs root"
fi

# --random with a --duration that ends first: the few blocks written are
# all that was checked ("usable up to 1TiB" from 6 blocks before).
rm -f "$TMP/big.img"
expect_status 0 "--random --verify, 6 blocks of 1TiB" "$FB" --sustained --random --verify -b 4K --duration=50ms "sim:size=1T,image=$TMP/big.img"
ok "6 blocks of 1TiB: the row says what was written" grep -qx 'read back 6 blocks: 0 bad (0 wrapped, 0 misplaced, 0 dropped, 0 corrupt), first bad at -, 24KiB written at random over 1TiB: no usable size known' <<<"$OUT"
ok "6 blocks of 1TiB: the verdict says what was checked" grep -qx 'verify: good: the 6 blocks written hold what was written (24KiB at random over 1TiB: the rest was not written, so no usable size is known)' <<<"$OUT"
rm -f "$TMP/big.img"
"$FB" --sustained --random --verify -b 4K --duration=50ms --format=json "sim:size=1T,image=$TMP/big.img" >"$TMP/big.json" 2>/dev/null
ok "6 blocks of 1TiB: no usable size in the JSON" [ "$(rec "$TMP/big.json" row sustained-verify usable_bytes)" = 0 ]
ok "6 blocks of 1TiB: the bytes written at random" [ "$(rec "$TMP/big.json" row sustained-verify scattered_bytes)" = 24576 ]
rm -f "$TMP/big.img"

# --verify: a healthy image, a card that wraps at half its size, one that drops writes.
expect_status 0 "--verify healthy" "$FB" --sustained -b 64K --verify "$IMG"
ok "--verify healthy: 256 blocks, none bad" grep -qE '^read back 256 blocks: 0 bad \(0 wrapped, 0 misplaced, 0 dropped, 0 corrupt\), first bad at -, usable up to 16MiB$' <<<"$OUT"
"$FB" --sustained -b 1M --verify --format=json "sim:size=64M,erase=1M,wrap=32M,image=$TMP/wrap.img" >"$TMP/w.json" 2>/dev/null
ok "wrap: named" [ "$(rec "$TMP/w.json" verdict verify result)" = wrapped ]
ok "wrap: usable 32MiB" [ "$(rec "$TMP/w.json" verdict verify value)" = 33554432 ]
ok "wrap: first bad at 0" [ "$(rec "$TMP/w.json" row sustained-verify first_bad_bytes)" = 0 ]
ok "wrap: 32 blocks wrapped" [ "$(rec "$TMP/w.json" row sustained-verify wrapped)" = 32 ]
"$FB" --sustained -b 1M --verify "sim:size=64M,erase=1M,wrap=32M,image=$TMP/wrap3.img" >"$TMP/w.txt" 2>/dev/null
ok "wrap: the JSON records are the text lines" python3 "$TESTS_DIR/cli/formats_check.py" json "$TMP/w.txt" "$TMP/w.json"
ok "wrap: the verdict line" grep -qx 'verify: wrapped: the device keeps only 32MiB: writes past it land on earlier blocks (fake capacity)' "$TMP/w.txt"
"$FB" --sustained -b 1M --verify --random --format=json "sim:size=64M,erase=1M,wrap=32M,image=$TMP/wrap2.img" >"$TMP/w2.json" 2>/dev/null
ok "wrap, random order: usable 32MiB" [ "$(rec "$TMP/w2.json" verdict verify value)" = 33554432 ]
ok "wrap, random order: wrapped" [ "$(rec "$TMP/w2.json" verdict verify result)" = wrapped ]
"$FB" --sustained -b 1M --verify --format=json "sim:size=64M,erase=1M,drop-from=40M,image=$TMP/drop.img" >"$TMP/p.json" 2>/dev/null
ok "drop: named" [ "$(rec "$TMP/p.json" verdict verify result)" = dropped ]
ok "drop: first bad at 40MiB" [ "$(rec "$TMP/p.json" row sustained-verify first_bad_bytes)" = 41943040 ]
ok "drop: usable 40MiB" [ "$(rec "$TMP/p.json" verdict verify value)" = 41943040 ]
ok "drop: the verdict line" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=[r for r in d["tests"][0]["records"] if r["type"] == "verdict" and r["verdict"] == "verify"][0]; sys.exit(v["text"] != "dropped: blocks lost from 40MiB on; what was written holds up to 40MiB")' "$TMP/p.json"
ok "drop: 24 dropped" [ "$(rec "$TMP/p.json" row sustained-verify dropped)" = 24 ]

# A zoned card (every zone full at first): the region's sequential zones
# are reset, then written at their write pointers; the rest stays full.
ZI="sim:size=64M,erase=4M,zoned=1,conv-zones=2,image=$TMP/zoned.img"
expect_status 0 "zoned: the whole card" "$FB" --sustained -b 1M --verify -v "$ZI"
ok "zoned: the zones said" grep -qx 'zones of 4MiB: 16 in the region, 2 conventional, 14 reset to their start' <<<"$OUT"
ok "zoned: 14 resets" grep -qx 'sim: 14 zone resets' <<<"$ERR"
ok "zoned: read back good" grep -qx 'verify: good: every block holds what was written' <<<"$OUT"
expect_status 0 "zoned: two zones" "$FB" --sustained -b 1M --offset=8M --size=8M --verify -v "$ZI"
ok "zoned: only the region's zones reset" grep -qx 'zones of 4MiB: 2 in the region, 0 conventional, 2 reset to their start' <<<"$OUT"
ok "zoned: two zones good" grep -qE '^read back 8 blocks: 0 bad ' <<<"$OUT"

# A loop device on a tmpfs file: healthy, with O_DSYNC.
if is_root; then
	make_image "$TMP/loop.img" 32
	if make_loop "$TMP/loop.img"; then
		expect_status 0 "loop --verify --sync" "$FB" --sustained -b 256K --verify --sync "$LOOPDEV"
		ok "loop: O_DSYNC said" grep -q 'O_DSYNC' <<<"$OUT"
		ok "loop: 128 blocks, none bad" grep -qE '^read back 128 blocks: 0 bad ' <<<"$OUT"
		ok "loop: a summary" grep -qE '^32MiB in .*: average ' <<<"$OUT"
	else
		fail "cannot attach a loop device"
	fi
else
	skip_ci "loop devices need root"
fi

# The progress line: on a terminal (script), not when stderr is a file.
# 24 GiB in 512-byte requests take more than the 2 s it waits for.
if command -v script >/dev/null; then
	script -qfec "$FB --sustained -b 512 --size=24G --log-interval=1h sim:ssd >/dev/null" \
		"$TMP/typescript" >/dev/null 2>&1
	ok "progress: on a terminal" grep -q 'sustained writes' "$TMP/typescript"
	ok "progress: the rates" grep -q 'now [0-9.]*[KMG]/s, average [0-9.]*[KMG]/s' "$TMP/typescript"
	ok "progress: MiB done of all" grep -q 'sustained writes, MiB: [0-9]*/24576 ' "$TMP/typescript"
	"$FB" --sustained -b 512 --size=24G --log-interval=1h sim:ssd >/dev/null 2>"$TMP/perr"
	ok "progress: not when stderr is a file" not grep -q 'sustained writes' "$TMP/perr"
else
	skip_ci "not installed: script (bsdutils)"
fi

# Ctrl-C: the intervals so far, the summary of them, exit 130.
# (A sanitizer build's runtime must come first: the shim cannot be preloaded.)
SHIM=$TESTS_DIR/faultshim.so
env LD_PRELOAD="$SHIM" FB_SIGNAL_PREAD_AT=1 FB_SIGNAL_ONCE=1 FB_SIGNAL=2 \
	"$FB" -a -b 1K -c 1 "$IMG" >/dev/null 2>&1
probe=$?
env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=100 FB_SIGNAL_ONCE=1 FB_SIGNAL=2 \
	"$FB" --sustained -b 64K --log-interval=1ms --log="$TMP/int.csv" "$IMG" >"$TMP/int.txt" 2>/dev/null
st=$?
if [ "$probe" -ne 130 ]; then
	skip "the fault shim does not reach this build's pwrite (sanitizers)"
else
	ok "SIGINT: exit 130 ($st)" [ "$st" -eq 130 ]
	ok "SIGINT: the summary of what was written" grep -qE '^6.25MiB in .*: average ' "$TMP/int.txt"
	ok "SIGINT: the verdicts" grep -q '^cliff: ' "$TMP/int.txt"
	ok "SIGINT: said last" grep -q '^interrupted by signal 2' <<<"$(tail -1 "$TMP/int.txt")"
	ok "SIGINT: --log kept" [ "$(tail -1 "$TMP/int.csv" | cut -d, -f3)" = 6553600 ]
fi

# Bad input: exit 2, one line, nothing written.
cp "$IMG" "$TMP/before.img"
bad "--slow bad" "--slow" --sustained --slow=fast "$IMG"
bad "--cliff 0" "--cliff" --sustained --cliff=0 "$IMG"
bad "--duration 0" "--duration" --sustained --duration=0 "$IMG"
bad "--log-interval bad" "--log-interval" --sustained --log-interval=soon "$IMG"
bad "--size past the end" "sustained would access" --sustained --size=32M "$IMG"
bad "--offset past the end" "sustained would access" --sustained --offset=32M "$IMG"
bad "region smaller than a block" "--blocksize" --sustained --size=4K "$IMG"
bad "--verify in 16-byte blocks" "stamp" --sustained --verify -b 16 "$IMG"
bad "--verify without data" "keeps no data" --sustained --verify sim:
bad "--log in a missing directory" "--log=$TMP/none/x.csv" --sustained --log="$TMP/none/x.csv" "$IMG"
bad "--log a directory" "is a directory" --sustained --log="$TMP" "$IMG"
warns "--sync without --sustained" "--sync: has no effect with --align" -a --sync "$IMG"
warns "--cliff without --sustained" "--cliff=20: has no effect with --align" -a --cliff=20 "$IMG"
ZC="sim:size=64M,erase=4M,zoned=1,conv-zones=2"
bad "a zoned card, --random" "--random cannot write at the write pointers" --sustained --random "$ZC"
bad "a zoned card, part of a zone" "must begin and end at zone boundaries" --sustained --offset=1M "$ZC"
bad "a zoned card, --size within a zone" "must begin and end at zone boundaries" --sustained --size=6M "$ZC"
bad "a zoned card, --preserve" "--preserve cannot put data back" --sustained --preserve "$ZC"
bad "--log is --out" "is the --out file" --sustained --log="$TMP/same.csv" --out="$TMP/same.csv" "$IMG"
ln -s "$TMP/log.csv" "$TMP/log.link"
bad "--log is --out by a symlink" "is the --out file" --sustained --log="$TMP/log.link" --out="$TMP/log.csv" "$IMG"
expect_status 2 "--log on the device" "$FB" --sustained --log="$IMG" "$IMG"
ok "--log on the device: says so" grep -q "^flashbench: --log=$IMG: is $IMG itself" <<<"$ERR"
ok "bad input: nothing written" cmp -s "$IMG" "$TMP/before.img"
done_testing
