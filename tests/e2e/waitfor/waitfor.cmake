# Verdicts from the wait-for graph: threads that wait only on each other are
# stuck whatever the other threads (an event loop, a napping housekeeper)
# do.  Outcomes and diagnosis lines are asserted, never durations; each
# spec's timeout is far longer than a verdict takes, so TIMEOUT means the
# graph missed it.
foreach(prog abba_poll bystanders pshared join_held)
  racegate_e2e_program(${prog} SOURCES ${prog}.c SPECS ${prog}.yaml)
endforeach()

# (Patterns say ". " for the "; " of the chain, from when racegate_e2e split
# a pattern at a ';'; it passes each whole now.
# A bystander may be caught between two sleeps: "running" is as good.)
# Two mutexes taken in opposite orders, no gate holding, a poller and a
# napper running: DEADLOCK (as the spec expects), not TIMEOUT.
racegate_e2e(waitfor_mutex_cycle_beside_poller 0
  "REPRODUCED: the program deadlocked, as expected"
  "poller#1 +tid [0-9]+ +(sleeping in poll|running)"
  "forward +tid [0-9]+ +blocked: waits for mutex 'lock_b', held by backward"
  "backward +tid [0-9]+ +blocked: waits for mutex 'lock_a', held by forward"
  "wait-for chain: forward \\(tid [0-9]+\\) is blocked in pthread_mutex_lock on mutex 'lock_b' owned by backward \\(tid [0-9]+\\). backward is blocked in pthread_mutex_lock on mutex 'lock_a' owned by forward. main \\(tid [0-9]+\\) is blocked in pthread_join waiting for forward to exit"
  "!TIMEOUT"
  -- ${RG} run ${E2E_DIR}/abba_poll.yaml)

# A held thread whose only opener joins it, a napper beside: the cycle goes
# through pthread_join.
racegate_e2e(waitfor_join_cycle_beside_napper 3 "SCHEDULE-DEADLOCK"
  "napper#1 +tid [0-9]+ +(sleeping in|running)"
  "waiter +tid [0-9]+ +held at gate 'wait-go': waiting for go"
  "wait-for chain: waiter \\(tid [0-9]+\\) held at join_held.c:[0-9]+ waiting for 'go', which only main \\(tid [0-9]+\\) opens. main is blocked in pthread_join waiting for waiter to exit$"
  "!TIMEOUT" -- ${RG} run ${E2E_DIR}/join_held.yaml)

# The other way round: a mutex whose owner naps and a condition a napping
# thread will signal are waits that end; the held thread's opener is one of
# them.  No verdict: PASSED.
racegate_e2e(waitfor_no_verdict_for_waits_that_end 0 "freed_seen=1" "PASSED"
  "wait-freed +released after" "!DEADLOCK" "!INFEASIBLE"
  -- ${RG} run ${E2E_DIR}/bystanders.yaml)

# A mutex owned by another process's thread (process-shared, a forked
# child naps holding it) is no thread of the program, but not a gone one:
# it may let go, so no DEADLOCK.
racegate_e2e(waitfor_no_verdict_for_other_process_owner 0 "unlocked by the child"
  "PASSED" "!DEADLOCK" -- ${RG} run ${E2E_DIR}/pshared.yaml)

# examples/kv_server: a real server (epoll loop with a timeout, a sleeper,
# a thread per client) with memcached's incr/delete race.  The buggy server
# reproduces every time; the regex spans lines (expect: multiline: true).
set(KV ${EXAMPLES}/kv_server)
racegate_e2e(kv_server_reproduces_100_of_100 0 "100 runs: 100 REPRODUCED$"
  -- ${RG} run --repeat 100 ${KV}/gates.yaml)
racegate_e2e(kv_server_timeline 0 "DEL k -> DELETED" "GET k -> VALUE k 42"
  "REPRODUCED: exit 1"
  "incr +tid [0-9]+ +kv_server.c:[0-9]+ +incr-checked +held: waiting for deleted"
  "deleter +tid [0-9]+ +kv_server.c:[0-9]+ +del-replied +opened deleted"
  "incr +tid [0-9]+ +kv_server.c:[0-9]+ +incr-checked +released after"
  -- ${RG} run ${KV}/gates.yaml)
# The fix checks and acts under one hold of the table lock: the held INCR
# owns the lock the DEL needs.  The event loop and the sleeper keep waking,
# yet the verdict comes from the cycle: ORDER-INFEASIBLE every time (not
# TIMEOUT), and with on_deadlock: fail, SCHEDULE-DEADLOCK with the cycle.
racegate_e2e(kv_server_fixed_infeasible_100_of_100 0 "100 runs: 100 ORDER-INFEASIBLE$"
  -- ${RG} run --repeat 100 --on-deadlock release ${KV}/gates.yaml
     -- ${KV}/kv_server-fixed --drive)
racegate_e2e(kv_server_fixed_cycle 3 "SCHEDULE-DEADLOCK"
  "main +tid [0-9]+ +(sleeping in epoll_wait|running)"
  "sleeper#1 +tid [0-9]+ +(sleeping in clock_nanosleep|running)"
  "incr +tid [0-9]+ +held at gate 'incr-checked': waiting for deleted"
  "deleter +tid [0-9]+ +blocked: waits for mutex 'table_lock', held by incr"
  "wait-for chain: incr \\(tid [0-9]+\\) held at kv_server.c:[0-9]+ waiting for 'deleted', which only deleter \\(tid [0-9]+\\) opens. deleter is blocked in pthread_mutex_lock on mutex 'table_lock' owned by incr$"
  "!TIMEOUT"
  -- ${RG} run ${KV}/gates.yaml -- ${KV}/kv_server-fixed --drive)
