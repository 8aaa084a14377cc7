# The examples, as a user runs them: each buggy program reproduces in 100
# runs of 100, and each fixed variant is judged under the same gates.
set(EX ${EXAMPLES})

foreach(ex shared_memory string_buffer array_list lost_update)
  racegate_e2e(${ex}_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
    -- ${RG} run --repeat 100 ${EX}/${ex}/gates.yaml)
endforeach()
# long_task's spec turns a flaky test into a deterministic pass.
racegate_e2e(long_task_passes_100_of_100 0 "100 runs: 100 PASSED$"
  -- ${RG} run --repeat 100 ${EX}/long_task/gates.yaml)

# One run each, with the order the timeline must show.
# worker2 may even have exited before worker1 arrives (then worker1 just
# passes): what must hold is that worker1 goes on only after exited:w2.
racegate_e2e(shared_memory_timeline 0 "result = -10"
  "REPRODUCED"
  "w2 +tid [0-9]+ .*opened exited:w2"
  "w1 +tid [0-9]+ +shared_memory.c:23 +worker1-store +(passed|released after)"
  -- ${RG} run ${EX}/shared_memory/gates.yaml)
# Causal order only: main may reach each of its lines before or after the
# appender opened the event, so "held" lines may or may not appear.
racegate_e2e(string_buffer_timeline 0 "REPRODUCED"
  "appender .*sbuf.c:131 +length-read +opened afterget"
  "main .*string_buffer.c:48 +truncated +opened afterset"
  "appender .*sbuf.c:138 +copy-after-set +(passed|released after)"
  -- ${RG} run ${EX}/string_buffer/gates.yaml)
racegate_e2e(array_list_timeline 0 "list corrupted" "REPRODUCED"
  "array_list.c:59 +copied-not-counted +held: at barrier"
  "array_list.c:59 +copied-not-counted +passed"
  "copied-not-counted +released after"
  -- ${RG} run ${EX}/array_list/gates.yaml)
racegate_e2e(lost_update_timeline 0 "counter = 1" "REPRODUCED"
  "lost_update.c:23 +w[12]-store +held: waiting for w[12]-loaded"
  "lost_update.c:23 +w[12]-store +opened w[12]-loaded"
  "w[12]-store +released after"
  -- ${RG} run ${EX}/lost_update/gates.yaml)
racegate_e2e(long_task_timeline 0 "task done" "PASSED"
  "task +tid [0-9]+ +long_task.c:45 +task-finished +opened task-done"
  -- ${RG} run ${EX}/long_task/gates.yaml)

# Fixed variants under the same gates.
# string_buffer's fix snapshots the source under its lock, outside the gated
# lines: every gate still fires and the bug does not happen.
racegate_e2e(string_buffer_fixed_not_reproduced 1 "NOT-REPRODUCED: expected exit 1, got exit 0"
  "!NOT-ENFORCED" "truncated +opened afterset"
  -- ${RG} run ${EX}/string_buffer/gates.yaml -- ${EX}/string_buffer/string_buffer-fixed)
racegate_e2e(long_task_fixed_passes 0 "PASSED"
  -- ${RG} run ${EX}/long_task/gates.yaml -- ${EX}/long_task/long_task-fixed)
# The other fixes make the gated order impossible: the thread the gate
# holds owns (or must first pass) the lock the other thread waits for, so
# every thread ends up held or blocked for ever: SCHEDULE-DEADLOCK, with the
# holder of the lock named, well before the spec's timeout.
racegate_e2e(shared_memory_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "w2 +tid [0-9]+ +blocked: waits (for mutex 'lock', held by w1|on condition variable 'ready_cv')"
  "wait-for chain: .*w1 (holds mutex 'lock' \\(shared_memory.c:23\\) and )?is held at gate worker1-store waiting for exited:w2"
  "worker1-store +held: waiting for exited:w2" "!REPRODUCED"
  -- ${RG} run ${EX}/shared_memory/gates.yaml -- ${EX}/shared_memory/shared_memory-fixed)
racegate_e2e(array_list_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "worker#[12] +tid [0-9]+ +(held at gate 'copied-not-counted': at barrier|blocked: waits for mutex .*, held by worker#[12])"
  "wait-for chain: .*worker#[12] holds mutex .* and is held at gate copied-not-counted at barrier"
  "copied-not-counted +held: at barrier" "!REPRODUCED"
  -- ${RG} run ${EX}/array_list/gates.yaml -- ${EX}/array_list/array_list-fixed)
