#!/usr/bin/env bash
# trial_attach.sh RACEGATE PROGRAM SPECS TOOLS MODE: racegate attach to
# trial_rounds.c with gates whose order its mutex makes impossible,
# beside an event loop that polls with a timeout.  MODE:
#   fail     SCHEDULE-DEADLOCK, 3, and the note must not claim that every
#            thread is stuck (the event loop is not)
#   release  --on-deadlock release: ORDER-INFEASIBLE, 0, not ENFORCED
#   release_ends  the same with a gate that counts and is never reached
#            (trial_rounds_unreached.yaml), and no --for: the attach ends at
#            the verdict, not when racegate is interrupted (60 s here)
# In both the process goes on untraced, its rounds losing nothing, and its
# code is its file's (tools/text_check.py).
set -u
rg=$1 prog=$2 specs=$3 tools=$4 mode=$5
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "---- racegate ----"; cat "$dir/out" 2>/dev/null; exit 1; }
has() { grep -qE -- "$1" "$dir/out" || fail "no line matching '$1'"; }
hasnt() { ! grep -qE -- "$1" "$dir/out" || fail "a line matches '$1'"; }
rounds() { grep -c '^round' "$dir/prog.out"; }

"$prog" >"$dir/prog.out" 2>&1 &
pid=$!
for _ in $(seq 300); do
	[ "$(rounds)" -ge 2 ] && break
	sleep 0.1
done
[ "$(rounds)" -ge 2 ] || fail "the program did not start its rounds"

spec=$specs/trial_rounds.yaml
[ "$mode" = release_ends ] && spec=$specs/trial_rounds_unreached.yaml
timeout 60 "$rg" attach --on-deadlock "${mode%_ends}" "$pid" "$spec" >"$dir/out" 2>&1
st=$?
cat "$dir/out"
case $mode in
fail)
	[ "$st" = 3 ] || fail "racegate exit status $st, expected 3"
	has "SCHEDULE-DEADLOCK: the held threads wait only on threads that wait on them"
	hasnt "every live thread"
	# the event loop, a bystander: asleep in its epoll_wait, or between two
	has "thread#[0-9]+ +tid [0-9]+ +(sleeping in epoll_wait|running +at trial_rounds\.c:[0-9]+ in event_loop)" ;;
release|release_ends)
	[ "$st" = 0 ] || fail "racegate exit status $st, expected 0"
	has "ORDER-INFEASIBLE: the gated order could not happen: .*released \\(on_deadlock: release\\); racegate let process $pid go on"
	hasnt "ENFORCED" ;;
esac

tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/$pid/status)
[ "$tracer" = 0 ] || fail "the program is still traced (by $tracer)"
before=$(rounds)
for _ in $(seq 300); do
	[ "$(rounds)" -ge $((before + 5)) ] && break
	sleep 0.1
done
[ "$(rounds)" -ge $((before + 5)) ] || fail "the program stopped its rounds"
last=$(tail -n 1 "$dir/prog.out")
n=${last#round } n=${n%% *} c=${last##* }
[ "$c" = $((2 * n + 2)) ] || fail "'$last': a lost count"
python3 "$tools/text_check.py" "$pid" || fail "the program's code is not its file's"
echo "ok: $mode"
