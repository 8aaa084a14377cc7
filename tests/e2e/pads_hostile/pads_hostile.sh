#!/usr/bin/env bash
# pads_hostile.sh EXTRA [GATE=N...] -- RACEGATE run [OPTIONS] SPEC [-- CMD...]
# Runs racegate --verbose (issue 15's hostile tests, with and without
# --no-fastpath) and checks that nothing was lost or doubled: the run
# PASSED; racegate's count of hits at gates equals the program's own count
# of passes ("total passes T" in its output) plus EXTRA (hits at the other
# gated sites), plus at most J when the program prints "slack J" (arrivals
# a signal handler cut off before the pass); each GATE=N names a gate that
# must have acted exactly N times (distinct arrivals in the timeline; 0:
# never); and no `when:` was false or unreadable at any arrival (the
# specs' when: conditions are the program's own pass counts: a hit counted
# wrongly makes one false).
set -u
extra=$1; shift
counts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do counts+=("$1"); shift; done
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rg=$1; shift
timeout -k 5 280 "$rg" "$1" --verbose "${@:2}" >"$out" 2>&1
st=$?
cmd="$rg $1 --verbose ${*:2}"
fail() {
	echo "FAIL: $*"
	echo "---- $cmd ----"
	head -c 20000 "$out"
	exit 1
}
[ "$st" = 0 ] || fail "racegate exit status $st, expected 0"
grep -q ": PASSED: " "$out" || fail "the run did not pass"
total=$(sed -n 's/^total passes \([0-9]*\)$/\1/p' "$out")
[ -n "$total" ] || fail "the program printed no total"
hits=$(sed -n 's/^racegate: \([0-9]*\) breakpoint hits at gates.*/\1/p' "$out")
[ -n "$hits" ] || fail "no count of hits in --verbose"
# "slack J": J arrivals may have been cut off (by a signal handler that
# jumped away or ended the thread) before the pass the program counts
slack=$(sed -n 's/^slack \([0-9]*\)$/\1/p' "$out")
slack=${slack:-0}
if [ "$hits" -lt $((total + extra)) ] || [ "$hits" -gt $((total + extra + slack)) ]; then
	fail "racegate counted $hits hits at gates; the program passed $total times, + $extra elsewhere, + up to $slack cut off"
fi
for c in "${counts[@]}"; do
	g=${c%=*} n=${c#*=}
	# one arrival may have several lines (passed, then opened): count
	# the distinct (time, thread) pairs of the gate's lines
	got=$(grep -E "^ +\+[0-9.]+ ms .* $g +(opened|passed|held|released)" "$out" |
		sed -E 's/^ +(\+[0-9.]+) ms .* tid ([0-9]+) .*/\1 \2/' | sort -u | wc -l)
	[ "$got" = "$n" ] || fail "gate '$g' acted $got times, expected $n"
done
if grep -E "'when' was false at [1-9]|\([1-9][0-9]* unreadable\)" "$out"; then
	fail "a when: was false or unreadable at some arrival"
fi
grep -E "^(thread|total|signals|slack|main)|PASSED|breakpoint hits|pad" "$out"
echo "ok: $total passes, $hits hits"