racegate_e2e(lost_update_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "w[12] +tid [0-9]+ +blocked: waits for mutex 'counter_lock', held by w[12]"
  "wait-for chain: .*w[12] holds mutex 'counter_lock' \\(lost_update.c:23\\) and is held at gate w[12]-store waiting for w[12]-loaded. .*nothing else can open w[12]-loaded"
  "w[12]-store +held: waiting for w[12]-loaded" "!REPRODUCED"
  -- ${RG} run ${EX}/lost_update/gates.yaml -- ${EX}/lost_update/lost_update-fixed)

# The examples written for racegate explore (docs/explore.md): a missed
# `while` around a condition wait, a check-then-act that needs two
# preemptions, a lock cycle of three threads.
foreach(ex job_queue busy_flag payment_ring)
  racegate_e2e(${ex}_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
    -- ${RG} run --repeat 100 ${EX}/${ex}/gates.yaml)
endforeach()
# worker 1 looks again, waits again, and the jobs are done
racegate_e2e(job_queue_fixed_not_reproduced 1 "NOT-REPRODUCED: expected SIGSEGV, got exit 0"
  "w1-waits-again +opened w1-woke" "!SCHEDULE-DEADLOCK"
  -- ${RG} run ${EX}/job_queue/gates.yaml -- ${EX}/job_queue/job_queue-fixed)
# worker 2's trylock fails while worker 1 is held: it never gets inside
racegate_e2e(busy_flag_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "only worker_2 .* can open w2-inside, and it has exited" "!REPRODUCED"
  -- ${RG} run ${EX}/busy_flag/gates.yaml -- ${EX}/busy_flag/busy_flag-fixed)
# the third payment blocks on a lock the first one holds at the barrier
racegate_e2e(payment_ring_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "blocked: waits for mutex .*, held by settle#[123]" "!REPRODUCED"
  -- ${RG} run ${EX}/payment_ring/gates.yaml -- ${EX}/payment_ring/payment_ring-fixed)

# A pre-fork server: the gates name the worker child's threads
# (process: {nth: 1}), which makes racegate follow the fork.
racegate_e2e(prefork_slots_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${EX}/prefork_slots/gates.yaml)
racegate_e2e(prefork_slots_timeline 0 "killed by signal 6" "REPRODUCED"
  "h[12] +tid [0-9]+ +prefork_slots.c:41 +h[12]-mark +held: waiting for h[12]-looked"
  -- ${RG} run ${EX}/prefork_slots/gates.yaml)
# the fix: whichever handler takes the lock first is held inside it
racegate_e2e(prefork_slots_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "blocked: waits for mutex 'slots_lock', held by h[12]" "!REPRODUCED"
  -- ${RG} run ${EX}/prefork_slots/gates.yaml -- ${EX}/prefork_slots/prefork_slots-fixed)

# A spin-and-yield lock: the buggy program reproduces; on the fix the gated
# order cannot happen, but the thread it waits for spins, not blocks: the
# file's timeout, with the spinner named
racegate_e2e(ticket_lock_reproduces_50_of_50 0 "50 runs: 50 REPRODUCED$"
  -- ${RG} run --repeat 50 ${EX}/ticket_lock/gates.yaml)
racegate_e2e(ticket_lock_fixed_times_out 3 "TIMEOUT"
  "wait-for chain: .*b[12] is (held at gate b[12]-check|running in ticket_lock).*b[12] is (held at gate b[12]-check|running in ticket_lock)"
  "!REPRODUCED"
  -- ${RG} run ${EX}/ticket_lock/gates.yaml -- ${EX}/ticket_lock/ticket_lock-fixed)
# A crash while main is inside exit(): main is held at log_close's return
racegate_e2e(exit_flush_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${EX}/exit_flush/gates.yaml)
racegate_e2e(exit_flush_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "wait-for chain: main waits for f to exit .*f is held at gate flusher-checks waiting for log-closed"
  "!REPRODUCED"
  -- ${RG} run ${EX}/exit_flush/gates.yaml -- ${EX}/exit_flush/exit_flush-fixed)

# A memcached-shaped server: two workers lose an INCR
racegate_e2e(mc_workers_reproduces_20_of_20 0 "20 runs: 20 REPRODUCED$"
  -- ${RG} run --repeat 20 ${EX}/mc_workers/gates.yaml)
racegate_e2e(mc_workers_fixed_order_impossible 3 "SCHEDULE-DEADLOCK"
  "w[12] .*held at .*waiting for 'w[12]-read'.*blocked in pthread_mutex_lock on mutex 'cache_lock' owned by w[12]"
  "!REPRODUCED"
  -- ${RG} run ${EX}/mc_workers/gates.yaml -- ${EX}/mc_workers/mc_workers-fixed --drive)
