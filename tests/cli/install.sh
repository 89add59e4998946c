#!/bin/bash
# make install honours PREFIX and DESTDIR.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
make -s -C "$ROOT" install PREFIX=/opt/fb DESTDIR="$TMP/root" >"$TMP/log" 2>&1
rc=$?
ok "make install succeeds: $(cat "$TMP/log")" [ "$rc" -eq 0 ]
ok "binary installed under DESTDIR/PREFIX/bin" [ -x "$TMP/root/opt/fb/bin/flashbench" ]
ok "man page installed under DESTDIR/PREFIX/share/man/man1" [ -f "$TMP/root/opt/fb/share/man/man1/flashbench.1" ]
ok "installed binary runs" "$TMP/root/opt/fb/bin/flashbench" --version
ok "the plot script installed next to it" [ -x "$TMP/root/opt/fb/bin/flashbench-plot" ]
ok "the bash completion installed" [ -f "$TMP/root/opt/fb/share/bash-completion/completions/flashbench" ]
ok "the plot script's man page installed" [ -f "$TMP/root/opt/fb/share/man/man1/flashbench-plot.1" ]
# make uninstall takes back every file install put there, and nothing else (issue 22)
touch "$TMP/root/opt/fb/bin/other"
make -s -C "$ROOT" uninstall PREFIX=/opt/fb DESTDIR="$TMP/root" >"$TMP/log" 2>&1
ok "make uninstall succeeds: $(cat "$TMP/log")" [ $? -eq 0 ]
ok "make uninstall: no file of ours left ($(find "$TMP/root" -type f | tr '\n' ' '))" \
	[ "$(find "$TMP/root" -type f)" = "$TMP/root/opt/fb/bin/other" ]
make -s -C "$ROOT" uninstall PREFIX=/opt/fb DESTDIR="$TMP/root" >"$TMP/log" 2>&1
ok "make uninstall twice: still succeeds" [ $? -eq 0 ]
done_testing
