#!/bin/bash
# The cost of a request and of a row, in user-space instructions
# (callgrind; the difference of two runs, so start-up cancels; counts do
# not depend on the machine's load). Issue 23: nothing but the request
# and its two clock reads may stand between two timed requests, and the
# rows are written after them, cheaply: a -s row in CSV was about 3,000
# instructions of printf (%.15g), the bare loop's whole request 500.
# Skipped without valgrind and for sanitizer builds.
. "$(dirname "$0")/lib.sh"

# callgrind_annotate comes with valgrind.
if ! need_valgrind; then
	done_testing
	exit
fi
ir() {	# the program's instructions under callgrind
	valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" "$@" >/dev/null 2>&1 &&
		callgrind_annotate "$TMP/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}
if ! command -v callgrind_annotate >/dev/null || [ -z "$(ir "$FB" --version)" ]; then
	skip "callgrind cannot run this build"
	done_testing
	exit
fi
# One row and one read of the simulated card: 4,096 more of each at order 13.
a=$(ir "$FB" -s -b 4K -c 1 --scatter-order=12 --format=csv sim:)
b=$(ir "$FB" -s -b 4K -c 1 --scatter-order=13 --format=csv sim:)
per=$(((b - a) / 4096))
echo "instructions per -s request with its CSV row on sim: $per"
ok "a -s request with its CSV row costs under 900 instructions on sim: ($per; 975 before the rows went out in batches, 3,647 before they waited)" [ "$per" -lt 900 ]
# One more timed read of a file (no row): the engine's path around the
# request, the request itself (pread) and its two clock reads.
img=$TMP/card.img
make_image "$img" 16
g=$(ir "$FB" -s -b 4K -c 8 --scatter-order=10 "$img")
h=$(ir "$FB" -s -b 4K -c 16 --scatter-order=10 "$img")
per=$(((h - g) / 8192))
echo "instructions per extra timed read of a file: $per"
ok "one more timed read of a file costs under 136 instructions ($per; 140 before the flags shared a line)" [ "$per" -lt 136 ]
# --queue-depth --engine=sync on a file: the engine's own reads, one at a
# time as the sync engine runs them, without the queue's bookkeeping
# (queue_depth.c qd_cell_sync): a request, with the sort of the latencies,
# under 600 instructions at depth 1 and at depth 8 (737 and 645 through the queue).
qd() { ir "$FB" --queue-depth="$1" --engine=sync --runs=1 --random -b 4K --size="$2" --offset=0 \
	--format=csv "$img"; }
for d in 1 8; do
	per=$((($(qd $d 8M) - $(qd $d 4M)) / 1024))
	echo "instructions per request of --queue-depth=$d --engine=sync: $per"
	ok "--queue-depth=$d --engine=sync: under 600 instructions a request ($per)" [ "$per" -lt 600 ]
done
done_testing
