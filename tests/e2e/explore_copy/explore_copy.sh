#!/usr/bin/env bash
# explore's fork server against a new exec per schedule.  Run by
# explore_copy.cmake:
#
#   explore_copy.sh CASE RACEGATE DIR [EXPLORE ARGS...]
#
#   same    explore ARGS with --fork-server, then with --no-fork-server:
#           both summaries (times taken out), then "same summaries", or
#           "summaries differ" and the difference
#   killed  explore ARGS in the background; SIGKILL to racegate once it
#           runs a copy; then whether any process of the program is left
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

# The summary without what differs from run to run: times, and the paths
# of files written in $tmp.
summary() {
	sed -E 's/ in [0-9.]+ (s|ms|min)/ in T/; s/ in [0-9]+ min [0-9]+ s/ in T/' "$1"
}

case $case_ in
same)
	"$rg" explore --fork-server "$@" > "$tmp/copy" 2>&1
	echo "fork-server exit $?"
	"$rg" explore --no-fork-server "$@" > "$tmp/exec" 2>&1
	echo "no-fork-server exit $?"
	summary "$tmp/copy" > "$tmp/copy.s"
	summary "$tmp/exec" > "$tmp/exec.s"
	cat "$tmp/copy.s"
	if cmp -s "$tmp/copy.s" "$tmp/exec.s"; then
		echo "same summaries"
	else
		echo "summaries differ"
		diff "$tmp/copy.s" "$tmp/exec.s"
	fi
	;;
killed)
	# the program's name: the first argument after --
	prog=
	for a in "$@"; do
		[ "$a" = -- ] && { prog=next; continue; }
		[ "$prog" = next ] && { prog=$(basename "$a" | cut -c1-15); break; }
	done
	"$rg" explore "$@" > "$tmp/out" 2>&1 &
	pid=$!
	# racegate's children: the template, and a copy (and racegate's own
	# fork that runs it) once schedules run
	for _ in $(seq 200); do
		kids=$(pgrep -P "$pid")
		[ "$(echo "$kids" | wc -w)" -ge 2 ] && break
		sleep 0.05
	done
	kill -KILL "$pid"
	echo "children before: $(echo "$kids" | wc -w)"
	wait "$pid" 2>/dev/null
	pid=
	# racegate's children (a killed one stays a zombie a moment: its
	# reaper is init), and any process of the program
	for _ in $(seq 50); do
		left=$( (echo "$kids"; pgrep -x "$prog") | sort -u | while read -r p; do
			[ -n "$p" ] || continue
			st=$(ps -o stat= -p "$p" | cut -c1)
			[ -n "$st" ] && [ "$st" != Z ] && echo "$p"
		done)
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ -z "$left" ]; then
		echo "program after: gone"
	else
		echo "program after: left ($(ps -o pid=,stat=,cmd= -p "$(echo $left | tr ' ' ,)"))"
		kill -KILL $left
	fi
	;;
*)
	echo "unknown case $case_" >&2
	exit 2
	;;
esac
