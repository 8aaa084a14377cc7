#!/usr/bin/env bash
# racegate explore within --time, interrupted, and on a program whose main
# returns while a thread it left is about to fail.  Run by
# explore_budget.cmake:
#
#   explore_budget.sh CASE RACEGATE DIR [EXPLORE ARGS...]
#
#   write   explore -o r.yaml ARGS, then the file and 20 runs of it
#   sigint  explore -o r.yaml ARGS in the background; SIGINT once its
#           replays of the file have begun; then the file and 5 runs of it
#
# DIR holds the programs.  Prints what expect.sh then matches ("STEP exit
# N" for each command); kills what it starts, also when it fails.
set -u
case_=$1 rg=$2 dir=$3
shift 3
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

# The file explore wrote: its header and gates, then N runs of it.
show_file() {
	[ -f "$tmp/r.yaml" ] || { echo "no gates file"; return; }
	grep -E '^#|^  - \{name' "$tmp/r.yaml"
	"$rg" run "$tmp/r.yaml" --repeat "$1" 2>&1 | tail -1
	echo "run exit ${PIPESTATUS[0]}"
}

case $case_ in
write)
	"$rg" explore -o "$tmp/r.yaml" "$@" 2>&1
	echo "explore exit $?"
	show_file 20
	;;
sigint)
	# job control: a background job of a script would ignore SIGINT
	set -m
	"$rg" explore -o "$tmp/r.yaml" "$@" > "$tmp/out" 2>&1 &
	pid=$!
	# the replays of the file begin once the replay line is out
	for _ in $(seq 1200); do
		grep -q '^  replay: ' "$tmp/out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	sleep 1
	kill -INT "$pid"
	wait "$pid"
	echo "explore exit $?"
	pid=
	cat "$tmp/out"
	show_file 5
	;;
*)
	echo "unknown case '$case_'"
	exit 2
	;;
esac
