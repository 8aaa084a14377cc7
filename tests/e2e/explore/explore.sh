#!/usr/bin/env bash
# racegate explore through the real binary on the examples, each case
# chaining what a user does: explore writes a gates file, racegate run
# replays it, --replay runs the failing schedule again.  Run by
# explore.cmake:
#
#   explore.sh CASE RACEGATE BUILD_DIR [ARGS...]
#
# Prints what expect.sh then matches (each command's exit status as
# "CMD exit N"); exits non-zero when a step cannot even be tried.
set -u
case_=$1 rg=$2 build=$3
shift 3
ex=$build/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# find_write_run DIR PROGRAM FILE-OR-LOCS STRATEGY-ARGS...: explore, write,
# run, replay
find_write_run() {
	local dir=$1 name=$2 at=$3
	shift 3
	cd "$dir" || exit 2
	"$rg" explore --at "$at" --schedules 1000 -o "$tmp/repro.yaml" \
		--report "$tmp/r.json" --markdown "$tmp/r.md" "$@" -- "./$name" | tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[0]}"
	# the report's diagram: one mermaid block, a participant per thread
	[ -f "$tmp/r.md" ] && awk '/^```mermaid$/{on = 1; print "markdown: mermaid"; next}
		on && /^```$/{exit} on && /->>/{n++} END{print "markdown: " n+0 " switches"}' "$tmp/r.md"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; return; }
	cat "$tmp/repro.yaml"
	"$rg" run -q --repeat 20 "$tmp/repro.yaml"
	echo "run exit $?"
	id=$(sed -n 's/^  shrunk to \([^ ]*\) .*/\1/p' "$tmp/out")
	[ -n "$id" ] || id=$(sed -n 's/^  failing schedule: \([^ ]*\) .*/\1/p' "$tmp/out")
	"$rg" explore --at "$at" --replay "$id" "$@" -- "./$name"
	echo "replay exit $?"
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
f=r["failures"][0]; print("report:", r["schedules"], "schedules,", f["kind"], f["shrunk_id"])' "$tmp/r.json"
}

case $case_ in
find)
	# EXAMPLE FILE-OR-LOCS ARGS...
	find_write_run "$ex/$1" "$@"
	;;
findin)
	# DIR PROGRAM FILE-OR-LOCS ARGS...
	find_write_run "$@"
	;;
seed)
	# EXAMPLE FILE SEED: two searches with one seed fail at one schedule
	cd "$ex/$1" || exit 2
	for i in 1 2; do
		"$rg" explore --at "$2" --seed "$3" -- "./$1" > "$tmp/s$i"
		sed -n 's/^  failing schedule: \([^ ]*\) .*/\1/p' "$tmp/s$i" > "$tmp/id$i"
	done
	if [ -s "$tmp/id1" ] && cmp -s "$tmp/id1" "$tmp/id2"; then
		echo "same failing schedule: $(cat "$tmp/id1")"
	else
		echo "different: $(cat "$tmp/id1") $(cat "$tmp/id2")"
	fi
	;;
*)
	echo "explore.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
