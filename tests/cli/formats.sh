#!/bin/bash
# --format=json and --format=csv: every test's JSON parses and its numbers
# are the text output's; CSV tables have consistent columns and their
# lines are the JSON's rows (8,192 of -s: rows wait and go out in batches,
# out.c and out_csv.c); interrupted, stopped and failed runs give complete
# JSON documents with their status; --analyze reads the JSON it wrote.
. "$(dirname "$0")/lib.sh"
need python3
CHECK="python3 $TESTS_DIR/cli/formats_check.py"

runs=(
	"align|-a -b 1024 sim:"
	"align-noisy|-a -b 2048 -c 2 sim:usb,jitter=5,read-var=3,seed=4"
	"scatter|-s --scatter-order=5 sim:"
	"scatter-big|-s -c 1 --scatter-order=13 sim:"
	"interval|-i --interval-order=8 sim:usb"
	"readahead|--readahead --runs=2 --max-size=1M sim:"
	"queue-depth|--queue-depth=1..8 --runs=3 --size=1M sim:sd,channels=4,jitter=5"
	"open-au|-O --open-au-nr=5 -b 64K sim:"
	"open-au-slow|-O --open-au-nr=6 -b 64K sim:"
	"open-au-runs|-O --open-au-nr=6 -b 64K --runs=3 sim:sd,jitter=5"
	"find-fat|-f --random -b 64K sim:fat"
	"find-open-au|--find-open-au -e 4M sim:"
	"info|--info sim:"
	"info-file|--info $TESTS_DIR/fixtures/sysfs/README.md"
	"two|-a -i -b 1024 sim:fat"
	"advise|-a -b 1024 -O --open-au-nr=3 --advise sim:"
	"app-class|--app-class sim:ssd"
	"survey|--survey --max-write=60M sim:"
	"sustained|--sustained -b 1M --size=512M --log-interval=50ms sim:ssd,cache=128M,stalls=0.01,stall-time=20ms"
)
for r in "${runs[@]}"; do
	name=${r%%|*} args=${r#*|}
	# shellcheck disable=SC2086
	"$FB" $args >"$TMP/$name.txt" 2>/dev/null
	# shellcheck disable=SC2086
	"$FB" $args --format=json >"$TMP/$name.json" 2>/dev/null
	# shellcheck disable=SC2086
	"$FB" $args --format=csv >"$TMP/$name.csv" 2>/dev/null
	ok "$name: the JSON parses" python3 -m json.tool "$TMP/$name.json" /dev/null
	ok "$name: JSON records are the text lines" $CHECK json "$TMP/$name.txt" "$TMP/$name.json"
	ok "$name: CSV columns are consistent" $CHECK csv "$TMP/$name.csv"
	ok "$name: CSV data lines are the JSON's rows, in order" $CHECK csvrows "$TMP/$name.csv" "$TMP/$name.json"
	ok "$name: CSV data lines are the rows" [ "$(grep -cv '^#\|^$' "$TMP/$name.csv")" -eq \
		"$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for t in d["tests"] for r in t["records"] if r["type"] == "row") + sum(len(set(r["table"] for r in t["records"] if r["type"] == "row")) for t in d["tests"]))' "$TMP/$name.json")" ]
done
# The document: the command, the device, the parameters, a section per test.
ok "json: the command line" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["command"][1:] == ["-a", "-i", "-b", "1024", "--format=json", "sim:fat"], d["command"]' "$TMP/two.json"
ok "json: the device" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["device"]["size_bytes"] == 2147483648 and d["device"]["kind"] == "simulated card"' "$TMP/two.json"
ok "json: the parameters" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["parameters"]; assert p["blocksize"] == 1024 and p["interval-order"] == 10, p' "$TMP/two.json"
ok "json: a section per test" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [t["test"] for t in d["tests"]] == ["align", "interval"]' "$TMP/two.json"
ok "json: the verdict's value" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); v=[r for r in d["tests"][0]["records"] if r["type"] == "verdict" and r["verdict"] == "erase_block"]; assert v[0]["value"] == 4194304 and v[0]["result"] == "named"' "$TMP/two.json"
ok "csv: one table per test" [ "$(grep -c '^# table: ' "$TMP/two.csv")" -eq 2 ]
ok "csv: the align header" grep -qx 'boundary_bytes,pre_ns,on_ns,post_ns,diff_ns' "$TMP/two.csv"
ok "csv: find-fat has a column per erase block" grep -qx 'block_bytes,rate_bps_1,rate_bps_2,rate_bps_3,rate_bps_4,rate_bps_5,rate_bps_6' "$TMP/find-fat.csv"
# Statuses: done, stopped early (with the reason), interrupted, failed.
ok "json: a complete run is done" $CHECK status "$TMP/open-au.json" done
ok "json: an early stop is stopped" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"][0]; assert t["status"] == "stopped" and "garbage" in t["reason"], t["status"]' "$TMP/open-au-slow.json"
"$FB" --find-open-au -e 4M --max-write=40M --format=json sim: >"$TMP/limit.json" 2>/dev/null
ok "json: a search cut by --max-write is stopped" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["tests"][0]; assert t["status"] == "stopped" and t["reason"] == "--max-write reached"' "$TMP/limit.json"
make_image "$TMP/card.img" 64
SHIM=$TESTS_DIR/faultshim.so
# The shim cannot reach a sanitizer build's pwrite (ASan comes first).
probe=$(env LD_PRELOAD="$SHIM" FB_FAIL_PWRITE_AT=1 "$FB" -O -e 1M -b 64K --offset=0 "$TMP/card.img" 2>&1 >/dev/null)
if [ -f "$SHIM" ] && ! grep -q "Input/output error" <<<"$probe"; then
	skip "the fault shim does not reach this build's pwrite"
