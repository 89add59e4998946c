#!/bin/bash
# make fuzz: run each libFuzzer target for SECONDS (default 30) on a copy of
# its seed corpus, with a dictionary of the option names and sim: keys
# taken from ./flashbench itself. Exits non-zero when a target crashed; the
# input that did it is kept in tests/fuzz/crashes/.
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-30}
work=$(mktemp -d /tmp/fbfuzzrun.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p tests/fuzz/crashes

# The option names and sim: keys, as libFuzzer dictionary entries.
{
	./flashbench --help | grep -o -- '--[a-z-]*=\?' | sort -u
	./flashbench --list-sims | grep -o '[a-z-]*=' | sort -u
	printf '%s\n' sim: size= image= fail-at= 16K 4M 0x1000 1.5M 500us 2ms 22M/s 5%
} | sed 's/.*/"&"/' >"$work/dict"

status=0
for t in parse args; do
	mkdir -p "$work/$t"
	cp tests/fuzz/corpus/$t/* "$work/$t/"
	echo "fuzz_$t: $secs s"
	(cd "$work" && "$OLDPWD/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 \
		-rss_limit_mb=4096 -print_final_stats=1 -dict="$work/dict" \
		-artifact_prefix="$OLDPWD/tests/fuzz/crashes/$t-" "$work/$t") >"$work/$t.log" 2>&1
	st=$?
	grep -E '^(Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' "$work/$t.log"
	if [ "$st" -ne 0 ]; then
		tail -40 "$work/$t.log"
		echo "FAIL fuzz_$t: exit status $st"
		status=1
	fi
done
[ "$status" -eq 0 ] && echo "fuzz: no crash in $secs s per target"
exit "$status"
