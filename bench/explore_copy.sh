#!/usr/bin/env bash
# explore's fork server: schedules per second with it and with a new exec
# per schedule (--no-fork-server), alternating in the same run, next to
# plain runs of the same program (docs/explore.md, "The fork server").
#
#   bench/explore_copy.sh BUILD_DIR [SCHEDULES] [ROUNDS]
#
# Programs: examples/lost_update's fixed variant (--at its source file),
# bench/heavystart.c (five shared libraries to load and relocate, then two
# threads under a mutex), and bench/big when it was built (`cmake --build
# BUILD --target bench_big`: 10 MB of -g code, racegate's memory is large).
# Each search's start (reading the program's DWARF, the template) is the
# same with or without: it is measured with 1 schedule and taken off.
# SCHEDULES defaults to 300, ROUNDS to 3; prints a Markdown table of medians
# and the ratios.  Timing on a shared machine is noisy: read the ratios.
set -u
build=$(cd "${1:?usage: bench/explore_copy.sh BUILD_DIR [SCHEDULES] [ROUNDS]}" && pwd) || exit 2
n=${2:-300}
rounds=${3:-3}
rg=$build/racegate

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}'; }

# seconds for one explore: its arguments
timed() {
	local t0
	t0=$(now)
	"$rg" explore "$@" >/dev/null 2>&1 </dev/null
	echo "$(now) - $t0" | bc -l
}

# seconds per schedule: a search of n schedules less one of 1 (the
# arguments: the explore options, then -- and the program)
per_schedule() {
	local one many
	one=$(timed --schedules 1 "$@")
	many=$(timed --schedules "$n" "$@")
	echo "($many - $one) / ($n - 1)" | bc -l
}

row() {
	local name=$1 dir=$2 at=$3 prog=$4 copy exec plain r i t0
	copy=() exec=() plain=()
	cd "$dir" || exit 2
	for r in $(seq 1 "$rounds"); do
		copy+=("$(per_schedule --fork-server --at "$at" -- "$prog")")
		exec+=("$(per_schedule --no-fork-server --at "$at" -- "$prog")")
		t0=$(now)
		for i in $(seq 1 "$n"); do "$prog" >/dev/null 2>&1 </dev/null; done
		plain+=("$(echo "($(now) - $t0) / $n" | bc -l)")
	done
	copy=$(printf '%s\n' "${copy[@]}" | median)
	exec=$(printf '%s\n' "${exec[@]}" | median)
	plain=$(printf '%s\n' "${plain[@]}" | median)
	printf '| %s | %.0f | %.0f | %.0f | %.2fx | %.2fx |\n' "$name" \
		"$(echo "1 / $copy" | bc -l)" "$(echo "1 / $exec" | bc -l)" \
		"$(echo "1 / $plain" | bc -l)" "$(echo "$exec / $copy" | bc -l)" \
		"$(echo "$plain / $copy" | bc -l)"
}

echo "| program | schedules/s, fork server | exec per schedule | plain runs/s | fork server / exec | / plain runs |"
echo "|---|---|---|---|---|---|"
row lost_update-fixed "$build/examples/lost_update" lost_update.c ./lost_update-fixed
row heavystart "$build/bench" heavystart.c ./heavystart
[ -x "$build/bench/big/big" ] && row "big (10 MB)" "$build/bench/big" big_main.c ./big
exit 0
