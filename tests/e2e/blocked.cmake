# The "blocked for ever" decision (tracer/blocked.c) on poll, epoll and
# select with no timeout: stuck when only the program holds the pipe, not
# when a child process may write it.  Outcomes are asserted, never durations.
add_executable(e2e_stall_poll e2e/programs/stall_poll.c)
target_compile_options(e2e_stall_poll PRIVATE -O0 -g)
target_link_libraries(e2e_stall_poll PRIVATE Threads::Threads)
set_target_properties(e2e_stall_poll PROPERTIES OUTPUT_NAME stall_poll
                      RUNTIME_OUTPUT_DIRECTORY ${E2E_DIR})
configure_file(e2e/specs/stall_poll.yaml ${E2E_DIR}/stall_poll.yaml COPYONLY)

foreach(m poll epoll select)
  racegate_e2e(blocked_${m}_own_pipe 3 "SCHEDULE-DEADLOCK"
    "main +tid [0-9]+ +blocked: [a-z_0-9]+ with no timeout"
    -- ${RG} run ${E2E_DIR}/stall_poll.yaml -- ${E2E_DIR}/stall_poll ${m})
endforeach()
racegate_e2e(blocked_poll_child_writes 0 "worker sees got=1" "PASSED" "!DEADLOCK"
  -- ${RG} run ${E2E_DIR}/stall_poll.yaml -- ${E2E_DIR}/stall_poll pollchild)
