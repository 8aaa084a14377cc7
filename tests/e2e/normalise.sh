#!/usr/bin/env bash
# The one output normaliser of the e2e drivers: racegate's output on stdin,
# with what changes from one run to the next masked, on stdout, so that two
# runs (pads and --no-fastpath, one worker and three, ...) can be compared.
#
#   normalise.sh [MASK...]
#
# Each MASK names what to mask (times, tids and addresses when none is
# named):
#   times      a duration, "12.345 ms" or "1.2 s", becomes "T":
#              "+12.345 ms" is "+T", "(3.2 ms)" "(T)", "in 1.2 s," "in T,"
#   tids       a thread id: "tid 4242" becomes "tid N"
#   addresses  a hex address: "0x7f3a01c0" becomes "0xADDR"
#   pids       a process id: "pid 4242", "process 4242" become "pid N",
#              "process N"
# A driver names only the masks it needs: what it leaves unmasked is
# compared as printed.
set -u
masks=("$@")
[ ${#masks[@]} -gt 0 ] || masks=(times tids addresses)
expr=()
for m in "${masks[@]}"; do
	case $m in
	times) expr+=(-e 's/[0-9]+[.][0-9]+ (ms|s)\b/T/g') ;;
	tids) expr+=(-e 's/tid [0-9]+/tid N/g') ;;
	addresses) expr+=(-e 's/0x[0-9a-f]+/0xADDR/g') ;;
	pids) expr+=(-e 's/(pid|process) [0-9]+/\1 N/g') ;;
	*) echo "normalise.sh: unknown mask '$m' (times, tids, addresses, pids)" >&2; exit 2 ;;
	esac
done
exec sed -E "${expr[@]}"
