#!/usr/bin/env bash
# pads_insns.sh HOSTILE RACEGATE SPEC BINARY [--no-fastpath]: first makes
# sure that each gate of pads_insns.yaml sits on the instruction it is
# meant for in BINARY (the -O0 build: an asm on a line of its own starts
# the line there; with --any, optimised builds, it only says what is
# there), then runs the spec through pads_hostile.sh (HOSTILE): every
# result right, every pass a hit, each w1 hit: gate acting once.
set -u
hostile=$1 rg=$2 spec=$3 bin=$4
shift 4
strict=1
[ "${1:-}" = --any ] && { strict=0; shift; }
want() {
	case $1 in
	rip) echo '^mov +0x[0-9a-f]+\(%rip\),' ;;
	call) echo '^call ' ;;
	jcc) echo '^jne +[0-9a-f]+ ' ;;
	rep) echo '^rep movsb' ;;
	target) echo '^nop$' ;;
	redzone) echo '^movabs ' ;;
	esac
}
chk=$(mktemp)
trap 'rm -f "$chk"' EXIT
"$rg" check "$spec" -- "$bin" >"$chk" 2>&1 || { cat "$chk"; exit 1; }
bad=0
for g in rip call jcc rep target redzone; do
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
# with pads on, the call and the jcc run from their pads (the -O0 build:
# each is the whole of the jump's 5 bytes, or ends them)
if [ "$strict" = 1 ] && [ "${1:-}" != --no-fastpath ]; then
	"$rg" run --verbose "$spec" -- "$bin" 10 >"$chk" 2>&1
	for g in call jcc; do
		grep -q "gate '$g' at .*: pad\$" "$chk" || {
			echo "FAIL: the site '$g' got no pad"; grep "gate '$g' at" "$chk"; exit 1; }
	done
fi
"$hostile" 1 rip=1 call=1 jcc=1 rep=1 target=1 redzone=1 \
	rip-live=0 call-live=0 jcc-live=0 rep-live=0 target-live=0 redzone-live=0 \
	-- "$rg" run "$@" "$spec" -- "$bin" 1000
