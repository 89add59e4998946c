# Helpers for command-line tests. Source it; call pass/fail/skip; end with done_testing.
FB=${FB:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/flashbench}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_passed=0 _failed=0 _skipped=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fbtest.XXXXXX")
_cleanups=()
cleanup_add() { _cleanups+=("$1"); }
_run_cleanups() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do eval "${_cleanups[$i]}" >/dev/null 2>&1; done
	rm -rf "$TMP"
}
trap _run_cleanups EXIT

pass() { _passed=$((_passed + 1)); }
fail() { _failed=$((_failed + 1)); echo "FAIL: $*"; }
skip() { _skipped=$((_skipped + 1)); echo "SKIP: $*"; }
# skip_ci REASON: a skip, but under CI=true a failure: CI (.ci/run) installs
# every tool and runs as root, so there nothing may silently go untested.
skip_ci() {
	if [ "${CI:-}" = true ]; then fail "$* (CI=true: .ci/run must provide it)"; else skip "$*"; fi
}
# need TOOL...: true when every TOOL is installed; else skip_ci naming the missing ones.
need() {
	local t missing=()
	for t; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
	[ ${#missing[@]} -eq 0 ] && return 0
	skip_ci "not installed: ${missing[*]}"
	return 1
}
# need_valgrind: true when valgrind is installed and $FB is no sanitizer
# build (ASan and valgrind cannot share a process); else a skip.
need_valgrind() {
	need valgrind || return 1
	grep -q __asan_init "$FB" 2>/dev/null || return 0
	skip "a sanitizer build: valgrind cannot run it"
	return 1
}
# need_root WHAT: true as root; else skip_ci "WHAT needs root".
need_root() { is_root && return 0; skip_ci "$1 needs root"; return 1; }
# ok DESCRIPTION COMMAND...: passes when the command succeeds
ok() { local d=$1; shift; if "$@"; then pass; else fail "$d"; fi; }
# expect_status WANT DESCRIPTION COMMAND...: runs command, output in $OUT/$ERR
expect_status() {
	local want=$1 d=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"; local st=$?
	OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
	if [ "$st" -eq "$want" ]; then pass; else fail "$d: exit $st, want $want; stderr: $ERR"; fi
}
is_root() { [ "$(id -u)" -eq 0 ]; }
# make_image FILE MiB: an image file filled with non-zero data
make_image() { head -c $(($2 * 1024 * 1024)) /dev/urandom >"$1"; }
# make_loop FILE [losetup options]: attach a loop device, set LOOPDEV, detach on exit.
# Not in $(...): the cleanup must be registered in this shell.
# Other processes attach loop devices too, and may race for the same free
# one: the device is only taken (and later detached) once it shows our file.
make_loop() {
	local f=$1 i dev; shift
	for ((i = 0; i < 5; i++)); do
		if dev=$(losetup --find --show "$@" "$f") &&
		   [ "$(stat -Lc %d:%i:%t:%T "$(losetup -nO BACK-FILE "$dev")" 2>/dev/null)" = \
		     "$(stat -Lc %d:%i:%t:%T "$f")" ] &&
		   [ "$(blockdev --getsize64 "$dev" 2>/dev/null)" -gt 0 ]; then
			LOOPDEV=$dev
			cleanup_add "detach_ours $LOOPDEV $(printf %q "$f")"
			return 0
		fi
		sleep 0.2
	done
	return 1
}
# detach_ours DEV FILE: detach DEV only while FILE still backs it. A test
# that detached DEV itself leaves its number free, and another process may
# have attached its own device there by the time the cleanup runs. The
# backing file is known by its device and inode, not its name: a test that
# renames it (matrix.sh: "g.moved (deleted)") still gets its device back.
detach_ours() {
	local back
	back=$(losetup -nO BACK-MAJ:MIN,BACK-INO "$1" 2>/dev/null | awk '{ print $1, $2 }') || return 0
	[ -n "$back" ] && [ "$back" = "$(stat -Lc '%Hd:%Ld %i' "$2" 2>/dev/null)" ] && losetup -d "$1"
}
done_testing() {
	echo "cli: $_passed passed, $_failed failed, $_skipped skipped"
	[ "$_failed" -eq 0 ]
}
# to_num VALUE: flashbench's "1.08ms", "735µs", "5.99M/s", "512KiB" -> plain number
# (ns for times, B/s for rates, bytes for sizes)
to_num() {
	awk -v v="$1" 'BEGIN {
		s = v; sub(/\/s$/, "", s); n = s + 0; u = s; sub(/^-?[0-9.e+]+/, "", u)
		m["ns"] = 1; m["µs"] = 1e3; m["ms"] = 1e6; m["s"] = 1e9
		m["B"] = 1; m["K"] = 1e3; m["M"] = 1e6; m["G"] = 1e9; m[""] = 1
		m["KiB"] = 1024; m["MiB"] = 1048576; m["GiB"] = 1073741824
		printf "%.6f\n", n * m[u] }'
}
# bad DESCRIPTION WORDS ARGS...: flashbench ARGS is a usage error (exit 2)
# with one line on stderr containing WORDS, and nothing on stdout
bad() {
	local d=$1 word=$2; shift 2
	expect_status 2 "$d" "$FB" "$@"
	ok "$d: one line" [ "$(wc -l <<<"$ERR")" -eq 1 ]
	ok "$d: names '$word' ($ERR)" grep -qF -- "$word" <<<"$ERR"
	ok "$d: nothing on stdout" [ -z "$OUT" ]
}
# not COMMAND...: succeeds when the command fails (for use with ok)
not() { ! "$@"; }
# warns DESCRIPTION WORDS ARGS...: flashbench ARGS runs (exit 0) with the
# warning "flashbench: warning: WORDS..." on stderr and results on stdout
# (an option the selected tests do not use, issue 22)
warns() {
	local d=$1 word=$2; shift 2
	expect_status 0 "$d" "$FB" "$@"
	ok "$d: warns '$word' ($ERR)" grep -qF -- "flashbench: warning: $word" <<<"$ERR"
	ok "$d: results on stdout" [ -n "$OUT" ]
}
