#!/bin/bash
# --app-class: the SD A1/A2 figures (4KiB random read and write IOPS,
# sequential write rate), pass or fail per figure and class with the
# measured value; the best class all three meet; only its area written.
. "$(dirname "$0")/lib.sh"

MiB=1048576
# fails LABEL OUTPUT: the figures that failed, one "A1 random read 4KiB" a line
fails() { sed -n 's/^app-class: \(A[12] [a-z 4KiB]*\): fail: .*/\1/p' <<<"$1" | tr '\n' ';'; }

# A fast card: every figure of both classes passes.
expect_status 0 "fast card" "$FB" --app-class sim:ssd,read-lat=200us
ok "fast card: six figures judged" [ "$(grep -c '^app-class: A[12] .*: pass: ' <<<"$OUT")" -eq 6 ]
ok "fast card: A2" grep -qx 'verdict: application performance class: A2 (as measured here, not certified)' <<<"$OUT"
ok "fast card: the rows, with values" grep -qE '^random read 4KiB	[0-9]+ IOPS	4000 requests in ' <<<"$OUT"
ok "fast card: the sequential row" grep -qE '^sequential write	[0-9.]+[kMG]/s	64MiB in ' <<<"$OUT"
ok "fast card: the write row" grep -qE '^random write 4KiB	[0-9]+ IOPS	2000 requests in ' <<<"$OUT"
# The ssd preset reads 4KiB in 258us: A1, and A2 fails on random reads only.
expect_status 0 "ssd" "$FB" --app-class sim:ssd
ok "ssd: only A2's random read fails" [ "$(fails "$OUT")" = "A2 random read 4KiB;" ]
ok "ssd: with its value and the need" grep -qE '^app-class: A2 random read 4KiB: fail: 3[0-9]{3} IOPS, needs 4000$' <<<"$OUT"
ok "ssd: A1" grep -qx 'verdict: application performance class: A1 (as measured here, not certified)' <<<"$OUT"
# Without its cache and at 9 MB/s: A1 fails on the sequential write alone
# (4KiB random writes still make 530 IOPS: A2 fails on them too).
expect_status 0 "slow writes" "$FB" --app-class sim:ssd,read-lat=200us,cache=0,write-bw=9M/s
ok "slow writes: A1 fails on the sequential write alone" \
	[ "$(fails "$OUT")" = "A1 sequential write;A2 sequential write;A2 random write 4KiB;" ]
ok "slow writes: value and need" grep -qE '^app-class: A1 sequential write: fail: 8\.[0-9]+M/s, needs 10M/s$' <<<"$OUT"
ok "slow writes: no class" grep -qx 'verdict: application performance class: none: it fails A1 (as measured here, not certified)' <<<"$OUT"
# The typical SD card: random writes in more erase blocks than it keeps open
# are garbage collections; the phase stops after 20 s of device time.
expect_status 0 "sd" "$FB" --app-class sim:
ok "sd: random writes fail A1" grep -qE '^app-class: A1 random write 4KiB: fail: [0-9] IOPS, needs 500$' <<<"$OUT"
ok "sd: fewer writes, within the phase's time" grep -qE '^random write 4KiB	[0-9]+ IOPS	[0-9]{2,3} requests in 2[0-9.]+s$' <<<"$OUT"

# JSON: the rows' fields and the verdict names.
"$FB" --app-class --format=json sim:ssd >"$TMP/a.json" 2>/dev/null
if need python3; then
	ok "json: rows and verdicts" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
assert t["test"] == "app-class" and t["status"] == "done", t
rows = [r for r in t["records"] if r["type"] == "row"]
assert [r["figure"] for r in rows] == ["sequential write", "random read 4KiB", "random write 4KiB"], rows
assert rows[1]["requests"] == 4000 and rows[1]["request_bytes"] == 4096 and rows[1]["bytes"] == 4000 * 4096
assert abs(rows[1]["iops"] - 4000 / (rows[1]["time_ns"] / 1e9)) < 1e-6 * rows[1]["iops"]
v = {r["verdict"]: r for r in t["records"] if r["type"] == "verdict"}
assert sorted(v) == sorted(["a1_seq_write", "a1_random_read", "a1_random_write", "a2_seq_write",
                            "a2_random_read", "a2_random_write", "app_class"]), v
assert v["a2_random_read"]["result"] == "fail" and v["a2_random_read"]["unit"] == "iops"
assert v["a2_random_read"]["value"] == round(rows[1]["iops"])
assert v["a1_seq_write"]["result"] == "pass" and v["a1_seq_write"]["unit"] == "bps"
assert v["app_class"]["result"] == "A1"
' "$TMP/a.json"
fi

# A file: only the area (--offset, --app-area) is written.
make_image "$TMP/ref.img" 64
cp "$TMP/ref.img" "$TMP/f.img"
expect_status 0 "file" "$FB" --app-class --offset=8M --app-area=16M "$TMP/f.img"
ok "file: the area is announced" grep -q 'will overwrite 16MiB in 1 region between 8MiB and 24MiB' <<<"$ERR"
ok "file: before the area unchanged" cmp -s -n $((8 * MiB)) "$TMP/f.img" "$TMP/ref.img"
ok "file: after it unchanged" cmp -s -i $((24 * MiB)) "$TMP/f.img" "$TMP/ref.img"
ok "file: the area written" not cmp -s -n $((24 * MiB)) "$TMP/f.img" "$TMP/ref.img"
# --precondition and --preserve work with it as with any write test.
cp "$TMP/ref.img" "$TMP/f.img"
expect_status 0 "--preserve --precondition=discard" "$FB" --app-class --app-area=16M \
	--precondition=discard --preserve --backup="$TMP/b.backup" "$TMP/f.img"
ok "preserve: discarded first" grep -q '^precondition: discarded 16MiB in 1 region' <<<"$OUT"
ok "preserve: the data is back" cmp -s "$TMP/f.img" "$TMP/ref.img"

# Bad input: exit 2, nothing touched.
bad "area not in 512KiB" "--app-area=17039360: must be a multiple of 512KiB, at least 16MiB" \
	--app-class --app-area=16.25M sim:
bad "area too small" "--app-area=8388608: must be a multiple of 512KiB, at least 16MiB" \
	--app-class --app-area=8M sim:
bad "area past the end" "app-class would access up to byte 83886080, but" \
	--app-class "$TMP/f.img"
bad "offset not 4KiB-aligned" "--offset=512: --app-class needs it 4KiB-aligned, as its requests are" \
	--app-class --offset=512 sim:
warns "--app-area without --app-class" "--app-area=16M: has no effect with --align" -a --app-area=16M sim:
warns "-e is not used" "--erasesize=8M: has no effect with --app-class" --app-class -e 8M sim:
ok "nothing touched" cmp -s "$TMP/f.img" "$TMP/ref.img"
done_testing
