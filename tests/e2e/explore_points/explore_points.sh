#!/usr/bin/env bash
# Scheduling points of racegate explore (docs/explore.md "Scheduling points"
# and "Who can run"), through the real binary.  Run by
# explore_points.cmake:
#
#   explore_points.sh CASE RACEGATE DIR PROGRAM [ARGS...]
#
# Prints what expect.sh then matches (each command's exit status as
# "CMD exit N").
set -u
case_=$1 rg=$2 dir=$3 prog=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

case $case_ in
repro100)
	# explore ARGS..., then the gates file it wrote run 100 times
	"$rg" explore "$@" -o "$tmp/repro.yaml" -- "./$prog"
	echo "explore exit $?"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	"$rg" run -q --repeat 100 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
report)
	# explore ARGS... with a bug report: the gates file, the diagram's
	# notes and arrows (who ran, why the switch), then the file run 20 times
	"$rg" explore "$@" -o "$tmp/repro.yaml" --markdown "$tmp/r.md" -- "./$prog"
	echo "explore exit $?"
	[ -f "$tmp/r.md" ] && grep -E '^    (Note|.*->>)' "$tmp/r.md"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	"$rg" run -q --repeat 20 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
replay20)
	# explore ARGS... finds a failure; --replay of its id, 20 times with two
	# copies running at once (a loaded machine), fails the same way each time
	"$rg" explore "$@" -- "./$prog" > "$tmp/out"
	echo "explore exit $?"
	cat "$tmp/out"
	id=$(sed -n 's/^  shrunk to \([^ ]*\) .*/\1/p' "$tmp/out")
	kind=$(sed -n 's/^racegate explore: FAILED (\([^)]*\)).*/\1/p' "$tmp/out")
	[ -n "$id" ] && [ -n "$kind" ] || { echo "no failure to replay"; exit 0; }
	same=0
	for i in $(seq 10); do
		for c in a b; do
			"$rg" explore "$@" --replay "$id" -- "./$prog" > "$tmp/r$c" &
		done
		wait
		for c in a b; do
			grep -q "^racegate explore: FAILED ($kind)" "$tmp/r$c" && same=$((same + 1))
		done
	done
	echo "replays failing as '$kind': $same/20"
	;;
waits)
	# explore -v ARGS...: how often a thread chosen at a wait was seen
	# inside a futex wait (and given up at once) in the whole search
	n=$("$rg" explore -v "$@" -- "./$prog" 2>&1 >/dev/null | grep -c "reaches no point: it waits in the kernel")
	echo "futex waits seen: $n"
	;;
*)
	echo "explore_points.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
