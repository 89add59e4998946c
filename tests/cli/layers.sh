#!/bin/bash
# The layers of src/ (src/README.md): a file includes only headers of its
# own layer or of the layers below it, and nothing but the top level
# includes a header by a bare name. Lower layers never include upper ones.
# And no two units use each other, also inside one layer: no circle of
# units by their includes and, where the objects are built, by the symbols
# they define and use (layers_units.py).
. "$(dirname "$0")/lib.sh"
SRC=$TESTS_DIR/../src

# layer: the layers it may include
declare -A allowed=(
	[core]="core"
	[sim]="core sim"
	[saved]="core saved"
	[verdicts]="core saved verdicts"
	[safety]="core sim safety"
	[advice]="core verdicts advice"
	[modules]="core sim saved verdicts advice modules"
	[cli]="core modules cli"
	[analyze]="core saved verdicts safety modules analyze"
	[compare]="core saved safety compare"
	[run]="core safety verdicts modules cli run"
)
for layer in "${!allowed[@]}"; do
	files=$(ls "$SRC/$layer"/*.[ch] 2>/dev/null)
	ok "src/$layer has files" [ -n "$files" ]
	for f in $files; do
		for inc in $(grep -oE '^#include "[^"]+"' "$f" | sed 's/#include "//; s/"$//'); do
			dir=${inc%%/*}
			if [ "$dir" = "$inc" ]; then
				fail "${f#$SRC/} includes \"$inc\" by a bare name"
				continue
			fi
			case " ${allowed[$layer]} " in
			*" $dir "*) pass ;;
			*) fail "${f#$SRC/} (layer $layer) includes $inc, a layer above it" ;;
			esac
		done
	done
done
# The top level: main.c alone; each part of it has a folder.
for f in "$SRC"/*.[ch]; do
	ok "top level: ${f#$SRC/} is main.c" [ "${f#$SRC/}" = main.c ]
done
# Every test is one file in src/modules/ with one descriptor in the table.
for d in $(grep -oE '&test_[a-z_]+' "$SRC/modules/table.c" | sort -u | sed 's/&//'); do
	ok "$d is defined in one file of src/modules" [ "$(grep -l "^const struct fb_test $d = {" "$SRC"/modules/*.c | wc -l)" -eq 1 ]
done
# No circles between units (layers_units.py: a unit is x.c with x.h, and
# the files that include its private x_impl.h).
# Circles still known (none now), each with the reason it is still there:
# the units of the circle, as layers_units.py prints them.
declare -A known_circles=()
if need python3 nm; then
	circles=$(python3 "$TESTS_DIR/cli/layers_units.py" "$SRC")
	ok "layers_units.py ran on src/" [ $? -eq 0 ]
	while IFS= read -r c; do
		[ -z "$c" ] && continue
		units=${c#circle: }; units=${units%% |*}
		if [ -n "${known_circles[$units]:-}" ]; then
			pass
		else
			fail "units use each other: $c"
		fi
	done <<<"$circles"
	for k in "${!known_circles[@]}"; do
		ok "known circle '$k' is still there (else drop it from known_circles)" \
			grep -qF "circle: $k |" <<<"$circles"
	done
	# The check sees a circle by includes, and one by calls alone.
	mkdir -p "$TMP/src/core" "$TMP/src/sim"
	printf '#include "core/b.h"\n' >"$TMP/src/core/a.c"
	printf '#include "core/a.h"\n' >"$TMP/src/core/b.c"
	touch "$TMP/src/core/a.h" "$TMP/src/core/b.h"
	printf '#include "sim/d_impl.h"\nvoid c(void) {}\n' >"$TMP/src/sim/c.c"
	printf 'void d(void);\nvoid d(void) {}\n' >"$TMP/src/sim/d.c"
	printf 'void c(void);\nvoid e(void);\nvoid e(void) { c(); }\n' >"$TMP/src/sim/e.c"
	printf 'void e(void);\nvoid f(void);\nvoid f(void) { e(); }\n' >"$TMP/src/sim/f.c"
	printf 'void f(void);\nvoid g(void);\nvoid g(void) { f(); }\n' >"$TMP/src/sim/g.c"
	touch "$TMP/src/sim/d_impl.h"
	sed -i '1i void g(void);\nvoid h(void) { g(); }' "$TMP/src/sim/d.c"
	for f in "$TMP"/src/sim/*.c; do cc -I"$TMP/src" -c -o "${f%.c}.o" "$f"; done
	circles=$(python3 "$TESTS_DIR/cli/layers_units.py" "$TMP/src")
	ok "a circle by includes is found: $circles" grep -qxF \
		"circle: core/a core/b | core/a -> core/b (include core/b.h); core/b -> core/a (include core/a.h)" <<<"$circles"
	ok "a circle by calls is found, sim/c.c a part of sim/d (it includes d_impl.h): $circles" \
		grep -qF "circle: sim/d sim/e sim/f sim/g |" <<<"$circles"
	ok "two circles, no more: $circles" [ "$(wc -l <<<"$circles")" -eq 2 ]
fi
done_testing
