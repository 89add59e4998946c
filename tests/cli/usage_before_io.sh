#!/bin/bash
# Bad usage is refused with exit 2 before any I/O, not with exit 1 after
# some (or exit 0 after none): each case below wrote, or ran, first.
. "$(dirname "$0")/lib.sh"

IMG=$TMP/img
make_image "$IMG" 64
SUM=$(sha256sum <"$IMG")
untouched() { [ "$(sha256sum <"$IMG")" = "$SUM" ]; }

# A zoned card: --app-class wrote 512KiB and failed on its random writes;
# --queue-depth --write announced 16MiB and failed setting up the queue.
bad "--app-class on a zoned card" "is a zoned device" --app-class "sim:size=256M,erase=4M,zoned=1,image=$TMP/z.img"
ok "--app-class on a zoned card: no image made" [ ! -e "$TMP/z.img" ]
bad "--queue-depth --write on a zoned card" "--queue-depth --write: sim:size=64M,erase=4M,zoned=1 is a zoned device" --queue-depth --write sim:size=64M,erase=4M,zoned=1
bad "--queue-depth on a zoned card" "takes no queued requests" --queue-depth sim:size=64M,erase=4M,zoned=1

# --log= (empty): the run wrote, then could not open "".
bad "--log= empty" "--log=: an empty file name" --sustained --log= -b 1M --size=4M "$IMG"
ok "--log= empty: nothing written" untouched

# --offset at the end: "will overwrite 0B", exit 0.
bad "--offset at the end" "--offset 67108864 is the end of $IMG: nothing to test" --sustained --offset=64M "$IMG"
bad "--offset at the end, --queue-depth" "passes the end" --queue-depth --write --offset=64M "$IMG"
bad "--offset at the end, -O" "is the end of" -O --offset=64M "$IMG"
ok "--offset: nothing written" untouched

# A directory as a simulated card's image: a write test said EISDIR, exit 1.
mkdir "$TMP/dir"
bad "sim:image=DIR, a write test" "not a regular file or block device" -O "sim:size=64M,image=$TMP/dir"
bad "sim:image=DIR, --preserve" "not a regular file or block device" --sustained --preserve --backup="$TMP/bk" "sim:size=64M,image=$TMP/dir"
ok "sim:image=DIR: no backup" [ ! -e "$TMP/bk" ]

# One limit for -b in --sustained and --queue-depth, which refuse -e: the
# largest request, not "larger than --erasesize 4194304".
expect_status 0 "--sustained -b 8M" "$FB" --sustained -b 8M --size=16M sim:
expect_status 0 "--queue-depth --write -b 8M" "$FB" --queue-depth=1,2 --write -b 8M --size=16M sim:size=1G
bad "--sustained -b 65M" "--blocksize 68157440: --sustained takes requests of at most 67108864" --sustained -b 65M sim:size=4G
bad "--queue-depth -b 65M" "--blocksize 68157440: --queue-depth takes requests of at most 67108864" --queue-depth -b 65M sim:size=4G
bad "-O -b 8M: its erase blocks" "--blocksize 8388608 is larger than --erasesize 4194304" -O -b 8M sim:
# A FILE option followed by an option: getopt gave "--analyze --format=json F"
# the option as the file, then refused F as a DEVICE; "-o --x" wrote a file
# named --x. Said as what it is, before anything is read or written.
bad "--analyze then an option" "--analyze: '--format=json' looks like an option, not a FILE: give the FILE right after it (--analyze=./--format=json for a file of that name)" --analyze --format=json "$IMG"
bad "-o then an option" "--out: '--x' looks like an option, not a FILE" -O -o --x "$IMG"
ok "-o then an option: no file --x" [ ! -e ./--x ] && [ ! -e "$TMP/--x" ]
ok "-o then an option: nothing written" untouched
expect_status 0 "--format=json --analyze FILE still works" "$FB" --format=json --analyze "$TESTS_DIR/fixtures/realruns/003-kingston-4gb-sa04g-findfat.txt"
done_testing
