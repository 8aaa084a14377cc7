#!/usr/bin/env bash
# racegate explore's search and what it hands back, through the real
# binary: dfs shards, --expect FILE, the trace and the report.  Run by
# tests/e2e/explore_search.cmake:
#
#   explore_search.sh RACEGATE BUILD_DIR CASE [ARGS...]
#
# Prints what expect.sh then matches; exits non-zero when a step cannot
# even be tried.
set -u
rg=$1 build=$2 case_=$3
shift 3
ex=$build/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The schedule count of a summary line on stdin.
count() { sed -n 's/^racegate explore: .* after \([0-9]*\) schedules\{0,1\} .*/\1/p'; }

case $case_ in
shards)
	# DIR PROGRAM N ARGS...: one dfs search, then N shards of it; their
	# schedule counts add up to the one search's, and each ran to its end
	dir=$1 prog=$2 n=$3
	shift 3
	cd "$dir" || exit 2
	"$rg" explore --strategy dfs "$@" -- "./$prog" > "$tmp/all"
	echo "whole exit $?"
	cat "$tmp/all"
	whole=$(count < "$tmp/all")
	sum=0 ends=0
	for ((i = 0; i < n; i++)); do
		"$rg" explore --strategy dfs --shard "$i/$n" "$@" -- "./$prog" > "$tmp/s$i"
		echo "shard $i exit $?"
		cat "$tmp/s$i"
		sum=$((sum + $(count < "$tmp/s$i")))
		grep -q "^  every schedule of shard $i/$n with" "$tmp/s$i" && ends=$((ends + 1))
	done
	echo "schedules: whole $whole, shards $sum, shards ended $ends/$n"
	;;
*)
	echo "explore_search.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