elif [ -f "$SHIM" ]; then
	env LD_PRELOAD="$SHIM" FB_SIGNAL_PWRITE_AT=20 FB_SIGNAL=2 "$FB" -O -e 1M -b 64K --offset=0 \
		--format=json "$TMP/card.img" >"$TMP/int.json" 2>/dev/null
	st=$?
	ok "json: interrupted run exits 130 (got $st)" [ $st -eq 130 ]
	ok "json: an interrupted run is a complete document" $CHECK status "$TMP/int.json" interrupted
	ok "json: interrupted: the reason is the signal" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["reason"] == "signal 2" and d["exit_status"] == 130 and d["tests"][0]["status"] == "interrupted"' "$TMP/int.json"
	env LD_PRELOAD="$SHIM" FB_FAIL_PWRITE_AT=3 "$FB" -O -e 1M -b 64K --offset=0 \
		--format=json "$TMP/card.img" >"$TMP/fail.json" 2>/dev/null
	ok "json: a device error gives a failed document" $CHECK status "$TMP/fail.json" failed
	ok "json: failed: the reason names offset and error" python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "at offset" in d["reason"] and "Input/output error" in d["reason"], d["reason"]' "$TMP/fail.json"
else
	fail "tests/faultshim.so is missing (make check builds it)"
fi
# Text output is unchanged by the option.
"$FB" -a -b 1024 --format=text sim: >"$TMP/t2.txt" 2>/dev/null
ok "--format=text is the text output" cmp -s "$TMP/align.txt" "$TMP/t2.txt"
bad "bad format" "--format: 'xml' is not text, json or csv" -a --format=xml sim:
# --analyze reads the JSON it wrote: the same verdicts as from the text.
for name in align align-noisy open-au open-au-slow find-fat find-open-au two; do
	"$FB" --analyze "$TMP/$name.txt" | grep '^verdict: ' >"$TMP/an-text"
	"$FB" --analyze "$TMP/$name.json" | grep '^verdict: ' >"$TMP/an-json"
	ok "$name: --analyze of the JSON gives verdicts" [ -s "$TMP/an-json" ]
	ok "$name: --analyze of the JSON and of the text agree" cmp -s "$TMP/an-text" "$TMP/an-json"
done
if [ -s "$TMP/int.json" ]; then
	"$FB" --analyze "$TMP/int.json" >"$TMP/an-int" 2>&1
	ok "--analyze of an interrupted JSON run says interrupted" grep -q interrupted "$TMP/an-int"
fi
done_testing
