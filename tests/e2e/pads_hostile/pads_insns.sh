#!/usr/bin/env bash
# pads_insns.sh HOSTILE RACEGATE SPEC BINARY [--any] [--padded A,B..] [OPTIONS]:
# the sites are SPEC's gates that have a "-live" twin (pads_insns.yaml,
# pads_short.yaml).  First makes sure that each sits on the instruction it
# is meant for in BINARY (the -O0 build: an asm on a line of its own
# starts the line there; with --any, optimised builds, it only says what
# is there); with pads on, that each site of --padded got a pad; then runs
# the spec through pads_hostile.sh (HOSTILE): every result right, every
# pass a hit, each w1 hit: gate acting once.
set -u
hostile=$1 rg=$2 spec=$3 bin=$4
shift 4
strict=1 padded=
[ "${1:-}" = --any ] && { strict=0; shift; }
[ "${1:-}" = --padded ] && { padded=${2//,/ }; shift 2; }
want() {
	case $1 in
	rip) echo '^mov +0x[0-9a-f]+\(%rip\),' ;;
	call) echo '^call ' ;;
	jcc) echo '^jne +[0-9a-f]+ ' ;;
	rep) echo '^rep movsb' ;;
	target|nopnever) echo '^nop$' ;;
	redzone) echo '^movabs ' ;;
	shortjmp) echo '^jmp +[0-9a-f]+ ' ;;
	brace) echo '^(leave|pop +%rbp)' ;;
	bracenext) echo '^push +%rbp' ;;
	*) echo "no instruction known for the site '$1'" >&2; exit 1 ;;
	esac
}
sites=$(sed -n 's/.*name: \([a-z]*\)-live,.*/\1/p' "$spec")
chk=$(mktemp)
trap 'rm -f "$chk"' EXIT
"$rg" check "$spec" -- "$bin" >"$chk" 2>&1 || { cat "$chk"; exit 1; }
bad=0
counts=()
for g in $sites; do
	counts+=("$g=1" "$g-live=0")
	a=$(awk -v g="$g" '$1 == g && $2 == "at" {f = 1; next} f && $1 ~ /^0x/ {print $1; exit}' "$chk")
	insn=$(objdump -d --no-show-raw-insn --start-address="$a" --stop-address=$((a + 16)) "$bin" |
		sed -n 's/^ *[0-9a-f]*:[[:space:]]*//p' | head -1 | sed 's/[[:space:]]\+/ /g; s/ *#.*//')
	echo "site $g at $a: $insn"
	if [ "$strict" = 1 ] && ! [[ $insn =~ $(want "$g") ]]; then
		echo "FAIL: the site '$g' starts with '$insn', not what the test is for"
		bad=1
	fi
done
[ "$bad" = 0 ] || exit 1
if [ -n "$padded" ] && [ "${1:-}" != --no-fastpath ]; then
	"$rg" run --verbose "$spec" -- "$bin" 10 >"$chk" 2>&1
	for g in $padded; do
		grep -q "gate '$g' at .*: pad\$" "$chk" || {
			echo "FAIL: the site '$g' got no pad"; grep "gate '$g' at" "$chk"; exit 1; }
	done
fi
"$hostile" 1 "${counts[@]}" -- "$rg" run "$@" "$spec" -- "$bin" 1000
