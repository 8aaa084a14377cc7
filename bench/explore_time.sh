#!/usr/bin/env bash
# explore's time under serialisation: schedules per second with and without
# --virtual-time, alternating in the same run, on programs whose threads
# sleep in loops, next to plain runs of the same program.
#
#   bench/explore_time.sh BUILD_DIR [SCHEDULES] [ROUNDS]
#
# Programs: tests/e2e/explore_time/explore_sleepers.c fixed (a housekeeper
# sleeping 50 ms, a poller waiting 20 ms at a time, an epoll loop with a
# 100 ms timeout, two workers) and examples/kv_server's fixed variant
# --drive, its whole source file (SCHEDULES / 10 schedules: without
# --virtual-time each takes seconds).  SCHEDULES defaults to 20, ROUNDS to
# 3; prints a Markdown table of medians and the ratios.  Timing on a
# shared machine is noisy: the ratio is what to read.
set -u
build=$(cd "${1:?usage: bench/explore_time.sh BUILD_DIR [SCHEDULES] [ROUNDS]}" && pwd) || exit 2
n=${2:-20}
rounds=${3:-3}
rg=$build/racegate

now() { date +%s.%N; }
median() { sort -g | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}'; }

# seconds for one explore of n schedules: NAME then the explore arguments
timed() {
	local t0 t1
	t0=$(now)
	"$rg" explore "$@" >/dev/null 2>&1 </dev/null
	t1=$(now)
	echo "$t1 - $t0" | bc -l
}

row() {
	local name=$1 n=$2 dir=$3 at=$4 prog=$5 real virt plain r i t0
	shift 5
	real=() virt=() plain=()
	for r in $(seq 1 "$rounds"); do
		cd "$dir" || exit 2
		virt+=("$(timed --virtual-time --at "$at" --schedules "$n" --timeout 60s -- "$prog" "$@")")
		real+=("$(timed --no-virtual-time --at "$at" --schedules "$n" --timeout 60s -- "$prog" "$@")")
		t0=$(now)
		for i in $(seq 1 "$n"); do "$prog" "$@" >/dev/null 2>&1 </dev/null; done
		plain+=("$(echo "$(now) - $t0" | bc -l)")
	done
	real=$(printf '%s\n' "${real[@]}" | median)
	virt=$(printf '%s\n' "${virt[@]}" | median)
	plain=$(printf '%s\n' "${plain[@]}" | median)
	printf '| %s | %.2f | %.2f | %.2f | %.1fx | %.2f |\n' "$name" \
		"$(echo "$n / $real" | bc -l)" "$(echo "$n / $virt" | bc -l)" \
		"$(echo "$n / $plain" | bc -l)" "$(echo "$real / $virt" | bc -l)" \
		"$(echo "$plain / $virt" | bc -l)"
}

echo "| program | schedules/s | --virtual-time | plain runs/s | speed-up | plain / virtual |"
echo "|---|---|---|---|---|---|"
row explore_sleepers_fixed "$n" "$build/tests/e2e" explore_sleepers.c ./explore_sleepers_fixed
row "kv_server-fixed --drive" $((n / 10 > 1 ? n / 10 : 2)) "$build/examples/kv_server" \
	kv_server.c ./kv_server-fixed --drive
