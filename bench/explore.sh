#!/usr/bin/env bash
# racegate explore on the examples: schedules per second, and schedules to
# the first failure per strategy (median over seeds), next to a plain
# loop of runs of the program.
#
#   bench/explore.sh BUILD_DIR [SEEDS]
#
# Prints one line per (example, strategy).  Timing on a shared machine is
# noisy: read the medians, not single runs.
set -u
build=$(cd "${1:?usage: bench/explore.sh BUILD_DIR [SEEDS]}" && pwd) || exit 2
seeds=${2:-9}
rg=$build/racegate
ex=$build/examples

median() { sort -n | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}'; }

# schedules to the first failure of one search, or "none"
first() {
	sed -n 's/.*FAILED .* after \([0-9]*\) schedule.*/\1/p; s/.*no failure after .*/none/p'
}

for e in lost_update:lost_update.c abba_deadlock:abba_deadlock.c \
	 array_list:array_list.c shared_memory:shared_memory.c; do
	name=${e%%:*} file=${e#*:}
	cd "$ex/$name" || exit 1
	# a plain loop: how often does the program fail by itself?
	fails=0
	for i in $(seq 1 200); do timeout 10 "./$name" >/dev/null 2>&1 || fails=$((fails + 1)); done
	echo "$name: plain runs: $fails failures in 200"
	for s in random pct dfs; do
		n=$seeds
		[ "$s" = dfs ] && n=1   # dfs has no seed: one search says it all
		ns=$(for seed in $(seq 1 "$n"); do
			"$rg" explore --at "$file" --strategy "$s" --seed "$seed" \
				--schedules 1000 -- "./$name" | first
		done | grep -v none | median)
		echo "$name: $s: median schedules to the first failure: $ns"
	done
	# throughput on the fixed variant (no failure: every schedule runs)
	t0=$(date +%s.%N)
	"$rg" explore --at "$file" --schedules 200 -- "./$name-fixed" >/dev/null
	t1=$(date +%s.%N)
	echo "$name: $(echo "200 / ($t1 - $t0)" | bc -l | cut -c1-5) schedules/s (fixed variant, random)"
	cd - >/dev/null || exit 1
done
