# The "blocked for ever" decision (tracer/blocked.c) on poll, epoll and
# select with no timeout: stuck when only the program holds the pipe, not
# when a child process may write it.  Outcomes are asserted, never durations.
racegate_e2e_program(stall_poll SOURCES stall_poll.c SPECS stall_poll.yaml)

foreach(m poll epoll select)
  racegate_e2e(blocked_${m}_own_pipe 3 "SCHEDULE-DEADLOCK"
    "main +tid [0-9]+ +blocked: [a-z_0-9]+ with no timeout"
    -- ${RG} run ${E2E_DIR}/stall_poll.yaml -- ${E2E_DIR}/stall_poll ${m})
endforeach()
racegate_e2e(blocked_poll_child_writes 0 "worker sees got=1" "PASSED" "!DEADLOCK"
  -- ${RG} run ${E2E_DIR}/stall_poll.yaml -- ${E2E_DIR}/stall_poll pollchild)
