#!/usr/bin/env bash
# pads_when_kill.sh RACEGATE SPECDIR: racegate run killed with SIGKILL while
# 8 threads pass a line whose when: condition their pad evaluates: the
# program dies with racegate (PTRACE_O_EXITKILL) and is never left running
# with a pad whose true condition would trap with no tracer (SIGTRAP).
set -u
rg=$1 specs=$2
dir=$(mktemp -d)
rgpid= pid=
cleanup() {
	[ -n "$rgpid" ] && kill -9 "$rgpid" 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	echo "---- racegate ----"; cat "$dir/rg" 2>/dev/null
	exit 1
}
# many rounds: still passing the line when racegate is killed
sed -e 's/"8", "100000", "77777"/"8", "50000000", "49999999"/' \
    "$specs/pads_when_false.yaml" >"$specs/pads_when_kill.yaml"
(cd "$specs" && exec "$rg" run --verbose pads_when_kill.yaml) >"$dir/rg" 2>&1 &
rgpid=$!
for _ in $(seq 600); do
	pid=$(cat /proc/$rgpid/task/*/children 2>/dev/null | tr ' ' '\n' | grep -m1 .)
	[ -n "$pid" ] && [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 9 ] && break
	sleep 0.1
done
[ -n "$pid" ] || fail "no program under racegate"
sleep 0.5
grep -q "when: evaluated in the pad" "$dir/rg" || fail "the condition is not in the pad"
grep -q "TracerPid:[[:space:]]*$rgpid" /proc/$pid/status || fail "the program is not traced by racegate"
kill -9 "$rgpid"
wait "$rgpid" 2>/dev/null
rgpid=
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "the program outlived racegate's SIGKILL"
pid=
echo "ok: the program died with racegate"
