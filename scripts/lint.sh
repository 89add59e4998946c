#!/bin/bash
# make lint: the size rules of src/ (src/README.md): no file over 600
# lines, no function over 80. Prints one line per file or function over
# its limit ("FILE: N lines (limit 600)", "FILE:LINE: NAME: N lines (limit
# 80)") and exits 1 when there is any that scripts/lint-allow does not
# name. A function is counted from its name's line to the "}" in column 0
# that closes it (the kernel style of the tree: "{" and "}" of a function
# body alone on their lines in column 0). And one folder deep at most
# ("FILE: deeper than src/FOLDER/"): make builds src/*.c and src/*/*.c,
# and layers.sh draws one layer a folder, so a file further down would
# be neither built nor checked.
#   scripts/lint.sh [SRC_DIR]   (default: src/ next to this script)
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../src}
allow=$here/lint-allow
MAX_FILE=${LINT_MAX_FILE:-600} MAX_FUNC=${LINT_MAX_FUNC:-80}
over=$(
	(cd "$src" && find . -mindepth 3 -name '*.[ch]' | sed 's|^\./||; s|$|: deeper than src/FOLDER/ (make and layers.sh see one folder deep)|' | sort)
	for f in $(cd "$src" && ls *.[ch] */*.[ch]); do
		awk -v f="$f" -v maxf=$MAX_FILE -v maxfn=$MAX_FUNC '
			# The line with the name: the last one before "{" that opened
			# a statement at column 0 (a declarator may wrap).
			/^[A-Za-z_].*\(/ { head = $0; hl = FNR }
			/^\{/ && head != "" { start = hl; name = head; inbody = 1 }
			/^\}/ && inbody {
				n = FNR - start + 1
				sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
				if (n > maxfn)
					printf "%s:%d: %s: %d lines (limit %d)\n", f, start, name, n, maxfn
				inbody = 0; head = ""
			}
			END { if (FNR > maxf) printf "%s: %d lines (limit %d)\n", f, FNR, maxf }
		' "$src/$f"
	done
)
[ -n "$over" ] && echo "$over"
left=0
while IFS= read -r l; do
	[ -z "$l" ] && continue
	key=${l%%: [0-9]* lines*}	# FILE or FILE:LINE: NAME
	key=$(sed -E 's/:[0-9]+:/:/' <<<"$key")	# FILE: NAME (lines move)
	grep -qxF "$key" "$allow" 2>/dev/null || left=$((left + 1))
done <<<"$over"
if [ "$left" -gt 0 ]; then
	echo "lint: $left over the limits (not in scripts/lint-allow)" >&2
	exit 1
fi
exit 0
