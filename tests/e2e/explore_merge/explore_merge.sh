#!/usr/bin/env bash
# racegate explore --merge through the real binary: N shards of one search
# run as N racegate processes at once, their reports merged, against the
# same search unsharded; and reports that are not one search's.  Run by
# explore_merge.cmake:
#
#   explore_merge.sh RACEGATE DIR PROGRAM CASE N ARGS...
#
# Prints what expect.sh then matches; exits non-zero when a step cannot
# even be tried.
set -u
rg=$1 dir=$2 prog=$3 case_=$4 n=$5
shift 5
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
cd "$dir" || exit 2

# "SCHEDULES DISTINCT ID" of a summary on stdin (ID: none when no failure).
sums() {
	sed -n 's/^racegate explore: .* after \([0-9]*\) schedules\{0,1\} (\([0-9]*\) distinct.*/\1 \2/p' "$1"
	id=$(sed -n 's/^  failing schedule: \([^ ]*\) .*/\1/p' "$1")
	echo "${id:-none}"
}

# The N shards, each its own racegate process, all at once.
shards() {
	pids=()
	for ((i = 0; i < n; i++)); do
		"$rg" explore -q "$@" --shard "$i/$n" --report "$tmp/shard-$i.json" \
			-- "./$prog" > "$tmp/out-$i" 2>&1 &
		pids+=($!)
	done
	for ((i = 0; i < n; i++)); do
		wait "${pids[$i]}"
		echo "shard $i/$n exit $?"
	done
	pids=()
}

case $case_ in
same)
	# the merged summary is the unsharded search's: with no failure the
	# schedules and distinct interleavings, with one the failing id.  A
	# dfs tree is the same in every search only when the program replays
	# its prefixes; on a loaded machine it may not, so a mismatch is tried
	# once more
	for attempt in 1 2; do
		"$rg" explore "$@" -- "./$prog" > "$tmp/whole"
		echo "whole exit $?"
		cat "$tmp/whole"
		shards "$@"
		"$rg" explore --merge "$tmp"/shard-*.json --report "$tmp/merged.json" > "$tmp/merged"
		echo "merge exit $?"
		cat "$tmp/merged"
		read -r -d '' w < <(sums "$tmp/whole" | tr '\n' ' ')
		read -r -d '' m < <(sums "$tmp/merged" | tr '\n' ' ')
		if grep -q '^  failing schedule' "$tmp/whole"; then
			w=${w##* } m=${m##* }      # the id alone: shards run on past it
		fi
		[ "$w" = "$m" ] && break
		echo "attempt $attempt: whole $w, merged $m"
	done
	echo "whole: $w"
	echo "merged: $m"
	[ "$w" = "$m" ] && echo "the merged summary is the unsharded search's"
	python3 - "$tmp/merged.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = r["failures"]
print("report: schedules %d distinct %d shards %d failure %s" % (r["schedules"],
      r["distinct"], len(r["merged"]), f[0]["id"] + " of shard %d" % f[0]["shard"] if f else "none"))
PY
	;;
write)
	# a failure found by a shard: the merge replays it into a gates file,
	# which racegate run reproduces
	shards "$@"
	"$rg" explore --merge "$tmp"/shard-*.json -o "$tmp/repro.yaml" --verify 5 -- "./$prog"
	echo "merge exit $?"
	"$rg" run -q --repeat 20 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
errors)
	# reports that are not the N shards of one search: exit 2, saying why
	shards "$@"
	cp "$tmp/shard-0.json" "$tmp/again.json"
	"$rg" explore -q "$@" --seed 7 --shard 1/$n --report "$tmp/other-seed.json" \
		-- "./$prog" > /dev/null
	"$rg" explore -q "$@" --shard 1/$((n + 1)) --report "$tmp/other-split.json" \
		-- "./$prog" > /dev/null
	printf '{"command": "explore", "schedules": 3,\n "distinct" 3}' > "$tmp/broken.json"
	m() { "$rg" explore --merge "$@" 2>&1 | sed "s|$tmp/||g"; echo "exit ${PIPESTATUS[0]}"; }
	m "$tmp"/shard-0.json "$tmp"/shard-2.json
	m "$tmp"/shard-[0-2].json "$tmp/again.json"
	m "$tmp/shard-0.json" "$tmp/other-seed.json" "$tmp/shard-2.json"
	m "$tmp/shard-0.json" "$tmp/other-split.json"
	m "$tmp/shard-0.json" "$tmp/broken.json"
	m "$tmp/shard-0.json" "$tmp/none.json"
	m
	;;
esac
