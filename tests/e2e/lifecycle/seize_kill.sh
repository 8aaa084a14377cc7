#!/usr/bin/env bash
# seize_kill.sh RACEGATE SHIM SPEC: racegate, killed between forking the
# program's child and seizing it (the preloaded SHIM does it), must leave
# no process behind: the child, still racegate's copy waiting for the
# word to exec, sees its pipe closed and ends.
set -u
rg=$1 shim=$2 spec=$3
dir=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
# ASan wants its runtime first; the shim only wraps ptrace
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	LD_PRELOAD=$shim RG_SEIZE_KILL_PIDFILE=$dir/pid "$rg" run "$spec" >"$dir/out" 2>&1
st=$?
echo "racegate exit $st"
[ -s "$dir/pid" ] || { echo "FAIL: the shim saw no PTRACE_SEIZE"; cat "$dir/out"; exit 1; }
pid=$(cat "$dir/pid")
# the orphan is init's to reap: gone, or a zombie, within 10 s
for _ in $(seq 100); do
	state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] && break
	sleep 0.1
done
if [ -n "$state" ] && [ "$state" != Z ]; then
	echo "FAIL: the program's child $pid is still there (state $state): $(tr '\0' ' ' < "/proc/$pid/cmdline")"
	exit 1
fi
pid=
echo "no process left"
