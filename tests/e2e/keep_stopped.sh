#!/usr/bin/env bash
# keep_stopped.sh RACEGATE SPEC PROGRAM: runs racegate --keep-stopped on a
# spec that ends stuck, checks that the program is left stopped (state T),
# then continues it and checks that it finishes by itself: a breakpoint left
# in its memory would kill it with SIGTRAP before it writes its file.
set -u
rg=$1 spec=$2 prog=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$rg" run --keep-stopped "$spec" -- "$prog" 0 "$dir/done" >"$dir/out" 2>&1
st=$?
cat "$dir/out"
pid=$(sed -n 's/.*gdb -p \([0-9]*\).*/\1/p' "$dir/out" | head -1)
[ -n "$pid" ] || { echo "FAIL: no 'gdb -p PID' in the output"; exit 1; }
[ "$st" -eq 3 ] || { echo "FAIL: exit status $st, expected 3"; kill -9 "$pid"; exit 1; }
state=$(sed 's/.*) \(.\).*/\1/' "/proc/$pid/stat" 2>/dev/null)
echo "state of $pid: $state"
if [ "$state" != T ]; then
	echo "FAIL: the program is not stopped"
	kill -9 "$pid" 2>/dev/null
	exit 1
fi
kill -CONT "$pid"
for _ in $(seq 100); do
	[ -s "$dir/done" ] && break
	sleep 0.1
done
if [ "$(cat "$dir/done" 2>/dev/null)" != ok ]; then
	echo "FAIL: the program did not finish after SIGCONT"
	kill -9 "$pid" 2>/dev/null
	exit 1
fi
echo "continued and finished"
