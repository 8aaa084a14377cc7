#!/usr/bin/env bash
# Runs a command and checks its exit status and output.
#
#   expect.sh STATUS [PATTERN...] -- COMMAND [ARGS...]
#
# STATUS is the exit status the command must end with.  Each PATTERN is an
# extended regex that must match a line of the output (stdout and stderr
# together), each on a line after the previous pattern's line: so patterns
# also check order.  A PATTERN starting with '!' must match no line at all.
# The command is killed after 240 s (EXPECT_TIMEOUT seconds when set): a
# hang is a failure, not a stuck CI.
set -u
want=$1; shift
pats=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do pats+=("$1"); shift; done
[ $# -gt 0 ] || { echo "expect.sh: no command" >&2; exit 2; }
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout -k 5 "${EXPECT_TIMEOUT:-240}" "$@" >"$out" 2>&1
got=$?
fail=0
if [ "$got" -ne "$want" ]; then
	echo "FAIL: exit status $got, expected $want" >&2
	fail=1
fi
line=0
for p in "${pats[@]}"; do
	if [ "${p:0:1}" = "!" ]; then
		if grep -qE -- "${p:1}" "$out"; then
			echo "FAIL: output has a line matching '${p:1}':" >&2
			grep -nE -- "${p:1}" "$out" | head -5 >&2
			fail=1
		fi
		continue
	fi
	n=$(tail -n +"$((line + 1))" "$out" | grep -nE -m1 -- "$p" | cut -d: -f1)
	if [ -z "$n" ]; then
		echo "FAIL: no line matching '$p' after line $line" >&2
		fail=1
	else
		line=$((line + n))
	fi
done
if [ "$fail" -ne 0 ]; then
	echo "---- command: $* ----" >&2
	head -c 20000 "$out" >&2
	exit 1
fi
exit 0
