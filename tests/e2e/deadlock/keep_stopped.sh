#!/usr/bin/env bash
# keep_stopped.sh RACEGATE SPEC STATUS PROGRAM [ARG...]: runs racegate
# --keep-stopped on a spec whose run ends (stuck, timed out) with the
# program still running, ARGs with @DONE@ replaced by a file name.  Checks
# that racegate returns (under timeout: a hang fails) with STATUS, that the
# program is left stopped (every thread in state T) and detached, then
# continues it and checks that it finishes by itself: a breakpoint left in
# its memory would kill it with SIGTRAP before it writes "ok" to @DONE@.
set -u
rg=$1 spec=$2 want=$3
shift 3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=()
for a in "$@"; do args+=("${a//@DONE@/$dir/done}"); done
# --foreground: no process group of its own, which would be orphaned when
# it ends, and the kernel would hang up the stopped program
timeout --foreground -k 5 30 "$rg" run --keep-stopped "$spec" -- "${args[@]}" >"$dir/out" 2>&1
st=$?
cat "$dir/out"
pid=$(sed -n 's/.*gdb -p \([0-9]*\).*/\1/p' "$dir/out" | head -1)
if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
	echo "FAIL: racegate did not return"
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	exit 1
fi
[ -n "$pid" ] || { echo "FAIL: no 'gdb -p PID' in the output"; exit 1; }
[ "$st" -eq "$want" ] || { echo "FAIL: exit status $st, expected $want"; kill -9 "$pid"; exit 1; }
# the SIGSTOP is taken by each thread as it runs again: give them a moment
for _ in $(seq 50); do
	running=
	for t in /proc/"$pid"/task/*; do
		s=$(sed 's/.*) \(.\).*/\1/' "$t/stat" 2>/dev/null)
		[ "$s" = T ] || running="$running ${t##*/}:$s"
	done
	[ -z "$running" ] && break
	sleep 0.1
done
echo "threads of $pid not stopped:${running:- none}"
tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
if [ -n "$running" ] || [ "$tracer" != 0 ]; then
	echo "FAIL: the program is not left stopped and detached (TracerPid ${tracer:-?})"
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
