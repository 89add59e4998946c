#!/bin/bash
# Issue 14: scripts/flashbench.bash-completion completes the options (all
# of --help), the values of --format and --report, the presets after sim:
# and block devices or files for DEVICE; `complete -p` shows it is set.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$TESTS_DIR/.." && pwd)
COMP=$ROOT/scripts/flashbench.bash-completion

# offers WORD...: what the completion offers for the command line flashbench WORD...
offers() {
	PATH=$(dirname "$FB"):$PATH bash -c '
		source "$1"; shift
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
ok "--format=: text json csv" [ "$(offers --format= "" | tr '\n' ' ')" = "csv json text " ]
ok "--format = j: json (= split off)" [ "$(offers --format = j)" = "json" ]
ok "--report=: full" [ "$(offers --report=)" = "full" ]
presets=$("$FB" --list-sims | sed -n 's/^\([a-z0-9-][a-z0-9-]*\)\t.*/sim:\1/p' | sort)
ok "sim: every preset ($(echo $presets))" [ "$(offers sim:)" = "$presets" ] && [ -n "$presets" ]
ok "sim:u: sim:usb" [ "$(offers sim:u)" = "sim:usb" ]
ok "DEVICE: sim: is offered" grep -qx "sim:" <<<"$(offers -a "")"
dev=$(ls /sys/block | grep -vE '^(ram|zram|dm-)' | head -1)
if [ -n "$dev" ]; then
	ok "DEVICE: block devices (/dev/$dev)" grep -qx "/dev/$dev" <<<"$(offers -a /dev/)"
	ok "DEVICE under /dev: only block devices" not grep -qx "/dev/null" <<<"$(offers -a /dev/)"
fi
touch "$TMP/card.img"
ok "DEVICE: files" grep -qx "$TMP/card.img" <<<"$(offers -a "$TMP/ca")"
ok "--out FILE: files" grep -qx "$TMP/card.img" <<<"$(offers -o "$TMP/ca")"
done_testing
