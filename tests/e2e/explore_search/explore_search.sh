#!/usr/bin/env bash
# racegate explore's search and what it hands back, through the real
# binary: dfs shards, --expect FILE, the trace and the report.  Run by
# explore_search.cmake:
#
#   explore_search.sh RACEGATE BUILD_DIR CASE [ARGS...]
#
# Prints what expect.sh then matches; exits non-zero when a step cannot
# even be tried.
set -u
rg=$1 build=$2 case_=$3
shift 3
ex=$build/examples
normalise=$(dirname "$0")/../normalise.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The schedule count of a summary line on stdin.
count() { sed -n 's/^racegate explore: .* after \([0-9]*\) schedules\{0,1\} .*/\1/p'; }

case $case_ in
shards)
	# DIR PROGRAM N ARGS...: one dfs search, then N shards of it; their
	# schedule counts add up to the one search's, and each ran to its end.
	# A tree is the same in every search only when the program replays
	# its prefixes; on a machine loaded enough that a new thread misses
	# its first point's deadline it does not, so a mismatch is tried once
	# more (the model's test, check_explore, is exact).
	dir=$1 prog=$2 n=$3
	shift 3
	cd "$dir" || exit 2
	for attempt in 1 2; do
	"$rg" explore --strategy dfs "$@" -- "./$prog" > "$tmp/all"
	echo "whole exit $?"
	cat "$tmp/all"
	whole=$(count < "$tmp/all")
	whole=${whole:-none}
	sum=0 ends=0
	for ((i = 0; i < n; i++)); do
		"$rg" explore --strategy dfs --shard "$i/$n" "$@" -- "./$prog" > "$tmp/s$i"
		echo "shard $i exit $?"
		cat "$tmp/s$i"
		c=$(count < "$tmp/s$i")
		sum=$((sum + ${c:-0}))
		grep -q "^  every schedule of shard $i/$n with" "$tmp/s$i" && ends=$((ends + 1))
	done
	[ "$whole" = "$sum" ] && [ "$ends" = "$n" ] && break
	echo "attempt $attempt: whole $whole, shards $sum, shards ended $ends/$n"
	done
	echo "schedules: whole $whole, shards $sum, shards ended $ends/$n"
	;;
hang)
	# DIR PROGRAM ARGS...: a schedule that hangs is written with expect:
	# {timeout: true}, which racegate run then judges REPRODUCED
	dir=$1 prog=$2
	shift 2
	cd "$dir" || exit 2
	"$rg" explore -o "$tmp/repro.yaml" "$@" -- "./$prog"
	echo "explore exit $?"
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	"$rg" run --repeat 2 "$tmp/repro.yaml"
	echo "run exit $?"
	;;
jobs)
	# DIR PROGRAM J ARGS...: the same search one schedule at a time and J at
	# once: the same summary counts and the same failing schedule
	dir=$1 prog=$2 j=$3
	shift 3
	cd "$dir" || exit 2
	for n in 1 "$j"; do
		"$rg" explore --jobs "$n" "$@" -- "./$prog" > "$tmp/j$n"
		echo "jobs $n exit $?"
		cat "$tmp/j$n"
		# the summary without its time (masked by normalise.sh), the failing id
		"$normalise" times < "$tmp/j$n" |
			sed -n -e 's/^racegate explore: \(.*\) in T, \(.*\)/\1, \2/p' \
				-e 's/^  failing schedule: \([^ ]*\) .*/\1/p' > "$tmp/k$n"
	done
	if [ -s "$tmp/k1" ] && cmp -s "$tmp/k1" "$tmp/k$j"; then
		echo "same with --jobs 1 and $j: $(tr '\n' ' ' < "$tmp/k1")"
	else
		echo "different"
	fi
	;;
found)
	# DIR PROGRAM ARGS...: explore writes the gates file, its trace and
	# report; racegate run replays the file 100 times; both JSON files
	# load, and say what they should
	dir=$1 prog=$2
	shift 2
	cd "$dir" || exit 2
	"$rg" explore -o "$tmp/repro.yaml" --report "$tmp/r.json" --trace "$tmp/t.json" \
		"$@" -- "./$prog" | tee "$tmp/out"
	echo "explore exit ${PIPESTATUS[0]}"
	sed -n 's/^  gates: \([0-9]*\) .*, \([0-9]*\) the failure needs .*/\1 \2/p' "$tmp/out" |
		while read -r before after; do
			[ "$after" -lt "$before" ] && echo "gates: fewer ($before -> $after)"
			[ "$after" -eq "$before" ] && echo "gates: as many ($before)"
		done
	[ -f "$tmp/repro.yaml" ] || { echo "no gates file"; exit 0; }
	cat "$tmp/repro.yaml"
	echo
	echo "gates in the file: $(grep -c '^  - {name: ' "$tmp/repro.yaml")"
	"$rg" run -q --repeat 100 "$tmp/repro.yaml"
	echo "run exit $?"
	python3 - "$tmp/r.json" "$tmp/t.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for f in r["failures"]:
    print("report:", f["kind"], "gates", f["gates"], "of", f["gates_unshrunk"],
          "deviations", f["deviations"], "reproduced", f["reproduced"], "of",
          f["replays"], "trace", "yes" if f["trace"] else "no")
t = json.load(open(sys.argv[2]))
ev = t["traceEvents"]
print("trace:", len(ev), "events,",
      sum(1 for e in ev if e.get("cat") == "held"), "holds,",
      sum(1 for e in ev if e.get("ph") == "s"), "flows,",
      ", ".join(sorted({e["args"]["name"] for e in ev if e.get("name") == "process_name"})))
PY
	;;
*)
	echo "explore_search.sh: unknown case '$case_'" >&2
	exit 2
	;;
esac
exit 0
