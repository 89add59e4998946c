#!/bin/bash
# Issue 16: memory. Peak RSS of every test on sim: within 2 x erase + 8 MiB;
# on a card that keeps no data (sim: without an image) no test touches its
# erase-sized buffers, so a 256 MiB erase block costs no 256 MiB; --analyze
# reads any input in constant memory. Peak RSS from wait4(), no timing.
. "$(dirname "$0")/lib.sh"
need python3 || { done_testing; exit; }
[ -x /usr/bin/time ] || { skip_ci "not installed: /usr/bin/time (GNU time)"; done_testing; exit; }
asan() { nm "$FB" 2>/dev/null | grep -q __asan_init; }

# tables MB: that many MiB of saved align and open-au tables
tables() {
	python3 - "$1" <<'PY'
import sys
table = "".join("align %d\tpre 1.34ms\ton 1.94ms\tpost 1.34ms\tdiff 600us\n" % (1 << s)
                for s in range(31, 12, -1))
table += "".join("%dKiB\t9.9M/s\n" % (4096 >> s) for s in range(9))
chunk = table * ((1 << 20) // len(table) + 1)
try:
    for _ in range(int(sys.argv[1])):
        sys.stdout.write(chunk)
except BrokenPipeError:
    pass
PY
}
# rss_kb COMMAND...: its peak RSS in KiB (GNU time: a fork of this shell
# or of python would count in the child's peak); empty if it failed
rss_kb() {
	/usr/bin/time -f %M -o "$TMP/rss" "$@" >/dev/null 2>&1
	case $? in 0|1) tail -1 "$TMP/rss" ;; esac
}

if asan; then
	skip "peak RSS bounds: a sanitizer build's allocator and shadow memory"
	done_testing; exit
fi
# in_kb KB LOW HIGH: a measured RSS within [LOW, HIGH]
in_kb() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
limit=$(((2 * 4 + 8) * 1024))
for t in "-a" "-s" "-i" "--readahead" "-f -e 4M" "-O -e 4M" "--find-open-au -e 4M" \
	 "-O --random --open-au-nr=8 -e 4M"; do
	k=$(rss_kb "$FB" $t sim:)
	ok "$t on sim: peak RSS $k KiB within 2 x 4MiB + 8MiB" in_kb "$k" 1 "$limit"
done
# Erase-sized buffers never touched where no data is kept (was 64 MiB: the largest request).
for t in "-O --open-au-nr=1 -e 256M" "-f --fat-nr=1 -e 256M" "--find-open-au --max-write=1G -e 256M" \
	 "-s --scatter-order=4 -b 64M" "-i --interval-order=17"; do
	k=$(rss_kb "$FB" $t sim:size=8G)
	ok "$t on sim: peak RSS $k KiB under 16 MiB" in_kb "$k" 1 16384
done
# A card with an image keeps the data: there the buffer is filled.
k=$(rss_kb "$FB" -O --open-au-nr=1 -b 64M -e 64M "sim:size=512M,image=$TMP/img")
ok "-O -e 64M on sim: with an image: the buffer filled ($k KiB)" in_kb "$k" 65536 $((2 * 65536 + 8192))

# --analyze: 64 MiB of tables on standard input in the memory of one table.
small=$(tables 1 | rss_kb "$FB" --analyze=-)
big=$(tables 64 | rss_kb "$FB" --analyze=-)
ok "--analyze: 64 MiB of input in $big KiB, 1 MiB in $small KiB" in_kb "$big" 1 $((small + 1024))
done_testing
