#!/bin/bash
# The layers of src/ (src/README.md): a file includes only headers of its
# own layer or of the layers below it, and nothing but the top level
# includes a header by a bare name. Lower layers never include upper ones.
. "$(dirname "$0")/lib.sh"
SRC=$TESTS_DIR/../src

# layer: the layers it may include
declare -A allowed=(
	[core]="core"
	[sim]="core sim"
	[verdicts]="core verdicts"
	[safety]="core sim safety"
	[modules]="core sim verdicts modules"
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
# The top level: main, the command line, the run (and its precondition), the modes.
for f in "$SRC"/*.c; do
	ok "top level: ${f#$SRC/} is main, cli, run or a mode" \
		grep -qE '^(main|cli|cli_usage|cli_unused|run|precondition|analyze_cmd|analyze_json|compare_cmd)\.c$' <<<"${f#$SRC/}"
done
# Every test is one file in src/modules/ with one descriptor in the table.
for d in $(grep -oE '&test_[a-z_]+' "$SRC/modules/table.c" | sort -u | sed 's/&//'); do
	ok "$d is defined in one file of src/modules" [ "$(grep -l "^const struct fb_test $d = {" "$SRC"/modules/*.c | wc -l)" -eq 1 ]
done
done_testing
