#!/bin/bash
# The layers of src/ (src/README.md): one folder a layer, main.c alone at
# the top; a file includes headers of its own layer or of the layers below
# it, always by their path. Lower layers never include upper ones.
# And no two units use each other, also inside one layer: no circle of
# units by their includes and, where the objects are built, by the symbols
# they define and use (layers_units.py).
. "$(dirname "$0")/lib.sh"
SRC=$TESTS_DIR/../src

# Each folder of src/ is a layer: the layers it may include, bottom up
# (src/README.md draws them). main.c, alone at the top, may include any.
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
# include_faults SRC: one line per include that breaks the layers -- a
# header named without its folder, a folder above the includer's, a
# folder that is no layer -- and per file outside them (only main.c is
# at the top); then "checked N", the files looked at.
include_faults() {
	local src=$1 f rel layer inc quote dir n=0
	for f in "$src"/*.[ch] "$src"/*/*.[ch]; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		rel=${f#$src/}
		layer=${rel%%/*}
		if [ "$layer" = "$rel" ]; then
			[ "$rel" = main.c ] || echo "$rel: only main.c is at the top of src/"
			layer=main
		elif [ -z "${allowed[$layer]:-}" ]; then
			echo "$rel: src/$layer/ is no layer of layers.sh"
			continue
		fi
		# "#include", "# include", and <layer/x.h> too (-Isrc builds them all)
		for inc in $(grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]+[">]' "$f" |
			     sed -E 's/.*include[[:space:]]*//'); do
			quote=${inc:0:1} inc=${inc:1:-1} dir=${inc%%/*}
			if [ "$quote" = "<" ] && [ -z "${allowed[$dir]:-}" ]; then
				continue	# a system header
			fi
			if [ "$dir" = "$inc" ]; then
				echo "$rel includes \"$inc\" by a bare name"
			elif [ -z "${allowed[$dir]:-}" ]; then
				echo "$rel includes $inc, of no layer"
			elif [ "$layer" != main ] && [[ " ${allowed[$layer]} " != *" $dir "* ]]; then
				echo "$rel (layer $layer) includes $inc, a layer above it"
			fi
		done
	done
	echo "checked $n"
}
has_c() { compgen -G "$1/*.c" >/dev/null; }
for layer in "${!allowed[@]}"; do
	ok "src/$layer has files" has_c "$SRC/$layer"
done
# map_loops: the layers that may include each other round (tsort's loop
# report; nothing when the map is a true order of layers).
map_loops() {
	local -n map=$1
	local l d
	for l in "${!map[@]}"; do
		for d in ${map[$l]}; do [ "$d" != "$l" ] && echo "$d $l"; done
	done | tsort 2>&1 >/dev/null
}
ok "the map is an order: no layers include each other round: $(map_loops allowed)" \
	[ -z "$(map_loops allowed)" ]
declare -A round=([a]="a" [b]="a b" [c]="b c" [x]="c x")
round[a]="a x"
ok "a map with a circle is seen: $(map_loops round)" grep -q loop <<<"$(map_loops round)"
faults=$(include_faults "$SRC")
# find sees a file below a folder too, which the rule (and make) would not
ok "layers.sh looked at every file of src/: ${faults##*$'\n'}" \
	[ "${faults##*checked }" -eq "$(find "$SRC" -name '*.[ch]' | wc -l)" ]
while IFS= read -r l; do
	case "$l" in "checked "*) pass ;; *) fail "$l" ;; esac
done <<<"$faults"
# The rule sees each kind of fault, and passes what keeps it.
mkdir -p "$TMP/lay/src/verdicts" "$TMP/lay/src/saved" "$TMP/lay/src/stuff"
printf '#include "compare/compare.h"\n#include "saved/saved_line.h"\n' >"$TMP/lay/src/verdicts/a.c"
printf '#include "analyze/analyze.h"\n#include "verdict_openau.h"\n' >"$TMP/lay/src/saved/b.c"
printf '#include "core/units.h"\n#include "other/x.h"\n' >"$TMP/lay/src/saved/c.h"
printf '# include "modules/test.h"\n#include <compare/x.h>\n#include <stdio.h>\n' >"$TMP/lay/src/verdicts/e.c"
printf '#include "cli.h"\n#include "run/run.h"\n' >"$TMP/lay/src/main.c"
touch "$TMP/lay/src/extra.c" "$TMP/lay/src/stuff/d.c"
faults=$(include_faults "$TMP/lay/src" | sort)
want='checked 7
extra.c: only main.c is at the top of src/
main.c includes "cli.h" by a bare name
saved/b.c (layer saved) includes analyze/analyze.h, a layer above it
saved/b.c includes "verdict_openau.h" by a bare name
saved/c.h includes other/x.h, of no layer
stuff/d.c: src/stuff/ is no layer of layers.sh
verdicts/a.c (layer verdicts) includes compare/compare.h, a layer above it
verdicts/e.c (layer verdicts) includes modules/test.h, a layer above it
verdicts/e.c (layer verdicts) includes compare/x.h, a layer above it'
ok "each fault found, nothing else: $faults" [ "$faults" = "$(sort <<<"$want")" ]
# src/README.md's table of the layers says what the map says: each folder
# once, with the layers it may include besides its own.
same_row() { [ -n "$1" ] && [ "$2" = "$3" ]; }
for layer in "${!allowed[@]}"; do
	row=$(grep -E "^\| \`$layer/\` \|" "$SRC/README.md")
	want=$(tr ' ' '\n' <<<"${allowed[$layer]}" | grep -vx "$layer" | sort | tr '\n' ' ')
	got=$(sed -E 's/.*\| *([^|]*) *\|$/\1/' <<<"$row" | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
	ok "src/README.md: $layer/ may include '$want' (README: '$got')" same_row "$row" "$want" "$got"
done
ok "src/README.md's table has a row per layer and main.c" \
	[ "$(grep -cE '^\| `[a-z_.]+/?` \|' "$SRC/README.md")" -eq $((${#allowed[@]} + 1)) ]
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
	printf '# include <core/a.h>\n' >"$TMP/src/core/b.c"	# spaced, angled: still an include
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
