#!/usr/bin/env bash
# racegate explore on every example: schedules to the first failure per
# strategy (median over seeds, and how many seeds found it within 1,000
# schedules), next to a plain loop of runs of the program with no racegate,
# and the schedules per second of a search of the fixed variant.
#
#   bench/explore.sh BUILD_DIR [SEEDS] [EXAMPLE...]
#
# SEEDS defaults to 11; dfs has no seed and runs once (its default bound,
# 2 preemptions).  Prints a Markdown table (bench/README.md has one) and,
# on stderr, one line per search as it goes.  Timing on a shared machine is
# noisy: read the medians, not single runs.
set -u
build=$(cd "${1:?usage: bench/explore.sh BUILD_DIR [SEEDS] [EXAMPLE...]}" && pwd) || exit 2
seeds=${2:-11}
shift $(($# < 2 ? $# : 2))
rg=$build/racegate
ex=$build/examples
plain_runs=200

# NAME|PROGRAM|--at|PROGRAM ARGS[|--at OF THE FIXED VARIANT[|OPTIONS]]:
# what explore needs for each example (the fixed count++ of lost_count is
# one locked instruction: it has no +2 to put a point at; prefork_slots's
# threads are in a forked child)
all=(
	"lost_update|lost_update|lost_update.c|"
	"abba_deadlock|abba_deadlock|abba_deadlock.c|"
	"array_list|array_list|array_list.c|"
	"shared_memory|shared_memory|shared_memory.c|"
	"string_buffer|string_buffer|sbuf.c|"
	"ledger|bank|ledger.c|"
	"hoisted_count|hoisted_count|hoisted_count.c|"
	"lost_count|lost_count|lost_count.c:19,lost_count.c:19+1,lost_count.c:19+2||lost_count.c"
	"bounded_queue|bounded_queue|bounded_queue.c|3"
	"long_task|long_task|long_task.c|"
	"kv_server|kv_server|kv_server.c|--drive"
	"job_queue|job_queue|job_queue.c|"
	"busy_flag|busy_flag|busy_flag.c|"
	"payment_ring|payment_ring|payment_ring.c|"
	"prefork_slots|prefork_slots|prefork_slots.c|||--follow-fork"
	"exit_flush|exit_flush|exit_flush.c|"
	"ticket_lock|ticket_lock|ticket_lock.c|"
	"mc_workers|mc_workers|mc_workers.c|--drive"
)

median() { sort -n | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "-"}'; }

# schedules to the first failure of one search; "none" when it found
# none, and "none" too when no schedule ran to its end (every one timed
# out: a search that never ran the program through found nothing)
first() {
	sed -n -e 's/.*FAILED .* after \([0-9]*\) schedule.*/\1/p' \
		-e 's/.*no failure after .*/none/p' \
		-e 's/.*no schedule completed after .*/none/p'
}

# one strategy's cell: "median (found/searches)"
cell() {
	local at=$1 prog=$2 args=$3 s=$4 n=$5 found r
	r=$(for seed in $(seq 1 "$n"); do
		# shellcheck disable=SC2086
		"$rg" explore --at "$at" --strategy "$s" --seed "$seed" --schedules 1000 \
			$opts -- "./$prog" $args 2>/dev/null | first
	done)
	echo "  $s: $(echo $r)" >&2
	found=$(echo "$r" | grep -cv none)
	echo "$(echo "$r" | grep -v none | median) ($found/$n)"
}

echo "| example | plain runs failing | random | pct | dfs | schedules/s (fixed) |"
echo "|---|---|---|---|---|---|"
for e in "${all[@]}"; do
	IFS='|' read -r name prog at args fixed_at opts <<< "$e"
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	cd "$ex/$name" || exit 1
	echo "$name" >&2
	fails=0
	for i in $(seq 1 $plain_runs); do
		# shellcheck disable=SC2086
		timeout 10 "./$prog" $args >/dev/null 2>&1 || fails=$((fails + 1))
	done
	r=$(cell "$at" "$prog" "$args" random "$seeds")
	p=$(cell "$at" "$prog" "$args" pct "$seeds")
	d=$(cell "$at" "$prog" "$args" dfs 1)
	# throughput on the fixed variant (no failure: every schedule runs)
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$rg" explore --at "${fixed_at:-$at}" --schedules 100 $opts -- "./$prog-fixed" $args \
		>/dev/null 2>&1
	t1=$(date +%s.%N)
	echo "| $name | $fails / $plain_runs | $r | $p | $d | $(echo "100 / ($t1 - $t0)" | bc -l | cut -c1-5) |"
	cd - >/dev/null || exit 1
done
