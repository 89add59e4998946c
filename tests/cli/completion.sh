#!/bin/bash
# Issue 14: scripts/flashbench.bash-completion completes the options (all
# of --help), the values of --format and --report, the presets after sim:
# and block devices or files for DEVICE; `complete -p` shows it is set.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
COMP=$ROOT/scripts/flashbench.bash-completion

# offers WORD...: what the completion offers for the command line flashbench WORD...
# (COMP_LINE as typed, the cursor at its end; COMP_WORDS as bash splits it at
# COMP_WORDBREAKS; the replies as readline puts them in place of the last part)
offers() {
	PATH=$(dirname "$FB"):$PATH bash -c '
		source "$1"; shift
		COMP_LINE="flashbench $*"; COMP_POINT=${#COMP_LINE}
		COMP_WORDS=(flashbench "$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_flashbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@" | sort -u
}

ok "complete -p: set for flashbench" grep -q -- "-F _flashbench flashbench" <<<"$(bash -c "source '$COMP'; complete -p flashbench")"
want=$("$FB" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
got=$(offers -- | sed 's/=$//' | sort -u)
ok "every option of --help is offered ($(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' '))" [ -z "$(comm -23 <(echo "$want") <(echo "$got"))" ]
ok "nothing but those ($(comm -13 <(echo "$want") <(echo "$got") | tr '\n' ' '))" [ -z "$(comm -13 <(echo "$want") <(echo "$got"))" ]
ok "--rep: --report" [ "$(offers --rep)" = "--report" ]
ok "--inf: --info" [ "$(offers --inf)" = "--info" ]
ok "--form: --format= (a value follows)" [ "$(offers --form)" = "--format=" ]
ok "--format=: text json csv" [ "$(offers --format= | tr '\n' ' ')" = "csv json text " ]
ok "--format=j: json" [ "$(offers --format=j)" = "json" ]
ok "--format j: json" [ "$(offers --format j)" = "json" ]
ok "--engine=: its engines" [ "$(offers --engine= | tr '\n' ' ')" = "aio auto sync uring " ]
ok "--precondition=: its modes" [ "$(offers --precondition= | tr '\n' ' ')" = "discard fill none " ]
ok "--erasesize=: no file names" [ -z "$(offers --erasesize=)" ]
ok "--report=: full" [ "$(offers --report=)" = "full" ]
ok "--out=: files" grep -qx "$ROOT/README.md" <<<"$(cd / && offers --out="$ROOT/READ")"
# readline replaces what follows the ':' (a word break): the preset alone
presets=$("$FB" --list-sims | sed -n 's/^\([a-z0-9-][a-z0-9-]*\)\t.*/\1/p' | sort)
ok "sim: every preset ($(echo $presets))" [ "$(offers sim:)" = "$presets" ] && [ -n "$presets" ]
ok "sim:u: usb" [ "$(offers sim:u)" = "usb" ]
ok "DEVICE: sim: is offered" grep -qx "sim:" <<<"$(offers -a "")"
dev=$(ls /sys/block | grep -vE '^(ram|zram|dm-)' | head -1)
if [ -n "$dev" ]; then
	ok "DEVICE: block devices (/dev/$dev)" grep -qx "/dev/$dev" <<<"$(offers -a /dev/)"
	ok "DEVICE under /dev: only block devices" not grep -qx "/dev/null" <<<"$(offers -a /dev/)"
fi
touch "$TMP/card.img"
ok "DEVICE: files" grep -qx "$TMP/card.img" <<<"$(offers -a "$TMP/ca")"
ok "--out FILE: files" grep -qx "$TMP/card.img" <<<"$(offers -o "$TMP/ca")"
ok "--compare A: files" grep -qx "$TMP/card.img" <<<"$(offers --compare "$TMP/ca")"
ok "--compare A: not sim: (saved results, not devices)" not grep -qx "sim:" <<<"$(offers --compare "")"
ok "--compare A B: not sim:" not grep -qx "sim:" <<<"$(offers --compare "$TMP/card.img" "")"
ok "--comp A (getopt's abbreviation): not sim:" not grep -qx "sim:" <<<"$(offers --comp "")"
ok "--co A (also --count): sim: still offered" grep -qx "sim:" <<<"$(offers --co "")"
ok "--compare A: under /dev, files (/dev/null too), not the device list" grep -qx /dev/null <<<"$(offers --compare /dev/nu)"

# ---- as a person types it (issue 22): a real interactive bash on a
# pseudo-terminal (tmux), keys sent, the screen read
if need tmux; then
	mkdir "$TMP/cwd" && touch "$TMP/cwd/a-file"	# a file the values must not offer
	cat >"$TMP/rc" <<RC
PS1='$ '
PATH=$(dirname "$FB"):\$PATH
bind 'set bell-style none'
bind 'set show-all-if-ambiguous off'
source $COMP
cd $TMP/cwd
RC
	TM=(tmux -S "$TMP/tmux.sock" -f /dev/null)
	SH="env -i HOME=$TMP TERM=xterm PATH=$PATH bash --noprofile --rcfile $TMP/rc -i"
	"${TM[@]}" new-session -d -x 160 -y 40 "$SH"
	cleanup_add "tmux -S $TMP/tmux.sock kill-server"
	screen() { "${TM[@]}" capture-pane -p -t 0 | sed 's/ *$//' | sed '/^$/d'; }
	# wait_for PATTERN: the screen shows it (at most 10 s: a loaded machine)
	wait_for() {
		local i
		for ((i = 0; i < 100; i++)); do
			grep -qE -- "$1" <<<"$(screen)" && return 0
			sleep 0.1
		done
		return 1
	}
	# typed KEYS...: a fresh interactive bash, then the keys (tmux key names: Tab)
	typed() {
		"${TM[@]}" respawn-pane -k -t 0 "$SH"
		wait_for '^\$$' || { fail "no prompt: $(screen)"; return 1; }
		"${TM[@]}" send-keys -t 0 "$@"
	}
	if wait_for '^\$'; then
		typed 'flashbench -a sim:' Tab Tab
		ok "pty: sim:<TAB><TAB> lists the presets ($(screen | tr '\n' '|'))" \
			wait_for "(^| )usb( |$)"
		ok "pty: sim:<TAB><TAB>: every preset" \
			[ "$(screen | sed 1d | sed '/^\$/d' | tr -s ' ' '\n' | sed '/^$/d' | sort)" = "$presets" ]
		# then X: a space before it is the space completion added
		typed 'flashbench -a sim:u' Tab
		wait_for '^\$ flashbench -a sim:usb' && "${TM[@]}" send-keys -t 0 'X'
		ok "pty: sim:u<TAB> completes sim:usb and a space ($(screen | tr '\n' '|'))" \
			wait_for '^\$ flashbench -a sim:usb X$'
		typed 'flashbench -a sim' Tab
		wait_for '^\$ flashbench -a sim:' && "${TM[@]}" send-keys -t 0 'X'
		ok "pty: sim<TAB>: sim: and no space ($(screen | tr '\n' '|'))" \
			wait_for '^\$ flashbench -a sim:X$'
		typed 'flashbench --queue-depth --engine=' Tab Tab
		ok "pty: --engine=<TAB><TAB>: the engines ($(screen | tr '\n' '|'))" \
			wait_for '^aio +auto +sync +uring$'
		ok "pty: --engine=<TAB><TAB>: no file" not grep -q a-file <<<"$(screen)"
		typed 'flashbench -O --precondition=' Tab Tab
		ok "pty: --precondition=<TAB><TAB>: the modes ($(screen | tr '\n' '|'))" \
			wait_for '^discard +fill +none$'
		ok "pty: --precondition=<TAB><TAB>: no file" not grep -q a-file <<<"$(screen)"
		typed 'flashbench -O --precondition=d' Tab
		wait_for '^\$ flashbench -O --precondition=discard' && "${TM[@]}" send-keys -t 0 'X'
		ok "pty: --precondition=d<TAB>: discard ($(screen | tr '\n' '|'))" \
			wait_for '^\$ flashbench -O --precondition=discard X$'
		typed 'flashbench --form' Tab
		wait_for '^\$ flashbench --format=' && "${TM[@]}" send-keys -t 0 'j' Tab
		wait_for '^\$ flashbench --format=json' && "${TM[@]}" send-keys -t 0 'X'
		ok "pty: --form<TAB>j<TAB>: --format=json ($(screen | tr '\n' '|'))" \
			wait_for '^\$ flashbench --format=json X$'
	else
		fail "pty: no prompt from bash in tmux: $(screen)"
	fi
fi
done_testing
