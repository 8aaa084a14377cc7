#!/usr/bin/env bash
# The whole done-when matrix of racegate explore: every example, every
# strategy, seed 1, at most 1,000 schedules from `--at` alone; the gates
# file explore writes, run 100 times.  tests/e2e/explore_examples/explore_examples.cmake
# keeps one strategy per example; this runs all of them (about 15 minutes
# on a loaded 2-core machine).
#
#   bench/explore_matrix.sh BUILD_DIR [EXAMPLE...]
#
# STRATEGIES="dfs" (say) runs only those strategies.
#
# One line per (example, strategy): explore's status and time, its summary
# line, what it wrote, and racegate run's tally.
set -u
build=$(cd "${1:?usage: bench/explore_matrix.sh BUILD_DIR [EXAMPLE...]}" && pwd) || exit 2
shift
rg=$build/racegate
ex=$build/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME|PROGRAM|--at|PROGRAM ARGS[|OPTIONS] (as bench/explore.sh)
all=(
	"lost_update|lost_update|lost_update.c|"
	"abba_deadlock|abba_deadlock|abba_deadlock.c|"
	"array_list|array_list|array_list.c|"
	"shared_memory|shared_memory|shared_memory.c|"
	"string_buffer|string_buffer|sbuf.c|"
	"ledger|bank|ledger.c|"
	"hoisted_count|hoisted_count|hoisted_count.c|"
	"lost_count|lost_count|lost_count.c:19,lost_count.c:19+1,lost_count.c:19+2|"
	"bounded_queue|bounded_queue|bounded_queue.c|3"
	"long_task|long_task|long_task.c|"
	"kv_server|kv_server|handle_incr,incr_apply,handle_del|--drive"
	"job_queue|job_queue|job_queue.c|"
	"busy_flag|busy_flag|busy_flag.c|"
	"payment_ring|payment_ring|payment_ring.c|"
	"prefork_slots|prefork_slots|prefork_slots.c||--follow-fork"
	"exit_flush|exit_flush|exit_flush.c|"
	"ticket_lock|ticket_lock|ticket_lock.c|"
	"mc_workers|mc_workers|mc_workers.c|--drive"
)

for e in "${all[@]}"; do
	IFS='|' read -r name prog at args opts <<< "$e"
	if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then
		continue
	fi
	for s in ${STRATEGIES:-random pct dfs}; do
		cd "$ex/$name" || exit 1
		rm -f "$tmp/repro.yaml"
		t0=$(date +%s.%N)
		# shellcheck disable=SC2086
		out=$(timeout 600 "$rg" explore --at "$at" --strategy "$s" --seed 1 \
			--schedules 1000 --timeout 30s $opts -o "$tmp/repro.yaml" -- "./$prog" $args 2>&1)
		st=$?
		t1=$(date +%s.%N)
		sum=$(echo "$out" | grep -E "^racegate explore: " | head -1 | sed 's/^racegate explore: //')
		# a file written after "the shrunk schedule's gates file reproduced ...;
		# the schedule as found ... instead" is the one found's, which did
		# reproduce
		wrote=$(echo "$out" | grep -E "wrote .*reproduced" | head -1 | sed 's/^ *//')
		[ -n "$wrote" ] ||
			wrote=$(echo "$out" | grep -E "no gates file" | head -1 | sed 's/^ *//')
		ran="-"
		[ -f "$tmp/repro.yaml" ] &&
			ran=$("$rg" run -q --repeat 100 "$tmp/repro.yaml" 2>&1 | tail -1 | sed 's/^racegate: //')
		printf '%s %s: exit %s, %.0f s | %s | %s | %s\n' "$name" "$s" "$st" \
			"$(echo "$t1 - $t0" | bc)" "$sum" "$wrote" "$ran"
		cd - >/dev/null || exit 1
	done
done
