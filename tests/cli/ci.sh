#!/bin/bash
# The test harness itself: under CI=true a missing tool (or a run without
# root) is a failure that the runner counts, not a skip; and every tool
# the tests need is installed by .ci/run and named in docs/guide-building.md.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)

# probe CI: a test script that needs a tool nobody has
probe() {
	env CI="$1" bash -c '. "$1"; need fb-no-such-tool; ok "after need" true; done_testing' \
		probe "$TESTS_DIR/cli/lib.sh" >"$TMP/probe" 2>&1
	echo "exit $?" >>"$TMP/probe"
}
probe true
ok "CI=true: the missing tool fails: $(tr '\n' ' ' <"$TMP/probe")" \
	grep -q '^FAIL: not installed: fb-no-such-tool (CI=true' "$TMP/probe"
ok "CI=true: counted as failed" grep -q '^cli: 1 passed, 1 failed, 0 skipped$' "$TMP/probe"
ok "CI=true: the script fails" grep -q '^exit 1$' "$TMP/probe"
probe ""
ok "no CI: a skip" grep -q '^SKIP: not installed: fb-no-such-tool$' "$TMP/probe"
ok "no CI: counted as skipped" grep -q '^cli: 1 passed, 0 failed, 1 skipped$' "$TMP/probe"
ok "no CI: the script passes" grep -q '^exit 0$' "$TMP/probe"
env CI=true bash -c '. "$1"; is_root() { false; }; need_root "loops"; done_testing' \
	probe "$TESTS_DIR/cli/lib.sh" >"$TMP/probe" 2>&1
ok "CI=true: not root fails" grep -q '^FAIL: loops needs root (CI=true' "$TMP/probe"

# Every tool given to need in tests/cli: named in docs/guide-building.md, installed by .ci/run.
tools=$(sed -e '/^[[:space:]]*#/d' -e 's/"[^"]*"//g' "$TESTS_DIR"/cli/*.sh |
	grep -oE '(^|[[:space:]!&|;(])need( +[a-z0-9._-]+)+' | sed 's/.*need //' | tr ' ' '\n' |
	grep -v -e "^$" -e "^fb-no-such-tool$" | sort -u)
ok "found the tools the tests need ($(echo $tools))" [ "$(wc -w <<<"$tools")" -ge 10 ]
for t in sfdisk partx mkfs.ext4 mkswap losetup; do
	ok "$t is among the tools the tests need" grep -qx "$t" <<<"$tools"
done
ci_pkgs=$(sed -n '/apt-get install/,/>\/dev\/null/p' "$ROOT/.ci/run" | tr -s ' \t\\' '\n')
for t in $tools; do
	ok "docs/guide-building.md names $t among what make check needs" grep -q "\`$t\`" "$ROOT/docs/guide-building.md"
	p=$(command -v "$t") || continue
	pkg=$(dpkg -S "$p" 2>/dev/null || dpkg -S "$(readlink -f "$p")" 2>/dev/null ||
		dpkg -S "${p#/usr}" 2>/dev/null)
	[ -n "$pkg" ] || continue	# not a Debian machine
	pkg=${pkg%%:*}
	ok ".ci/run installs $pkg (for $t)" grep -qx "$pkg" <<<"$ci_pkgs"
done
ok ".ci/run sets CI=true" grep -q '^export CI=true$' "$ROOT/.ci/run"
done_testing
