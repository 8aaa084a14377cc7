#!/usr/bin/env bash
# runkill9.sh RACEGATE DIR THREADS PATTERN -- RUN-ARGS...: `racegate run
# RUN-ARGS` started in DIR is killed with SIGKILL once its program runs
# THREADS threads ("N": exactly N, "N+": N or more) under it and racegate
# has said a line matching PATTERN (empty: none needed); the program must
# die with it (PTRACE_O_EXITKILL), never left running with a breakpoint or
# a pad and no tracer.  Prints "ok: the program died with racegate".
set -u
rg=$1 dir=$2 threads=$3 pattern=$4
shift 4
[ "${1:-}" = -- ] && shift
out=$(mktemp)
pid= rgpid=
cleanup() {
	[ -n "$rgpid" ] && kill -9 "$rgpid" 2>/dev/null
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -f "$out"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	echo "---- racegate ----"; cat "$out" 2>/dev/null
	exit 1
}
enough() {
	case $threads in
	*+) [ "$1" -ge "${threads%+}" ] ;;
	*) [ "$1" = "$threads" ] ;;
	esac
}
(cd "$dir" && exec "$rg" run "$@") >"$out" 2>&1 &
rgpid=$!
# racegate holds the program's output until the end: find the program as
# racegate's child, running its threads
for _ in $(seq 600); do
	pid=$(cat /proc/$rgpid/task/*/children 2>/dev/null | tr ' ' '\n' | grep -m1 .)
	[ -n "$pid" ] && enough "$(ls /proc/$pid/task 2>/dev/null | wc -l)" && break
	sleep 0.1
done
[ -n "$pid" ] || fail "no program under racegate"
sleep 0.5
[ -z "$pattern" ] || grep -qE -- "$pattern" "$out" || fail "no line matching '$pattern'"
grep -q "TracerPid:[[:space:]]*$rgpid" /proc/$pid/status || fail "the program is not traced by racegate"
kill -9 "$rgpid"
wait "$rgpid" 2>/dev/null
rgpid=
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "the program outlived racegate's SIGKILL"
pid=
echo "ok: the program died with racegate"
